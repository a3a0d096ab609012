// What discovery last said about a resource's scope and kind, per tab (sessionStorage), so that
// a reload or a shared link of a list asks for its first chunk at once instead of after discovery
// (kubectl keeps a discovery cache on disk for the same reason). Discovery is still asked for
// every time and has the last word: when it disagrees, the view starts the list again as
// discovery says. Pure apart from the Storage it is handed.

export interface CachedScope {
  namespaced: boolean;
  kind: string;
}

const KEY = 'kube-api-explorer.lists.scope';
/** Entries kept; the oldest are dropped past it. */
const MAX_ENTRIES = 200;

function keyOf(context: string, group: string, version: string, resource: string): string {
  return `${context}\u0000${group}/${version}/${resource}`;
}

function readAll(storage: Storage): [string, CachedScope][] {
  try {
    const v: unknown = JSON.parse(storage.getItem(KEY) ?? '[]');
    if (!Array.isArray(v)) return [];
    return v.filter(
      (e): e is [string, CachedScope] =>
        Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'object' && e[1] !== null && typeof (e[1] as CachedScope).namespaced === 'boolean' && typeof (e[1] as CachedScope).kind === 'string',
    );
  } catch {
    return [];
  }
}

export function readScope(storage: Storage | undefined, context: string, group: string | undefined, version: string | undefined, resource: string | undefined): CachedScope | undefined {
  if (!storage || group === undefined || !version || !resource) return undefined;
  const key = keyOf(context, group, version, resource);
  return readAll(storage).find(([k]) => k === key)?.[1];
}

export function writeScope(storage: Storage | undefined, context: string, group: string, version: string, resource: string, scope: CachedScope): void {
  if (!storage) return;
  const key = keyOf(context, group, version, resource);
  const entries = readAll(storage).filter(([k]) => k !== key);
  entries.push([key, { namespaced: scope.namespaced, kind: scope.kind }]);
  try {
    storage.setItem(KEY, JSON.stringify(entries.slice(-MAX_ENTRIES)));
  } catch {
    // A full or disabled storage only costs the head start.
  }
}

/** The tab's sessionStorage, or undefined where there is none (or it may not be used). */
export function sessionStore(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined;
  }
}

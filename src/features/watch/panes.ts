// The watch view's panes live in the URL (like all view state): `panes` holds a JSON array of
// pane configurations, so a set of watches can be bookmarked, reloaded and shared.
import { DEFAULT_OBJECT_BYTES, type StartMode, type WatchSpec } from '../../k8s/watch';
import type { WatchEventType } from '../../k8s/watch';

export interface PaneConfig {
  id: string;
  group: string;
  version: string;
  resource: string;
  namespace?: string;
  name?: string;
  labelSelector?: string;
  fieldSelector?: string;
  mode: StartMode;
  resourceVersion?: string;
  bookmarks: boolean;
  timeoutSeconds?: number;
  asTable: boolean;
  /**
   * 'protobuf': the watch asks for Protobuf events (then never as=Table: the server serves Tables
   * as JSON only). Absent: JSON.
   */
  encoding?: 'protobuf';
  /** Timeline capacity. */
  max: number;
  /**
   * Budget for whole objects (object view, diff), in MiB of wire bytes; DEFAULT_OBJECT_MIB when
   * absent. Every object keeps its row in the state table whatever it is.
   */
  objectMiB?: number;
  /** Timeline filter: the event types shown (all when absent) and a name substring. */
  types?: WatchEventType[];
  q?: string;
}

export const PANES_KEY = 'panes';
export const DEFAULT_MAX_EVENTS = 2000;
/** The watch engine's default budget for whole objects, in MiB (DEFAULT_OBJECT_BYTES). */
export const DEFAULT_OBJECT_MIB = DEFAULT_OBJECT_BYTES / 1024 / 1024;

/** A pane's budget for whole objects, in bytes. */
export function objectBudgetBytes(p: Pick<PaneConfig, 'objectMiB'>): number {
  return Math.round((p.objectMiB ?? DEFAULT_OBJECT_MIB) * 1024 * 1024);
}
const MODES: StartMode[] = ['list-watch', 'stream', 'watch-unset', 'watch-0', 'watch-exact'];

export function parsePanes(text: string | undefined): PaneConfig[] {
  if (!text) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(raw)) return [];
  const out: PaneConfig[] = [];
  const ids = new Set<string>();
  for (const [i, r] of (raw as Record<string, unknown>[]).entries()) {
    if (typeof r !== 'object' || r === null || typeof r.resource !== 'string' || typeof r.version !== 'string') continue;
    const str = (k: string) => (typeof r[k] === 'string' && r[k] !== '' ? (r[k] as string) : undefined);
    // A stable id for a hand-written URL without one (it keys the pane's session); a pane copied
    // in the URL with its id gets one of its own, or closing or editing one pane would close or
    // overwrite the other as well.
    let id = str('id') ?? `pane-${i}`;
    while (ids.has(id)) id = `${id}-${i}`;
    ids.add(id);
    out.push({
      id,
      group: typeof r.group === 'string' ? r.group : '',
      version: r.version,
      resource: r.resource,
      namespace: str('namespace'),
      name: str('name'),
      labelSelector: str('labelSelector'),
      fieldSelector: str('fieldSelector'),
      mode: MODES.includes(r.mode as StartMode) ? (r.mode as StartMode) : 'list-watch',
      resourceVersion: str('resourceVersion'),
      bookmarks: r.bookmarks !== false,
      timeoutSeconds: typeof r.timeoutSeconds === 'number' && r.timeoutSeconds > 0 ? r.timeoutSeconds : undefined,
      // Protobuf and Table rows exclude each other (no Protobuf Table): Protobuf wins, as asked last in the form.
      asTable: r.asTable === true && r.encoding !== 'protobuf',
      ...(r.encoding === 'protobuf' ? { encoding: 'protobuf' as const } : {}),
      max: typeof r.max === 'number' && r.max >= 1 ? Math.floor(r.max) : DEFAULT_MAX_EVENTS,
      objectMiB: typeof r.objectMiB === 'number' && r.objectMiB >= 0 ? r.objectMiB : undefined,
      types: Array.isArray(r.types) ? (r.types as WatchEventType[]) : undefined,
      q: str('q'),
    });
  }
  return out;
}

export function serializePanes(panes: PaneConfig[]): string {
  return panes.length ? JSON.stringify(panes) : '';
}

export function specOf(context: string, p: PaneConfig): WatchSpec {
  return {
    context,
    group: p.group,
    version: p.version,
    resource: p.resource,
    namespace: p.namespace,
    name: p.name,
    labelSelector: p.labelSelector,
    fieldSelector: p.fieldSelector,
    mode: p.mode,
    resourceVersion: p.resourceVersion,
    bookmarks: p.mode === 'stream' ? true : p.bookmarks,
    timeoutSeconds: p.timeoutSeconds,
    asTable: p.asTable && p.encoding !== 'protobuf',
    ...(p.encoding === 'protobuf' ? { encoding: 'protobuf' as const } : {}),
  };
}

/** What restarts a pane's session when it changes (filters and capacity do not). */
export function sessionKey(context: string, p: PaneConfig): string {
  return JSON.stringify(specOf(context, p));
}

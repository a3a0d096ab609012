// All view state lives in the URL's query string, so that any view can be bookmarked, reloaded
// and shared. One parser, one serializer; features read and update the keys they own.
import { useSyncExternalStore } from 'react';

// In the navigation's order: Welcome, the default view, first.
export const VIEWS = ['welcome', 'discovery', 'console', 'lists', 'watch', 'edit', 'ownership', 'lessons', 'encodings', 'serving'] as const;
export type View = (typeof VIEWS)[number];

/**
 * Keys the shell knows. Features may add their own keys (e.g. `q.*` for the console's query);
 * unknown keys are kept as they are.
 */
export interface Route {
  context?: string;
  view: View;
  namespace?: string;
  /** API group ('' for the core group), version and resource (plural). */
  group?: string;
  version?: string;
  resource?: string;
  name?: string;
  /** Everything else in the query string. */
  extra: Record<string, string>;
}

const KNOWN = ['context', 'view', 'namespace', 'group', 'version', 'resource', 'name'] as const;

export function parseRoute(search: string): Route {
  const p = new URLSearchParams(search);
  const view = p.get('view');
  const extra: Record<string, string> = {};
  for (const [k, v] of p) if (!(KNOWN as readonly string[]).includes(k)) extra[k] = v;
  const opt = (k: string) => p.get(k) ?? undefined;
  return {
    context: opt('context'),
    // No view (or an unknown one): the first screen.
    view: (VIEWS as readonly string[]).includes(view ?? '') ? (view as View) : 'welcome',
    namespace: opt('namespace'),
    group: p.has('group') ? (p.get('group') ?? '') : undefined,
    version: opt('version'),
    resource: opt('resource'),
    name: opt('name'),
    extra,
  };
}

export function serializeRoute(r: Route): string {
  const p = new URLSearchParams();
  if (r.context) p.set('context', r.context);
  p.set('view', r.view);
  if (r.namespace) p.set('namespace', r.namespace);
  if (r.group !== undefined) p.set('group', r.group);
  if (r.version) p.set('version', r.version);
  if (r.resource) p.set('resource', r.resource);
  if (r.name) p.set('name', r.name);
  for (const [k, v] of Object.entries(r.extra)) if (v !== '') p.set(k, v);
  return `?${p.toString()}`;
}

const listeners = new Set<() => void>();
let current = typeof location === 'undefined' ? '' : location.search;

function emit(): void {
  current = location.search;
  for (const l of listeners) l();
}

if (typeof window !== 'undefined') window.addEventListener('popstate', emit);

/** Changes the route. `replace` for changes that should not make a Back step (typing in a filter). */
export function navigate(next: Partial<Route> & { extra?: Record<string, string> }, opts: { replace?: boolean; keepExtra?: boolean } = {}): void {
  const base = parseRoute(location.search);
  const merged: Route = { ...base, ...next, extra: opts.keepExtra === false ? (next.extra ?? {}) : { ...base.extra, ...(next.extra ?? {}) } };
  const url = `${location.pathname}${serializeRoute(merged)}`;
  if (opts.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  emit();
}

/** Builds a link to a route (for <a href>), so that middle-click and copy-link work. */
export function hrefFor(next: Partial<Route> & { extra?: Record<string, string> }, keepExtra = false): string {
  const base = parseRoute(location.search);
  return serializeRoute({ ...base, ...next, extra: keepExtra ? { ...base.extra, ...(next.extra ?? {}) } : (next.extra ?? {}) });
}

export function useRoute(): Route {
  const search = useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => current,
    () => current,
  );
  return parseRoute(search);
}

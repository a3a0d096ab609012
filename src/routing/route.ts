// All view state lives in the URL's query string, so that any view can be bookmarked, reloaded
// and shared. One parser, one serializer; features read and update the keys they own.
import { useSyncExternalStore } from 'react';
import { Listeners } from '../lib/listeners';

// In the navigation's order: Welcome, the default view, first.
export const VIEWS = ['welcome', 'discovery', 'console', 'lists', 'watch', 'edit', 'ownership', 'lessons', 'encodings', 'serving', 'clients'] as const;
export type View = (typeof VIEWS)[number];

/**
 * Keys the shell knows. Features may add their own keys (e.g. `q.*` for the console's query);
 * unknown keys are kept as they are.
 */
export interface Route {
  context?: string;
  view: View;
  namespace?: string;
  /**
   * All namespaces chosen on purpose (`namespace=*`). A link with a context and no namespace at all
   * opens in the context's own namespace from the kubeconfig, as kubectl does (app/Shell.tsx), so
   * "all namespaces" needs a spelling of its own.
   */
  allNamespaces?: boolean;
  /** API group ('' for the core group), version and resource (plural). */
  group?: string;
  version?: string;
  resource?: string;
  name?: string;
  /** Everything else in the query string. */
  extra: Record<string, string>;
}

/** The URL's spelling of "all namespaces" (no namespace name may contain `*`). */
export const ALL_NAMESPACES = '*';

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
    namespace: p.get('namespace') === ALL_NAMESPACES ? undefined : opt('namespace'),
    ...(p.get('namespace') === ALL_NAMESPACES ? { allNamespaces: true } : {}),
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
  else if (r.allNamespaces) p.set('namespace', ALL_NAMESPACES);
  if (r.group !== undefined) p.set('group', r.group);
  if (r.version) p.set('version', r.version);
  if (r.resource) p.set('resource', r.resource);
  if (r.name) p.set('name', r.name);
  for (const [k, v] of Object.entries(r.extra)) if (v !== '') p.set(k, v);
  return `?${p.toString()}`;
}

const listeners = new Listeners();
let current = typeof location === 'undefined' ? '' : location.search;

function emit(): void {
  current = location.search;
  listeners.emit();
}

if (typeof window !== 'undefined') window.addEventListener('popstate', emit);

/**
 * Whether a route change means all namespaces: a change that names no namespace (`namespace:
 * undefined`: the picker's "All namespaces", an emptied field) means all of them unless it says
 * otherwise (`allNamespaces: false`: the context's own namespace, as for a link naming the context only).
 */
export function allNamespacesAfter(base: Route, next: Partial<Route>): boolean | undefined {
  if (next.allNamespaces !== undefined) return next.allNamespaces;
  return 'namespace' in next ? next.namespace === undefined : base.allNamespaces;
}

/**
 * The namespace a route opens in when it names a context but neither a namespace nor all of them:
 * the context's own from the kubeconfig, as kubectl uses it; undefined when there is nothing to fill.
 */
export function contextNamespaceFor(route: Route, contextNamespace: string | undefined): string | undefined {
  return route.context && !route.namespace && !route.allNamespaces ? contextNamespace || undefined : undefined;
}

/** Changes the route. `replace` for changes that should not make a Back step (typing in a filter). */
export function navigate(next: Partial<Route> & { extra?: Record<string, string> }, opts: { replace?: boolean; keepExtra?: boolean } = {}): void {
  const base = parseRoute(location.search);
  const merged: Route = { ...base, ...next, allNamespaces: allNamespacesAfter(base, next), extra: opts.keepExtra === false ? (next.extra ?? {}) : { ...base.extra, ...(next.extra ?? {}) } };
  const url = `${location.pathname}${serializeRoute(merged)}`;
  if (opts.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  emit();
}

/** Builds a link to a route (for <a href>), so that middle-click and copy-link work. */
export function hrefFor(next: Partial<Route> & { extra?: Record<string, string> }, keepExtra = false): string {
  const base = parseRoute(location.search);
  return serializeRoute({ ...base, ...next, allNamespaces: allNamespacesAfter(base, next), extra: keepExtra ? { ...base.extra, ...(next.extra ?? {}) } : (next.extra ?? {}) });
}

/**
 * Whether a click on this link should change the route in place instead of loading the page again:
 * a plain left click on a link to this page with a query. A full load would end a recording in
 * progress (it lives in the page's memory) and every open watch. Everything a browser does with a
 * link besides following it stays as it is: middle click, Ctrl/Cmd/Shift/Alt click (a new tab or
 * window, a download), `target`, `download`, links to another origin or path, a bare `#fragment`,
 * and `?replay=` links, which open a recording at boot (app/main.tsx).
 */
export function inAppTarget(e: Pick<MouseEvent, 'button' | 'metaKey' | 'ctrlKey' | 'shiftKey' | 'altKey' | 'defaultPrevented'>, a: { href: string; target: string; hasDownload: boolean }, here: { origin: string; pathname: string }): string | undefined {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return undefined;
  if ((a.target && a.target !== '_self') || a.hasDownload) return undefined;
  let url: URL;
  try {
    url = new URL(a.href, `${here.origin}${here.pathname}`);
  } catch {
    return undefined;
  }
  if (url.origin !== here.origin || url.pathname !== here.pathname || url.search === '' || url.searchParams.has('replay')) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Follows in place every in-app link of the document (see `inAppTarget`); returns the uninstaller. */
export function followInAppLinks(doc: Document): () => void {
  const onClick = (e: MouseEvent) => {
    const a = e.target instanceof Element ? e.target.closest('a[href]') : null;
    if (!(a instanceof HTMLAnchorElement)) return;
    const to = inAppTarget(e, { href: a.href, target: a.target, hasDownload: a.hasAttribute('download') }, location);
    if (to === undefined) return;
    e.preventDefault();
    history.pushState(null, '', to);
    emit();
    // A fragment names where to go within the view (a step, a section) once it is drawn.
    if (to.includes('#')) setTimeout(() => doc.getElementById(decodeURIComponent(to.slice(to.indexOf('#') + 1)))?.scrollIntoView(), 0);
  };
  doc.addEventListener('click', onClick);
  return () => doc.removeEventListener('click', onClick);
}

export function useRoute(): Route {
  const search = useSyncExternalStore(
    listeners.subscribe,
    () => current,
    () => current,
  );
  return parseRoute(search);
}

// What the Lists view asks the server for, from its route: one pure function, shared by the view
// and by the boot head start (boot.ts), so that both build the very same request.
import type { ListMode, PagerRequest } from '../../k8s/lists';
import type { Route } from '../../routing';

export const DEFAULT_LIMIT = 500;

export function parseLimit(s: string | undefined): number | undefined {
  if (s === undefined) return DEFAULT_LIMIT;
  if (s === '0' || s === 'none') return undefined;
  const n = Number(s);
  return Number.isInteger(n) && n > 0 ? n : DEFAULT_LIMIT;
}

export function listModeOf(route: Route): ListMode {
  const m = route.extra.mode;
  return m === 'metadata' || m === 'full' ? m : 'table';
}

/** The namespace the list itself is scoped to (an object opened from an all-namespaces list keeps the list across all). */
export function listNamespaceOf(route: Route): string | undefined {
  return route.extra.listScope === 'all' && route.name ? undefined : route.namespace;
}

/** The chunked list the route asks for, once the resource's scope is known; null when the route names no resource. */
export function pagerRequestFor(route: Route, context: string, namespaced: boolean): PagerRequest | null {
  if (route.group === undefined || !route.version || !route.resource) return null;
  const namespace = namespaced ? listNamespaceOf(route) : undefined;
  return {
    context,
    ref: { group: route.group, version: route.version, resource: route.resource, namespace },
    mode: listModeOf(route),
    limit: parseLimit(route.extra.limit),
    labelSelector: route.extra.labelSelector || undefined,
    fieldSelector: route.extra.fieldSelector || undefined,
    // A Table row has no namespace column: across namespaces we need each object's metadata for
    // it (and drop the rest at once); otherwise cells are all we keep.
    includeObject: namespaced && !namespace ? 'Metadata' : 'None',
  };
}

/** Equal keys, equal requests (the object is built in one order, above). */
export function requestKey(r: PagerRequest): string {
  return JSON.stringify(r);
}

/** How many chunks the user loaded with "Next page" (`pages=`): a reload loads as many again. */
export function pagesOf(route: Route): number {
  const n = Math.floor(Number(route.extra.pages));
  return Number.isFinite(n) && n > 1 ? n : 1;
}

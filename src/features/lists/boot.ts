// The head start of a Lists URL (a reload, a shared link): its first chunk is asked for at boot,
// from main.tsx, before React's first render, and the view adopts that pager when it mounts.
// In the Lists bench's waterfall the view's own first request went out about 130 ms after
// discovery had answered, the time it took the page to evaluate the shell and render it: the
// whole of that is the user's wait for the first row, and with load=all for every row after.
// The request is the one the view would send for this URL (pagerRequestFor), shown in the view's
// pages panel like any other; nothing is sent that the view would not send.
import type { Discovery } from '../../k8s/discovery';
import { findResource } from '../../k8s/discovery';
import { ListPager, type PagerRequest } from '../../k8s/lists';
import type { Route } from '../../routing';
import { pagerRequestFor, pagesOf, requestKey } from './listRequest';
import { readScope, sessionStore } from './scopeCache';

let slot: { key: string; pager: ListPager } | undefined;
/** Once the view has chosen its list, the boot starts nothing more (it would be a second request). */
let closed = false;

/**
 * Starts the URL's list now: at once when this tab knows the resource's scope (scopeCache),
 * otherwise when the boot's discovery answers, unless the view has taken over by then.
 */
export function bootList(route: Route, context: string, discovery: Promise<Discovery>): void {
  const start = (namespaced: boolean) => {
    const request = pagerRequestFor(route, context, namespaced);
    if (closed || !request) return;
    const pager = new ListPager(request);
    void pager.start({ all: route.extra.load === 'all', pages: pagesOf(route) });
    slot = { key: requestKey(request), pager };
  };
  const cached = readScope(sessionStore(), context, route.group, route.version, route.resource);
  if (cached) return start(cached.namespaced);
  discovery.then(
    (d) => {
      const api = findResource(d, route.group, route.version, route.resource);
      if (api) start(api.namespaced);
    },
    () => undefined,
  );
}

/**
 * The pager the boot started for this very request, while it runs; undefined otherwise. Asking
 * closes the boot. The same pager is handed out again until disposed (React's StrictMode renders
 * twice), never one for another request.
 */
export function claimBootPager(request: PagerRequest): ListPager | undefined {
  closed = true;
  if (slot && slot.key === requestKey(request) && slot.pager.running) return slot.pager;
  slot = undefined;
  return undefined;
}

/** For tests: back to a fresh page's state. */
export function resetBoot(): void {
  slot?.pager.dispose();
  slot = undefined;
  closed = false;
}

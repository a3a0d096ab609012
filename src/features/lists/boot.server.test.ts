// The boot head start of a Lists URL against the real server: the view adopts the very pager the
// boot started (no second request), and never one for another list.
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from '../../../proxy/cluster/cluster.testkit';
import { fetchDiscovery } from '../../k8s/discovery';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { parseRoute } from '../../routing';
import { bootList, claimBootPager, resetBoot } from './boot';
import { pagerRequestFor } from './listRequest';

const cluster = testCluster(inject('controlPlane'));
const ns = `boot-${randomBytes(3).toString('hex')}`;
const routeOf = (extra: Record<string, string> = {}) =>
  parseRoute(`?${new URLSearchParams({ context: TEST_CONTEXT, view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps', limit: '2', labelSelector: 'boot=yes', ...extra })}`);

beforeAll(async () => {
  useRealProxy();
  await cluster.request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
  for (let i = 0; i < 5; i++) await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}`, labels: { boot: 'yes' } } });
});
afterEach(() => resetBoot());
afterAll(async () => {
  await cluster.request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

describe('bootList', () => {
  it('starts the URL’s list once discovery answers, and the view adopts that pager while it loads all', async () => {
    const route = routeOf({ load: 'all' });
    const discovery = fetchDiscovery(TEST_CONTEXT);
    bootList(route, TEST_CONTEXT, discovery);
    await discovery;
    const request = pagerRequestFor(route, TEST_CONTEXT, true)!;
    const pager = claimBootPager(request);
    expect(pager?.running).toBe(true);
    // React's StrictMode renders twice: the second render gets the same pager, not a new list.
    expect(claimBootPager(request)).toBe(pager);
    await expect.poll(() => pager!.getSnapshot().done).toBe(true);
    expect(pager!.getSnapshot().pages.map((p) => p.items)).toEqual([2, 2, 1]);
    pager!.dispose();
    // Disposed (the view unmounted): a later view starts a list of its own.
    expect(claimBootPager(request)).toBeUndefined();
  });

  it('a view that asks for another list gets no pager, and the boot’s list is dropped', async () => {
    const route = routeOf();
    const discovery = fetchDiscovery(TEST_CONTEXT);
    bootList(route, TEST_CONTEXT, discovery);
    await discovery;
    const other = pagerRequestFor(routeOf({ limit: '3' }), TEST_CONTEXT, true)!;
    expect(claimBootPager(other)).toBeUndefined();
    expect(claimBootPager(pagerRequestFor(route, TEST_CONTEXT, true)!)).toBeUndefined();
  });

  it('once the view has chosen its list, a discovery answering late starts nothing', async () => {
    const route = routeOf();
    let answer!: (d: Awaited<ReturnType<typeof fetchDiscovery>>) => void;
    bootList(route, TEST_CONTEXT, new Promise((r) => (answer = r)));
    const request = pagerRequestFor(route, TEST_CONTEXT, true)!;
    expect(claimBootPager(request)).toBeUndefined();
    answer(await fetchDiscovery(TEST_CONTEXT));
    await new Promise((r) => setTimeout(r, 50));
    expect(claimBootPager(request)).toBeUndefined();
  });
});

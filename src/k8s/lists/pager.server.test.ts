// ListPager against the real local control plane, through the real proxy.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from '../../../proxy/cluster/cluster.testkit';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { LOAD_ALL_NOTIFY_MS, ListPager } from './pager';

const cluster = testCluster(inject('controlPlane'));
const ns = `pager-${randomBytes(3).toString('hex')}`;
const ref = { group: '', version: 'v1', resource: 'configmaps', namespace: ns };

beforeAll(async () => {
  useRealProxy();
  await cluster.request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
  for (let i = 0; i < 12; i++) await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${String(i).padStart(2, '0')}`, labels: { pager: 'yes' } } });
});

afterAll(async () => {
  await cluster.request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

describe('ListPager', () => {
  it('starts again with as many chunks as were loaded (a reload of page 2 of 3 shows two pages, not one)', async () => {
    const pager = new ListPager({ context: TEST_CONTEXT, ref, mode: 'table', limit: 5, labelSelector: 'pager=yes', includeObject: 'None' });
    const settled = new Promise<void>((resolve) => pager.subscribe(() => pager.getSnapshot().pages.length === 2 && !pager.getSnapshot().loading && resolve()));
    await pager.start({ pages: 2 });
    await settled;
    expect(pager.getSnapshot().pages.map((p) => p.items)).toEqual([5, 5]);
    expect(pager.getSnapshot().done).toBe(false);
    pager.dispose();
  });

  it('loads every chunk once, in order, keeping each page ListMeta', async () => {
    const pager = new ListPager({ context: TEST_CONTEXT, ref, mode: 'table', limit: 5, labelSelector: 'pager=yes', includeObject: 'None' });
    const seen: number[] = [];
    pager.subscribe(() => seen.push(pager.getSnapshot().rowCount));
    await pager.start();
    // Asking for the next chunk while one is on its way must not fetch it twice.
    const a = pager.next();
    const b = pager.loadAll();
    await Promise.all([a, b]);
    const snap = pager.getSnapshot();
    expect(snap.pages.map((p) => p.items)).toEqual([5, 5, 2]);
    expect(snap.rowCount).toBe(12);
    expect(pager.rows.toArray().map((r) => r.name)).toEqual(Array.from({ length: 12 }, (_, i) => `cm-${String(i).padStart(2, '0')}`));
    expect(snap.duplicates).toBe(0);
    expect(snap.done).toBe(true);
    expect(snap.loadingAll).toBe(false);
    expect(new Set(snap.pages.map((p) => p.resourceVersion)).size).toBe(1);
    // With a selector, no page says how many remain.
    expect(snap.pages.every((p) => p.remainingItemCount === undefined)).toBe(true);
    expect(snap.totalBytes).toBe(snap.pages.reduce((n, p) => n + p.bytes, 0));
    // Rows appeared as chunks came (loading all, the view hears at most every LOAD_ALL_NOTIFY_MS,
    // so counts in between may be skipped), never going back, and the end was heard.
    expect(seen).toContain(5);
    expect(seen).toEqual([...seen].sort((x, y) => x - y));
    expect(seen.at(-1)).toBe(12);
  });

  it('loading all, tells the view at most every LOAD_ALL_NOTIFY_MS, and the end at once', async () => {
    const pager = new ListPager({ context: TEST_CONTEXT, ref, mode: 'table', limit: 1, labelSelector: 'pager=yes', includeObject: 'None' });
    const notices: { at: number; rows: number; done: boolean }[] = [];
    pager.subscribe(() => notices.push({ at: performance.now(), rows: pager.getSnapshot().rowCount, done: pager.getSnapshot().done }));
    await pager.start({ all: true });
    await expect.poll(() => pager.getSnapshot().done, { timeout: 30_000 }).toBe(true);
    // The view heard the end: the last notice has every row.
    expect(notices.at(-1)).toMatchObject({ rows: 12, done: true });
    // Twelve chunks of one row each, answered in a few ms each: without the limit, a notice per
    // chunk (and per loading flag) a few ms apart.
    const during = notices.filter((n) => !n.done);
    for (let i = 1; i < during.length; i++) expect(during[i]!.at - during[i - 1]!.at).toBeGreaterThanOrEqual(LOAD_ALL_NOTIFY_MS - 2);
    expect(pager.rows.toArray().map((r) => r.name)).toEqual(Array.from({ length: 12 }, (_, i) => `cm-${String(i).padStart(2, '0')}`));
    pager.dispose();
  });

  it('loading all from the start asks for each chunk exactly once, in order, the next one while the previous is applied', async () => {
    // The real fetch, watched (the proxy and the server answer as ever): for each chunk asked
    // for, its continue token and how many pages the pager had applied by then.
    const realFetch = globalThis.fetch;
    const asked: { token: string; applied: number }[] = [];
    let pager: ListPager | undefined;
    globalThis.fetch = (input, init) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.includes('/configmaps?')) asked.push({ token: new URL(url).searchParams.get('continue') ?? '(first)', applied: pager?.getSnapshot().pages.length ?? -1 });
      return realFetch(input, init);
    };
    try {
      pager = new ListPager({ context: TEST_CONTEXT, ref, mode: 'table', limit: 5, labelSelector: 'pager=yes', includeObject: 'None' });
      await pager.start({ all: true });
      await expect.poll(() => pager!.getSnapshot().done, { timeout: 30_000 }).toBe(true);
      const snap = pager.getSnapshot();
      expect(snap.pages.map((p) => p.items)).toEqual([5, 5, 2]);
      expect(snap.loadingAll).toBe(false);
      expect(snap.loading).toBe(false);
      expect(asked.map((a) => a.token)).toEqual(['(first)', snap.pages[0]!.continue, snap.pages[1]!.continue]);
      // Chunk 2 was asked for before chunk 1 was applied, chunk 3 before chunk 2.
      expect(asked.map((a) => a.applied)).toEqual([0, 0, 1]);
      expect(pager.rows.toArray().map((r) => r.name)).toEqual(Array.from({ length: 12 }, (_, i) => `cm-${String(i).padStart(2, '0')}`));
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('Stop during load all keeps what arrived and drops the chunk asked for ahead; Next page then asks for it again', async () => {
    const pager = new ListPager({ context: TEST_CONTEXT, ref, mode: 'table', limit: 5, labelSelector: 'pager=yes', includeObject: 'None' });
    await pager.start({ all: true });
    pager.stopAll();
    await new Promise((r) => setTimeout(r, 1000));
    expect(pager.getSnapshot().pages).toHaveLength(1);
    expect(pager.getSnapshot().loadingAll).toBe(false);
    expect(pager.getSnapshot().loading).toBe(false);
    await pager.next();
    expect(pager.getSnapshot().pages.map((p) => p.items)).toEqual([5, 5]);
    expect(pager.rows.length).toBe(10);
    expect(pager.getSnapshot().duplicates).toBe(0);
  });

  it('starts again from scratch, dropping what was loaded', async () => {
    const pager = new ListPager({ context: TEST_CONTEXT, ref, mode: 'metadata', limit: 5 });
    await pager.start();
    await pager.next();
    expect(pager.getSnapshot().rowCount).toBe(10);
    await pager.start();
    expect(pager.getSnapshot().pages).toHaveLength(1);
    expect(pager.rows).toHaveLength(5);
  });
});

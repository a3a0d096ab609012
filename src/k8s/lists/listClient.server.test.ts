// Against the real local control plane, through the real proxy.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from '../../../proxy/cluster/cluster.testkit';
import { KubeApiError, kubeFetch } from '../client';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { decodeContinueToken } from './continueToken';
import { fetchListPage, GENERIC_COLUMNS, type ListPage, listMetaFromPrefix, pageFromBody } from './listClient';

const cluster = testCluster(inject('controlPlane'));
const ns = `lists-${randomBytes(3).toString('hex')}`;
const cm = { group: '', version: 'v1', resource: 'configmaps', namespace: ns };

async function must(method: string, path: string, body?: unknown): Promise<void> {
  const r = await cluster.request('admin', method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
}

beforeAll(async () => {
  useRealProxy();
  await must('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  for (let i = 0; i < 24; i++) {
    await must('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${String(i).padStart(2, '0')}`, labels: { app: 'lists' } }, data: { payload: 'x'.repeat(200) } });
  }
  // kube-controller-manager adds kube-root-ca.crt to every namespace, asynchronously: wait for it
  // so the counts below are the namespace's whole content (25).
  for (;;) {
    const r = await cluster.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`);
    if (r.status === 200) break;
    await new Promise((res) => setTimeout(res, 200));
  }
});

afterAll(async () => {
  await cluster.request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

describe('fetchListPage', () => {
  it("tells the next chunk's token from the body's first bytes, in each mode, the same token the page ends with", async () => {
    for (const mode of ['table', 'metadata', 'full'] as const) {
      const heard: string[] = [];
      const page = await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode, limit: 10 }, undefined, (t) => heard.push(t));
      expect(page.metadata.continue, mode).toBeTruthy();
      expect(heard, mode).toEqual([page.metadata.continue]);
    }
    // The last chunk has no token: nothing is heard.
    const first = await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode: 'table', limit: 20 });
    const heard: string[] = [];
    const last = await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode: 'table', limit: 20, continueToken: first.metadata.continue }, undefined, (t) => heard.push(t));
    expect(last.metadata.continue ?? '').toBe('');
    expect(heard).toEqual([]);
  });

  it('reads ListMeta from a prefix only when kube-apiserver wrote the list metadata first', async () => {
    // A built-in list (kind, apiVersion, metadata first), as the server sent it.
    const r = await kubeFetch({ context: TEST_CONTEXT, path: `/api/v1/namespaces/${ns}/configmaps?limit=3`, headers: { Accept: 'application/json' } });
    const text = await r.text();
    const token = (JSON.parse(text) as { metadata: { continue: string } }).metadata.continue;
    expect(listMetaFromPrefix(text.slice(0, text.indexOf('"items"')))).toEqual({ continue: token });
    // Cut inside the metadata: not yet.
    expect(listMetaFromPrefix(text.slice(0, text.indexOf('"continue"') + 12))).toBeUndefined();
    // Custom resources are written with the keys sorted (apiVersion, items, kind, metadata): the
    // metadata comes last, so nothing is read from the prefix and the pager asks after the body.
    expect(listMetaFromPrefix('{"apiVersion":"wire.example.com/v1","items":[{"apiVersion":"wire.example.com/v1"')).toBeUndefined();
  });

  it('gets a server Table with includeObject=None: server columns, cells only, names from the name column', async () => {
    const page = await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode: 'table' });
    expect(page.table).toBe(true);
    expect(page.path).toContain('includeObject=None');
    expect(page.columns.map((c) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(page.columns[0]!.format).toBe('name');
    expect(page.rows).toHaveLength(25);
    expect(page.rows.toArray().map((r) => r.name)).toContain('cm-00');
    expect(page.rows.toArray().every((r) => r.namespace === undefined)).toBe(true);
  });

  it('pages with limit: one resourceVersion, remainingItemCount counting down, token pinned to it', async () => {
    const pages: ListPage[] = [];
    let token: string | undefined;
    do {
      const p = await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode: 'table', limit: 10, continueToken: token });
      pages.push(p);
      token = p.metadata.continue;
    } while (token);
    expect(pages.map((p) => p.rows.length)).toEqual([10, 10, 5]);
    expect(pages.map((p) => p.metadata.remainingItemCount)).toEqual([15, 5, undefined]);
    expect(new Set(pages.map((p) => p.metadata.resourceVersion)).size).toBe(1);
    const names = pages.flatMap((p) => p.rows.toArray().map((r) => r.name));
    expect(new Set(names).size).toBe(25);
    const decoded = decodeContinueToken(pages[0]!.metadata.continue);
    expect(decoded).toMatchObject({ v: 'meta.k8s.io/v1', rv: Number(pages[0]!.metadata.resourceVersion) });
    // The next chunk starts after the last key returned (a NUL byte appended: the next possible key).
    expect(decoded!.start).toBe(`/${pages[0]!.rows.name(9)}\u0000`);
  });

  it('omits remainingItemCount under a label selector, since the server cannot count matches ahead', async () => {
    const p = await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode: 'table', limit: 10, labelSelector: 'app=lists' });
    expect(p.rows).toHaveLength(10);
    expect(p.metadata.continue).toBeTruthy();
    expect(p.metadata.remainingItemCount).toBeUndefined();
  });

  it('asks for object metadata across all namespaces, to learn each row namespace', async () => {
    const p = await fetchListPage({ context: TEST_CONTEXT, ref: { ...cm, namespace: undefined }, mode: 'table', includeObject: 'Metadata', labelSelector: 'app=lists' });
    expect(p.rows).toHaveLength(24);
    expect(p.rows.toArray().every((r) => r.namespace === ns)).toBe(true);
  });

  it('metadata-only lists carry no data and weigh less than full lists', async () => {
    const meta = await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode: 'metadata' });
    const full = await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode: 'full' });
    expect(meta.kind).toBe('PartialObjectMetadataList');
    expect(full.kind).toBe('ConfigMapList');
    expect(meta.table).toBe(false);
    expect(meta.rows.toArray().map((r) => r.name).sort()).toEqual(full.rows.toArray().map((r) => r.name).sort());
    expect(meta.sample).not.toHaveProperty('data');
    expect(full.sample).toHaveProperty('data');
    expect(meta.bytes).toBeLessThan(full.bytes);
  });

  it('returns 410 Expired for a token older than a compaction, with a token to continue inconsistently', async () => {
    const first = await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode: 'table', limit: 10 });
    await must('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'zz-after-compaction' } });
    await cluster.compact();
    // The apiserver notices the compaction a few seconds later (its watch cache reads compact_rev_key).
    let err: KubeApiError | undefined;
    while (!err) {
      try {
        await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode: 'table', limit: 10, continueToken: first.metadata.continue });
        await new Promise((res) => setTimeout(res, 500));
      } catch (e) {
        if (!(e instanceof KubeApiError)) throw e;
        err = e;
      }
    }
    expect(err.code).toBe(410);
    expect(err.reason).toBe('Expired');
    const inconsistent = err.status.metadata?.continue;
    expect(decodeContinueToken(inconsistent)?.rv).toBe(-1);
    const rest = await fetchListPage({ context: TEST_CONTEXT, ref: cm, mode: 'table', limit: 100, continueToken: inconsistent });
    // The remainder after the first 10 keys, read at a new resourceVersion: it includes what was
    // created since (zz- sorts after the first chunk's keys), which a consistent list would not.
    expect(rest.rows.toArray().map((r) => r.name)).toContain('zz-after-compaction');
    expect(rest.rows.toArray().map((r) => r.name)).not.toContain(first.rows.name(9));
    expect(rest.metadata.resourceVersion).not.toBe(first.metadata.resourceVersion);
  }, 90_000);
});

describe('pageFromBody', () => {
  it('falls back to generic columns (name, namespace, creation time) when the body is not a Table', async () => {
    // What a server that cannot render a Table answers: the plain list.
    const res = await kubeFetch({ context: TEST_CONTEXT, path: `/api/v1/namespaces/${ns}/configmaps?limit=3`, headers: { Accept: 'application/json' } });
    const page = pageFromBody(await res.json(), 'table');
    expect(page.table).toBe(false);
    expect(page.kind).toBe('ConfigMapList');
    expect(page.columns).toBe(GENERIC_COLUMNS);
    expect(page.rows).toHaveLength(3);
    expect(page.rows.namespace(0)).toBe(ns);
    expect(page.rows.row(0).cells).toEqual([page.rows.name(0), ns, expect.stringMatching(/^\d{4}-\d\d-\d\dT/)]);
    expect(page.sample).toBeUndefined();
    expect(page.metadata.continue).toBeTruthy();
  });
});

describe('decodeContinueToken', () => {
  it('returns null for tokens that are not base64 JSON of the apiserver shape', () => {
    expect(decodeContinueToken('not-a-token')).toBeNull();
    expect(decodeContinueToken(btoa('{"a":1}'))).toBeNull();
    expect(decodeContinueToken(undefined)).toBeNull();
  });
});

// kubeRead against the real explorer server and API server: a GET over the mux comes back as a
// Response that reads like the one fetch gives for the same request (the `ws` package stands in
// for the browser's WebSocket: Node 20 has none).
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { testCluster } from '../../../proxy/cluster/cluster.testkit';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { errorFromResponse, kubeFetch } from './kubeFetch';
import { kubeRead, setReadMuxForTests } from './kubeRead';
import { MuxClient, type WebSocketConstructor } from './mux';
import { ListPager } from '../lists/pager';

const cluster = () => testCluster(inject('controlPlane'));
const ns = `read-${randomBytes(3).toString('hex')}`;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json';
let url: string;
let token: string;
const muxes: MuxClient[] = [];
const muxWith = (opts: { token?: string; url?: string } = {}) => {
  const m = new MuxClient({ url: opts.url ?? url, token: () => opts.token ?? token, WebSocket: WebSocket as unknown as WebSocketConstructor });
  muxes.push(m);
  return m;
};

beforeAll(async () => {
  const explorer = useRealProxy();
  url = new URL('/proxy/mux', explorer.url.replace(/^http/, 'ws')).toString();
  token = explorer.token;
  expect((await cluster().request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  for (let i = 0; i < 7; i++) {
    expect((await cluster().request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}`, labels: { read: 'yes' } }, data: { i: String(i) } })).status).toBe(201);
  }
});
afterEach(() => setReadMuxForTests(undefined));
afterAll(async () => {
  for (const m of muxes) m.close();
  await cluster().request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

describe('kubeRead', () => {
  it('a Table chunk over the mux: the same status, headers and bytes as over HTTP', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps?limit=3&labelSelector=read%3Dyes&includeObject=None`;
    const viaMux = await kubeRead({ context: TEST_CONTEXT, path, headers: { Accept: TABLE } }, muxWith());
    const viaHttp = await kubeFetch({ context: TEST_CONTEXT, path, headers: { Accept: TABLE } });
    expect(viaMux.status).toBe(200);
    expect(viaMux.headers.get('content-type')).toBe(viaHttp.headers.get('content-type'));
    const [a, b] = [(await viaMux.json()) as Record<string, unknown>, (await viaHttp.json()) as Record<string, unknown>];
    expect(a.kind).toBe('Table');
    // Two reads of a list at the same resourceVersion hold the same rows; continue tokens differ in
    // nothing but their start key. The Age cell is the server's clock at each read (a second apart
    // on a busy machine: "0s" and "1s"), so it is left out of the comparison.
    const age = (a.columnDefinitions as { name: string }[]).findIndex((c) => c.name === 'Age');
    const cellsOf = (t: Record<string, unknown>) => (t.rows as { cells: unknown[] }[]).map((r) => r.cells.filter((_, i) => i !== age));
    expect(age).toBeGreaterThanOrEqual(0);
    expect(cellsOf(a)).toEqual(cellsOf(b));
    expect((a.metadata as { continue?: string }).continue).toBeTruthy();
  });

  it('an API error is the server’s Status, read by errorFromResponse as from fetch', async () => {
    const res = await kubeRead({ context: TEST_CONTEXT, path: `/api/v1/namespaces/${ns}/configmaps/none-such`, headers: { Accept: 'application/json' } }, muxWith());
    expect(res.ok).toBe(false);
    const err = await errorFromResponse(res);
    expect(err).toMatchObject({ httpStatus: 404, fromProxy: false, reason: 'NotFound' });
  });

  it('an error made by the proxy (unknown context) is marked as the proxy’s', async () => {
    const res = await kubeRead({ context: 'no-such-context', path: '/api/v1/namespaces' }, muxWith());
    const err = await errorFromResponse(res);
    expect(err.fromProxy).toBe(true);
    expect(err.httpStatus).toBe(404);
  });

  it('an abort while the body arrives rejects the reader with the abort, not a body cut short', async () => {
    const ac = new AbortController();
    // A watch never ends by itself: the body is still arriving when the abort comes.
    const res = await kubeRead({ context: TEST_CONTEXT, path: `/api/v1/namespaces/${ns}/configmaps?watch=1`, headers: { Accept: 'application/json' }, signal: ac.signal }, muxWith());
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    ac.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a dot segment is refused before anything is sent, as kubeFetch refuses it', async () => {
    const m = muxWith();
    await expect(kubeRead({ context: TEST_CONTEXT, path: `/api/v1/namespaces/${ns}/../configmaps` }, m)).rejects.toMatchObject({ name: 'RefusedPathError' });
    expect(m.openStreams).toBe(0);
  });

  it('a mux that refuses the token or cannot be reached: the GET goes over HTTP instead', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps/cm-1`;
    const refused = await kubeRead({ context: TEST_CONTEXT, path, headers: { Accept: 'application/json' } }, muxWith({ token: 'wrong' }));
    expect(refused.status).toBe(200);
    expect(((await refused.json()) as { data: Record<string, string> }).data).toEqual({ i: '1' });
    const unreachable = await kubeRead({ context: TEST_CONTEXT, path, headers: { Accept: 'application/json' } }, muxWith({ url: 'ws://127.0.0.1:9/proxy/mux' }));
    expect(unreachable.status).toBe(200);
  });

  it('a whole list loaded chunk by chunk over the mux (as the Lists view does in the browser)', async () => {
    const m = muxWith();
    const opened: string[] = [];
    const open = m.open.bind(m);
    m.open = (r) => (opened.push(r.path), open(r));
    setReadMuxForTests(m);
    const pager = new ListPager({ context: TEST_CONTEXT, ref: { group: '', version: 'v1', resource: 'configmaps', namespace: ns }, mode: 'table', limit: 2, labelSelector: 'read=yes', includeObject: 'None' });
    await pager.start({ all: true });
    await expect.poll(() => pager.getSnapshot().done).toBe(true);
    const snap = pager.getSnapshot();
    expect(snap.pages.map((p) => p.items)).toEqual([2, 2, 2, 1]);
    expect(pager.rows.toArray().map((r) => r.name).sort()).toEqual(Array.from({ length: 7 }, (_, i) => `cm-${i}`));
    expect(new Set(snap.pages.map((p) => p.resourceVersion)).size).toBe(1);
    expect(opened).toHaveLength(4);
    expect(opened.slice(1).every((p) => p.includes('continue='))).toBe(true);
    expect(m.openStreams).toBe(0);
  });
});

// Watch sessions hosted as in the page's worker (host.ts on one end of a MessageChannel, the page's
// WorkerConnection on the other), against the real local control plane through the real proxy and
// its /proxy/mux: the lists go through kubeFetch on the page side, the streams through the mux,
// and the page's mirror must hold what a fresh list returns.
import { randomBytes } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { testCluster } from '../../../../proxy/cluster/cluster.testkit';
import { MuxClient, type MuxRequest, type MuxStream, type WebSocketConstructor } from '../../client/mux';
import { TEST_CONTEXT, useRealProxy } from '../../proxy.testkit';
import { hostWatchSessions, type Port } from './host';
import { type PaneSnapshot, stateVersion, type WatchSpec } from '../session';
import type { KubeObject } from '../types';
import { type Endpoint, WORKER_INFLIGHT_BYTES, WorkerConnection, WorkerWatchSession } from './client';
import { untilSnapshot } from '../untilSnapshot.testkit';

const cluster = () => testCluster(inject('controlPlane'));
let mux: MuxClient;
let ns: string;
const channels: MessageChannel[] = [];

beforeAll(async () => {
  const explorer = useRealProxy();
  mux = new MuxClient({ url: new URL('/proxy/mux', explorer.url.replace(/^http/, 'ws')).toString(), token: () => explorer.token, WebSocket: WebSocket as unknown as WebSocketConstructor });
  ns = `wworker-${randomBytes(3).toString('hex')}`;
  expect((await cluster().request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
});
afterAll(async () => {
  for (const c of channels) {
    c.port1.close();
    c.port2.close();
  }
  mux.close();
  await cluster().request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

async function admin(method: string, path: string, body?: unknown): Promise<KubeObject> {
  const r = await cluster().request('admin', method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body) as KubeObject;
}
const cmPath = (name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;

function connect(opener: Pick<MuxClient, 'open'> = mux): WorkerConnection {
  const ch = new MessageChannel();
  channels.push(ch);
  hostWatchSessions(ch.port1 as unknown as Port);
  return new WorkerConnection(ch.port2 as unknown as Endpoint, opener);
}

function spec(over: Partial<WatchSpec>): WatchSpec {
  return { context: TEST_CONTEXT, group: '', version: 'v1', resource: 'configmaps', namespace: ns, mode: 'list-watch', bookmarks: true, asTable: false, ...over };
}

const until = untilSnapshot;

async function freshList(label: string): Promise<Record<string, string>> {
  const list = (await admin('GET', `${cmPath()}?labelSelector=${label}`)) as unknown as { items: KubeObject[] };
  return Object.fromEntries(list.items.map((o) => [`${ns}/${o.metadata!.name}`, o.metadata!.resourceVersion!]));
}
const stateOf = (snap: PaneSnapshot) => Object.fromEntries([...snap.objects].map(([k, o]) => [k, stateVersion(o)!]));

describe('a watch session in the worker', () => {
  it('lists (through kubeFetch on the page side), watches, and the page mirror equals a fresh list after creates, updates and deletes', async () => {
    const label = `w=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=') as [string, string];
    for (const n of ['a', 'b', 'c']) await admin('POST', cmPath(), { metadata: { name: n, labels: { [lk]: lv } }, data: { v: '0' } });
    const s = new WorkerWatchSession(spec({ labelSelector: label }), connect(), { maxEntries: 500 });
    s.start();
    await until(s, (x) => x.state === 'watching' && x.objects.size === 3);
    await cluster().request('admin', 'PATCH', cmPath('b'), { data: { v: '1' } }, { 'Content-Type': 'application/merge-patch+json' });
    await admin('DELETE', cmPath('c'));
    const d = await admin('POST', cmPath(), { metadata: { name: 'd', labels: { [lk]: lv } } });
    const want = await freshList(label);
    const snap = await until(s, (x) => JSON.stringify(stateOf(x)) === JSON.stringify(Object.fromEntries(Object.entries(want).sort())));
    expect(Object.keys(stateOf(snap)).sort()).toEqual([`${ns}/a`, `${ns}/b`, `${ns}/d`]);
    expect(stateOf(snap)[`${ns}/d`]).toBe(d.metadata!.resourceVersion);
    const kinds = [...snap.entries].flatMap((e) => (e.kind === 'event' && e.type !== 'BOOKMARK' ? [`${e.origin} ${e.type} ${e.key}`] : []));
    expect(kinds).toEqual([`list ADDED ${ns}/a`, `list ADDED ${ns}/b`, `list ADDED ${ns}/c`, `live MODIFIED ${ns}/b`, `live DELETED ${ns}/c`, `live ADDED ${ns}/d`]);
    // The full event comes from the worker on request.
    const mod = [...snap.entries].find((e) => e.kind === 'event' && e.type === 'MODIFIED')!;
    const full = await s.entryDetail(mod.seq);
    expect((full?.object as { data?: Record<string, string> }).data).toEqual({ v: '1' });
    expect((full?.previous as { data?: Record<string, string> }).data).toEqual({ v: '0' });
    s.stop();
  });

  it('pauses and resumes from the last resourceVersion, missing nothing written meanwhile', async () => {
    const label = `p=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=') as [string, string];
    const s = new WorkerWatchSession(spec({ mode: 'stream', labelSelector: label }), connect(), { maxEntries: 500 });
    s.start();
    await until(s, (x) => x.initialEventsDone && x.state === 'watching');
    s.pause();
    await until(s, (x) => x.state === 'paused');
    for (const n of ['x', 'y']) await admin('POST', cmPath(), { metadata: { name: n, labels: { [lk]: lv } } });
    s.resume();
    const want = await freshList(label);
    const snap = await until(s, (x) => x.objects.size === 2);
    expect(stateOf(snap)).toEqual(want);
    expect([...snap.entries].some((e) => e.kind === 'note' && e.note === 'resumed')).toBe(true);
    s.stop();
  });

  it('reads from the mux only as far as the worker has consumed (flow control follows the worker)', async () => {
    const label = `f=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=') as [string, string];
    // About 2.5 MB of initial events: several times what the page may hand over unconsumed.
    const big = 'x'.repeat(50_000);
    for (let i = 0; i < 50; i++) await admin('POST', cmPath(), { metadata: { name: `f${i}`, labels: { [lk]: lv } }, data: { big } });
    // Count what the page takes from the mux against what the worker has acknowledged.
    let taken = 0;
    let maxAhead = 0;
    const counting: Pick<MuxClient, 'open'> = {
      open: async (req: MuxRequest): Promise<MuxStream> => {
        const st = await mux.open(req);
        const it = st.body[Symbol.asyncIterator]();
        return {
          ...st,
          body: {
            [Symbol.asyncIterator]: () => ({
              next: async () => {
                const r = await it.next();
                if (!r.done) taken += r.value.byteLength;
                return r;
              },
              return: async () => (it.return ? it.return() : { value: undefined, done: true }),
            }),
          },
        };
      },
    };
    const conn = connect(counting);
    const s = new WorkerWatchSession(spec({ mode: 'stream', labelSelector: label }), conn, { maxEntries: 500 });
    const acked = () => (conn as unknown as { streams: Map<number, { inflight: number }> }).streams;
    const timer = setInterval(() => {
      for (const st of acked().values()) maxAhead = Math.max(maxAhead, st.inflight);
    }, 1);
    s.start();
    const snap = await until(s, (x) => x.initialEventsDone);
    clearInterval(timer);
    expect(snap.objects.size).toBe(50);
    expect(taken).toBeGreaterThan(2_500_000);
    // Never more unconsumed bytes in the worker than the limit plus one message's worth.
    expect(maxAhead).toBeLessThanOrEqual(WORKER_INFLIGHT_BYTES + 256 * 1024);
    s.stop();
  });
});

describe('a pane with a small budget for whole objects', () => {
  it('lists every object as a row, keeps only the newest bodies, and reads an object it let go from the server, said to be read now', async () => {
    const label = `budget=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=') as [string, string];
    const names = Array.from({ length: 30 }, (_, i) => `b-${String(i).padStart(2, '0')}`);
    for (const n of names) await admin('POST', cmPath(), { metadata: { name: n, labels: { [lk]: lv } }, data: { v: 'x'.repeat(1000) } });
    // About 1.2 kB an event: 5,000 bytes keep three or four bodies of thirty.
    const s = new WorkerWatchSession(spec({ mode: 'stream', labelSelector: label }), connect(), { maxEntries: 500, maxObjectBytes: 5000 });
    s.start();
    const snap = await until(s, (x) => x.initialEventsDone && x.objects.size === 30);
    expect(stateOf(snap)).toEqual(await freshList(label));
    expect([...snap.objects.values()].every((o) => o.type === 'ADDED')).toBe(true);
    expect(snap.bodies.kept).toBeGreaterThan(0);
    expect(snap.bodies.kept).toBeLessThan(30);
    expect(snap.bodies.bytes).toBeLessThanOrEqual(5000);
    expect(snap.bodies.evicted).toBe(30 - snap.bodies.kept);

    const details = await Promise.all(names.map((n) => s.objectDetail(`${ns}/${n}`)));
    const kept = details.filter((d) => d?.source === 'kept');
    const read = details.filter((d) => d?.source === 'read');
    expect(kept.length).toBe(snap.bodies.kept);
    expect(read.length).toBe(30 - snap.bodies.kept);
    // A kept body is the version the watch delivered.
    for (const d of kept) expect(d!.object?.metadata?.resourceVersion).toBe(d!.resourceVersion);

    // With the watch paused, the server changes an object whose body was let go: opening it reads
    // the server's version now (a GET of that object), not the one the watch delivered.
    s.pause();
    await until(s, (x) => x.state === 'paused');
    const victim = read[0]!;
    const name = victim.key.slice(ns.length + 1);
    const changed = await admin('PUT', cmPath(name), { ...(await admin('GET', cmPath(name))), data: { v: 'changed' } });
    const d = (await s.objectDetail(victim.key))!;
    expect(d.source).toBe('read');
    expect(d.path).toBe(cmPath(name));
    expect(d.object?.metadata?.resourceVersion).toBe(changed.metadata!.resourceVersion);
    expect(d.object?.metadata?.resourceVersion).not.toBe(d.resourceVersion);
    expect(d.resourceVersion).toBe(snap.objects.get(victim.key)?.resourceVersion);
    expect(d.budget.maxBytes).toBe(5000);

    // Resumed, the watch delivers the change: the row follows, and the body is kept again as the newest.
    s.resume();
    const after = await until(s, (x) => x.objects.get(victim.key)?.resourceVersion === changed.metadata!.resourceVersion);
    expect(after.objects.get(victim.key)?.type).toBe('MODIFIED');
    const again = (await s.objectDetail(victim.key))!;
    expect(again.source).toBe('kept');
    expect((again.object as { data?: { v?: string } }).data?.v).toBe('changed');
    s.stop();
  });
});

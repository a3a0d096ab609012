// Against the real local control plane, through the real proxy and its /proxy/mux WebSocket
// (the `ws` package stands in for the browser's WebSocket: Node 20 has none).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { testCluster } from '../../../proxy/cluster/cluster.testkit';
import { NdjsonFramer } from '../../codecs/ndjson';
import { MuxClient, type WebSocketConstructor } from '../client/mux';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { type SessionSnapshot, type WatchSpec, WatchSession } from './session';
import type { KubeObject } from './types';
import { untilSnapshot } from './untilSnapshot.testkit';

const cluster = () => testCluster(inject('controlPlane'));
let mux: MuxClient;
let muxUrl: string;
let ns: string;

beforeAll(async () => {
  const explorer = useRealProxy();
  muxUrl = new URL('/proxy/mux', explorer.url.replace(/^http/, 'ws')).toString();
  mux = new MuxClient({ url: muxUrl, token: () => explorer.token, WebSocket: WebSocket as unknown as WebSocketConstructor });
  ns = `watch-${randomBytes(3).toString('hex')}`;
  const r = await cluster().request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  mux.close();
  await cluster().request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

async function admin(method: string, path: string, body?: unknown): Promise<KubeObject> {
  const r = await cluster().request('admin', method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body) as KubeObject;
}
const cmPath = (name?: string) => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;

function spec(over: Partial<WatchSpec>): WatchSpec {
  return { context: TEST_CONTEXT, group: '', version: 'v1', resource: 'configmaps', namespace: ns, mode: 'list-watch', bookmarks: true, asTable: false, ...over };
}

/** Resolves with the first snapshot that satisfies `ok` (no timers: the test's own timeout bounds it). */
const until = untilSnapshot;

const liveEvents = (snap: SessionSnapshot) => snap.entries.toArray().flatMap((e) => (e.kind === 'event' ? [e] : []));
const names = (snap: SessionSnapshot) => [...snap.objects.keys()].sort();

async function freshList(selector = ''): Promise<{ key: string; rv: string }[]> {
  const list = (await admin('GET', `${cmPath()}${selector}`)) as unknown as { items: KubeObject[] };
  return list.items.map((o) => ({ key: `${o.metadata!.namespace}/${o.metadata!.name}`, rv: o.metadata!.resourceVersion! })).sort((a, b) => a.key.localeCompare(b.key));
}
const stateOf = (snap: SessionSnapshot) =>
  [...snap.objects.entries()].map(([key, o]) => ({ key, rv: o.resourceVersion! })).sort((a, b) => a.key.localeCompare(b.key));

describe('WatchSession', () => {
  it('lists, then watches from the list resourceVersion: ADDED, MODIFIED, DELETED carry the server-assigned resourceVersions', async () => {
    const label = `t=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=');
    await admin('POST', cmPath(), { metadata: { name: 'before', labels: { [lk!]: lv! } } });
    const s = new WatchSession(spec({ labelSelector: label }), { mux });
    s.start();
    await until(s, (snap) => snap.state === 'watching' && snap.entries.toArray().some((e) => e.kind === 'note' && e.note === 'open'));
    const created = await admin('POST', cmPath(), { metadata: { name: 'a', labels: { [lk!]: lv! } }, data: { x: '1' } });
    const updated = await admin('PUT', cmPath('a'), { ...created, data: { x: '2' } });
    const deleted = await admin('DELETE', cmPath('a'));
    const snap = await until(s, (x) => liveEvents(x).some((e) => e.type === 'DELETED'));
    s.stop();
    const evs = liveEvents(snap).map((e) => [e.origin, e.type, e.key, e.resourceVersion]);
    expect(evs).toEqual([
      ['list', 'ADDED', `${ns}/before`, expect.any(String)],
      ['live', 'ADDED', `${ns}/a`, created.metadata!.resourceVersion],
      ['live', 'MODIFIED', `${ns}/a`, updated.metadata!.resourceVersion],
      ['live', 'DELETED', `${ns}/a`, expect.any(String)],
    ]);
    // DELETE answers with a Status (no resourceVersion), so the deletion's RV is only known from
    // the event: it is a new version, not the last update's.
    expect(deleted.kind).toBe('Status');
    expect(liveEvents(snap)[3]!.resourceVersion).not.toBe(updated.metadata!.resourceVersion);
    // The MODIFIED entry keeps the version it replaced, for the per-event diff.
    expect(liveEvents(snap)[2]!.previous?.metadata?.resourceVersion).toBe(created.metadata!.resourceVersion);
    expect(names(snap)).toEqual([`${ns}/before`]);
  });

  it('streaming list: initial ADDED events, the k8s.io/initial-events-end bookmark, then live events', async () => {
    const label = `s=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=');
    for (const n of ['s1', 's2']) await admin('POST', cmPath(), { metadata: { name: n, labels: { [lk!]: lv! } } });
    const s = new WatchSession(spec({ mode: 'stream', labelSelector: label }), { mux });
    s.start();
    await until(s, (snap) => snap.initialEventsDone);
    const s3 = await admin('POST', cmPath(), { metadata: { name: 's3', labels: { [lk!]: lv! } } });
    const snap = await until(s, (x) => x.entries.toArray().some((e) => e.kind === 'event' && e.key === `${ns}/s3`));
    s.stop();
    const evs = liveEvents(snap).filter((e) => !(e.type === 'BOOKMARK' && !e.initialEventsEnd));
    expect(evs.map((e) => [e.origin, e.type, e.key, e.initialEventsEnd ?? false])).toEqual([
      ['initial', 'ADDED', `${ns}/s1`, false],
      ['initial', 'ADDED', `${ns}/s2`, false],
      ['initial', 'BOOKMARK', '', true],
      ['live', 'ADDED', `${ns}/s3`, false],
    ]);
    expect(evs[3]!.resourceVersion).toBe(s3.metadata!.resourceVersion);
  });
  it('stops, saying why, when the server refuses the request as it stands (400 to a field selector it does not support); started again, it asks once more', async () => {
    // Streaming first: the 400 falls back to List, then watch (a server with WatchList off answers
    // the same way), whose list gets the same 400: the pane stops instead of retrying for ever.
    const s = new WatchSession(spec({ mode: 'stream', fieldSelector: 'spec.bogus=1' }), { mux });
    s.start();
    const snap = await until(s, (x) => x.state === 'stopped');
    expect(snap.fatal).toMatch(/^400 BadRequest: .*spec\.bogus/);
    const notes = snap.entries.toArray().flatMap((e) => (e.kind === 'note' ? [e.note] : []));
    expect(notes).not.toContain('reconnect');
    // One streaming attempt and one list: nothing retried.
    expect(notes.filter((n) => n === 'error')).toHaveLength(2);
    s.resume();
    const again = await until(s, (x) => x.state === 'stopped' && x.entries.toArray().filter((e) => e.kind === 'note' && e.note === 'error').length === 3);
    expect(again.fatal).toMatch(/spec\.bogus/);
  });

  it('resumes from the last resourceVersion seen after the connection drops, losing no event', async () => {
    const label = `r=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=');
    const own = new MuxClient({ url: muxUrl, token: () => inject('explorer').token, WebSocket: WebSocket as unknown as WebSocketConstructor });
    const s = new WatchSession(spec({ labelSelector: label }), { mux: own, backoffInitialMs: 200 });
    s.start();
    await until(s, (x) => x.state === 'watching' && x.entries.toArray().some((e) => e.kind === 'note' && e.note === 'open'));
    await admin('POST', cmPath(), { metadata: { name: 'r1', labels: { [lk!]: lv! } } });
    await until(s, (x) => x.entries.toArray().some((e) => e.kind === 'event' && e.key === `${ns}/r1`));
    // The connection drops (the socket closes); changes keep happening meanwhile.
    own.close();
    const r2 = await admin('POST', cmPath(), { metadata: { name: 'r2', labels: { [lk!]: lv! } } });
    await admin('DELETE', cmPath('r1'));
    const snap = await until(s, (x) => x.entries.toArray().some((e) => e.kind === 'event' && e.type === 'DELETED' && e.key === `${ns}/r1`));
    s.stop();
    own.close();
    const notes = snap.entries.toArray().flatMap((e) => (e.kind === 'note' ? [e] : []));
    expect(notes.some((n) => n.note === 'error')).toBe(true);
    // (A bookmark may have moved the resourceVersion on; whichever was last is the one used.)
    const rvBefore = notes.find((n) => n.note === 'reconnect')?.message.match(/from resourceVersion (\S+)$/)?.[1];
    expect(rvBefore).toBeTruthy();
    expect(snap.entries.toArray().some((e) => e.kind === 'event' && e.resourceVersion === rvBefore)).toBe(true);
    // The watch opened again from that resourceVersion (no relist), and the changes arrived as events.
    expect(notes.filter((n) => n.note === 'open').at(-1)?.path).toContain(`resourceVersion=${rvBefore}`);
    // One list at the start (not labelled a relist), none after the reconnect.
    expect(notes.filter((n) => n.note === 'list')).toHaveLength(1);
    expect(notes.filter((n) => n.note === 'relist')).toHaveLength(0);
    const ev = liveEvents(snap).find((e) => e.key === `${ns}/r2`);
    expect([ev?.type, ev?.resourceVersion]).toEqual(['ADDED', r2.metadata!.resourceVersion]);
    expect(stateOf(snap)).toEqual(await freshList(`?labelSelector=${label}`));
  });

  it('a watch from a resourceVersion that the server ends before its first event starts again from that resourceVersion: no existing object shows as a live ADDED, no change is skipped', async () => {
    const label = `x=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=');
    await admin('POST', cmPath(), { metadata: { name: 'x-old', labels: { [lk!]: lv! } } });
    const from = ((await admin('GET', `${cmPath()}?labelSelector=${label}`)) as unknown as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    // timeoutSeconds=1: the server ends each stream after a second, before any bookmark is due.
    const s = new WatchSession(spec({ mode: 'watch-exact', resourceVersion: from, labelSelector: label, timeoutSeconds: 1 }), { mux });
    s.start();
    await until(s, (x) => x.entries.toArray().filter((e) => e.kind === 'note' && e.note === 'open').length >= 2);
    // Changed while no stream was open (between the end and the next open) or after: delivered.
    const x1 = await admin('POST', cmPath(), { metadata: { name: 'x-new', labels: { [lk!]: lv! } } });
    const snap = await until(s, (x) => x.entries.toArray().some((e) => e.kind === 'event' && e.key === `${ns}/x-new`));
    s.stop();
    const opens = snap.entries.toArray().flatMap((e) => (e.kind === 'note' && e.note === 'open' ? [new URLSearchParams(e.path!.split('?')[1]).get('resourceVersion')] : []));
    // Each open before the first event asked for the given resourceVersion, never for "Get State" (unset).
    expect(opens.every((rv) => rv !== null)).toBe(true);
    expect(opens[1]).toBe(from);
    // Before: the second open had no resourceVersion, and x-old came as a live ADDED event.
    expect(liveEvents(snap).filter((e) => e.type !== 'BOOKMARK').map((e) => [e.type, e.key, e.resourceVersion])).toEqual([['ADDED', `${ns}/x-new`, x1.metadata!.resourceVersion]]);
  });

  it('watch with resourceVersion unset: synthetic ADDED events for what exists, then live changes', async () => {
    const label = `u=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=');
    const u1 = await admin('POST', cmPath(), { metadata: { name: 'u1', labels: { [lk!]: lv! } } });
    const s = new WatchSession(spec({ mode: 'watch-unset', labelSelector: label }), { mux });
    s.start();
    await until(s, (x) => x.entries.toArray().some((e) => e.kind === 'event' && e.key === `${ns}/u1`));
    const u2 = await admin('POST', cmPath(), { metadata: { name: 'u2', labels: { [lk!]: lv! } } });
    const snap = await until(s, (x) => x.entries.toArray().some((e) => e.kind === 'event' && e.key === `${ns}/u2`));
    s.stop();
    const open = snap.entries.toArray().find((e) => e.kind === 'note' && e.note === 'open');
    expect(open?.kind === 'note' && new URLSearchParams(open.path!.split('?')[1]).has('resourceVersion')).toBe(false);
    expect(liveEvents(snap).filter((e) => e.type !== 'BOOKMARK').map((e) => [e.type, e.key, e.resourceVersion])).toEqual([
      ['ADDED', `${ns}/u1`, u1.metadata!.resourceVersion],
      ['ADDED', `${ns}/u2`, u2.metadata!.resourceVersion],
    ]);
    // With bookmarks allowed, the server ends the synthetic events with the initial-events-end
    // bookmark: u1 is labelled initial, the later u2 live.
    const evs = liveEvents(snap);
    expect(evs.some((e) => e.type === 'BOOKMARK' && e.initialEventsEnd === true)).toBe(true);
    expect(evs.filter((e) => e.type === 'ADDED').map((e) => [e.key, e.origin])).toEqual([
      [`${ns}/u1`, 'initial'],
      [`${ns}/u2`, 'live'],
    ]);
  });

  it('as=Table: rows from the list, then one-row Tables per event, keyed by the row object', async () => {
    const label = `tb=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=');
    await admin('POST', cmPath(), { metadata: { name: 't1', labels: { [lk!]: lv! } }, data: { a: '1' } });
    const s = new WatchSession(spec({ labelSelector: label, asTable: true }), { mux });
    s.start();
    await until(s, (snap) => snap.state === 'watching' && snap.entries.toArray().some((e) => e.kind === 'note' && e.note === 'open'));
    const t2 = await admin('POST', cmPath(), { metadata: { name: 't2', labels: { [lk!]: lv! } }, data: { a: '1', b: '2' } });
    const snap = await until(s, (x) => x.entries.toArray().some((e) => e.kind === 'event' && e.key === `${ns}/t2`));
    s.stop();
    expect(snap.columns?.map((c) => c.name)).toEqual(expect.arrayContaining(['Name', 'Data', 'Age']));
    const added = snap.entries.toArray().find((e) => e.kind === 'event' && e.key === `${ns}/t2`);
    expect(added?.kind === 'event' && [added.type, added.origin, added.resourceVersion, added.object.kind]).toEqual(['ADDED', 'live', t2.metadata!.resourceVersion, 'Table']);
    expect(stateOf(snap).map((r) => r.key)).toEqual([`${ns}/t1`, `${ns}/t2`]);
  });

  // 410 Gone needs the watch cache to lose history, which takes an API server restart here (its
  // cache then starts at the current revision): e2e/watch.spec.ts covers it with restartApiServer().
});

describe('NdjsonFramer on bytes from the real server', () => {
  it('frames the same events whatever the chunk boundaries', async () => {
    const name = `f-${randomBytes(3).toString('hex')}`;
    await admin('POST', cmPath(), { metadata: { name }, data: { text: 'multi-byte: ✓ ü 日本' } });
    const stream = await mux.open({ context: TEST_CONTEXT, path: `${cmPath()}?watch=1&fieldSelector=metadata.name=${name}&timeoutSeconds=1`, headers: { Accept: 'application/json' } });
    const chunks: Uint8Array[] = [];
    for await (const c of stream.body) chunks.push(c.slice());
    const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let o = 0;
    for (const c of chunks) {
      all.set(c, o);
      o += c.length;
    }
    const whole = new NdjsonFramer().push(all).map((f) => f.text);
    expect(whole.length).toBe(1);
    expect(JSON.parse(whole[0]!)).toMatchObject({ type: 'ADDED', object: { metadata: { name }, data: { text: 'multi-byte: ✓ ü 日本' } } });
    // Split at every byte: same frames, and sizes equal the server's bytes per line.
    for (let cut = 1; cut < all.length; cut += 7) {
      const f = new NdjsonFramer();
      const got = [...f.push(all.subarray(0, cut)), ...f.push(all.subarray(cut))];
      expect(got.map((x) => x.text)).toEqual(whole);
      expect(got[0]!.bytes.length).toBe(all.length - 1);
    }
  });
});

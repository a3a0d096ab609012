// A Protobuf watch (`encoding: 'protobuf'`) in the watch worker (host.ts on one end of a
// MessageChannel, the page's WorkerConnection on the other) against the real local control plane
// through the real proxy's mux: the server's Content-Type confirms the encoding, the state equals
// a fresh list, each event keeps its frame and its whole object decodes (with the schema) to what
// the server's JSON GET returns, pause/resume watches again from the last resourceVersion, and an
// HTTP error's Protobuf Status reaches the pane as the JSON one would.
import { randomBytes } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { testCluster } from '../../../../proxy/cluster/cluster.testkit';
import { decodeK8sObject, type DescriptorJson, schemaFromDescriptor, watchFrameObject } from '../../../codecs/protobuf';
import descriptor from '../../../codecs/proto/k8s-descriptor.json';
import { MuxClient, type WebSocketConstructor } from '../../client/mux';
import { TEST_CONTEXT, useRealProxy } from '../../proxy.testkit';
import { hostWatchSessions, type Port } from './host';
import { type PaneSnapshot, stateCells, stateVersion, type WatchSpec } from '../session';
import type { KubeObject } from '../types';
import { type Endpoint, WorkerConnection, WorkerWatchSession } from './client';
import { untilSnapshot } from '../untilSnapshot.testkit';

const cluster = () => testCluster(inject('controlPlane'));
const schema = schemaFromDescriptor(descriptor as unknown as DescriptorJson);
let mux: MuxClient;
let ns: string;
const channels: MessageChannel[] = [];

beforeAll(async () => {
  const explorer = useRealProxy();
  mux = new MuxClient({ url: new URL('/proxy/mux', explorer.url.replace(/^http/, 'ws')).toString(), token: () => explorer.token, WebSocket: WebSocket as unknown as WebSocketConstructor });
  ns = `wpb-${randomBytes(3).toString('hex')}`;
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

function session(over: Partial<WatchSpec>): WorkerWatchSession {
  const ch = new MessageChannel();
  channels.push(ch);
  hostWatchSessions(ch.port1 as unknown as Port);
  const spec: WatchSpec = { context: TEST_CONTEXT, group: '', version: 'v1', resource: 'configmaps', namespace: ns, mode: 'stream', bookmarks: true, asTable: false, encoding: 'protobuf', ...over };
  return new WorkerWatchSession(spec, new WorkerConnection(ch.port2 as unknown as Endpoint, mux), { maxEntries: 500 });
}

const until = untilSnapshot;

async function freshList(label: string): Promise<KubeObject[]> {
  return ((await admin('GET', `${cmPath()}?labelSelector=${label}`)) as unknown as { items: KubeObject[] }).items;
}
const stateOf = (snap: PaneSnapshot) => Object.fromEntries([...snap.objects].map(([k, o]) => [k, stateVersion(o)!]));
const versions = (items: KubeObject[]) => Object.fromEntries(items.map((o) => [`${ns}/${o.metadata!.name}`, o.metadata!.resourceVersion!]));

describe('a Protobuf watch in the worker', () => {
  it('streams a list as Protobuf (the server says so), keeps each frame, and an opened event decodes to the server’s JSON', async () => {
    const label = `pb=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=') as [string, string];
    for (const n of ['a', 'b']) await admin('POST', cmPath(), { metadata: { name: n, labels: { [lk]: lv } }, data: { text: `${n}: ✓ ü 日本` } });
    const s = session({ labelSelector: label });
    s.start();
    let snap = await until(s, (x) => x.initialEventsDone && x.state === 'watching');
    // What the server answered, not what was asked.
    expect(snap.contentType).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    expect(stateOf(snap)).toEqual(versions(await freshList(label)));
    // The pane's own column: the creation time read from each event's ObjectMeta.
    const items = await freshList(label);
    expect(snap.columns?.map((c) => c.name)).toEqual(['Created']);
    for (const o of items) expect(stateCells(snap.objects.get(`${ns}/${o.metadata!.name}`)!)).toEqual([o.metadata!.creationTimestamp]);

    // A live change: its event comes with its frame; decoded, it is the object a JSON GET returns.
    const changed = await admin('PUT', cmPath('a'), { ...(await admin('GET', cmPath('a'))), data: { text: 'changed ✓' } });
    snap = await until(s, (x) => x.objects.get(`${ns}/a`)?.resourceVersion === changed.metadata!.resourceVersion);
    const mod = [...snap.entries].find((e) => e.kind === 'event' && e.type === 'MODIFIED')!;
    expect(mod.kind === 'event' && [mod.origin, mod.key, mod.resourceVersion]).toEqual(['live', `${ns}/a`, changed.metadata!.resourceVersion]);
    const full = (await s.entryDetail(mod.seq))!;
    expect(full.wire).toBeInstanceOf(Uint8Array);
    expect(full.size).toBe(full.wire!.length);
    expect(full.raw).toBe('');
    const decoded = decodeK8sObject(schema, watchFrameObject(full.wire!));
    expect(decoded.ok && decoded.value.object).toEqual(changed);
    // The version it replaced is kept as its frame too (the diff decodes both).
    const before = decodeK8sObject(schema, watchFrameObject(full.previousWire!));
    expect(before.ok && (before.value.object as { data?: unknown }).data).toEqual({ text: 'a: ✓ ü 日本' });
    // The state's kept body is the same frame.
    const kept = (await s.objectDetail(`${ns}/a`))!;
    expect(kept.source).toBe('kept');
    expect(kept.wire).toEqual(full.wire);
    s.stop();
  });

  it('pauses and resumes from the last resourceVersion (the bookmark’s or an event’s), missing nothing written meanwhile', async () => {
    const label = `pr=${randomBytes(3).toString('hex')}`;
    const [lk, lv] = label.split('=') as [string, string];
    await admin('POST', cmPath(), { metadata: { name: 'first', labels: { [lk]: lv } } });
    const s = session({ labelSelector: label });
    s.start();
    const streamed = await until(s, (x) => x.initialEventsDone && x.state === 'watching');
    const last = streamed.lastResourceVersion!;
    s.pause();
    await until(s, (x) => x.state === 'paused');
    const x = await admin('POST', cmPath(), { metadata: { name: 'x', labels: { [lk]: lv } } });
    await admin('DELETE', cmPath('first'));
    s.resume();
    const snap = await until(s, (y) => y.objects.size === 1 && y.objects.has(`${ns}/x`));
    expect(stateOf(snap)).toEqual(versions(await freshList(label)));
    expect(stateOf(snap)).toEqual({ [`${ns}/x`]: x.metadata!.resourceVersion });
    // The resumed watch asked for exactly the last resourceVersion the pane saw, as Protobuf.
    const opens = [...snap.entries].filter((e) => e.kind === 'note' && e.note === 'open');
    const resumed = opens.at(-1)!;
    expect(resumed.kind === 'note' && new URLSearchParams(resumed.path!.split('?')[1]).get('resourceVersion')).toBe(last);
    expect(resumed.kind === 'note' && resumed.message).toContain('application/vnd.kubernetes.protobuf;stream=watch');
    const live = [...snap.entries].flatMap((e) => (e.kind === 'event' && e.origin === 'live' && e.type !== 'BOOKMARK' ? [`${e.type} ${e.key}`] : []));
    expect(live).toEqual([`ADDED ${ns}/x`, `DELETED ${ns}/first`]);
    s.stop();
  });

  it('a custom resource has no Protobuf form: the server answers JSON (the Accept header’s fallback), and the pane says and reads that', async () => {
    const group = `pb${randomBytes(3).toString('hex')}.example.com`;
    await admin('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      metadata: { name: `gadgets.${group}` },
      spec: { group, scope: 'Namespaced', names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', listKind: 'GadgetList' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
    });
    try {
      // Until the CRD is established its resource is not served.
      let created: KubeObject | undefined;
      for (let i = 0; !created; i++) {
        const r = await cluster().request('admin', 'POST', `/apis/${group}/v1/namespaces/${ns}/gadgets`, { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name: 'g' }, size: 3 });
        if (r.status === 201) created = JSON.parse(r.body) as KubeObject;
        else if (i > 100) throw new Error(`create Gadget: ${r.status} ${r.body}`);
        else await new Promise((res) => setTimeout(res, 200));
      }
      const s = session({ group, resource: 'gadgets' });
      s.start();
      const snap = await until(s, (x) => x.initialEventsDone && x.state === 'watching');
      expect(snap.contentType).toBe('application/json');
      expect(stateOf(snap)).toEqual({ [`${ns}/g`]: created.metadata!.resourceVersion });
      const added = [...snap.entries].find((e) => e.kind === 'event' && e.type === 'ADDED')!;
      const full = (await s.entryDetail(added.seq))!;
      // Read as JSON: the line as sent, no frame.
      expect(full.wire).toBeUndefined();
      expect(JSON.parse(full.raw)).toMatchObject({ type: 'ADDED', object: { kind: 'Gadget', size: 3 } });
      s.stop();
    } finally {
      await cluster().request('admin', 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.${group}`);
    }
  });

  it('an aggregated API offering Protobuf for a type without a Protobuf form (sample-apiserver’s Flunder) ends the watch at once and empty once it has an object to send: the pane stops after three such ends and says to use JSON', async () => {
    const flunders = `/apis/wardle.example.com/v1beta1/namespaces/${ns}/flunders`;
    const s = session({ group: 'wardle.example.com', version: 'v1beta1', resource: 'flunders', mode: 'list-watch' });
    s.start();
    await until(s, (x) => x.state === 'watching');
    // Now the watch has an object to send, which sample-apiserver cannot encode: it ends the
    // stream (a 200 that ran), and every watch from the same resourceVersion ends at once, empty.
    await admin('POST', flunders, { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name: 'f' } });
    const snap = await until(s, (x) => x.state === 'stopped');
    expect(snap.contentType).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    expect(snap.fatal).toMatch(/ended the Protobuf stream at once without sending a frame.*watch this resource as JSON/);
    const notes = [...snap.entries].flatMap((e) => (e.kind === 'note' ? [e] : []));
    expect(notes.filter((e) => e.note === 'end' && /without sending a frame/.test(e.message))).toHaveLength(3);
    // The backoff was not started over by streams that carried nothing: the waits grew.
    const waits = notes.flatMap((e) => (e.note === 'reconnect' ? [Number(/reconnecting in (\d+) ms/.exec(e.message)?.[1])] : []));
    expect(waits.at(-1)!).toBeGreaterThanOrEqual(500);
    // The same pane as JSON watches it.
    const json = session({ group: 'wardle.example.com', version: 'v1beta1', resource: 'flunders', mode: 'list-watch', encoding: undefined });
    json.start();
    const ok = await until(json, (x) => x.state === 'watching');
    expect(Object.keys(stateOf(ok))).toEqual([`${ns}/f`]);
    json.stop();
  });

  it('an HTTP error answered in Protobuf reaches the pane as its Status, as the JSON answer has it', async () => {
    // A field selector ConfigMaps do not support: 400 before any stream, in the encoding asked for.
    const bad = 'spec.nodeName=x';
    const json = await cluster().request('admin', 'GET', `${cmPath()}?watch=1&fieldSelector=${bad}`);
    expect(json.status).toBe(400);
    const want = JSON.parse(json.body) as { message: string; reason: string; code: number };
    const s = session({ mode: 'watch-unset', fieldSelector: bad });
    s.start();
    const snap = await until(s, (x) => x.state === 'stopped' || [...x.entries].some((e) => e.kind === 'note' && !!e.status));
    const note = [...snap.entries].find((e) => e.kind === 'note' && !!e.status);
    expect(note?.kind === 'note' && note.status).toMatchObject({ code: 400, reason: want.reason, message: want.message });
    s.stop();
  });
});

// Protobuf watch frames as kube-apiserver v1.37 sent them (byte for byte, codecs/fixtures):
// watch-configmaps.pb and .json are the same three events in each encoding; the streaming list
// ends with the initial-events-end bookmark; the ERROR event is the server's 410 after an API
// server restart lost the history; status-422.pb an HTTP error's body.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeK8sObject, schemaFromDescriptor, type DescriptorJson } from '.';
import { ProtobufWatchFramer, readStatusBody, readWatchFrame, watchFrameObject } from './watchStream';
import descriptor from '../proto/k8s-descriptor.json';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/${name}`, import.meta.url)));
const schema = schemaFromDescriptor(descriptor as unknown as DescriptorJson);

function frames(bytes: Uint8Array): Uint8Array[] {
  const f = new ProtobufWatchFramer();
  const out = f.push(bytes);
  expect(f.pending).toBe(0);
  return out;
}

describe('ProtobufWatchFramer', () => {
  it('gives the same frames, each with its 4-byte length, wherever the chunks are cut', () => {
    const all = fixture('watch-configmaps.pb');
    const whole = frames(all);
    expect(whole.length).toBe(4);
    expect(whole.reduce((n, f) => n + f.length, 0)).toBe(all.length);
    for (let cut = 1; cut < all.length; cut++) {
      const f = new ProtobufWatchFramer();
      const got = [...f.push(all.subarray(0, cut)), ...f.push(all.subarray(cut))];
      expect(got).toEqual(whole);
      expect(f.pending).toBe(0);
    }
    // Byte by byte: a frame comes out only when its last byte arrived.
    const f = new ProtobufWatchFramer();
    const got: Uint8Array[] = [];
    for (let i = 0; i < all.length; i++) got.push(...f.push(all.subarray(i, i + 1)));
    expect(got).toEqual(whole);
  });

  it('copies frames out of the chunk (a kept event must not hold the chunk alive)', () => {
    const all = fixture('watch-configmaps.pb');
    const [first] = frames(all);
    expect(first!.buffer).not.toBe(all.buffer);
    expect(first!.byteLength).toBe(first!.buffer.byteLength);
  });

  it('refuses a length no watch frame has (not a Protobuf stream: JSON, say)', () => {
    expect(() => new ProtobufWatchFramer().push(new TextEncoder().encode('{"type":"ADDED"}'))).toThrow(/not a Protobuf watch stream/);
  });
});

describe('readWatchFrame', () => {
  it('reads type and the ObjectMeta head exactly as the same events in JSON have them', () => {
    const json = readFileSync(new URL('../fixtures/watch-configmaps.json', import.meta.url), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { kind: string; apiVersion: string; metadata: Record<string, unknown> } });
    const got = frames(fixture('watch-configmaps.pb')).map(readWatchFrame);
    expect(got.map((g) => g.type)).toEqual(json.map((j) => j.type));
    for (const [i, g] of got.entries()) {
      const m = json[i]!.object.metadata;
      expect([g.apiVersion, g.kind]).toEqual([json[i]!.object.apiVersion, json[i]!.object.kind]);
      expect(g.metadata).toEqual({ name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp, ...(m.annotations ? { annotations: m.annotations } : {}) });
    }
  });

  it('reads the initial-events-end bookmark of a streaming list, whose zero creationTimestamp JSON writes as null', () => {
    const [added, bookmark] = frames(fixture('watch-streaming-list.pb')).map(readWatchFrame);
    expect(added).toEqual({ type: 'ADDED', apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'pbx', uid: '5537f2c2-31fd-44b9-908b-bf36cdeada1f', resourceVersion: '217', creationTimestamp: '2026-11-26T21:14:09Z' } });
    expect(bookmark).toEqual({ type: 'BOOKMARK', apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion: '217', annotations: { 'k8s.io/initial-events-end': 'true' } } });
  });

  it('reads an ERROR event’s Status as the JSON stream carries it (410 Expired)', () => {
    const [err] = frames(fixture('watch-error-410.pb')).map(readWatchFrame);
    // The same watch asked for JSON gave, from the same server:
    // {"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 217 (235)","reason":"Expired","code":410}}
    expect(err).toEqual({ type: 'ERROR', apiVersion: 'v1', kind: 'Status', status: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 217 (235)', reason: 'Expired', code: 410 } });
  });

  it('reads an HTTP error’s Protobuf Status with its details and causes, as the schema decodes it', () => {
    const body = fixture('status-422.pb');
    const status = readStatusBody(body);
    const viaSchema = decodeK8sObject(schema, body);
    expect(viaSchema.ok && viaSchema.value.object).toEqual(status);
    expect(status).toMatchObject({ code: 422, reason: 'Invalid', details: { kind: 'ListOptions', group: 'meta.k8s.io' } });
    expect(status.details?.causes?.[0]?.field).toBe('resourceVersionMatch');
  });

  it('leaves the object as bytes the schema decodes whole when it is opened', () => {
    const [added] = frames(fixture('watch-configmaps.pb'));
    const json = JSON.parse(readFileSync(new URL('../fixtures/watch-configmaps.json', import.meta.url), 'utf8').split('\n')[0]!) as { object: unknown };
    const d = decodeK8sObject(schema, watchFrameObject(added!));
    expect(d.ok && d.value.object).toEqual(json.object);
  });

  it('throws on a frame cut short', () => {
    const [added] = frames(fixture('watch-configmaps.pb'));
    expect(() => readWatchFrame(added!.subarray(0, 60))).toThrow();
  });
});

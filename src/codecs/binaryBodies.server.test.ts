// CBOR and protobuf decoding, checked against bytes from the real API server: the decoded CBOR
// must equal the JSON of the same object, and the schema-less protobuf tree must hold the
// object's strings where the ConfigMap message puts them (1 metadata {1 name}, 2 data entries
// {1 key, 2 value}, 3 binaryData entries).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeFetch, kubeJson } from '../k8s/client';
import { TEST_CONTEXT, useRealProxy } from '../k8s/proxy.testkit';
import { decodeCbor, decodeCborSeq } from './cbor';
import { decodeK8sEnvelope, decodeK8sProtobuf, decodeProtobufFields, decodeProtobufWatch, fieldAt, fieldText, type PbField } from './protobuf';

const ns = `codecs-${Date.now().toString(36)}`;
const name = 'decode-me';
const path = `/api/v1/namespaces/${ns}/configmaps/${name}`;
let rvBefore = '';

interface ConfigMap {
  metadata: { name: string; resourceVersion: string };
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

async function bytesOf(p: string, accept: string): Promise<{ bytes: Uint8Array; contentType: string | null }> {
  const res = await kubeFetch({ context: TEST_CONTEXT, path: p, headers: { Accept: accept } });
  expect(res.status).toBe(200);
  return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type') };
}

/** Reads a watch until `enough` says so (or 10 s pass), then aborts it. */
async function readWatch(p: string, accept: string, change: () => Promise<unknown>, enough: (b: Uint8Array) => boolean): Promise<{ bytes: Uint8Array; contentType: string | null }> {
  const ac = new AbortController();
  const res = await kubeFetch({ context: TEST_CONTEXT, path: p, headers: { Accept: accept }, signal: ac.signal });
  expect(res.status).toBe(200);
  await change();
  const reader = res.body!.getReader();
  let bytes = new Uint8Array();
  const deadline = Date.now() + 10_000;
  try {
    while (!enough(bytes) && Date.now() < deadline) {
      const r = await Promise.race([reader.read(), new Promise<null>((ok) => setTimeout(() => ok(null), 2000))]);
      if (!r || r.done) break;
      const next = new Uint8Array(bytes.length + r.value.length);
      next.set(bytes);
      next.set(r.value, bytes.length);
      bytes = next;
    }
  } finally {
    ac.abort();
  }
  return { bytes, contentType: res.headers.get('content-type') };
}

function patch(data: Record<string, string>) {
  return kubeJson({ context: TEST_CONTEXT, method: 'PATCH', path, headers: { 'Content-Type': 'application/merge-patch+json' }, body: JSON.stringify({ data }) });
}

function entries(fields: PbField[], n: number): [string | undefined, string | undefined][] {
  return fields.filter((f) => f.fieldNumber === n).map((f) => [fieldText(fieldAt([f], [n, 1])), fieldText(fieldAt([f], [n, 2]))]);
}

beforeAll(async () => {
  useRealProxy();
  await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
  const cm = await kubeJson<ConfigMap>({
    context: TEST_CONTEXT,
    method: 'POST',
    path: `/api/v1/namespaces/${ns}/configmaps`,
    body: JSON.stringify({ metadata: { name, labels: { app: 'codecs' } }, data: { greeting: 'hello', 'config.yaml': 'a: 1\nb: [x, "y"]\n' }, binaryData: { blob: 'AAEC/w==' } }),
  });
  rvBefore = cm.metadata.resourceVersion;
});

afterAll(async () => {
  await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/api/v1/namespaces/${ns}` });
});

describe('CBOR from the real server', () => {
  it('decodes a ConfigMap to the same value as its JSON', async () => {
    const json = await kubeJson<ConfigMap>({ context: TEST_CONTEXT, path });
    const { bytes, contentType } = await bytesOf(path, 'application/cbor');
    expect(contentType).toBe('application/cbor');
    expect(Array.from(bytes.subarray(0, 3))).toEqual([0xd9, 0xd9, 0xf7]);
    const decoded = decodeCbor(bytes);
    if (!decoded.ok) throw new Error(decoded.error);
    expect((decoded.value as ConfigMap).metadata.resourceVersion).toBe(json.metadata.resourceVersion);
    expect(decoded.value).toEqual(json);
    // []byte arrives in tag 22 and is shown as the base64 JSON would carry, with its path noted.
    expect(decoded.bytesAt).toEqual(['binaryData.blob']);
  });

  it('splits a CBOR watch (application/cbor-seq) into events whose objects decode', async () => {
    // Accept application/cbor on a watch; the server answers application/cbor-seq (asking for
    // cbor-seq itself is refused with 406).
    const { bytes, contentType } = await readWatch(
      `/api/v1/namespaces/${ns}/configmaps?watch=1&fieldSelector=metadata.name=${name}&resourceVersion=${rvBefore}`,
      'application/cbor',
      () => patch({ step: 'cbor' }),
      (b) => decodeCborSeq(b).items.some((i) => i.decoded.ok && (i.decoded.value as { object: ConfigMap }).object.data?.step === 'cbor'),
    );
    expect(contentType).toBe('application/cbor-seq');
    const seq = decodeCborSeq(bytes);
    expect(seq.error).toBeUndefined();
    expect(seq.items.length).toBeGreaterThan(0);
    for (const item of seq.items) {
      if (!item.decoded.ok) throw new Error(item.decoded.error);
      const ev = item.decoded.value as { type: string; object: ConfigMap };
      expect(ev.type).toBe('MODIFIED');
      expect(ev.object.metadata.name).toBe(name);
      expect(ev.object.binaryData).toEqual({ blob: 'AAEC/w==' });
    }
    // A running watch cut mid-item leaves the rest for later, not an error.
    const cut = decodeCborSeq(bytes.subarray(0, bytes.length - 3));
    expect(cut.items.length).toBe(seq.items.length - 1);
    expect(cut.rest).toBeGreaterThan(0);
    expect(cut.error).toBeUndefined();
  });
});

describe('protobuf from the real server', () => {
  it('reads the envelope and the ConfigMap fields by number', async () => {
    const json = await kubeJson<ConfigMap>({ context: TEST_CONTEXT, path });
    const { bytes, contentType } = await bytesOf(path, 'application/vnd.kubernetes.protobuf');
    expect(contentType).toBe('application/vnd.kubernetes.protobuf');
    const env = decodeK8sEnvelope(bytes);
    if (!env.ok) throw new Error(env.error);
    expect(env.value.apiVersion).toBe('v1');
    expect(env.value.kind).toBe('ConfigMap');
    const decoded = decodeK8sProtobuf(bytes);
    if (!decoded.ok) throw new Error(decoded.error);
    const fields = decoded.value.fields;
    expect(fieldText(fieldAt(fields, [1, 1]))).toBe(name); // ObjectMeta.name
    expect(fieldText(fieldAt(fields, [1, 3]))).toBe(ns); // ObjectMeta.namespace
    expect(fieldText(fieldAt(fields, [1, 6]))).toBe(json.metadata.resourceVersion); // ObjectMeta.resourceVersion
    expect(new Map(entries(fields, 2))).toEqual(new Map(Object.entries(json.data!)));
    // binaryData (3) values are bytes 00 01 02 ff: neither a message nor text.
    const blob = fieldAt(fields.filter((f) => f.fieldNumber === 3), [3, 2]);
    expect(blob?.value).toEqual({ type: 'bytes', hex: '00 01 02 ff', length: 4 });
  });

  it('frames a protobuf watch stream into events whose objects decode', async () => {
    const { bytes, contentType } = await readWatch(
      `/api/v1/namespaces/${ns}/configmaps?watch=1&fieldSelector=metadata.name=${name}&resourceVersion=${rvBefore}`,
      'application/vnd.kubernetes.protobuf;stream=watch',
      () => patch({ step: 'protobuf' }),
      (b) => decodeProtobufWatch(b).events.some((e) => e.object.ok && entries(e.object.value.fields, 2).some(([k, v]) => k === 'step' && v === 'protobuf')),
    );
    expect(contentType).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    const w = decodeProtobufWatch(bytes);
    expect(w.error).toBeUndefined();
    expect(w.rest).toBe(0);
    expect(w.events.length).toBeGreaterThan(0);
    for (const ev of w.events) {
      expect(ev.type).toBe('MODIFIED');
      if (!ev.object.ok) throw new Error(ev.object.error);
      expect(ev.object.value.envelope.kind).toBe('ConfigMap');
      expect(fieldText(fieldAt(ev.object.value.fields, [1, 1]))).toBe(name);
    }
    // A frame still arriving is left as rest.
    const cut = decodeProtobufWatch(bytes.subarray(0, bytes.length - 5));
    expect(cut.events.length).toBe(w.events.length - 1);
    expect(cut.rest).toBeGreaterThan(0);
  });
});

describe('malformed input gives an error result', () => {
  it('protobuf without the magic, or cut short', async () => {
    const json = await bytesOf(path, 'application/json');
    const noMagic = decodeK8sEnvelope(json.bytes);
    expect(noMagic.ok).toBe(false);
    if (!noMagic.ok) expect(noMagic.error).toMatch(/magic/);
    const { bytes } = await bytesOf(path, 'application/vnd.kubernetes.protobuf');
    const cut = decodeK8sProtobuf(bytes.subarray(0, bytes.length - 40));
    expect(cut.ok).toBe(false);
    if (!cut.ok) expect(cut.error).toMatch(/runs past the end|truncated/);
    expect(decodeK8sEnvelope(new Uint8Array()).ok).toBe(false);
    // Wire type 3 (group) and a varint that never ends.
    expect(decodeProtobufFields(new Uint8Array([0x0b])).ok).toBe(false);
    expect(decodeProtobufFields(new Uint8Array([0x08, 0xff, 0xff])).ok).toBe(false);
  });

  it('CBOR cut short, with extra bytes, or with a stray break', async () => {
    const { bytes } = await bytesOf(path, 'application/cbor');
    const cut = decodeCbor(bytes.subarray(0, bytes.length - 1));
    expect(cut.ok).toBe(false);
    if (!cut.ok) expect(cut.error).toMatch(/Truncated/);
    const extra = new Uint8Array(bytes.length + 1);
    extra.set(bytes);
    const ex = decodeCbor(extra);
    expect(ex.ok).toBe(false);
    if (!ex.ok) expect(ex.error).toMatch(/Extra bytes/);
    expect(decodeCbor(new Uint8Array([0xff])).ok).toBe(false);
    expect(decodeCbor(new Uint8Array()).ok).toBe(false);
    const seq = decodeCborSeq(new Uint8Array([0x01, 0xff, 0x02]));
    expect(seq.items.length).toBe(1);
    expect(seq.error).toMatch(/break/);
  });
});

describe('schema-less protobuf details', () => {
  it('keeps large varints exact as text and limits depth', () => {
    // field 1 varint 2^64-1
    const big = decodeProtobufFields(new Uint8Array([0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]));
    expect(big.ok && big.value[0]!.value).toEqual({ type: 'varint', value: '18446744073709551615' });
    // field 1 { field 1 { field 1 varint 5 } }
    const nested = new Uint8Array([0x0a, 0x04, 0x0a, 0x02, 0x08, 0x05]);
    const deep = decodeProtobufFields(nested);
    expect(deep.ok && fieldAt(deep.value, [1, 1, 1])?.value).toEqual({ type: 'varint', value: 5 });
    const shallow = decodeProtobufFields(nested, { maxDepth: 1 });
    expect(shallow.ok && fieldAt(shallow.value, [1, 1])?.value.type).toBe('bytes');
  });
});

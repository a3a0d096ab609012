// The codecs against golden bytes captured from the real control plane by
// tools/capture-fixtures.ts: every format of one object, read at one resourceVersion, must decode
// to what its JSON says. Pure: no server, only the files.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeCbor, decodeCborSeq, encodeCbor } from './cbor';
import { decodeBytes, detectFormat } from './detect';
import { toKyaml } from './kyaml';
import { decodeK8sEnvelope, K8S_MAGIC, decodeK8sObject, decodeK8sWatch, encodeK8sObject, type K8sSchema, loadK8sSchema, withBinaryBytes, writeMessage } from './protobuf';
import { parseYaml } from './text';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
interface Entry {
  file: string;
  set: string;
  format: string;
  status: number;
  contentType: string;
}
const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { kubernetes: string; fixtures: Entry[] };
const bytes = (file: string) => new Uint8Array(readFileSync(join(dir, file)));
const text = (file: string) => readFileSync(join(dir, file), 'utf8');
const json = (file: string) => JSON.parse(text(file)) as Record<string, unknown>;
const bySet = new Map<string, Map<string, Entry>>();
for (const e of manifest.fixtures) {
  if (!bySet.has(e.set)) bySet.set(e.set, new Map());
  bySet.get(e.set)!.set(e.format, e);
}
const sets = (a: string, b: string) => [...bySet.entries()].filter(([, m]) => m.get(a)?.status === 200 && m.get(b)?.status === 200).map(([s, m]) => [s, m.get(a)!, m.get(b)!] as const);

let schema: K8sSchema;
beforeAll(async () => {
  schema = await loadK8sSchema();
});

describe('fixtures', () => {
  it('cover the kinds and formats the codecs must read', () => {
    const names = [...bySet.keys()];
    for (const s of ['configmap', 'secret', 'service', 'deployment', 'pod', 'node', 'namespace', 'event', 'event-v1', 'crd', 'widget', 'list-pods', 'list-widgets', 'table-pods', 'pom-configmaps', 'watch-configmaps']) expect(names).toContain(s);
    expect(sets('json', 'pb').length).toBeGreaterThanOrEqual(20);
    expect(sets('json', 'cbor').length).toBeGreaterThanOrEqual(22);
  });
});

describe('Protobuf with the schemas', () => {
  it.each(sets('json', 'pb'))('%s decodes to exactly its JSON form', (_set, j, p) => {
    const d = decodeK8sObject(schema, bytes(p.file));
    if (!d.ok) throw new Error(d.error);
    expect(d.value.object).toEqual(json(j.file));
  });

  it('keeps a Secret\'s binary data as the base64 JSON carries', () => {
    const d = decodeK8sObject(schema, bytes('secret.pb'));
    if (!d.ok) throw new Error(d.error);
    expect((d.value.object as { data: Record<string, string> }).data.bin).toBe('AAEC/f7/');
  });

  it('tells a custom resource apart: the server refuses protobuf for it (406)', () => {
    expect(bySet.get('widget')!.get('pb')!.status).toBe(406);
  });

  it('refuses a body without the k8s magic, saying so', () => {
    const d = decodeK8sObject(schema, bytes('configmap.json'));
    expect(d.ok).toBe(false);
    expect(!d.ok && d.error).toMatch(/magic bytes 6b 38 73 00/);
  });

  it('falls back to field numbers for a kind the schemas do not know, and says so', () => {
    const env = decodeK8sEnvelope(bytes('configmap.pb'));
    if (!env.ok) throw new Error(env.error);
    const unknown = schema.root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
    const renamed = writeMessage(unknown, { typeMeta: { apiVersion: 'example.com/v9', kind: 'Gadget' }, raw: env.value.raw, contentEncoding: '', contentType: '' }).finish();
    const body = new Uint8Array([...K8S_MAGIC, ...renamed]);
    const d = decodeK8sObject(schema, body);
    if (!d.ok) throw new Error(d.error);
    expect(d.value.object).toBeUndefined();
    expect(d.value.fields?.map((f) => f.fieldNumber)).toContain(1);
    const cli = decodeBytes(schema, body);
    expect(cli.ok && cli.value.notes.join()).toMatch(/by number only/);
  });

  it('reads a protobuf watch stream as the same events as the JSON watch', () => {
    const events = text('watch-configmaps.json').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    const w = decodeK8sWatch(schema, bytes('watch-configmaps.pb'));
    expect(w.error).toBeUndefined();
    expect(w.rest).toBe(0);
    expect(w.events.map((e) => ({ type: e.type, object: e.object.object }))).toEqual(events);
    expect(events.length).toBeGreaterThanOrEqual(4);
  });

  it.each(sets('json', 'pb').filter(([s]) => !s.startsWith('pom')))('%s encodes back to a body that decodes to the same object', (_set, j) => {
    const obj = json(j.file);
    if (Array.isArray(obj.items)) return; // lists are read, never written
    const enc = encodeK8sObject(schema, obj);
    if (!enc.ok) throw new Error(enc.error);
    const d = decodeK8sObject(schema, enc.value);
    if (!d.ok) throw new Error(d.error);
    expect(d.value.object).toEqual(obj);
  });

  it('refuses to encode a field the schema has no place for, naming it', () => {
    const obj = { ...json('configmap.json'), dta: { typo: 'x' } };
    const enc = encodeK8sObject(schema, obj);
    expect(enc.ok).toBe(false);
    expect(!enc.ok && enc.error).toMatch(/^dta: not a field of ConfigMap/);
  });

  it('refuses to encode a custom resource as protobuf, pointing to JSON', () => {
    const enc = encodeK8sObject(schema, json('widget.json'));
    expect(!enc.ok && enc.error).toMatch(/no protobuf schema.*send it as JSON/);
  });
});

describe('CBOR through cbor-x', () => {
  it.each(sets('json', 'cbor'))('%s decodes to exactly its JSON form', (_set, j, c) => {
    const d = decodeCbor(bytes(c.file));
    if (!d.ok) throw new Error(d.error);
    expect(d.value).toEqual(json(j.file));
  });

  it('reads a cbor-seq watch as the same events as the JSON watch', () => {
    const events = text('watch-configmaps.json').trim().split('\n').map((l) => JSON.parse(l) as unknown);
    const seq = decodeCborSeq(bytes('watch-configmaps.cbor'));
    expect(seq.rest).toBe(0);
    expect(seq.items.map((i) => (i.decoded.ok ? i.decoded.value : i.decoded.error))).toEqual(events);
  });

  it('encodes an object self-described, []byte fields in tag 22, and it reads back equal', () => {
    const obj = json('configmap.json');
    const body = encodeCbor(withBinaryBytes(schema, obj));
    expect(decodeCbor(body).ok && (decodeCbor(body) as { bytesAt: string[] }).bytesAt).toEqual(['binaryData.blob']);
    expect([...body.subarray(0, 3)]).toEqual([0xd9, 0xd9, 0xf7]);
    const d = decodeCbor(body);
    expect(d.ok && d.value).toEqual(obj);
  });
});

describe('KYAML', () => {
  it.each([...bySet.entries()].filter(([, m]) => m.has('kyaml')).map(([s, m]) => [s, m.get('json')!, m.get('kyaml')!] as const))('%s equals kubectl get -o kyaml byte for byte', (_set, j, k) => {
    // kubectl leaves managedFields out unless --show-managed-fields.
    const obj = json(j.file) as { metadata: Record<string, unknown> };
    delete obj.metadata.managedFields;
    expect(toKyaml(obj)).toBe(text(k.file));
  });

  it('reads back through the YAML parser as the same object', () => {
    const obj = json('configmap.json');
    const p = parseYaml(toKyaml(obj));
    expect(p.ok && p.value).toEqual(obj);
  });
});

describe('decode command: format detection and errors with offsets', () => {
  const cases: [string, string][] = [
    ['configmap.pb', 'protobuf'],
    ['watch-configmaps.pb', 'protobuf-watch'],
    ['configmap.cbor', 'cbor'],
    ['watch-configmaps.cbor', 'cbor-seq'],
    ['configmap.json', 'json'],
    ['watch-configmaps.json', 'ndjson'],
    ['configmap.yaml', 'yaml'],
  ];
  it.each(cases)('%s is read as %s and decodes to the JSON form', (file, format) => {
    const r = decodeBytes(schema, bytes(file));
    if (!r.ok) throw new Error(r.error);
    expect(r.value.format).toBe(format);
    if (r.value.watch) expect(r.value.values).toEqual(text('watch-configmaps.json').trim().split('\n').map((l) => JSON.parse(l) as unknown));
    else expect(r.value.values[0]).toEqual(json('configmap.json'));
  });

  it.each(cases)('%s cut short gives an error with a byte offset, not a partial result', (file) => {
    const b = bytes(file);
    const cut = b.subarray(0, Math.floor(b.length * 0.7));
    const r = decodeBytes(schema, cut);
    if (file.endsWith('.yaml')) {
      // Cut YAML is often still YAML; what matters is that it never equals the whole object.
      if (r.ok) expect(r.value.values[0]).not.toEqual(json('configmap.json'));
      return;
    }
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/offset \d+/);
  });

  it.each([
    ['configmap.pb', 5, 0xff],
    ['configmap.cbor', 3, 0xfc],
    ['configmap.json', -1, 0x2c],
  ] as const)('%s corrupted at byte %i is refused with the offset', (file, where, value) => {
    const b = new Uint8Array(bytes(file));
    // -1: the first ':' of the JSON (a key without its value).
    const at = where >= 0 ? where : b.indexOf(0x3a);
    b[at] = value;
    const r = decodeBytes(schema, b);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/offset \d+/);
  });

  it('detects nothing in random binary', () => {
    expect(detectFormat(new Uint8Array([0x00, 0xff, 0x13, 0x37]))).toBeUndefined();
  });
});

// The Encodings view's readers against what the real server writes: a custom resource holding
// int64 values beyond 2^53 (a typed int64 field and preserve-unknown-fields ones, at both ends of
// the range) reads the same from the server's JSON, YAML and CBOR, digit for digit, and the view
// finds no difference between them. Before, JSON rounded them, CBOR made them text, and the
// comparison threw on the bigints YAML read.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../codecs/detect';
import { toJson } from '../../codecs/json';
import { type K8sSchema, loadK8sSchema } from '../../codecs/protobuf';
import { kubeFetch, kubeJson } from '../../k8s/client';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { differences } from './compare';
import { FORMAT_CODECS } from '../../codecs/formatCodecs';
import { WIRE_FORMATS } from '../../codecs/formats';

type FormatLabel = 'JSON' | 'YAML' | 'CBOR';
const decodeFormat = (label: FormatLabel, bytes: Uint8Array, schema: K8sSchema) => FORMAT_CODECS[WIRE_FORMATS.find((f) => f.label === label)!.id].decode(bytes, schema);

const ns = `enc-exact-${randomBytes(3).toString('hex')}`;
const group = `e${randomBytes(3).toString('hex')}.example.com`;
const objectPath = `/apis/${group}/v1/namespaces/${ns}/counters/big`;
const json = <T>(method: string, path: string, body?: string) => kubeJson<T>({ context: TEST_CONTEXT, method, path, body });
const SPEC = { count: 9007199254740993n, free: { max: 9223372036854775807n, min: -9223372036854775808n, raw: 1234567890123456789n, small: 7, ratio: 0.5 } };

beforeAll(async () => {
  useRealProxy();
  await json('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
  const properties = { spec: { type: 'object', properties: { count: { type: 'integer', format: 'int64' }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } };
  const versions = [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties } } }];
  await json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', JSON.stringify({ metadata: { name: `counters.${group}` }, spec: { group, scope: 'Namespaced', names: { plural: 'counters', kind: 'Counter' }, versions } }));
  // The exact digits as text: no parser of ours between the test and the server.
  const text = toJson({ apiVersion: `${group}/v1`, kind: 'Counter', metadata: { name: 'big' }, spec: SPEC });
  for (let i = 0; ; i++) {
    try {
      await json('POST', `/apis/${group}/v1/namespaces/${ns}/counters`, text);
      break;
    } catch (e) {
      // Until the new CRD is served.
      if (i > 100) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}, 60_000);

afterAll(async () => {
  await json('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/counters.${group}`).catch(() => undefined);
  await json('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

const ACCEPT: Partial<Record<FormatLabel, string>> = { JSON: 'application/json', YAML: 'application/yaml', CBOR: 'application/cbor' };

async function read(label: FormatLabel): Promise<Uint8Array> {
  const res = await kubeFetch({ context: TEST_CONTEXT, path: objectPath, headers: { Accept: ACCEPT[label]! } });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe('int64 beyond 2^53 in every format the server writes', () => {
  it('JSON, YAML and CBOR read to the same values, digit for digit, and the view finds no difference', async () => {
    const schema = await loadK8sSchema();
    const values = new Map<FormatLabel, unknown>();
    for (const label of ['JSON', 'YAML', 'CBOR'] as const) {
      const bytes = await read(label);
      const d = decodeFormat(label, bytes, schema);
      if (!('value' in d)) throw new Error(`${label}: ${d.error}`);
      expect((d.value as { spec: unknown }).spec, label).toEqual(SPEC);
      values.set(label, d.value);
      // `npm run decode` reads the same bytes alike.
      const r = decodeBytes(schema, bytes);
      expect(r.ok && r.value.values[0], `decodeBytes, ${label}`).toEqual(d.value);
    }
    expect(differences(values.get('JSON'), values.get('YAML'))).toEqual([]);
    expect(differences(values.get('JSON'), values.get('CBOR'))).toEqual([]);
  });
});

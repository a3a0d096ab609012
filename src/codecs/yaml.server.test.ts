// The YAML codec against the real server (which reads YAML 1.1): what toYaml writes comes back as
// the same strings, in a ConfigMap and in a custom resource that preserves unknown fields; and
// where the reader warns that the server reads a plain scalar otherwise, the server does.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson } from '../k8s/client';
import { TEST_CONTEXT, useRealProxy } from '../k8s/testing';
import { fromYaml, serverScalar, toYaml, yamlVersionDifferences } from './yaml';

const ns = `yaml-${randomBytes(3).toString('hex')}`;
const group = `y${randomBytes(3).toString('hex')}.example.com`;
const APPLY = 'application/apply-patch+yaml';
const json = <T = Record<string, unknown>>(method: string, path: string, body?: string, headers?: Record<string, string>, query?: Record<string, string>) => kubeJson<T>({ context: TEST_CONTEXT, method, path, query, headers, body });

// The words of the issue, plus empty, multi-line and unicode strings.
const WORDS = ['yes', 'no', 'on', 'off', 'y', 'n', 'Yes', 'NO', 'True', '~', 'null', '0x10', '012', '1e3', '.inf', '1_000', '2026-11-23', '12:30', '', 'first line\nsecond line\n', 'ünïcödé ✓ 日本語', '0b101', '0o17', '+12', '.NaN'];
const data = Object.fromEntries(WORDS.map((w, i) => [`k${i}`, w]));
const crPath = (name: string) => `/apis/${group}/v1/namespaces/${ns}/bags/${name}`;

beforeAll(async () => {
  useRealProxy();
  await json('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
  await json(
    'POST',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    JSON.stringify({
      metadata: { name: `bags.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'bags', singular: 'bag', kind: 'Bag', listKind: 'BagList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
      },
    }),
  );
  // Served once the CRD is Established.
  for (let i = 0; ; i++) {
    try {
      await json('GET', `/apis/${group}/v1/namespaces/${ns}/bags`);
      break;
    } catch (e) {
      if (i > 100) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});

afterAll(async () => {
  await json('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/bags.${group}`).catch(() => undefined);
  await json('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

describe('toYaml through the real server', () => {
  it('ConfigMap data: every word is read back as the same string', async () => {
    const body = toYaml({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'words' }, data });
    const stored = await json<{ data: Record<string, string> }>('PATCH', `/api/v1/namespaces/${ns}/configmaps/words`, body, { 'Content-Type': APPLY }, { fieldManager: 'yaml-test' });
    expect(stored.data).toEqual(data);
    expect((await json<{ data: Record<string, string> }>('GET', `/api/v1/namespaces/${ns}/configmaps/words`)).data).toEqual(data);
  });

  it('a preserve-unknown-fields custom resource: every word stays a string (as a value and as a key)', async () => {
    const keys = Object.fromEntries(WORDS.filter((w) => w && !w.includes('\n')).map((w) => [w, 'v']));
    const body = toYaml({ apiVersion: `${group}/v1`, kind: 'Bag', metadata: { name: 'words' }, spec: { data, keys, list: WORDS } });
    const stored = await json<{ spec: unknown }>('PATCH', crPath('words'), body, { 'Content-Type': APPLY }, { fieldManager: 'yaml-test' });
    expect(stored.spec).toEqual({ data, keys, list: WORDS });
  });
});

describe('yamlVersionDifferences against what the server reads', () => {
  // Plain scalars whose JSON value the server can store (not .inf/.nan: JSON has no infinities).
  const PLAIN = ['yes', 'no', 'on', 'off', 'y', 'n', 'Yes', 'NO', 'True', '~', 'null', 'Null', '0x10', '012', '1e3', '1_000', '2026-11-23', '12:30', '0b101', '0o17', '+12', '09', '.5', 'plain'];

  it('every plain scalar is stored as serverScalar predicts, and flagged exactly when that differs from YAML 1.2', async () => {
    const lines = PLAIN.map((w, i) => `    k${i}: ${w}`).join('\n');
    const text = `apiVersion: ${group}/v1\nkind: Bag\nmetadata:\n  name: plain\nspec:\n  data:\n${lines}\n`;
    const stored = await json<{ spec: { data: Record<string, unknown> } }>('PATCH', crPath('plain'), text, { 'Content-Type': APPLY }, { fieldManager: 'yaml-test' });
    const flagged = new Set(yamlVersionDifferences(text).map((d) => d.source));
    for (const [i, w] of PLAIN.entries()) {
      const server = stored.spec.data[`k${i}`];
      expect([w, server]).toEqual([w, serverScalar(w)]);
      // js-yaml's YAML 1.2 reading differs from the server's exactly for the flagged ones.
      const yaml12 = (fromYaml(`v: ${w}`) as { v: unknown }).v;
      const differs = JSON.stringify(server) !== JSON.stringify(yaml12);
      expect([w, flagged.has(w)]).toEqual([w, differs]);
    }
  });

  it('a ConfigMap sent with a plain `yes` gets the server’s error; the codec flags that line beforehand', async () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain-yes\ndata:\n  a: yes\n';
    expect(yamlVersionDifferences(text).map((d) => d.line)).toEqual([6]);
    await expect(json('PATCH', `/api/v1/namespaces/${ns}/configmaps/plain-yes`, text, { 'Content-Type': APPLY }, { fieldManager: 'yaml-test' })).rejects.toMatchObject({ httpStatus: expect.any(Number) });
  });
});

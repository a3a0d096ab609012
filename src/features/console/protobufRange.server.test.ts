// Console Protobuf bodies in range (issue 41, case 8, and the __proto__ / int64 low items), against
// the real server: a value outside its field's integer range is refused at its line, naming the
// field, as the server refuses the same JSON (400); it was wrapped (replicas 4294967297 stored as
// 1). A ConfigMap key `__proto__` goes out and is stored (an assignment dropped it); an int64 beyond
// 2^53 goes out exactly, or is refused by range, never with a raw JavaScript error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type K8sSchema, loadK8sSchema } from '../../codecs/protobuf';
import { kubeFetch, kubeJson } from '../../k8s/client';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { encodeRequestBody } from './binaryBody';

const ns = `pbrange-${Date.now().toString(36)}`;
const PB = 'application/vnd.kubernetes.protobuf';
let schema: K8sSchema;

async function send(method: string, path: string, contentType: string, body: Uint8Array | string): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await kubeFetch({ context: TEST_CONTEXT, method, path, headers: { 'Content-Type': contentType, Accept: 'application/json' }, body: body as BodyInit });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const deployment = (name: string, replicas: string) =>
  `{
  "apiVersion": "apps/v1",
  "kind": "Deployment",
  "metadata": {"name": "${name}", "namespace": "${ns}"},
  "spec": {
    "replicas": ${replicas},
    "selector": {"matchLabels": {"app": "${name}"}},
    "template": {"metadata": {"labels": {"app": "${name}"}}, "spec": {"containers": [{"name": "app", "image": "registry.k8s.io/pause:3.10"}]}}
  }
}
`;

beforeAll(async () => {
  useRealProxy();
  schema = await loadK8sSchema();
  await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
});

afterAll(async () => {
  await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/api/v1/namespaces/${ns}` }).catch(() => undefined);
});

describe('console Protobuf bodies against the server', () => {
  const collection = `/apis/apps/v1/namespaces/${ns}/deployments`;

  it('an int32 out of range is refused at its line, as the server refuses the JSON', async () => {
    for (const replicas of ['4294967297', '-2147483649', '9007199254740993']) {
      const text = deployment('wrap', replicas);
      expect((await send('POST', `${collection}?dryRun=All`, 'application/json', text)).status).toBe(400);
      const enc = encodeRequestBody(text, PB, schema);
      // Before: encoded (wrapped), and the server stored replicas 1.
      expect(enc).toEqual({ kind: 'error', error: expect.stringMatching(new RegExp(`^line 6: spec\\.replicas: ${replicas} is out of the range of a int32`)) as unknown });
    }
    // In range, it goes out and is stored as written.
    const enc = encodeRequestBody(deployment('edge', '2147483647'), PB, schema);
    expect(enc.kind).toBe('binary');
    const stored = await send('POST', `${collection}?dryRun=All`, PB, (enc as { bytes: Uint8Array }).bytes);
    expect([stored.status, (stored.json.spec as { replicas: number }).replicas]).toEqual([201, 2147483647]);
  });

  it('an int64 beyond 2^53 goes out exactly; beyond int64, refused at its line', async () => {
    const pod = (v: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  namespace: ${ns}\nspec:\n  terminationGracePeriodSeconds: ${v}\n  containers:\n  - name: app\n    image: registry.k8s.io/pause:3.10\n`;
    const enc = encodeRequestBody(pod('9007199254740993'), PB, schema);
    expect(enc.kind).toBe('binary');
    const res = await kubeFetch({ context: TEST_CONTEXT, method: 'POST', path: `/api/v1/namespaces/${ns}/pods?dryRun=All`, headers: { 'Content-Type': PB, Accept: 'application/json' }, body: (enc as { bytes: Uint8Array }).bytes as BodyInit });
    expect(res.status).toBe(201);
    expect(await res.text()).toContain('"terminationGracePeriodSeconds":9007199254740993');
    // Before: "Do not know how to serialize a BigInt" (a raw JavaScript error) for a value beyond 2^64.
    expect(encodeRequestBody(pod('18446744073709551616'), PB, schema)).toEqual({ kind: 'error', error: expect.stringMatching(/^line 7: spec\.terminationGracePeriodSeconds: 18446744073709551616 is out of the range of a int64/) as unknown });
  });

  it('a ConfigMap key __proto__ goes out and is stored', async () => {
    const text = `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "proto", "namespace": "${ns}"}, "data": {"__proto__": "kept", "b": "2"}}`;
    const enc = encodeRequestBody(text, PB, schema);
    expect(enc.kind).toBe('binary');
    const stored = await send('POST', `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, PB, (enc as { bytes: Uint8Array }).bytes);
    expect(stored.status).toBe(201);
    expect(JSON.stringify(stored.json.data)).toBe('{"__proto__":"kept","b":"2"}');
  });
});

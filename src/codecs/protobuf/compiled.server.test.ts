// The compiled Pod decoders and the lazy list reader on bytes from the real control plane: a
// Pod list read as JSON and as Protobuf at one resourceVersion must decode to the same object,
// all fields, with Pods that carry int64 (negative and large), int32, quantities in several
// spellings, int-or-string ports, times (status written through the status subresource) and
// managedFields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeFetch, kubeJson } from '../../k8s/client';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { decodeK8sListLazily, decodeK8sObject, type K8sSchema, loadK8sSchema, openLazyItem } from '.';

const ns = `compiled-${Date.now().toString(36)}`;
const PB = 'application/vnd.kubernetes.protobuf';
let schema: K8sSchema;

async function get(path: string, accept: string): Promise<Uint8Array> {
  const res = await kubeFetch({ context: TEST_CONTEXT, path, headers: { Accept: accept } });
  if (res.status !== 200) throw new Error(`GET ${path} (${accept}): ${res.status} ${await res.text()}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function send(method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await kubeFetch({ context: TEST_CONTEXT, method, path, headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) });
  const out = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(out)}`);
  return out;
}

const richPod = (name: string, i: number) => ({
  metadata: { name, labels: { app: 'compiled' }, annotations: { 'example.com/note': 'värde ünïcode '.repeat(10 + i) } },
  spec: {
    activeDeadlineSeconds: 2 ** 31 - 1,
    terminationGracePeriodSeconds: 0,
    securityContext: { runAsUser: 2 ** 31 - 1, runAsGroup: 0, fsGroup: 1, supplementalGroups: [0, 1, 2 ** 31 - 1] },
    // tolerationSeconds is an int64 the server takes whole: negative, and past 2^32 up to 2^53.
    tolerations: [
      { key: 'a', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: -5 - i },
      { key: 'b', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 2 ** 53 - 1 - i },
    ],
    containers: [
      {
        name: 'app',
        image: 'registry.k8s.io/pause:3.10',
        ports: [{ name: 'http', containerPort: 65535 }],
        resources: { requests: { cpu: '1.5', memory: '0.5Gi', 'example.com/dongle': '3' }, limits: { cpu: '2000m', memory: '1e9', 'example.com/dongle': '3' } },
        env: [{ name: 'CPU', valueFrom: { resourceFieldRef: { resource: 'limits.cpu', divisor: '1m' } } }],
        readinessProbe: { httpGet: { path: '/', port: 'http' }, periodSeconds: 10 },
        livenessProbe: { tcpSocket: { port: 8080 }, failureThreshold: 2_147_483_647 },
      },
    ],
    volumes: [{ name: 'scratch', emptyDir: { sizeLimit: '64Mi' } }],
  },
});

beforeAll(async () => {
  useRealProxy();
  schema = await loadK8sSchema();
  await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
  // The ServiceAccount admission plugin wants the namespace's default ServiceAccount.
  await send('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'default' } }).catch(() => undefined);
  for (let i = 0; i < 3; i++) {
    const pod = await send('POST', `/api/v1/namespaces/${ns}/pods`, richPod(`pod-${i}`, i));
    // A status as a kubelet would write it: times, restart counts, a negative exit code.
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await send('PUT', `/api/v1/namespaces/${ns}/pods/pod-${i}/status`, {
      ...pod,
      status: {
        phase: 'Running',
        startTime: now,
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: now }],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 2 ** 31 - 1, image: 'registry.k8s.io/pause:3.10', imageID: '', lastState: { terminated: { exitCode: -1, startedAt: now, finishedAt: now, reason: 'Error' } }, state: { running: { startedAt: now } } }],
      },
    });
  }
}, 120_000);

afterAll(async () => {
  await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/api/v1/namespaces/${ns}` });
});

describe('a Pod list from the server', () => {
  it('decodes through the compiled decoders, the descriptor walk and the lazy reader to exactly its JSON', async () => {
    const path = `/api/v1/namespaces/${ns}/pods`;
    const first = JSON.parse(new TextDecoder().decode(await get(path, 'application/json'))) as { metadata: { resourceVersion: string } };
    const at = `${path}?resourceVersion=${first.metadata.resourceVersion}&resourceVersionMatch=Exact`;
    const json = JSON.parse(new TextDecoder().decode(await get(at, 'application/json'))) as { items: { metadata: unknown; status: { containerStatuses: { lastState: { terminated: { exitCode: number } } }[] } }[] };
    const pb = await get(at, PB);
    expect(json.items).toHaveLength(3);
    // The values the test is about made it to the server as written.
    expect(json.items[0]!.status.containerStatuses[0]!.lastState.terminated.exitCode).toBe(-1);

    expect(schema.compiled?.['k8s.io.api.core.v1.PodList']).toBeDefined();
    const compiled = decodeK8sObject(schema, pb);
    const walked = decodeK8sObject({ ...schema, compiled: undefined }, pb);
    if (!compiled.ok || !walked.ok) throw new Error('decode failed');
    expect(compiled.value.object).toEqual(json);
    expect(walked.value.object).toEqual(json);

    const lazy = decodeK8sListLazily(schema, pb);
    if (!lazy.ok) throw new Error(lazy.error);
    expect(lazy.value.items.map((i) => i.metadata)).toEqual(json.items.map((i) => i.metadata));
    expect(lazy.value.items.map((i) => openLazyItem(schema, lazy.value, i))).toEqual(json.items);
  });
});

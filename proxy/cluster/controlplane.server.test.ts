// Integration tests of the local control plane started by the Vitest global setup: each asserts
// a property the explorer relies on from a real kube-apiserver.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster, watchEvents } from './cluster.testkit';
import { KUBERNETES_VERSION } from './versions';

const cluster = testCluster(inject('controlPlane'));
const ns = `cp-test-${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  const r = await cluster.request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } });
  expect(r.status).toBe(201);
});

afterAll(async () => {
  await cluster.request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

describe('local control plane', () => {
  it('reports the pinned Kubernetes version at /version', async () => {
    const r = await cluster.request('admin', 'GET', '/version');
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).gitVersion).toBe(KUBERNETES_VERSION);
  });

  it('reads back a ConfigMap the admin created', async () => {
    const created = await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'hello' }, data: { greeting: 'hi' } });
    expect(created.status).toBe(201);
    const got = await cluster.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/hello`);
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body).data).toEqual({ greeting: 'hi' });
  });

  it('lets the restricted user read but answers 403 to its writes', async () => {
    expect((await cluster.request('viewer', 'GET', `/api/v1/namespaces/${ns}/configmaps`)).status).toBe(200);
    const w = await cluster.request('viewer', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'nope' } });
    expect(w.status).toBe(403);
    expect(JSON.parse(w.body)).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
  });

  it('runs the controller manager: a Deployment gets a ReplicaSet', async () => {
    const dep = {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
    };
    expect((await cluster.request('admin', 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, dep)).status).toBe(201);
    let owners: string[] = [];
    for (let i = 0; i < 100 && owners.length === 0; i++) {
      const rs = JSON.parse((await cluster.request('admin', 'GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)).body) as { items: { metadata: { ownerReferences?: { kind: string; name: string }[] } }[] };
      owners = rs.items.flatMap((x) => (x.metadata.ownerReferences ?? []).map((o) => `${o.kind}/${o.name}`));
      if (owners.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(owners).toContain('Deployment/web');
  });

  it('ends a streaming list with the initial-events-end bookmark (etcd supports progress requests)', async () => {
    await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'streamed' } });
    const events = await watchEvents(
      cluster, 'admin',
      `/api/v1/namespaces/${ns}/configmaps?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=`,
      (evs) => evs.some((e) => e.type === 'BOOKMARK' && e.object.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true'),
    );
    const names = events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata?.name);
    expect(names).toContain('streamed');
    const last = events.at(-1);
    expect(last?.type).toBe('BOOKMARK');
    expect(last?.object.metadata?.annotations?.['k8s.io/initial-events-end']).toBe('true');
  });

  it('serves CBOR when asked (CBORServingAndStorage is on)', async () => {
    const r = await cluster.request('admin', 'GET', `/api/v1/namespaces/${ns}`, undefined, { Accept: 'application/cbor' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/cbor');
    // Self-described CBOR tag 55799.
    expect([...r.bytes.subarray(0, 3)]).toEqual([0xd9, 0xd9, 0xf7]);
  });

  it('serves Protobuf with the k8s\\0 envelope', async () => {
    const r = await cluster.request('admin', 'GET', `/api/v1/namespaces/${ns}`, undefined, { Accept: 'application/vnd.kubernetes.protobuf' });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/vnd.kubernetes.protobuf');
    expect([...r.bytes.subarray(0, 4)]).toEqual([0x6b, 0x38, 0x73, 0x00]);
  });

  it('compacts etcd on demand, so that a list at a compacted resourceVersion meets 410 Gone', async () => {
    const created = JSON.parse((await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'old' } })).body) as { metadata: { resourceVersion: string } };
    const oldRv = created.metadata.resourceVersion;
    for (let i = 0; i < 3; i++) await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `newer-${i}` } });
    await cluster.compact();
    // A list at an exact, compacted resourceVersion is served by etcd and must be refused as expired.
    let status = 0;
    for (let i = 0; i < 60 && status !== 410; i++) {
      const r = await cluster.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps?resourceVersion=${oldRv}&resourceVersionMatch=Exact`);
      status = r.status;
      if (status !== 410) await new Promise((res) => setTimeout(res, 500));
    }
    expect(status).toBe(410);
  });
});

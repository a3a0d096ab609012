// The large-cluster seeder at small size, against the real control plane: what it reports is what
// the server then lists, the Pods carry the realistic shape the benchmarks rely on, and a second run
// over the same prefix is harmless (409s are accepted), and the seed can be removed.
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { seedCluster, seedGroup, seedNamespace, unseedCluster } from './seed';
import { testCluster } from './cluster.testkit';

const cluster = testCluster(inject('controlPlane'));
const prefix = `seedt${randomBytes(2).toString('hex')}`;

afterAll(async () => {
  await unseedCluster(cluster.server, cluster.credentials('admin'), prefix);
});

describe('seedCluster', () => {
  it('creates the Pods, namespaces and CRDs it reports, Pending with a scheduling condition', async () => {
    const lines: string[] = [];
    const report = await seedCluster(cluster.server, cluster.credentials('admin'), { pods: 30, namespaces: 3, crds: 2, prefix, concurrency: 8, log: (l) => lines.push(l) });
    expect(report).toMatchObject({ pods: 30, namespaces: 3, crds: 2 });
    expect(report.seconds.total).toBeGreaterThan(0);
    expect(lines.at(-1)).toMatch(/^seeded in [\d.]+ s/);

    let pods = 0;
    for (let i = 0; i < 3; i++) {
      const r = await cluster.request('admin', 'GET', `/api/v1/namespaces/${seedNamespace(prefix, i)}/pods`);
      expect(r.status).toBe(200);
      const items = (JSON.parse(r.body) as { items: { spec: { containers: { env: unknown[] }[] }; status: { phase: string; conditions?: { type: string; status: string }[] } }[] }).items;
      pods += items.length;
      for (const p of items) {
        expect(p.spec.containers).toHaveLength(3);
        expect(p.spec.containers[0]!.env).toHaveLength(6);
        expect(p.status.phase).toBe('Pending');
        expect(p.status.conditions).toContainEqual(expect.objectContaining({ type: 'PodScheduled', status: 'False' }));
      }
    }
    expect(pods).toBe(30);

    const crd = await cluster.request('admin', 'GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.${seedGroup(prefix, 0)}`);
    expect(crd.status).toBe(200);
    // Served: a list of the new kind answers (the CRD's handlers are installed).
    const deadline = Date.now() + 30_000;
    let list = await cluster.request('admin', 'GET', `/apis/${seedGroup(prefix, 0)}/v1/widgets`);
    while (list.status !== 200 && Date.now() < deadline) {
      await new Promise((ok) => setTimeout(ok, 250));
      list = await cluster.request('admin', 'GET', `/apis/${seedGroup(prefix, 0)}/v1/widgets`);
    }
    expect(list.status).toBe(200);
  });

  it('runs again over the same prefix without failing on what exists', async () => {
    const report = await seedCluster(cluster.server, cluster.credentials('admin'), { pods: 30, namespaces: 3, crds: 2, prefix, concurrency: 8, podStatus: false });
    expect(report.pods).toBe(30);
  });
});

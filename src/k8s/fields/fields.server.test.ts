// Ownership trees of managedFields the real API server wrote after Server-Side Apply patches and plain updates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson } from '../client';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { buildOwnershipTree, diffManagedFields, type ManagedFieldsEntry, nodeAt, type OwnershipTree } from '.';

function owners(tree: OwnershipTree, path: string): string[] {
  const node = nodeAt(tree, path);
  if (!node) throw new Error(`no node at ${path}; have ${JSON.stringify(tree.entries.map((e) => e.paths))}`);
  return node.owners.map((o) => `${o.manager}/${o.operation}${o.subresource ? `/${o.subresource}` : ''}`).sort();
}

describe('ownership of real objects', () => {
  const ns = `fields-${Math.random().toString(36).slice(2, 8)}`;

  beforeAll(async () => {
    useRealProxy();
    await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
  });
  afterAll(async () => {
    await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/api/v1/namespaces/${ns}` });
  });

  // JSON is YAML, so an apply patch may be sent as JSON text with the apply-patch+yaml type.
  const apply = (path: string, manager: string, body: unknown) =>
    kubeJson<{ metadata: { managedFields: ManagedFieldsEntry[] } }>({
      context: TEST_CONTEXT,
      method: 'PATCH',
      path,
      query: { fieldManager: manager },
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
      body: JSON.stringify(body),
    });

  it('shows shared, sole and Update ownership of a ConfigMap', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps/shared`;
    const base = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared', namespace: ns } };
    const first = await apply(path, 'alice', { ...base, data: { shared: 'same', a: '1' } });
    await apply(path, 'bob', { ...base, metadata: { ...base.metadata, labels: { team: 'b' } }, data: { shared: 'same', b: '2' } });
    // A merge patch is an Update: carol gets an entry with operation Update.
    await kubeJson({
      context: TEST_CONTEXT,
      method: 'PATCH',
      path,
      query: { fieldManager: 'carol' },
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ data: { c: '3' } }),
    });
    const live = await kubeJson<{ metadata: { managedFields: ManagedFieldsEntry[] } }>({ context: TEST_CONTEXT, path });
    const tree = buildOwnershipTree(live);

    expect(owners(tree, '.data.shared')).toEqual(['alice/Apply', 'bob/Apply']);
    expect(owners(tree, '.data.a')).toEqual(['alice/Apply']);
    expect(owners(tree, '.data.b')).toEqual(['bob/Apply']);
    expect(owners(tree, '.data.c')).toEqual(['carol/Update']);
    expect(owners(tree, '.metadata.labels.team')).toEqual(['bob/Apply']);
    expect(owners(tree, '.metadata.uid')).toEqual([]);
    expect(tree.entries.map((e) => e.manager).sort()).toEqual(['alice', 'bob', 'carol']);
    expect(tree.entries.find((e) => e.manager === 'carol')!.paths).toContain('.data.c');
    expect(tree.entries.every((e) => e.unmatched.length === 0 && e.problems.length === 0)).toBe(true);

    const changes = diffManagedFields(first.metadata.managedFields, live.metadata.managedFields);
    expect(changes.find((c) => c.manager === 'alice')!.change).toBe('unchanged');
    expect(changes.find((c) => c.manager === 'carol')).toMatchObject({ change: 'added', gained: ['.data.c'] });
    expect(changes.find((c) => c.manager === 'bob')!.gained).toContain('.metadata.labels.team');
  });

  it('matches containers by their name key in a Deployment', async () => {
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
    const deployment = (containers: { name: string; image: string }[]) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: ns },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers } } },
    });
    await apply(path, 'alice', deployment([{ name: 'nginx', image: 'nginx:1.27' }]));
    await apply(path, 'bob', deployment([{ name: 'sidecar', image: 'busybox:1.36' }]));
    const live = await kubeJson<unknown>({ context: TEST_CONTEXT, path });
    const tree = buildOwnershipTree(live);

    expect(owners(tree, '.spec.template.spec.containers[name="nginx"].image')).toEqual(['alice/Apply']);
    expect(owners(tree, '.spec.template.spec.containers[name="sidecar"].image')).toEqual(['bob/Apply']);
    // Both applied the same selector; LabelSelector is an atomic struct, so the whole of it is shared.
    expect(owners(tree, '.spec.selector')).toEqual(['alice/Apply', 'bob/Apply']);
    expect(owners(tree, '.spec.selector.matchLabels.app')).toEqual([]);
    // Defaults the server filled in belong to no one.
    expect(owners(tree, '.spec.template.spec.containers[name="nginx"].imagePullPolicy')).toEqual([]);
    const alice = tree.entries.find((e) => e.manager === 'alice')!;
    expect(alice.paths).toContain('.spec.template.spec.containers[name="nginx"]');
    expect(alice.paths.some((p) => p.includes('sidecar'))).toBe(false);
  });
});

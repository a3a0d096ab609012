// Atomic maps and lists on the real server: Server-Side Apply records an atomic field as one leaf
// of fieldsV1 (`f:matchLabels: {}`, `f:command: {}`), so its contents are owned by that leaf's
// owner; the tree says so instead of "no manager".
import { afterAll, beforeAll, expect, it } from 'vitest';
import { kubeJson } from '../client';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { buildOwnershipTree, nodeAt } from '.';

const ns = `atomic-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  useRealProxy();
  await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
});
afterAll(async () => {
  await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/api/v1/namespaces/${ns}` });
});

it('gives the contents of atomic fields to the owner of the field', async () => {
  const path = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
  await kubeJson({
    context: TEST_CONTEXT,
    method: 'PATCH',
    path,
    query: { fieldManager: 'alice' },
    headers: { 'Content-Type': 'application/apply-patch+yaml' },
    body: JSON.stringify({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36', command: ['sleep', '3600'] }] } } },
    }),
  });
  const tree = buildOwnershipTree(await kubeJson<unknown>({ context: TEST_CONTEXT, path }));
  const via = (p: string) => {
    const n = nodeAt(tree, p);
    return n ? { own: n.owners.map((o) => o.manager), with: n.ownedWith?.path, by: n.ownedWith?.owners.map((o) => o.manager) } : undefined;
  };
  // LabelSelector is an atomic struct: alice owns .spec.selector whole.
  expect(via('.spec.selector.matchLabels.app')).toEqual({ own: [], with: '.spec.selector', by: ['alice'] });
  // A container's command is an atomic list: its items belong to the owner of .command.
  expect(via('.spec.template.spec.containers[name="c"].command[0]')).toEqual({ own: [], with: '.spec.template.spec.containers[name="c"].command', by: ['alice'] });
  // Granular maps are listed key by key, so their keys keep their own owners.
  expect(via('.spec.template.metadata.labels.app')).toEqual({ own: ['alice'], with: undefined, by: undefined });
  // A default the server filled into a (granular) container is still nobody's.
  expect(via('.spec.template.spec.containers[name="c"].imagePullPolicy')).toEqual({ own: [], with: undefined, by: undefined });
});

// Objects anyone who may create a custom resource can make, opened in the views that walk whole
// objects (Edit, Ownership, Encodings): one nested 3,000 levels deep (the server stores it and
// kubectl prints it; the views overflowed the stack and the page was replaced by "Maximum call
// stack size exceeded"), and one with a 1.4 MiB string (KYAML took minutes on it).
import { expect, test } from './fixtures';

test('a deeply nested custom resource is refused with a reason in Edit, Ownership and Encodings, and a 1.4 MiB string opens', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(120_000);
  const group = `${ns}.example.com`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `hoards.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'hoards', singular: 'hoard', kind: 'Hoard' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
    },
  };
  expect((await kube.request('admin', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
  try {
    const path = `/apis/${group}/v1/namespaces/${ns}/hoards`;
    let deep: Record<string, unknown> = { end: true };
    for (let i = 0; i < 3000; i++) deep = { d: deep };
    const create = (name: string, spec: unknown) => kube.request('admin', 'POST', path, { apiVersion: `${group}/v1`, kind: 'Hoard', metadata: { name }, spec });
    // The CRD is served once it is established.
    await expect.poll(async () => (await create('deep', deep)).status, { timeout: 30_000 }).toBe(201);
    expect((await create('long', { blob: 'k'.repeat(1.4 * 1024 * 1024) })).status).toBe(201);

    const open = (view: string, name: string) => page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view, namespace: ns, group, version: 'v1', resource: 'hoards', name })}`);
    for (const view of ['edit', 'ownership', 'encodings']) {
      await open(view, 'deep');
      await expect(page.getByText(/nested more than 512 levels deep/).first(), view).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText('Something broke in the explorer')).toHaveCount(0);
    }
    await open('encodings', 'long');
    await expect(page.getByRole('table', { name: 'Formats' }).getByRole('row', { name: /KYAML/ })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Something broke in the explorer')).toHaveCount(0);
  } finally {
    await kube.request('admin', 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/hoards.${group}`);
  }
});

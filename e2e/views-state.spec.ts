// Views that know where they are, against the real server: the Encodings view fetches the object
// its route names, an unknown context in the URL is named as unknown, the Edit view edits what it
// just created (a second Send updates it, no 409) and asks RBAC before a write, Welcome leads.
import { cmPath, q, typeObject } from './editor';
import { expect, test } from './fixtures';

test('the Encodings view fetches the object its route names, from a deep link, and Welcome lists it', async ({ page, explorerUrl, kube, ns }) => {
  expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'routed' }, data: { a: '1' } })).status).toBe(201);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'encodings', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'routed' })}`);
  // No click: a GET of four formats is cheap to send again and changes nothing.
  await expect(page.getByRole('table', { name: 'Formats' }).getByLabel('YAML equality')).toHaveText('equal');
  await expect(page.getByRole('textbox', { name: 'Path' })).toHaveValue(cmPath(ns, 'routed'));
  await expect(page).toHaveURL(new RegExp(`p=${encodeURIComponent(cmPath(ns, 'routed')).replace(/%2F/g, '(%2F|/)')}`));

  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'welcome', namespace: ns })}`);
  await expect(page.getByRole('main').getByRole('link', { name: 'Encodings', exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('link').first()).toHaveText('Welcome');
});

test('a context the kubeconfig does not have is named as unknown, with the ones it has', async ({ page, explorerUrl }) => {
  await page.goto(`${explorerUrl}${q({ context: 'no-such-context', view: 'console', m: 'GET', p: '/api/v1/namespaces' })}`);
  const said = page.getByTestId('unknown-context');
  await expect(said).toContainText('There is no context “no-such-context” in this explorer’s kubeconfig');
  await expect(page.getByRole('combobox', { name: 'Context' })).toHaveValue('no-such-context');
  await said.getByRole('link', { name: 'local-admin' }).click();
  await expect(page).toHaveURL(/context=local-admin/);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
});

test('after a 201 the Edit view edits the new object: a second Send updates it instead of a 409', async ({ page, explorerUrl, kube, ns }) => {
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps' })}`);
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText('"kind": "ConfigMap"');
  await typeObject(page, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'twice', namespace: ns }, data: { a: '1' } });
  await page.getByRole('button', { name: 'Send' }).click();
  const status = page.getByRole('region', { name: 'Result' }).getByLabel('Result status');
  await expect(status).toContainText('HTTP 201');
  await expect(page).toHaveURL(/name=twice/);
  await expect(page.getByRole('radio', { name: 'JSON Merge Patch' })).toBeChecked();
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  const now = JSON.parse((await kube.request('admin', 'GET', cmPath(ns, 'twice'))).body) as { metadata: Record<string, unknown> };
  const { managedFields: _, ...meta } = now.metadata;
  await typeObject(page, { ...now, metadata: meta, data: { a: '2' } });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(status).toContainText('HTTP 200');
  expect((JSON.parse((await kube.request('admin', 'GET', cmPath(ns, 'twice'))).body) as { data: unknown }).data).toEqual({ a: '2' });
});

test('the Edit view asks RBAC before a write, as the console does', async ({ page, explorerUrl, kube, ns }) => {
  expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'guarded' }, data: { a: '1' } })).status).toBe(201);
  await page.goto(`${explorerUrl}${q({ context: 'local-viewer', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'guarded' })}`);
  const note = page.getByRole('note', { name: 'Access check' });
  await expect(note).toContainText('Context local-viewer may not patch configmaps');
  await expect(note).toContainText('the server will answer 403 Forbidden');
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'guarded' })}`);
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText('guarded');
  await expect(page.getByRole('note', { name: 'Access check' })).toHaveCount(0);
});

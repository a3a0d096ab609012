// Until the editors exist, the Edit view hands an object's writes to the console, composed and
// dry-run. These requests must really reach the server and leave the object as it was.
import { expect, test } from './fixtures';

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

test('the edit view opens a dry-run server-side apply in the console, and the object stays unchanged', async ({ page, explorerUrl, kube, ns }) => {
  const created = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'target' }, data: { a: '1' } });
  expect(created.status).toBe(201);
  const rv = (JSON.parse(created.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'target' })}`);
  await page.getByRole('link', { name: 'Server-Side Apply' }).click();
  await expect(page.getByLabel('Exact request')).toContainText(`PATCH /api/v1/namespaces/${ns}/configmaps/target?dryRun=All&fieldManager=explorer`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  // The server's answer has the applied label and a new managedFields entry for "explorer"...
  const body = page.getByRole('tabpanel', { name: 'Response body' });
  await page.getByRole('tab', { name: 'Text' }).click();
  await expect(body).toContainText('"explorer.example/touched": "yes"');
  await expect(body).toContainText('"manager": "explorer"');
  // ...but dryRun=All persisted nothing.
  const after = JSON.parse((await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/target`)).body) as { metadata: { resourceVersion: string; labels?: Record<string, string> } };
  expect(after.metadata.resourceVersion).toBe(rv);
  expect(after.metadata.labels).toBeUndefined();
});

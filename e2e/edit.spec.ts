// The Edit view against the real server: optimistic locking on PUT, dry-run previews, Server-Side
// Apply conflicts and fieldValidation. Setup and checks go straight to the API server (kube.request);
// the UI's requests go through the explorer's proxy.
import { cmPath, openEditor, q, typeObject } from './editor';
import { expect, test } from './fixtures';

type Obj = { metadata: { name: string; resourceVersion: string; managedFields?: { manager: string; fieldsV1: unknown }[]; labels?: Record<string, string> }; data?: Record<string, string> } & Record<string, unknown>;

function withoutManaged(o: Obj): Obj {
  const { managedFields: _, ...meta } = o.metadata;
  return { ...o, metadata: meta };
}

async function get(kube: { request: (u: 'admin', m: string, p: string) => Promise<{ body: string }> }, path: string): Promise<Obj> {
  return JSON.parse((await kube.request('admin', 'GET', path)).body) as Obj;
}

test('a PUT with a stale resourceVersion shows 409 Conflict and offers the latest version', async ({ page, explorerUrl, kube, ns }) => {
  const created = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'target' }, data: { a: '1' } });
  expect(created.status).toBe(201);
  await openEditor(page, explorerUrl, ns, 'target');
  await page.getByRole('radio', { name: 'Replace (PUT)' }).check();
  const loaded = withoutManaged(await get(kube, cmPath(ns, 'target')));
  await typeObject(page, { ...loaded, data: { a: 'mine' } });
  await expect(page.getByLabel('Request to send')).toContainText(`"resourceVersion": "${loaded.metadata.resourceVersion}"`);
  // Someone else changes the object after it was loaded in the editor.
  const other = await kube.request('admin', 'PATCH', cmPath(ns, 'target'), { data: { a: 'theirs' } }, { 'Content-Type': 'application/merge-patch+json' });
  expect(other.status).toBe(200);

  await page.getByRole('button', { name: 'Send' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result.getByLabel('Result status')).toContainText('HTTP 409');
  await expect(result.getByRole('alert')).toContainText('409 Conflict');
  await expect(page.getByLabel('Request sent')).toContainText(`PUT /api/v1/namespaces/${ns}/configmaps/target`);
  await result.getByRole('button', { name: 'Load the latest version and compare' }).click();
  const latest = page.getByRole('region', { name: 'Latest version on the server' });
  await expect(latest.getByRole('figure', { name: "Your edit against the server's version" })).toBeVisible();
  // Nothing was overwritten.
  expect((await get(kube, cmPath(ns, 'target'))).data).toEqual({ a: 'theirs' });
});

test('a dry-run merge patch shows the preview and persists nothing', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'target' }, data: { a: '1', gone: 'x' } });
  const before = await get(kube, cmPath(ns, 'target'));
  await openEditor(page, explorerUrl, ns, 'target');
  await page.getByRole('radio', { name: 'JSON Merge Patch' }).check();
  await page.getByRole('checkbox', { name: 'dryRun=All' }).check();
  await typeObject(page, { ...withoutManaged(before), data: { a: '2' } });
  const wire = page.getByLabel('Request to send');
  await expect(wire).toContainText(`PATCH /api/v1/namespaces/${ns}/configmaps/target?dryRun=All&fieldManager=kube-api-explorer-edit`);
  await expect(wire).toContainText('Content-Type: application/merge-patch+json');
  await expect(wire).toContainText('"gone": null');
  await page.getByRole('button', { name: 'Send' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200');
  await expect(result.getByLabel('Result status')).toContainText('dry run');
  await expect(result.getByRole('figure', { name: 'Dry-run preview' }).locator('.monaco-diff-editor')).toBeVisible();
  const after = await get(kube, cmPath(ns, 'target'));
  expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  expect(after.data).toEqual({ a: '1', gone: 'x' });
});

test('a dry-run server-side apply returns the label and persists nothing', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'target' }, data: { a: '1' } });
  const before = await get(kube, cmPath(ns, 'target'));
  await openEditor(page, explorerUrl, ns, 'target');
  await page.getByRole('radio', { name: 'Server-Side Apply' }).check();
  await page.getByRole('checkbox', { name: 'dryRun=All' }).check();
  const m = withoutManaged(before);
  await typeObject(page, { ...m, metadata: { ...m.metadata, labels: { 'explorer.example/touched': 'yes' } } });
  await expect(page.getByLabel('Request to send')).toContainText('Content-Type: application/apply-patch+yaml');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 200');
  const response = page.getByLabel('Response received');
  // (The server indents JSON for browser user agents, so spacing is not fixed.)
  await expect(response).toContainText(/"explorer\.example\/touched":\s*"yes"/);
  await expect(response).toContainText(/"manager":\s*"kube-api-explorer"/);
  const after = await get(kube, cmPath(ns, 'target'));
  expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  expect(after.metadata.labels).toBeUndefined();
});

test('server-side apply conflict names the other manager; force takes the field over', async ({ page, explorerUrl, kube, ns }) => {
  const applied = await kube.request('admin', 'PATCH', `${cmPath(ns, 'target')}?fieldManager=a`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: { shared: 'from-a' } }, { 'Content-Type': 'application/apply-patch+yaml' });
  expect(applied.status).toBe(201);
  const before = await get(kube, cmPath(ns, 'target'));
  await openEditor(page, explorerUrl, ns, 'target');
  await page.getByRole('radio', { name: 'Server-Side Apply' }).check();
  await typeObject(page, { ...withoutManaged(before), data: { shared: 'mine' } });
  await page.getByRole('button', { name: 'Send' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result.getByLabel('Result status')).toContainText('HTTP 409');
  const conflicts = result.getByRole('table', { name: 'Field conflicts' });
  await expect(conflicts.getByRole('row', { name: /\.data\.shared/ })).toContainText('conflict with "a"');
  await expect(conflicts.getByRole('cell', { name: 'a', exact: true })).toBeVisible();

  await result.getByRole('button', { name: 'Re-send with force=true' }).click();
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200');
  await expect(page.getByLabel('Request sent').first()).toContainText('force=true');
  // Force was for that one request: later sends are not forced unless the box is ticked.
  await expect(page.getByRole('checkbox', { name: 'force', exact: true })).not.toBeChecked();
  const after = await get(kube, cmPath(ns, 'target'));
  expect(after.data).toEqual({ shared: 'mine' });
  const owners = (after.metadata.managedFields ?? []).filter((e) => JSON.stringify(e.fieldsV1).includes('f:shared')).map((e) => e.manager);
  expect(owners).toEqual(['kube-api-explorer']);
});

test('fieldValidation: Strict shows the 400 Status, Warn shows the warning', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'target' }, data: { a: '1' } });
  const before = await get(kube, cmPath(ns, 'target'));
  await openEditor(page, explorerUrl, ns, 'target');
  await page.getByRole('radio', { name: 'Replace (PUT)' }).check();
  await typeObject(page, { ...withoutManaged(before), bogus: true });
  await page.getByRole('combobox', { name: 'fieldValidation' }).selectOption('Strict');
  await page.getByRole('button', { name: 'Send' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result.getByLabel('Result status')).toContainText('HTTP 400');
  await expect(result.getByRole('alert')).toContainText('400 BadRequest');
  await expect(result.getByRole('alert')).toContainText('unknown field "bogus"');

  await page.getByRole('combobox', { name: 'fieldValidation' }).selectOption('Warn');
  await page.getByRole('checkbox', { name: 'dryRun=All' }).check();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200');
  await expect(result.getByRole('region', { name: 'Warnings from the server' })).toContainText('unknown field "bogus"');
  expect((await get(kube, cmPath(ns, 'target'))).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
});

test('create mode posts a new object; deleting it while a finalizer holds it shows the deletionTimestamp', async ({ page, explorerUrl, kube, ns }) => {
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps' })}`);
  await expect(page.getByRole('heading', { name: /New ConfigMap/ })).toBeVisible();
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText('"kind": "ConfigMap"');
  await typeObject(page, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'made', namespace: ns, finalizers: ['example.com/hold'] }, data: { a: '1' } });
  await expect(page.getByRole('radio', { name: 'Create (POST)' })).toBeChecked();
  await expect(page.getByLabel('Request to send')).toContainText(`POST /api/v1/namespaces/${ns}/configmaps?fieldManager=kube-api-explorer-edit`);
  await page.getByRole('button', { name: 'Send' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result.getByLabel('Result status')).toContainText('HTTP 201');
  expect((await get(kube, cmPath(ns, 'made'))).data).toEqual({ a: '1' });

  // After the 201 the view edits the new object: its route names it, and the next Send updates it.
  await expect(page).toHaveURL(/name=made/);
  await expect(page.getByTestId('now-editing')).toContainText('the next Send updates it');
  await expect(result.getByLabel('Result status')).toContainText('HTTP 201');
  await page.getByRole('radio', { name: 'Delete' }).check();
  await page.getByRole('combobox', { name: 'propagationPolicy' }).selectOption('Foreground');
  await page.getByRole('checkbox', { name: /precondition uid/ }).check();
  await expect(page.getByLabel('Request to send')).toContainText('"propagationPolicy": "Foreground"');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200');
  await expect(result).toContainText('deletionTimestamp');
  await expect(result).toContainText('example.com/hold');
  const held = await get(kube, cmPath(ns, 'made'));
  expect((held.metadata as { deletionTimestamp?: string }).deletionTimestamp).toBeTruthy();
  await kube.request('admin', 'PATCH', cmPath(ns, 'made'), { metadata: { finalizers: null } }, { 'Content-Type': 'application/merge-patch+json' });
});

test('server-side apply conflict: dropping the conflicting fields applies the rest and leaves them to their owner', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'PATCH', `${cmPath(ns, 'target')}?fieldManager=a`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'target' }, data: { shared: 'from-a' } }, { 'Content-Type': 'application/apply-patch+yaml' });
  const before = await get(kube, cmPath(ns, 'target'));
  await openEditor(page, explorerUrl, ns, 'target');
  await page.getByRole('radio', { name: 'Server-Side Apply' }).check();
  await typeObject(page, { ...withoutManaged(before), data: { shared: 'mine', own: 'x' } });
  await page.getByRole('button', { name: 'Send' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result.getByRole('table', { name: 'Field conflicts' })).toContainText('.data.shared');
  await result.getByRole('button', { name: 'Drop these fields and re-send' }).click();
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200');
  const after = await get(kube, cmPath(ns, 'target'));
  expect(after.data).toEqual({ shared: 'from-a', own: 'x' });
  const owners = (after.metadata.managedFields ?? []).filter((e) => JSON.stringify(e.fieldsV1).includes('f:shared')).map((e) => e.manager);
  expect(owners).toEqual(['a']);
});

test('leaving the Edit view after a dry-run preview raises no "TextModel got disposed" error', async ({ page, explorerUrl, kube, ns }) => {
  // @monaco-editor/react disposed the diff's models before the diff widget, and Monaco threw on
  // every diff that left the page (ui/MonacoDiff.tsx detaches them first).
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'target' }, data: { a: '1' } });
  const before = await get(kube, cmPath(ns, 'target'));
  await openEditor(page, explorerUrl, ns, 'target');
  await page.getByRole('radio', { name: 'JSON Merge Patch' }).check();
  await page.getByRole('checkbox', { name: 'dryRun=All' }).check();
  await typeObject(page, { ...withoutManaged(before), data: { a: '2' } });
  await page.getByRole('button', { name: 'Send' }).click();
  const result = page.getByRole('region', { name: 'Result' });
  await expect(result.getByRole('figure', { name: 'Dry-run preview' }).locator('.monaco-diff-editor')).toBeVisible();
  // Leave for another view (the editor and the diff unmount), then come back and leave again.
  await page.getByRole('link', { name: 'Lists', exact: true }).click();
  await expect(page.getByRole('figure', { name: 'Dry-run preview' })).toHaveCount(0);
  await page.goBack();
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toBeVisible();
  await page.getByRole('link', { name: 'Discovery', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Object' })).toHaveCount(0);
  expect(errors.filter((e) => /disposed/i.test(e))).toEqual([]);
});

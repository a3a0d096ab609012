// Writes that never lose data and never lie, in the Edit view against the real server: two
// Server-Side Applies in a row, the ownership preview, the watched object, guarded patches, and
// bad input that sends nothing.
import type { Page } from '@playwright/test';
import { cmPath, openEditor, q, typeObject } from './editor';
import { expect, test } from './fixtures';

type Obj = { metadata: { name: string; resourceVersion: string; managedFields?: unknown[] }; data?: Record<string, string> } & Record<string, unknown>;

async function get(kube: { request: (u: 'admin', m: string, p: string) => Promise<{ body: string }> }, path: string): Promise<Obj> {
  const o = JSON.parse((await kube.request('admin', 'GET', path)).body) as Obj;
  const { managedFields: _, ...meta } = o.metadata;
  return { ...o, metadata: meta };
}

test('two applies in a row: the first apply’s fields stay, a deleted field is announced and removed, another manager’s field stays', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(120_000);
  // Another manager owns data.o.
  const other = await kube.request('admin', 'PATCH', `${cmPath(ns, 'cfg')}?fieldManager=other`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { o: 'theirs' } }, { 'Content-Type': 'application/apply-patch+yaml' });
  expect(other.status).toBe(201);
  await openEditor(page, explorerUrl, ns, 'cfg');
  await page.getByRole('radio', { name: 'Server-Side Apply' }).check();
  const result = page.getByRole('region', { name: 'Result' });

  // First apply: a and b.
  let live = await get(kube, cmPath(ns, 'cfg'));
  await typeObject(page, { ...live, data: { o: 'theirs', a: '1', b: '2' } });
  await expect(page.getByLabel('Request to send')).toContainText('Content-Type: application/apply-patch+yaml');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200');
  await expect.poll(async () => (await get(kube, cmPath(ns, 'cfg'))).data).toEqual({ o: 'theirs', a: '1', b: '2' });

  // Second apply from the same view: c added. The body still carries a and b (this manager owns them).
  live = await get(kube, cmPath(ns, 'cfg'));
  await expect(page.getByLabel('Loaded resourceVersion')).toHaveText(live.metadata.resourceVersion);
  await typeObject(page, { ...live, data: { ...live.data, c: '3' } });
  const body = page.getByLabel('Request to send');
  // (Edited as JSON, so the apply body is JSON too: JSON is YAML.)
  await expect(body).toContainText('"c": "3"');
  await expect(body).toContainText('"a": "1"');
  await expect(body).toContainText('"b": "2"');
  await expect(body).not.toContainText('theirs');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200');
  await expect.poll(async () => (await get(kube, cmPath(ns, 'cfg'))).data).toEqual({ o: 'theirs', a: '1', b: '2', c: '3' });

  // Third: the user deletes b. The dry-run preview says the server will delete it, before sending.
  live = await get(kube, cmPath(ns, 'cfg'));
  await expect(page.getByLabel('Loaded resourceVersion')).toHaveText(live.metadata.resourceVersion);
  const { b: _b, ...rest } = live.data!;
  await typeObject(page, { ...live, data: rest });
  await page.getByRole('button', { name: 'Preview ownership (dryRun=All)' }).click();
  const preview = page.getByRole('region', { name: 'Ownership preview' });
  await expect(preview.getByRole('list', { name: 'No longer owned' })).toContainText('.data.b');
  await expect(preview.getByRole('list', { name: 'No longer owned' })).toContainText('the server will delete it');
  await expect(page.getByLabel('Request sent').first()).toContainText('dryRun=All');
  // The dry run stored nothing.
  expect((await get(kube, cmPath(ns, 'cfg'))).data).toEqual({ o: 'theirs', a: '1', b: '2', c: '3' });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200');
  await expect.poll(async () => (await get(kube, cmPath(ns, 'cfg'))).data).toEqual({ o: 'theirs', a: '1', c: '3' });
});

test('someone else’s change while editing shows a banner with the diff, and the guarded patch gets 409 instead of undoing it', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'shared' }, data: { a: '1' } });
  await openEditor(page, explorerUrl, ns, 'shared');
  const loaded = await get(kube, cmPath(ns, 'shared'));
  await typeObject(page, { ...loaded, data: { a: '1', mine: 'm' } });
  // Guarded by default: the merge patch carries the loaded resourceVersion.
  await expect(page.getByLabel('Request to send')).toContainText(`"resourceVersion": "${loaded.metadata.resourceVersion}"`);
  const theirs = await kube.request('admin', 'PATCH', cmPath(ns, 'shared'), { data: { theirs: 't' } }, { 'Content-Type': 'application/merge-patch+json' });
  expect(theirs.status).toBe(200);
  const banner = page.getByRole('alert', { name: 'Changed on the server' });
  await expect(banner).toContainText('Someone else changed this object');
  await expect(banner.getByRole('figure', { name: 'Their change' })).toBeVisible();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 409');
  expect((await get(kube, cmPath(ns, 'shared'))).data).toEqual({ a: '1', theirs: 't' });
  // Re-applying my change onto their version keeps both.
  await banner.getByRole('button', { name: 'Re-apply my changes to the latest version' }).click();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 200');
  expect((await get(kube, cmPath(ns, 'shared'))).data).toEqual({ a: '1', theirs: 't', mine: 'm' });
});

test('the Edit view opened after a write elsewhere shows the newer resourceVersion', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'later' }, data: { a: '1' } });
  // The Ownership view reads the object into the shared object query.
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'ownership', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'later' })}`);
  const first = await get(kube, cmPath(ns, 'later'));
  await expect(page.getByText(`resourceVersion ${first.metadata.resourceVersion} ·`)).toBeVisible();
  const written = await kube.request('admin', 'PATCH', cmPath(ns, 'later'), { data: { a: '2' } }, { 'Content-Type': 'application/merge-patch+json' });
  const rv = (JSON.parse(written.body) as Obj).metadata.resourceVersion;
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: /^Edit/ }).click();
  await expect(page.getByLabel('Loaded resourceVersion')).toHaveText(rv);
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText("a: '2'");
});

test('malformed JSON points at the line and nothing can be sent', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'bad' }, data: { a: '1' } });
  await openEditor(page, explorerUrl, ns, 'bad');
  await typeObject(page, '{\n"metadata": {"name": "bad"},\n"data": {"a": }\n}');
  await expect(page.getByRole('region', { name: 'Object' }).getByRole('alert')).toContainText('line 3');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
});

/** Send with the API server stopped (a real SIGSTOP), do `meanwhile` while the request waits, then let the server go on. */
async function sendWhileStopped(page: Page, kube: { signalApiServer: (s: 'SIGSTOP' | 'SIGCONT') => Promise<void> }, meanwhile: () => Promise<void>): Promise<void> {
  let stopped = false;
  try {
    await kube.signalApiServer('SIGSTOP');
    stopped = true;
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Sending…' })).toBeVisible();
    await meanwhile();
    await kube.signalApiServer('SIGCONT');
    stopped = false;
  } finally {
    if (stopped) await kube.signalApiServer('SIGCONT');
  }
}

test('what is typed while a write waits for a stopped server is kept, and the next patch sends only that', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(120_000);
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'slow' }, data: { a: '1', b: '1' } });
  await openEditor(page, explorerUrl, ns, 'slow');
  const loaded = await get(kube, cmPath(ns, 'slow'));
  await typeObject(page, { ...loaded, data: { a: '2', b: '1' } });
  await expect(page.getByLabel('Request to send')).toContainText('"a": "2"');
  const result = page.getByRole('region', { name: 'Result' });
  // The user goes on editing while the request waits.
  await sendWhileStopped(page, kube, () => typeObject(page, { ...loaded, data: { a: '2', b: 'typed meanwhile' } }));
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200', { timeout: 60_000 });
  expect((await get(kube, cmPath(ns, 'slow'))).data).toEqual({ a: '2', b: '1' });
  // Before, the server's answer replaced the editor's text: the later typing was gone.
  const editor = page.getByRole('region', { name: 'Object' }).locator('.view-lines');
  await expect(editor).toContainText('typed meanwhile');
  const stored = await get(kube, cmPath(ns, 'slow'));
  await expect(page.getByLabel('Loaded resourceVersion')).toHaveText(stored.metadata.resourceVersion);
  await expect(page.getByLabel('Request to send')).toContainText(`"resourceVersion": "${stored.metadata.resourceVersion}"`);
  await expect(page.getByLabel('Request to send')).not.toContainText('"a"');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200');
  await expect.poll(async () => (await get(kube, cmPath(ns, 'slow'))).data).toEqual({ a: '2', b: 'typed meanwhile' });
});

test('a patch body typed by hand stays when someone else changes the object', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'byhand' }, data: { a: '1' } });
  await openEditor(page, explorerUrl, ns, 'byhand');
  await page.getByRole('radio', { name: 'JSON Patch' }).check();
  const patchBody = page.getByRole('textbox', { name: 'Patch body' });
  await patchBody.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText('[{"op": "add", "path": "/data/byhand", "value": "typed"}]');
  await expect(page.getByLabel('Request to send')).toContainText('"/data/byhand"');
  const theirs = await kube.request('admin', 'PATCH', cmPath(ns, 'byhand'), { data: { theirs: 't' } }, { 'Content-Type': 'application/merge-patch+json' });
  expect(theirs.status).toBe(200);
  // Before, the view followed the newer version (the object's text was untouched) and the typed
  // body gave way to the generated one.
  await expect(page.getByRole('alert', { name: 'Changed on the server' })).toBeVisible();
  await expect(page.getByLabel('Request to send')).toContainText('"/data/byhand"');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 200');
  expect((await get(kube, cmPath(ns, 'byhand'))).data).toEqual({ a: '1', theirs: 't', byhand: 'typed' });
});

test('create mode: an apply to a name that exists is not sent (it would change that object); a new name is created', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'taken' }, data: { a: '1' } });
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps' })}`);
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText('ConfigMap');
  await page.getByRole('radio', { name: 'Server-Side Apply' }).check();
  await typeObject(page, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'taken', namespace: ns }, data: { mine: 'x' } });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  // Before, the apply merged data.mine into the existing object, shown as "(new object)".
  await expect(page.getByRole('alert', { name: 'Apply not sent' })).toContainText('exists already');
  expect((await get(kube, cmPath(ns, 'taken'))).data).toEqual({ a: '1' });
  await typeObject(page, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fresh', namespace: ns }, data: { mine: 'x' } });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 201');
  expect((await get(kube, cmPath(ns, 'fresh'))).data).toEqual({ mine: 'x' });
});

test('a Delete with the uid precondition never deletes another object created under the same name', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'again' }, data: { gen: 'first' } });
  await openEditor(page, explorerUrl, ns, 'again');
  await page.getByRole('radio', { name: 'Delete' }).check();
  await page.getByLabel(/precondition uid/).check();
  const first = await get(kube, cmPath(ns, 'again'));
  await expect(page.getByLabel('Request to send')).toContainText((first.metadata as { uid?: string }).uid!);
  await kube.request('admin', 'DELETE', cmPath(ns, 'again'));
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'again' }, data: { gen: 'second' } });
  // Before, the untouched editor followed the new object, and the precondition carried its uid.
  await expect(page.getByRole('alert', { name: 'Changed on the server' })).toContainText('It is another object');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 409');
  expect((await get(kube, cmPath(ns, 'again'))).data).toEqual({ gen: 'second' });
});

test('what is typed while a create waits for a stopped server is kept on the created object, in JSON', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(120_000);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps' })}`);
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'made-slowly', namespace: ns }, data: { a: '1' } };
  await typeObject(page, object);
  await expect(page.getByLabel('Request to send')).toContainText('POST');
  const result = page.getByRole('region', { name: 'Result' });
  await sendWhileStopped(page, kube, () => typeObject(page, { ...object, data: { a: '1', b: 'typed meanwhile' } }));
  await expect(result.getByLabel('Result status')).toContainText('HTTP 201', { timeout: 60_000 });
  await expect(page).toHaveURL(/name=made-slowly/);
  expect((await get(kube, cmPath(ns, 'made-slowly'))).data).toEqual({ a: '1' });
  // Before, the created object's editor showed the server's answer, in YAML: the typing was gone.
  await expect(page.getByRole('radio', { name: 'JSON', exact: true })).toBeChecked();
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText('typed meanwhile');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(result.getByLabel('Result status')).toContainText('HTTP 200');
  await expect.poll(async () => (await get(kube, cmPath(ns, 'made-slowly'))).data).toEqual({ a: '1', b: 'typed meanwhile' });
});

// The lessons against the real API server: each experiment is run through the UI, and what the
// page shows is checked against what the server says when asked directly.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

type Kube = Parameters<Parameters<typeof test>[2]>[0]['kube'];

async function getJson<T>(kube: Kube, path: string): Promise<T> {
  const r = await kube.request('admin', 'GET', path);
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body) as T;
}

async function openLesson(page: Page, explorerUrl: string, lesson: string): Promise<string> {
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'lessons', lesson }).toString()}`);
  await page.getByRole('button', { name: 'Create scratch namespace' }).click();
  const name = page.getByTestId('scratch-namespace');
  await expect(name).toHaveText(/^lesson-[a-z]+-[a-z0-9]{5}$/);
  await expect(page).toHaveURL(/scratch=lesson-/);
  const ns = (await name.textContent())!;
  await expect(page.getByRole('region', { name: 'Lesson namespaces' }).getByRole('button', { name: `Delete ${ns}` })).toBeVisible();
  return ns;
}

/** Deletes the namespace through the UI and checks with the server that it is gone or going. */
async function deleteScratch(page: Page, kube: Kube, ns: string): Promise<void> {
  await page.getByRole('button', { name: 'Delete scratch namespace' }).click();
  await expect(page.getByRole('button', { name: 'Create scratch namespace' })).toBeVisible();
  await expect(page.getByTestId('scratch-last')).toContainText(`DELETE /api/v1/namespaces/${ns}`);
  const r = await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}`);
  if (r.status !== 404) {
    expect(r.status).toBe(200);
    expect((JSON.parse(r.body) as { status?: { phase?: string } }).status?.phase).toBe('Terminating');
  }
  // The list of lesson namespaces no longer offers to delete it.
  await expect(page.getByRole('region', { name: 'Lesson namespaces' }).getByRole('button', { name: `Delete ${ns}` })).toHaveCount(0);
}

function response(step: Locator): Locator {
  return step.getByTestId('response').first();
}

test('resourceVersion lesson shows the versions and reads the server returned', async ({ page, explorerUrl, kube }) => {
  const ns = await openLesson(page, explorerUrl, 'resource-versions');
  await page.getByRole('button', { name: 'Create ConfigMap rv-demo' }).click();
  await expect(page.getByTestId('rv-1')).toHaveText(/\S/);
  await page.getByRole('button', { name: 'Update it twice' }).click();
  await expect(page.getByTestId('rv-3')).toHaveText(/\S/);
  const [rv1, rv2, rv3] = await Promise.all([1, 2, 3].map(async (i) => (await page.getByTestId(`rv-${i}`).textContent())!));
  expect(new Set([rv1, rv2, rv3]).size).toBe(3);

  // The last version shown is the object's version now; the first is the one etcd has for the
  // created state.
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  const now = await getJson<{ metadata: { resourceVersion: string }; data: Record<string, string> }>(kube, `${path}/rv-demo`);
  expect(now.metadata.resourceVersion).toBe(rv3);
  expect(now.data.step).toBe('updated twice');
  const atFirst = await getJson<{ items: { metadata: { resourceVersion: string }; data: Record<string, string> }[] }>(
    kube,
    `${path}?fieldSelector=metadata.name%3Drv-demo&resourceVersion=${rv1}&resourceVersionMatch=Exact`,
  );
  expect(atFirst.items[0]!.metadata.resourceVersion).toBe(rv1);
  expect(atFirst.items[0]!.data.step).toBe('created');

  await page.getByRole('button', { name: 'Read it back' }).click();
  const exact = response(page.getByRole('region', { name: 'read exact' }));
  await expect(exact).toContainText(`"resourceVersion": "${rv1}"`);
  await expect(exact).toContainText('"step": "created"');
  await expect(exact).not.toContainText('updated');
  const notOlder = response(page.getByRole('region', { name: 'read not older' }));
  await expect(notOlder).toContainText('"step": "updated twice"');
  await expect(notOlder).toContainText(`"resourceVersion": "${rv3}"`);
  const unset = response(page.getByRole('region', { name: 'read rv unset' }));
  await expect(unset).toContainText(`"resourceVersion": "${rv3}"`);
  await expect(unset).toContainText('"step": "updated twice"');
  await expect(response(page.getByRole('region', { name: 'read rv 0' }))).toContainText('"resourceVersion": "');
  // A GET of one object with an old version is "not older than": the current object, not the old one.
  const getOld = page.getByRole('region', { name: 'read get old' });
  await expect(getOld.getByTestId('request')).toContainText(`rv-demo?resourceVersion=${rv1}`);
  await expect(response(getOld)).toContainText(`"resourceVersion": "${rv3}"`);
  await expect(page.getByRole('region', { name: 'read exact' }).getByTestId('request')).toContainText(`resourceVersion=${rv1}&resourceVersionMatch=Exact`);

  await deleteScratch(page, kube, ns);
});

test('chunked list lesson pages through 25 ConfigMaps with the server’s counts', async ({ page, explorerUrl, kube }) => {
  const ns = await openLesson(page, explorerUrl, 'chunked-lists');
  await page.getByRole('button', { name: 'Create 25 ConfigMaps' }).click();
  await expect(page.getByTestId('created-count')).toHaveText('25 of 25 created', { timeout: 30_000 });

  // What the server holds: the lesson's 25 and whatever the controller manager added.
  const all = await getJson<{ items: { metadata: { name: string } }[] }>(kube, `/api/v1/namespaces/${ns}/configmaps`);
  const total = all.items.length;
  expect(total).toBeGreaterThanOrEqual(25);

  const walk = async (region: Locator, label: string) => {
    await region.getByRole('button', { name: 'First page' }).click();
    const next = region.getByRole('button', { name: 'Next page' });
    const table = region.getByRole('table', { name: label });
    for (let i = 2; i <= 3; i++) {
      await expect(table.getByRole('row')).toHaveCount(i);
      await next.click();
    }
    await expect(table.getByRole('row')).toHaveCount(4);
    await expect(next).toBeDisabled();
    const rows = await table.getByRole('row').all();
    return Promise.all(rows.slice(1).map(async (r) => (await r.getByRole('cell').allTextContents()).map((s) => s.trim())));
  };

  const plain = await walk(page.getByRole('region', { name: 'Without a selector' }), 'pages');
  // columns: page, request, items, metadata.resourceVersion, remainingItemCount, continue
  expect(plain.map((c) => c[2])).toEqual(['10', '10', String(total - 20)]);
  expect(plain.map((c) => c[4])).toEqual([String(total - 10), String(total - 20), 'absent']);
  expect(new Set(plain.map((c) => c[3])).size).toBe(1);
  expect(plain[0]![3]).toMatch(/\S/);
  expect(plain[2]![5]).toBe('absent');
  expect(plain[1]![1]).toContain('limit=10&continue=');

  const selected = await walk(page.getByRole('region', { name: 'With labelSelector' }), 'pages with selector');
  expect(selected.map((c) => c[2])).toEqual(['10', '10', '5']);
  expect(selected.map((c) => c[4])).toEqual(['absent', 'absent', 'absent']);
  expect(new Set(selected.map((c) => c[3])).size).toBe(1);

  await expect(page.getByRole('link', { name: 'Open this list in the Lists view' })).toHaveAttribute('href', new RegExp(`view=lists&namespace=${ns}.*limit=10`));
  await deleteScratch(page, kube, ns);
});

test('watch lesson shows the events of the changes it makes', async ({ page, explorerUrl, kube }) => {
  const ns = await openLesson(page, explorerUrl, 'watch');
  await page.getByRole('button', { name: 'Start watching' }).click();
  await expect(page.getByText('Watching; nothing has changed yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Create watched' }).click();
  await expect(page.getByRole('table', { name: 'Events received' }).getByRole('row')).toHaveCount(2);
  const created = await getJson<{ metadata: { resourceVersion: string } }>(kube, `/api/v1/namespaces/${ns}/configmaps/watched`);
  await page.getByRole('button', { name: 'Update watched' }).click();
  await expect(page.getByRole('table', { name: 'Events received' }).getByRole('row')).toHaveCount(3);
  const updated = await getJson<{ metadata: { resourceVersion: string } }>(kube, `/api/v1/namespaces/${ns}/configmaps/watched`);
  await page.getByRole('button', { name: 'Delete watched' }).click();
  const rows = page.getByRole('table', { name: 'Events received' }).getByRole('row').filter({ hasText: 'watched' });
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('ADDED');
  await expect(rows.nth(0)).toContainText(created.metadata.resourceVersion);
  await expect(rows.nth(1)).toContainText('MODIFIED');
  await expect(rows.nth(1)).toContainText(updated.metadata.resourceVersion);
  await expect(rows.nth(2)).toContainText('DELETED');
  await page.getByRole('button', { name: 'Stop' }).click();
  await deleteScratch(page, kube, ns);
});

test('apply lesson shows the conflict naming alice, then ownership moving to bob', async ({ page, explorerUrl, kube }) => {
  const ns = await openLesson(page, explorerUrl, 'server-side-apply');
  await page.getByRole('button', { name: 'Apply as alice (color: blue)' }).click();
  await expect(response(page.getByRole('region', { name: 'alice applies' }))).toContainText('"manager": "alice"');
  await page.getByRole('button', { name: 'Apply as bob (color: green)' }).click();
  const conflict = page.getByRole('region', { name: 'bob applies', exact: true });
  await expect(conflict).toContainText('HTTP 409');
  await expect(response(conflict)).toContainText('"reason": "Conflict"');
  await expect(response(conflict)).toContainText('"reason": "FieldManagerConflict"');
  await expect(response(conflict)).toContainText('"field": ".data.color"');
  // The same Status read out: the cause names alice as the owner of the field.
  await expect(conflict.getByRole('alert')).toContainText('conflict with "alice"');
  await expect(conflict.getByTestId('request')).toContainText('PATCH /api/v1/namespaces/');
  await expect(conflict.getByTestId('request')).toContainText('fieldManager=bob');
  await expect(conflict.getByTestId('request')).toContainText('Content-Type: application/apply-patch+yaml');

  // Nothing changed on the server: alice's value stands.
  const path = `/api/v1/namespaces/${ns}/configmaps/applied`;
  expect((await getJson<{ data: Record<string, string> }>(kube, path)).data.color).toBe('blue');

  await page.getByRole('button', { name: 'Apply as bob with force=true' }).click();
  const forced = response(page.getByRole('region', { name: 'bob applies with force' }));
  await expect(forced).toContainText('"color": "green"');
  const obj = await getJson<{ metadata: { managedFields: { manager: string; fieldsV1: { 'f:data'?: Record<string, unknown> } }[] } }>(kube, path);
  const owns = (m: string) => Object.keys(obj.metadata.managedFields.find((e) => e.manager === m)?.fieldsV1['f:data'] ?? {});
  expect(owns('bob')).toContain('f:color');
  expect(owns('alice')).not.toContain('f:color');
  expect(owns('alice')).toContain('f:size');
  // The page shows the same: bob's entry lists .data.color, alice's only .data.size.
  const text = (await forced.textContent())!;
  const mf = JSON.parse(text) as { managedFields: { manager: string; fields: string[] }[] };
  expect(mf.managedFields.find((e) => e.manager === 'bob')!.fields).toContain('.data.color');
  expect(mf.managedFields.find((e) => e.manager === 'alice')!.fields).not.toContain('.data.color');
  await expect(page.getByRole('link', { name: 'See the object in the Ownership view' })).toHaveAttribute('href', /view=ownership.*name=applied/);

  await deleteScratch(page, kube, ns);
});

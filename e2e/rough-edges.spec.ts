// Rough edges found in a walkthrough, each pinned by the behaviour that fixes it.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const q = (params: Record<string, string>) => `?${new URLSearchParams({ context: 'local-admin', ...params }).toString()}`;

async function box(page: Page, name: string, role: 'region' | 'complementary' = 'region') {
  const b = await page.getByRole(role, { name, exact: true }).boundingBox();
  if (!b) throw new Error(`${name} has no box`);
  return b;
}

test('below 1000 px the two-pane layouts stack: the console history goes under the response', async ({ page, explorerUrl }) => {
  await page.setViewportSize({ width: 900, height: 900 });
  await page.goto(`${explorerUrl}${q({ view: 'console', m: 'GET', p: '/version' })}`);
  const response = await box(page, 'Response');
  const historyBox = await box(page, 'History', 'complementary');
  expect(historyBox.y).toBeGreaterThanOrEqual(response.y + response.height);
  // Nothing sticks out sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(900);
  await page.setViewportSize({ width: 1400, height: 900 });
  const wideHistory = await box(page, 'History', 'complementary');
  expect(wideHistory.y).toBeLessThan((await box(page, 'Response')).y + 50);
});

test('on a wide screen one watch pane takes the whole width', async ({ page, explorerUrl, ns }) => {
  await page.setViewportSize({ width: 2200, height: 900 });
  await page.goto(`${explorerUrl}${q({ view: 'watch', namespace: ns })}`);
  const form = page.getByRole('form', { name: 'New watch' });
  await form.getByLabel('Resource').selectOption('/v1/configmaps');
  await form.getByLabel('Watch namespace').fill(ns);
  await form.getByRole('button', { name: 'Add watch' }).click();
  const pane = page.getByRole('article').first();
  await expect(pane).toBeVisible();
  const w = (await pane.boundingBox())!.width;
  expect(w).toBeGreaterThan(2200 * 0.8);
});

test('a deep link to a resource far down the discovery list scrolls it into view', async ({ page, explorerUrl }) => {
  await page.goto(`${explorerUrl}${q({ view: 'discovery' })}`);
  const nav = page.getByRole('navigation', { name: 'API resources' });
  const last = nav.getByRole('link').last();
  const href = await last.getAttribute('href');
  const name = (await last.locator('code').textContent())!;
  await page.goto(new URL(href!, explorerUrl).toString());
  const selected = page.getByRole('navigation', { name: 'API resources' }).locator('a[aria-current="true"]');
  await expect(selected.locator('code')).toHaveText(name);
  await expect(selected).toBeInViewport();
});

test('choosing another resource drops the object name, so Edit does not open a name of the old resource', async ({ page, explorerUrl, kube, ns }) => {
  expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'only-a-configmap' } })).status).toBe(201);
  await page.goto(`${explorerUrl}${q({ view: 'discovery', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'only-a-configmap' })}`);
  await page.getByRole('navigation', { name: 'API resources' }).getByRole('link', { name: /^secrets Secret$/ }).click();
  await expect(page).toHaveURL(/resource=secrets/);
  expect(new URL(page.url()).searchParams.has('name')).toBe(false);
});

test('"Load all" is kept in the URL, so a reload lists everything again', async ({ page, explorerUrl, kube, ns }) => {
  for (let i = 0; i < 4; i++) expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}` } })).status).toBe(201);
  await page.goto(`${explorerUrl}${q({ view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps', limit: '2' })}`);
  await expect(page.getByRole('status')).toContainText('2 rows in 1 page');
  await page.getByRole('button', { name: 'Load all' }).click();
  await expect(page).toHaveURL(/load=all/);
  await page.reload();
  await expect(page.getByRole('status')).toContainText(/rows in \d pages, list complete/);
});

test('history entries name their Accept header and wrap long paths inside the panel', async ({ page, explorerUrl, ns }) => {
  for (const accept of ['application/json', 'application/yaml']) {
    await page.goto(`${explorerUrl}${q({ view: 'console', m: 'GET', p: `/api/v1/namespaces/${ns}`, 'h.Accept': accept })}`);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
    if (accept === 'application/json') {
      // History is kept in memory per page load: send the second from the same page.
      await page.getByRole('combobox', { name: 'Path' }).fill(`/api/v1/namespaces/${ns}/configmaps?fieldSelector=${'metadata.name%3D' + 'x'.repeat(200)}`);
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
      const history = page.getByRole('complementary', { name: 'History' });
      const list = history.getByRole('list', { name: 'Exchanges' });
      await expect(list.getByRole('listitem')).toHaveCount(2);
      await expect(list.getByRole('listitem').last()).toContainText('json');
      const overflow = await history.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeLessThanOrEqual(1);
    }
  }
});

test('RBAC: a denied verb on one object gets a "try anyway" link that names a placeholder and says why', async ({ page, explorerUrl, ns }) => {
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-viewer', view: 'discovery', namespace: ns, group: '', version: 'v1', resource: 'configmaps' }).toString()}`);
  const access = page.getByRole('table', { name: 'Access by verb' });
  const row = access.getByRole('row').filter({ has: page.getByRole('cell', { name: 'delete', exact: true }) });
  await expect(row).toContainText('denied');
  await expect(row).toContainText('the answer is 403 whether it exists or not');
  await row.getByRole('link', { name: 'Try delete anyway in the console' }).click();
  await expect(page.getByRole('combobox', { name: 'Path' })).toHaveValue(new RegExp(`/api/v1/namespaces/${ns}/configmaps/example`));
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 403');
});

test('copy as kubectl names the kubeconfig the explorer was started with', async ({ page, explorerUrl, kube }) => {
  await page.goto(`${explorerUrl}${q({ view: 'console', m: 'GET', p: '/api/v1/namespaces' })}`);
  await page.getByRole('button', { name: 'Copy as kubectl' }).click();
  await expect(page.getByRole('region', { name: 'Copied as kubectl' })).toContainText(`kubectl get --raw /api/v1/namespaces --kubeconfig ${kube.kubeconfig} --context local-admin`);
});

// Keyboard use: rows of the virtual lists and the watch timeline move with the arrow keys and open
// with Enter; the focused control is visibly marked.
import { expect, test } from './fixtures';
import { watchConfigMaps } from './watchPane';

test('list rows: Tab reaches the first row, arrows and End move between rows, Enter opens the object', async ({ page, explorerUrl, kube, ns }) => {
  for (let i = 0; i < 30; i++) expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `k-${String(i).padStart(2, '0')}` } })).status).toBe(201);
  // kube-controller-manager publishes kube-root-ca.crt into a new namespace a moment after it is
  // made (later on a busy machine): the last row once it is there.
  await expect.poll(async () => (await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).status, { timeout: 90_000 }).toBe(200);
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps' }).toString()}`);
  const table = page.getByRole('table', { name: 'ConfigMap list' });
  const first = table.getByRole('link', { name: 'k-00' });
  await expect(first).toBeVisible();
  // One row link is in the Tab order; the others are reached with the arrows.
  await expect(table.locator('a[tabindex="0"]')).toHaveCount(1);
  await first.focus();
  await page.keyboard.press('ArrowDown');
  await expect(table.getByRole('link', { name: 'k-01' })).toBeFocused();
  // Focus is visible: an outline is drawn around the focused link.
  expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none');
  await page.keyboard.press('End');
  await expect(table.getByRole('link', { name: 'kube-root-ca.crt' })).toBeFocused();
  await page.keyboard.press('Home');
  await expect(first).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/name=k-02/);
});

test('watch timeline: arrows move between events, Enter selects one', async ({ page, explorerUrl, kube, ns }) => {
  const pane = await watchConfigMaps(page, explorerUrl, ns);
  for (const name of ['one', 'two']) expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name } })).status).toBe(201);
  const events = pane.getByRole('list', { name: 'Events' });
  await expect(events.getByRole('listitem').filter({ hasText: `${ns}/two` })).toBeVisible();
  const buttons = events.getByRole('button');
  await buttons.first().focus();
  await page.keyboard.press('End');
  const last = events.getByRole('button').filter({ hasText: `${ns}/two` });
  await expect(last).toBeFocused();
  await page.keyboard.press('ArrowUp');
  const prev = events.getByRole('button').filter({ hasText: `${ns}/one` });
  await expect(prev).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(prev).toHaveAttribute('aria-pressed', 'true');
});

test('console toolbar: Tab from the path reaches Send, and Enter sends', async ({ page, explorerUrl }) => {
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'console', m: 'GET', p: '/version' }).toString()}`);
  const path = page.getByRole('combobox', { name: 'Path' });
  await path.focus();
  const send = page.getByRole('button', { name: 'Send' });
  for (let i = 0; i < 15 && !(await send.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(send).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
});

test('edit toolbar: arrows choose the write mode, Space checks dryRun=All, Tab reaches Send and Enter sends', async ({ page, explorerUrl, kube, ns }) => {
  expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'kb' }, data: { a: '1' } })).status).toBe(201);
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'kb' }).toString()}`);
  const put = page.getByRole('radio', { name: 'Replace (PUT)' });
  await expect(put).toBeVisible();
  await put.focus();
  await page.keyboard.press('Space');
  await expect(put).toBeChecked();
  // Arrow keys move within the radio group: PUT → JSON Patch → JSON Merge Patch.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const merge = page.getByRole('radio', { name: 'JSON Merge Patch' });
  await expect(merge).toBeChecked();
  await expect(merge).toBeFocused();
  const dry = page.getByRole('checkbox', { name: 'dryRun=All' });
  for (let i = 0; i < 30 && !(await dry.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(dry).toBeFocused();
  await page.keyboard.press('Space');
  await expect(dry).toBeChecked();
  const send = page.getByRole('button', { name: 'Send', exact: true });
  // Monaco keeps Tab for indentation; Ctrl+M (its "Tab moves focus" mode, announced to screen
  // readers) lets Tab leave the editor, as in VS Code.
  let escaped = false;
  for (let i = 0; i < 60 && !(await send.evaluate((el) => el === document.activeElement)); i++) {
    if (!escaped && (await page.evaluate(() => !!document.activeElement?.closest('.monaco-editor')))) {
      await page.keyboard.press('Control+M');
      escaped = true;
    }
    await page.keyboard.press('Tab');
  }
  await expect(send).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('dry run');
});

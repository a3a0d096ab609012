// Sorting and finding in the Lists view, on the page, over a list the server sent in several
// chunks: the order is the column's (names with numbers compared as numbers), not the server's
// namespace/name byte order; both directions; a find keeps the rows containing the text; both
// live in the URL, so a reload comes back to the same rows.
import { expect, test } from './fixtures';

test('sorts a list loaded in several chunks by a column, both ways, and finds rows in it', async ({ page, explorerUrl, kube, ns }) => {
  // kube-controller-manager adds kube-root-ca.crt to each new namespace, a little later.
  await expect.poll(async () => (await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).status, { timeout: 30_000 }).toBe(200);
  const names = [...Array.from({ length: 12 }, (_, i) => `app-${i + 1}`), 'db-1', 'db-2', 'db-3'];
  for (const name of names) {
    const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name } });
    expect(r.status).toBe(201);
  }
  const url = `${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps', limit: '4', load: 'all' })}`;
  await page.goto(url);
  await expect(page.getByRole('status').filter({ hasText: 'rows in' })).toContainText('16 rows in 4 pages, list complete');
  const table = page.getByRole('table', { name: 'ConfigMap list' });
  const shown = () => table.getByRole('row').evaluateAll((rows) => rows.slice(1).map((r) => r.querySelector('[role="cell"]')?.textContent ?? ''));
  // The server's order: byte order of the keys.
  expect((await shown()).slice(0, 5)).toEqual(['app-1', 'app-10', 'app-11', 'app-12', 'app-2']);

  const header = table.getByRole('columnheader', { name: /^Name/ });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(page.getByLabel('Rows shown')).toHaveText('16 of 16 rows, sorted by Name');
  expect(await shown()).toEqual([...names, 'kube-root-ca.crt']);

  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByLabel('Rows shown')).toHaveText('16 of 16 rows, sorted by Name (descending)');
  expect(await shown()).toEqual(['kube-root-ca.crt', ...[...names].reverse()]);

  await page.getByRole('searchbox', { name: 'Find in rows' }).fill('DB');
  await expect(page.getByLabel('Rows shown')).toHaveText('3 of 16 rows contain “DB”, sorted by Name (descending)');
  expect(await shown()).toEqual(['db-3', 'db-2', 'db-1']);
  await expect(table).toHaveAttribute('aria-rowcount', '4');

  // Addressable: the reload lists again and comes back to the same rows.
  expect(new URL(page.url()).searchParams.get('sort')).toBe('-Name');
  await page.reload();
  await expect(page.getByLabel('Rows shown')).toHaveText('3 of 16 rows contain “DB”, sorted by Name (descending)');
  expect(await shown()).toEqual(['db-3', 'db-2', 'db-1']);

  // A third click goes back to the server's order.
  await page.getByRole('searchbox', { name: 'Find in rows' }).fill('');
  await table.getByRole('columnheader', { name: /^Name/ }).getByRole('button').click();
  await expect(table.getByRole('columnheader', { name: /^Name/ })).not.toHaveAttribute('aria-sort');
  await expect.poll(async () => (await shown()).slice(0, 2)).toEqual(['app-1', 'app-10']);
});

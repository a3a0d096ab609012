// The ownership view against managedFields the real API server wrote: two Server-Side Apply
// managers share a field (same value applied by both), each owns one more, and a plain update adds
// a third manager with operation Update.
import { expect, test } from './fixtures';

type Kube = Parameters<Parameters<typeof test>[2]>[0]['kube'];

async function must(kube: Kube, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<string> {
  const r = await kube.request('admin', method, path, body, headers);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return r.body;
}

test('shows each manager next to its fields and both appliers on a shared field', async ({ page, explorerUrl, kube, ns }) => {
  const name = 'owned';
  const path = `/api/v1/namespaces/${ns}/configmaps/${name}`;
  const cm = (data: Record<string, string>) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns }, data });
  const applyType = { 'Content-Type': 'application/apply-patch+yaml' };
  await must(kube, 'PATCH', `${path}?fieldManager=alice`, cm({ shared: 'same', onlyAlice: '1' }), applyType);
  await must(kube, 'PATCH', `${path}?fieldManager=bob`, cm({ shared: 'same', onlyBob: '2' }), applyType);
  await must(kube, 'PATCH', `${path}?fieldManager=carol`, JSON.stringify({ data: { byCarol: '<b>3</b>' } }), { 'Content-Type': 'application/merge-patch+json' });

  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'ownership', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name }).toString()}`);
  await expect(page.getByRole('heading', { name: /Field ownership of ConfigMap owned/ })).toBeVisible();

  const owners = (field: string) => page.getByRole('list', { name: `Managers of ${field}`, exact: true }).getByRole('listitem');
  await expect(owners('.data.shared')).toHaveText([/^alice Apply/, /^bob Apply/, 'shared']);
  await expect(owners('.data.onlyAlice')).toHaveText([/^alice Apply/]);
  await expect(owners('.data.onlyBob')).toHaveText([/^bob Apply/]);
  await expect(owners('.data.byCarol')).toHaveText([/^carol Update/]);

  // A field nobody set through a request is listed as owned by no manager.
  const uidRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '.metadata.uid', exact: true }) });
  await expect(uidRow.getByRole('cell').last()).toHaveText('no manager');
  // Object content stays text.
  const carolRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: '.data.byCarol', exact: true }) });
  await expect(carolRow.getByRole('cell').first()).toHaveText('<b>3</b>');
  await expect(page.locator('main b')).toHaveCount(0);

  // The summary counts each manager's fields; highlighting one marks its rows.
  const managers = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Operation' }) }).first();
  await expect(managers.getByRole('row').filter({ hasText: /^alice/ })).toContainText('2 fields');
  await page.getByRole('combobox', { name: 'Highlight manager' }).selectOption('bob');
  await expect(page).toHaveURL(/manager=bob/);
  await page.getByRole('checkbox', { name: 'only its fields' }).check();
  await expect(page.getByRole('rowheader', { name: '.data.onlyAlice', exact: true })).toHaveCount(0);
  await expect(page.getByRole('rowheader', { name: '.data.onlyBob', exact: true })).toBeVisible();

  // A change between reads shows up when re-read: carol takes one more key.
  await must(kube, 'PATCH', `${path}?fieldManager=carol`, JSON.stringify({ data: { later: 'x' } }), { 'Content-Type': 'application/merge-patch+json' });
  await page.getByRole('button', { name: 'Re-read and compare' }).click();
  const changes = page.getByRole('region', { name: 'Changes since the last read' });
  await expect(changes.getByRole('row').filter({ hasText: /^carol/ })).toContainText('.data.later');
});

// A console link brings back the response where it is cheap to refetch: a GET that was sent is sent
// again when its URL is opened (send=1, written after the Send), and shows its status and body; a
// write is never sent from a link, whatever the URL says: the form is filled in, a note says why,
// and the server's object is untouched.
import type { Page, Request } from '@playwright/test';
import { cmPath, q } from './editor';
import { expect, test } from './fixtures';

/** Requests the page sent to the proxy's /k8s/ endpoint for this path, as `METHOD path`. */
function sentFor(page: Page, path: string): string[] {
  const seen: string[] = [];
  page.on('request', (r: Request) => {
    const u = new URL(r.url());
    if (u.pathname.endsWith(path)) seen.push(`${r.method()} ${u.pathname}`);
  });
  return seen;
}

test('a link to a GET that was sent shows its response again; the Send writes the mark into the URL', async ({ page, explorerUrl, kube, ns }) => {
  expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'linked' }, data: { color: 'teal' } })).status).toBe(201);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', m: 'GET', p: cmPath(ns, 'linked'), 'h.Accept': 'application/json', send: '1' })}`);
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  await expect(page.getByRole('tabpanel', { name: 'Response body' })).toContainText('"teal"');
  const exchanges = page.getByRole('complementary', { name: 'History' }).getByRole('list', { name: 'Exchanges' }).getByRole('listitem');
  await expect(exchanges).toHaveCount(1);

  // Sent by hand: the URL gains the mark, so copying it shares the answer too; an edit drops it.
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', m: 'GET', p: cmPath(ns, 'linked') })}`);
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
  await expect(page.getByText('Send a request to see the exchange.')).toBeVisible();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  await expect(page).toHaveURL(/[?&]send=1(&|$)/);
  const marked = page.url();
  await page.goto(marked);
  await expect(page.getByRole('tabpanel', { name: 'Response body' })).toContainText('"teal"');
  await expect(exchanges).toHaveCount(1);
  await page.getByRole('combobox', { name: 'Path' }).fill(cmPath(ns, 'other'));
  await expect(page).not.toHaveURL(/[?&]send=1(&|$)/);
});

test('a link to a PATCH or a DELETE fills in the form, says it was not sent, and sends nothing', async ({ page, explorerUrl, kube, ns }) => {
  expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'kept' }, data: { color: 'teal' } })).status).toBe(201);
  const sent = sentFor(page, cmPath(ns, 'kept'));
  const patch = { m: 'PATCH', p: cmPath(ns, 'kept'), 'h.Content-Type': 'application/merge-patch+json', body: '{"data":{"color":"red"}}', send: '1' };
  for (const link of [patch, { m: 'DELETE', p: cmPath(ns, 'kept'), send: '1' }]) {
    await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', ...link })}`);
    await expect(page.getByRole('combobox', { name: 'Method' })).toHaveValue(link.m);
    await expect(page.getByRole('note', { name: 'Not sent from the link' })).toContainText(`fills in a ${link.m} but does not send it`);
    await expect(page.getByText('Send a request to see the exchange.')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Exchanges' }).getByRole('listitem')).toHaveCount(0);
  }
  expect(sent).toEqual([]);
  const now = JSON.parse((await kube.request('admin', 'GET', cmPath(ns, 'kept'))).body) as { data: unknown };
  expect(now.data).toEqual({ color: 'teal' });
});

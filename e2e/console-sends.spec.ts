// The console sends what it shows: paths the browser would rewrite are refused before sending, the
// recorded exchange (history, HAR) holds the URL that reached the proxy, and a watch with bookmarks
// keeps streaming, whatever encoding the server would have chosen.
import { readFileSync } from 'node:fs';
import type { Page, Request } from '@playwright/test';
import { expect, test } from './fixtures';

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

async function openConsole(page: Page, explorerUrl: string, extra: Record<string, string> = {}) {
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', ...extra })}`);
  await expect(page.getByRole('combobox', { name: 'Path' })).toBeVisible();
}

/** API paths (with query) of the requests the page sent to the proxy's /k8s/ endpoint. */
function proxyRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r: Request) => {
    const u = new URL(r.url());
    const m = /^\/k8s\/[^/]+(\/.*)$/.exec(u.pathname);
    if (m) seen.push(`${m[1]}${u.search}`);
  });
  return seen;
}

test('paths with .., %2e%2e or %2f are refused before sending, with the reason', async ({ page, explorerUrl, ns }) => {
  const seen = proxyRequests(page);
  await openConsole(page, explorerUrl);
  const path = page.getByRole('combobox', { name: 'Path' });
  for (const [p, why] of [
    [`/api/v1/namespaces/${ns}/../configmaps`, 'dot segment'],
    [`/api/v1/namespaces/%2e%2e/configmaps`, 'cluster-wide'],
    [`/api/v1/namespaces/${ns}%2fx/configmaps`, 'decodes to one containing "/"'],
  ] as const) {
    await path.fill(p);
    await expect(page.getByRole('alert', { name: 'Path refused' })).toContainText(why);
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await path.press('Control+Enter');
  }
  expect(seen.filter((s) => s.includes('configmaps'))).toEqual([]);
  await path.fill(`/api/v1/namespaces/${ns}/configmaps`);
  await expect(page.getByRole('alert', { name: 'Path refused' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
});

test('the HAR of a request holds the URL the proxy received', async ({ page, explorerUrl, ns }) => {
  const seen = proxyRequests(page);
  // Spaces and quotes in the path: the browser percent-encodes them when it sends.
  await openConsole(page, explorerUrl, { m: 'GET', p: `/api/v1/namespaces/${ns}/configmaps/it's "quoted" here` });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 404');
  const sent = seen.find((s) => s.includes('/configmaps/'));
  expect(sent).toBe(`/api/v1/namespaces/${ns}/configmaps/it's%20%22quoted%22%20here`);
  await expect(page.getByRole('list', { name: 'Exchanges' })).toContainText(sent!);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export HAR' }).click();
  const har = JSON.parse(readFileSync(await (await download).path(), 'utf8')) as { log: { entries: { request: { url: string }; _apiPath: string }[] } };
  const entry = har.log.entries.at(-1)!;
  expect(entry._apiPath).toBe(sent);
  const url = new URL(entry.request.url);
  expect(`${url.pathname}${url.search}`).toBe(sent);
});

test('a watch with allowWatchBookmarks=true shows 20 events created over 10 s', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(120_000);
  await openConsole(page, explorerUrl, { m: 'GET', p: `/api/v1/namespaces/${ns}/configmaps`, 'q.watch': 'true', 'q.allowWatchBookmarks': 'true' });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  await expect(page.getByText('streaming…')).toBeVisible();
  for (let i = 0; i < 20; i++) {
    const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `ev-${String(i).padStart(2, '0')}` } });
    expect(r.status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const events = page.getByRole('list', { name: 'Watch events' });
  await expect(events.getByRole('listitem').filter({ hasText: /ev-\d\d/ })).toHaveCount(20, { timeout: 30_000 });
  await expect(events.getByRole('listitem').filter({ hasText: 'ev-19' })).toContainText('ADDED');
  // The exchange says how the stream was asked for.
  await page.getByText(/^Response headers/).click();
  await expect(page.getByRole('table', { name: 'Response headers' })).toContainText('x-explorer-encoding');
  await page.getByRole('button', { name: 'Stop' }).click();
});

test('a control character in the path is refused with the reason and stays as typed; DELETE …/prod<TAB>-db deletes nothing', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'prod-db' }, data: { a: '1' } });
  const seen = proxyRequests(page);
  await openConsole(page, explorerUrl);
  await page.getByRole('combobox', { name: 'Method' }).selectOption('DELETE');
  const path = page.getByRole('combobox', { name: 'Path' });
  for (const [p, why] of [
    [`/api/v1/namespaces/${ns}/configmaps/prod\t-db`, 'a tab (U+0009)'],
    [`/api/v1/namespaces/${ns}/configmaps/prod\u0085-db`, 'NEL'],
    [`/api/v1/namespaces/${ns}/configmaps/prod\u2028-db`, 'LINE SEPARATOR'],
    [`/api/v1/namespaces/${ns}/configmaps/prod\u007f-db`, 'DEL'],
  ] as const) {
    await path.fill(p);
    await expect(page.getByRole('alert', { name: 'Path refused' })).toContainText(why);
    await expect(path).toHaveValue(p);
    await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
    await path.press('Control+Enter');
  }
  expect(seen.filter((s) => s.includes('prod'))).toEqual([]);
  // Before: the tab was shown, then dropped by the URL parser, and prod-db was deleted.
  expect((await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/prod-db`)).status).toBe(200);
});

test('typing ? key by key in the path box keeps the query apart from the path', async ({ page, explorerUrl, ns }) => {
  const seen = proxyRequests(page);
  await openConsole(page, explorerUrl);
  const path = page.getByRole('combobox', { name: 'Path' });
  await path.fill(`/api/v1/namespaces/${ns}/configmaps`);
  await path.pressSequentially('?limit=1');
  // Before: `?` left the box as it was typed, and the rest was glued onto the path (configmapslimit=1).
  await expect(path).toHaveValue(`/api/v1/namespaces/${ns}/configmaps?limit=1`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  expect(seen).toContain(`/api/v1/namespaces/${ns}/configmaps?limit=1`);
  // Once the box loses focus, the query is in the parameter rows.
  await expect(path).toHaveValue(`/api/v1/namespaces/${ns}/configmaps`);
});

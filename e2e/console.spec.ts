// The request console against the real local control plane: exact exchanges, warnings, Status
// errors, media types, a live watch, and HAR export/import.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

async function openConsole(page: Page, explorerUrl: string, extra: Record<string, string> = {}) {
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', ...extra })}`);
  await expect(page.getByRole('combobox', { name: 'Path' })).toBeVisible();
}

test('GET /api/v1/namespaces shows 200 and the namespaces', async ({ page, explorerUrl, ns }) => {
  await openConsole(page, explorerUrl);
  await page.getByRole('combobox', { name: 'Path' }).fill('/api/v1/namespaces');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  const body = page.getByRole('tabpanel', { name: 'Response body' });
  await expect(body.getByText(JSON.stringify(ns))).toBeVisible();
  await expect(body.getByText('"NamespaceList"')).toBeVisible();
  // The headers the API server adds, explained.
  await page.getByText(/^Response headers/).click();
  const headers = page.getByRole('table', { name: 'Response headers' });
  await expect(headers).toContainText('audit-id');
  await expect(headers).toContainText('API Priority and Fairness');
  await expect(page.getByLabel('Status line')).toContainText(/upstream \d/);

  // A typed parameter: limit=1 makes a chunked list with a continue token.
  await page.getByRole('combobox', { name: 'Add query parameter' }).selectOption('limit');
  await page.getByRole('spinbutton', { name: 'limit' }).fill('1');
  await expect(page.getByLabel('Exact request')).toHaveText('GET /api/v1/namespaces?limit=1');
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('tab', { name: 'Text' }).click();
  await expect(body).toContainText('"continue": "');
  await expect(body).toContainText('"remainingItemCount"');
});

test('a POST with an unknown field shows the server’s warning under Warn and its 400 Status under Strict', async ({ page, explorerUrl, ns }) => {
  await openConsole(page, explorerUrl);
  await page.getByRole('combobox', { name: 'Method' }).selectOption('POST');
  await page.getByRole('combobox', { name: 'Path' }).fill(`/api/v1/namespaces/${ns}/configmaps`);
  await page.getByRole('combobox', { name: 'Add query parameter' }).selectOption('fieldValidation');
  await page.getByRole('combobox', { name: 'fieldValidation' }).selectOption('Warn');
  await page.getByRole('combobox', { name: 'Content-Type' }).selectOption('application/json');
  // Type the body into the real Monaco editor.
  const editor = page.getByRole('textbox', { name: 'Request body' });
  // Monaco's input element sits under its rendered lines, so focus it rather than click it.
  await editor.focus();
  await page.keyboard.insertText('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"warn-"},"bogus":true}');
  await expect(page.getByLabel('Exact request')).toHaveText(`POST /api/v1/namespaces/${ns}/configmaps?fieldValidation=Warn`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 201');
  await expect(page.getByRole('region', { name: 'Warnings from the server' })).toContainText('unknown field "bogus"');

  await page.getByRole('combobox', { name: 'fieldValidation' }).selectOption('Strict');
  // Keyboard: Ctrl+Enter sends from inside the body editor.
  await editor.focus();
  await page.keyboard.press('Control+Enter');
  await expect(page.getByLabel('Status line')).toContainText('HTTP 400');
  const status = page.getByRole('region', { name: 'Response' }).getByRole('alert');
  await expect(status).toContainText('400 BadRequest');
  await expect(status).toContainText('strict decoding error: unknown field "bogus"');

  // Copy as kubectl / curl for the request shown.
  await page.getByRole('button', { name: 'Copy as kubectl' }).click();
  await expect(page.getByRole('region', { name: 'Copied as kubectl' })).toContainText(`kubectl create --raw '/api/v1/namespaces/${ns}/configmaps?fieldValidation=Strict'`);
  await page.getByRole('button', { name: 'Copy as curl' }).click();
  await expect(page.getByRole('region', { name: 'Copied as curl' })).toContainText(`-H 'Content-Type: application/json' --data-binary @-`);
});

test('Accept: application/yaml shows YAML', async ({ page, explorerUrl, ns }) => {
  await openConsole(page, explorerUrl, { m: 'GET', p: `/api/v1/namespaces/${ns}` });
  await page.getByRole('combobox', { name: 'Accept' }).selectOption('application/yaml');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  await expect(page.getByRole('tab', { name: 'YAML' })).toHaveAttribute('aria-selected', 'true');
  const body = page.getByRole('tabpanel', { name: 'Response body' });
  await expect(body).toContainText('kind: Namespace');
  await expect(body).toContainText(`name: ${ns}`);
  await page.getByText(/^Response headers/).click();
  await expect(page.getByRole('table', { name: 'Response headers' }).getByRole('row', { name: /^content-type / })).toContainText('application/yaml');
});

test('a watch streams an event created during the test, and Stop ends it', async ({ page, explorerUrl, kube, ns }) => {
  await openConsole(page, explorerUrl, { m: 'GET', p: `/api/v1/namespaces/${ns}/configmaps`, 'q.watch': 'true' });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  await expect(page.getByText('streaming…')).toBeVisible();
  const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'made-during-watch' } });
  expect(r.status).toBe(201);
  const events = page.getByRole('list', { name: 'Watch events' });
  await expect(events.getByRole('listitem').filter({ hasText: 'made-during-watch' })).toContainText('ADDED');
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByLabel('Status line')).toContainText('stopped');
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
});

test('a HAR exported and imported again shows the same exchanges', async ({ page, explorerUrl, context, ns }) => {
  await openConsole(page, explorerUrl, { m: 'GET', p: `/api/v1/namespaces/${ns}` });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  await page.getByRole('combobox', { name: 'Path' }).fill(`/api/v1/namespaces/${ns}/configmaps/missing`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 404');
  const history = page.getByRole('list', { name: 'Exchanges' });
  await expect(history.getByRole('listitem')).toHaveCount(2);
  const before = await history.getByRole('listitem').allInnerTexts();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export HAR' }).click();
  const file = await (await download).path();
  const har = JSON.parse(readFileSync(file, 'utf8')) as { log: { version: string; entries: { response: { status: number } }[] } };
  expect(har.log.version).toBe('1.2');
  expect(har.log.entries.map((e) => e.response.status)).toEqual([200, 404]);

  const fresh = await context.newPage();
  await openConsole(fresh, explorerUrl);
  await fresh.getByLabel('Import HAR').setInputFiles(file);
  const imported = fresh.getByRole('list', { name: 'Exchanges' });
  await expect(imported.getByRole('listitem')).toHaveCount(2);
  expect(await imported.getByRole('listitem').allInnerTexts()).toEqual(before);
  await imported.getByRole('button', { name: /404 GET/ }).click();
  await expect(fresh.getByText('imported from HAR')).toBeVisible();
  await expect(fresh.getByLabel('Status line')).toContainText('HTTP 404');
  await expect(fresh.getByRole('region', { name: 'Response' }).getByRole('alert')).toContainText('configmaps "missing" not found');

  // Two exchanges side by side.
  await imported.getByRole('checkbox').nth(0).check();
  await imported.getByRole('checkbox').nth(1).check();
  const cmp = fresh.getByRole('region', { name: 'Comparison' });
  await expect(cmp).toContainText('HTTP 200');
  await expect(cmp).toContainText('HTTP 404');
  await expect(cmp.getByRole('table', { name: 'Differences' }).getByRole('row', { name: /^status / })).toContainText('200');
});

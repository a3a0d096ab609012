// The views over a slow link: an explorer server of the spec's own whose kubeconfig reaches
// kube-apiserver through a real TCP relay that holds every chunk 100 ms each way (a 200 ms round
// trip, as to a cluster in another region). Discovery, a list, a watch pane and an edit must all
// work through it; nothing here times them (docs/benchmarks.md measures that, against kubectl).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExplorerServer, type ExplorerServer } from '../proxy/src/server';
import { type Relay, startRelay } from '../proxy/src/network.testkit';
import { cmPath, q, typeObject } from './editor';
import { expect, test } from './fixtures';

const DELAY_MS = 100;

let relay: Relay;
let explorer: ExplorerServer;
let dir: string;

test.beforeAll(async () => {
  const server = new URL(process.env.KUBE_TEST_SERVER!);
  relay = await startRelay({ host: server.hostname, port: Number(server.port) }, DELAY_MS);
  dir = mkdtempSync(join(tmpdir(), 'kube-explorer-slow-link-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const text = readFileSync(process.env.KUBE_TEST_KUBECONFIG!, 'utf8');
  if (!text.includes(server.origin)) throw new Error(`the test kubeconfig does not name ${server.origin}`);
  writeFileSync(kubeconfig, text.replaceAll(server.origin, `${server.protocol}//${server.hostname}:${relay.port}`), { mode: 0o600 });
  explorer = await startExplorerServer({ port: 0, kubeconfigPath: kubeconfig, staticDir: 'dist', log: () => undefined });
});

test.afterAll(async () => {
  await explorer?.close();
  await relay?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('through a 200 ms round trip: discovery, a list, a watch pane and an edit all work', async ({ page, kube, ns }) => {
  test.setTimeout(180_000);
  const made = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'far-away', labels: { e2e: 'slow' } }, data: { a: '1' } });
  expect(made.status).toBe(201);

  // Discovery: the groups show.
  await page.goto(`${explorer.url}${q({ context: 'local-admin', view: 'discovery' })}`);
  await expect(page.getByRole('region', { name: 'apps/v1' })).toBeVisible({ timeout: 30_000 });

  // A list: the object's row.
  await page.goto(`${explorer.url}${q({ context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps' })}`);
  await expect(page.getByRole('row').filter({ hasText: 'far-away' })).toBeVisible({ timeout: 30_000 });

  // A watch pane: watching, then an event for an object made after it opened.
  const panes = [{ id: 's0', group: '', version: 'v1', resource: 'configmaps', namespace: ns, mode: 'list-watch', labelSelector: 'e2e=slow', bookmarks: true, asTable: false, max: 2000 }];
  await page.goto(`${explorer.url}${q({ context: 'local-admin', view: 'watch', panes: JSON.stringify(panes) })}`);
  const pane = page.getByRole('article').first();
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching', { timeout: 30_000 });
  const later = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'arrives-later', labels: { e2e: 'slow' } } });
  expect(later.status).toBe(201);
  await expect(pane.getByRole('list', { name: 'Events' }).getByRole('listitem').filter({ hasText: 'ADDED' }).filter({ hasText: `${ns}/arrives-later` })).toBeVisible({ timeout: 30_000 });

  // An edit: a merge patch saved, and the server holds it.
  await page.goto(`${explorer.url}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'far-away' })}`);
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText('"name": "far-away"', { timeout: 30_000 });
  await page.getByRole('radio', { name: 'JSON Merge Patch' }).check();
  const current = JSON.parse((await kube.request('admin', 'GET', cmPath(ns, 'far-away'))).body) as { metadata: Record<string, unknown> };
  const { managedFields: _, ...metadata } = current.metadata;
  await typeObject(page, { ...current, metadata, data: { a: '2' } });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 200', { timeout: 30_000 });
  expect((JSON.parse((await kube.request('admin', 'GET', cmPath(ns, 'far-away'))).body) as { data: Record<string, string> }).data).toEqual({ a: '2' });
  // Everything above went through the relay.
  expect(relay.connections()).toBeGreaterThan(0);
});

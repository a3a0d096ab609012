// The skew suite: one smoke test per view against the older release (versions.ts), started as it
// ships: no CBOR (406 NotAcceptable), no streaming lists (422 Invalid). Each view must offer what
// that server can do, and where a person asks for more, show the server's refusal and the fallback
// taken, by name. Not every spec twice: the full suite runs against the default release.
import type { Page } from '@playwright/test';
import { OLDER_KUBERNETES_VERSION } from '../../proxy/cluster/versions';
import { expect, test } from '../fixtures';

type Kube = Parameters<Parameters<typeof test>[2]>[0]['kube'];

const url = (base: string, params: Record<string, string>) => `${base}?${new URLSearchParams({ context: 'local-admin', ...params }).toString()}`;

async function must(kube: Kube, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ metadata?: { resourceVersion?: string } } & Record<string, unknown>> {
  const r = await kube.request('admin', method, path, body, headers);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body);
}

test('the control plane is the older release', async ({ kube }) => {
  const v = JSON.parse((await kube.request('admin', 'GET', '/version')).body) as { gitVersion: string };
  expect(v.gitVersion).toBe(OLDER_KUBERNETES_VERSION);
});

test('discovery lists the resources and says what this server refused, with its Status', async ({ page, explorerUrl }) => {
  await page.goto(url(explorerUrl, { view: 'discovery', group: '', version: 'v1', resource: 'configmaps' }));
  const nav = page.getByRole('navigation', { name: 'API resources' });
  await expect(nav.getByRole('region', { name: 'apps/v1' }).getByRole('link', { name: /^deployments Deployment$/ })).toBeVisible();
  await expect(page.getByText(/^Aggregated discovery/)).toBeVisible();
  const caps = page.getByRole('group', { name: 'Server capabilities' });
  await expect(caps).toContainText(`Server ${OLDER_KUBERNETES_VERSION}: CBOR ✗ · streaming lists ✗ · aggregated discovery ✓`);
  await caps.getByText(/^Server v/).click();
  await expect(caps).toContainText('406 NotAcceptable');
  await expect(caps).toContainText('422 Invalid');
  await expect(caps).toContainText('sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled');

  // Each representation of one resource, asked of the server.
  const reps = page.getByRole('group', { name: 'Representations' });
  await reps.getByText(/^Representations this server/).click();
  await expect(reps.getByText('refused', { exact: true })).toHaveCount(1);
  await expect(reps).toContainText(/CBOR\s*refused 406 NotAcceptable/);
  await expect(reps).toContainText(/Protobuf\s*served/);
  await expect(reps).toContainText(/Table\s*served/);
});

test('a Table list pages in chunks with the server’s continue tokens', async ({ page, explorerUrl, kube, ns }) => {
  for (let i = 0; i < 5; i++) await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}`, labels: { skew: 'list' } } });
  await page.goto(url(explorerUrl, { view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps', limit: '2', labelSelector: 'skew=list' }));
  await expect(page.getByRole('status')).toContainText('2 rows in 1 page, more on the server');
  await page.getByRole('button', { name: 'Load all' }).click();
  await expect(page.getByRole('status')).toContainText('5 rows in 3 pages, list complete');
  const table = page.getByRole('table', { name: 'ConfigMap list' });
  await expect(table.getByRole('columnheader')).toHaveText([/^Name/, /^Data/, /^Age/]);
});

function watchUrl(base: string, ns: string, mode: string): string {
  const panes = [{ id: 'p0', group: '', version: 'v1', resource: 'configmaps', namespace: ns, mode, labelSelector: 'skew=watch', bookmarks: true, asTable: false, max: 500 }];
  return url(base, { view: 'watch', panes: JSON.stringify(panes) });
}

test('watch panes start in every mode; a streaming list shows the 422 refusal and falls back to list, then watch', async ({ page, explorerUrl, kube, ns }) => {
  await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'before', labels: { skew: 'watch' } } });
  for (const mode of ['list-watch', 'watch-unset', 'watch-0', 'stream']) {
    await page.goto(watchUrl(explorerUrl, ns, mode));
    const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (skew=watch)` });
    await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
    const events = pane.getByRole('list', { name: 'Events' });
    await expect(events.getByRole('listitem').filter({ hasText: `${ns}/before` }).first()).toContainText('ADDED');
    if (mode === 'stream') {
      const fallback = pane.getByRole('status', { name: 'Fallback' });
      await expect(fallback).toContainText('The server refused the streaming list (422 Invalid); this pane fell back to List, then watch.');
      await expect(fallback).toContainText('sendInitialEvents is forbidden');
      await expect(events.getByRole('listitem').filter({ hasText: 'falling back to List, then watch' })).toBeVisible();
    }
    const name = `live-${mode}`;
    const made = await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels: { skew: 'watch' } } });
    await expect(events.getByRole('listitem').filter({ hasText: `${ns}/${name}` })).toContainText(`rv ${made.metadata!.resourceVersion}`);
  }

  // From the start: a watch from an exact resourceVersion, and the form saying beforehand that
  // this server refuses streaming lists.
  const rv = (await must(kube, 'GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=skew%3Dwatch`)).metadata!.resourceVersion!;
  await page.goto(url(explorerUrl, { view: 'watch', namespace: ns }));
  const form = page.getByRole('form', { name: 'New watch' });
  await form.getByLabel('Resource').selectOption('/v1/configmaps');
  await form.getByLabel('Watch namespace').fill(ns);
  await form.getByLabel('Label selector').fill('skew=watch');
  await expect(form.getByLabel('Start').locator('option[value="stream"]')).toHaveText(/refused by this server: 422 Invalid/);
  await form.getByLabel('Start').selectOption('stream');
  await expect(form.getByRole('note', { name: 'Streaming list refused' })).toContainText('falls back to List, then watch');
  await form.getByLabel('Start').selectOption('watch-exact');
  await form.getByLabel('Start resourceVersion').fill(rv);
  await form.getByRole('button', { name: 'Add watch' }).click();
  const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (skew=watch)` });
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  const made = await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'after-exact', labels: { skew: 'watch' } } });
  await expect(pane.getByRole('list', { name: 'Events' }).getByRole('listitem').filter({ hasText: `${ns}/after-exact` })).toContainText(`rv ${made.metadata!.resourceVersion}`);
});

async function typeObject(page: Page, obj: unknown) {
  await page.getByRole('region', { name: 'Object' }).locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(JSON.stringify(obj, null, 2));
}

test('an edit goes through with each patch type, as a dry run that persists nothing', async ({ page, explorerUrl, kube, ns }) => {
  const path = `/api/v1/namespaces/${ns}/configmaps/target`;
  await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'target' }, data: { a: '1' } });
  const before = await must(kube, 'GET', path);
  const { managedFields: _, ...meta } = before.metadata as Record<string, unknown>;
  await page.goto(url(explorerUrl, { view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'target' }));
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText('"name": "target"');
  const types: [string, string][] = [
    ['JSON Patch', 'application/json-patch+json'],
    ['JSON Merge Patch', 'application/merge-patch+json'],
    ['Strategic Merge Patch', 'application/strategic-merge-patch+json'],
    ['Server-Side Apply', 'application/apply-patch+yaml'],
  ];
  await page.getByRole('checkbox', { name: 'dryRun=All' }).check();
  for (const [label, type] of types) {
    await page.getByRole('radio', { name: label }).check();
    await typeObject(page, { ...before, metadata: meta, data: { a: '1', patchedBy: label } });
    const wire = page.getByLabel('Request to send');
    await expect(wire).toContainText(`Content-Type: ${type}`);
    await expect(wire).toContainText('dryRun=All');
    await page.getByRole('button', { name: 'Send' }).click();
    const status = page.getByRole('region', { name: 'Result' }).getByLabel('Result status');
    await expect(status).toContainText('HTTP 200');
    await expect(status).toContainText('dry run');
    // Each send adds a result; the one for this patch type carries its marker.
    await expect(page.getByLabel('Response received').filter({ hasText: new RegExp(`"patchedBy":\\s*"${label}"`) }).first()).toBeVisible();
  }
  // Nothing persisted by the dry runs.
  expect((await must(kube, 'GET', path)).metadata!.resourceVersion).toBe(before.metadata!.resourceVersion);
});

test('the ownership view shows each manager next to its fields', async ({ page, explorerUrl, kube, ns }) => {
  const path = `/api/v1/namespaces/${ns}/configmaps/owned`;
  const cm = (data: Record<string, string>) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned', namespace: ns }, data });
  await must(kube, 'PATCH', `${path}?fieldManager=alice`, cm({ shared: 'same', onlyAlice: '1' }), { 'Content-Type': 'application/apply-patch+yaml' });
  await must(kube, 'PATCH', `${path}?fieldManager=bob`, cm({ shared: 'same', onlyBob: '2' }), { 'Content-Type': 'application/apply-patch+yaml' });
  await page.goto(url(explorerUrl, { view: 'ownership', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'owned' }));
  await expect(page.getByRole('heading', { name: /Field ownership of ConfigMap owned/ })).toBeVisible();
  const owners = (field: string) => page.getByRole('list', { name: `Managers of ${field}`, exact: true }).getByRole('listitem');
  await expect(owners('.data.shared')).toHaveText([/^alice Apply/, /^bob Apply/, 'shared']);
  await expect(owners('.data.onlyAlice')).toHaveText([/^alice Apply/]);
  await expect(owners('.data.onlyBob')).toHaveText([/^bob Apply/]);
});

test('the console reads an object in every format this server serves; CBOR shows the 406 refusal and its reason', async ({ page, explorerUrl, kube, ns }) => {
  await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'formats' }, data: { greeting: 'hello' } });
  await page.goto(url(explorerUrl, { view: 'console', m: 'GET', p: `/api/v1/namespaces/${ns}/configmaps/formats` }));
  const accept = page.getByRole('combobox', { name: 'Accept' });
  await expect(accept).toBeVisible();
  const body = page.getByRole('tabpanel', { name: 'Response body' });
  for (const [type, shows] of [
    ['application/json', '"greeting": "hello"'],
    ['application/yaml', 'greeting: hello'],
    ['application/vnd.kubernetes.protobuf', 'v1 ConfigMap'],
    ['application/json;as=Table;v=v1;g=meta.k8s.io, application/json', '"kind": "Table"'],
  ] as const) {
    await accept.selectOption(type);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
    if (type.startsWith('application/json')) await page.getByRole('tab', { name: 'Text' }).click();
    await expect(body).toContainText(shows);
  }

  // CBOR: marked before sending, and the server's 406 shown when sent anyway.
  await expect(accept.locator('option[value="application/cbor"]')).toHaveText(/refused by this server: 406/);
  await accept.selectOption('application/cbor');
  const note = page.getByRole('note', { name: 'Server capability' });
  await expect(note).toContainText(`This server (${OLDER_KUBERNETES_VERSION}) does not serve CBOR`);
  await expect(note).toContainText('406 NotAcceptable');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 406');
  await expect(page.getByRole('region', { name: 'Response' }).getByRole('alert')).toContainText('406 NotAcceptable');
});

async function openLesson(page: Page, explorerUrl: string, lesson: string): Promise<void> {
  await page.goto(url(explorerUrl, { view: 'lessons', lesson }));
  await page.getByRole('button', { name: 'Create scratch namespace' }).click();
  await expect(page.getByTestId('scratch-namespace')).toHaveText(/^lesson-[a-z]+-[a-z0-9]{5}$/);
}

async function dropScratch(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Delete scratch namespace' }).click();
  await expect(page.getByRole('button', { name: 'Create scratch namespace' })).toBeVisible();
}

test('each lesson’s first step runs against this server', async ({ page, explorerUrl }) => {
  // These lessons run on the lesson kit: a step's verdict is the kit's check of the server's answer.
  // (Every step of every lesson also runs on this release in vitest.skew.config.ts.)
  for (const lesson of ['resource-versions', 'chunked-lists', 'watch', 'server-side-apply']) {
    await openLesson(page, explorerUrl, lesson);
    await page.getByRole('button', { name: 'Run step 1' }).click();
    await expect(page.getByTestId('verdict').first()).toHaveText('The server answered as described.', { timeout: 60_000 });
    await dropScratch(page);
  }
});

// Accessibility: axe on every view, with content in it, and no serious or critical violation.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import type { TestCluster } from '../proxy/cluster/cluster.testkit';
import { openEditor, typeObject } from './editor';
import { expect, test } from './fixtures';
import { watchConfigMaps } from './watchPane';

async function axe(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1).join(' ')}`).join('\n')}`);
}

const views: { view: string; params: (ns: string) => Record<string, string>; ready: (page: Page) => Promise<void> }[] = [
  { view: 'welcome', params: (ns) => ({ namespace: ns }), ready: (p) => expect(p.getByTestId('count-configmaps')).toHaveText(/\d/) },
  { view: 'discovery', params: () => ({ group: '', version: 'v1', resource: 'configmaps' }), ready: (p) => expect(p.getByRole('region', { name: 'Schema' })).toBeVisible() },
  { view: 'console', params: () => ({ m: 'GET', p: '/api/v1/namespaces' }), ready: async (p) => {
    await p.getByRole('button', { name: 'Send' }).click();
    await expect(p.getByRole('tabpanel', { name: 'Response body' })).toBeVisible();
  } },
  { view: 'lists', params: (ns) => ({ namespace: ns, group: '', version: 'v1', resource: 'configmaps' }), ready: (p) => expect(p.getByRole('table', { name: 'ConfigMap list' }).getByRole('row').nth(1)).toBeVisible() },
  { view: 'watch', params: (ns) => ({ namespace: ns }), ready: (p) => expect(p.getByRole('form', { name: 'New watch' })).toBeVisible() },
  { view: 'edit', params: (ns) => ({ namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'axe' }), ready: (p) => expect(p.getByRole('main')).toContainText('blue') },
  { view: 'ownership', params: (ns) => ({ namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'axe' }), ready: (p) => expect(p.getByRole('heading', { name: 'Managers' })).toBeVisible() },
  { view: 'lessons', params: () => ({}), ready: (p) => expect(p.getByRole('main').getByRole('heading', { level: 2 }).first()).toBeVisible() },
];

for (const { view, params, ready } of views) {
  test(`axe finds no serious or critical violation in the ${view} view, light and dark`, async ({ page, explorerUrl, kube, ns }) => {
    const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps?fieldManager=kube-api-explorer-e2e`, { metadata: { name: 'axe' }, data: { color: 'blue' } });
    expect(r.status).toBe(201);
    await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view, ...params(ns) }).toString()}`);
    await ready(page);
    expect(await axe(page), 'light theme').toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    expect(await axe(page), 'dark theme').toEqual([]);
  });
}

/** axe in the light theme, then in the dark one, of the page as it is now. */
async function bothThemes(page: Page): Promise<{ light: string[]; dark: string[] }> {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'light'));
  const light = await axe(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  return { light, dark: await axe(page) };
}

// The states a first paint does not show: what a view looks like after the user did something.
const afterActions: { name: string; open: (page: Page, explorerUrl: string, ns: string, kube: TestCluster) => Promise<void> }[] = [
  {
    name: 'the encodings view after fetching every format',
    open: async (page, explorerUrl, ns) => {
      await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'encodings', p: `/api/v1/namespaces/${ns}/configmaps/axe` }).toString()}`);
      await expect(page.getByRole('table', { name: 'Formats' }).getByLabel('CBOR equality')).toHaveText('equal');
    },
  },
  {
    name: 'a lesson after running all its steps',
    open: async (page, explorerUrl) => {
      await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'lessons', lesson: 'api-groups' }).toString()}`);
      await page.getByRole('button', { name: 'Run all steps' }).click();
      await expect(page.getByTestId('step-removed').getByTestId('verdict')).toHaveText('The server answered as described.');
    },
  },
  {
    name: 'the console after a Send',
    open: async (page, explorerUrl, ns) => {
      await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'console', m: 'GET', p: `/api/v1/namespaces/${ns}/configmaps/axe` }).toString()}`);
      await page.getByRole('button', { name: 'Send' }).click();
      await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
      await page.getByText(/^Request as sent/).click();
      await page.getByText(/^Response headers/).click();
    },
  },
  {
    name: 'the Edit view with the changed-on-the-server banner and its diff',
    open: async (page, explorerUrl, ns, kube) => {
      await openEditor(page, explorerUrl, ns, 'axe');
      await typeObject(page, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'axe' }, data: { color: 'mine' } });
      expect((await kube.request('admin', 'PATCH', `/api/v1/namespaces/${ns}/configmaps/axe`, { data: { color: 'theirs' } }, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(200);
      const banner = page.getByRole('alert', { name: 'Changed on the server' });
      await expect(banner).toBeVisible();
      await expect(page.locator('.monaco-diff-editor').first()).toBeVisible();
    },
  },
  {
    name: 'the Edit view after a write, with its result and diff',
    open: async (page, explorerUrl, ns, kube) => {
      const loaded = JSON.parse((await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/axe`)).body) as { metadata: Record<string, unknown> };
      const { managedFields: _, ...metadata } = loaded.metadata;
      await openEditor(page, explorerUrl, ns, 'axe');
      await page.getByRole('radio', { name: 'JSON Merge Patch' }).check();
      await typeObject(page, { ...loaded, metadata, data: { color: 'green' } });
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 200');
      await expect(page.locator('.monaco-diff-editor').first()).toBeVisible();
    },
  },
  {
    name: 'the Edit view with an apply conflict panel',
    open: async (page, explorerUrl, ns, kube) => {
      const other = await kube.request('admin', 'PATCH', `/api/v1/namespaces/${ns}/configmaps/axe?fieldManager=a&force=true`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'axe' }, data: { color: 'from-a' } }, { 'Content-Type': 'application/apply-patch+yaml' });
      expect(other.status).toBe(200);
      await openEditor(page, explorerUrl, ns, 'axe');
      await page.getByRole('radio', { name: 'Server-Side Apply' }).check();
      await typeObject(page, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'axe' }, data: { color: 'mine' } });
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect(page.getByRole('region', { name: 'Result' }).getByRole('table', { name: 'Field conflicts' })).toBeVisible();
    },
  },
  {
    name: 'a watch pane with events',
    open: async (page, explorerUrl, ns, kube) => {
      const pane = await watchConfigMaps(page, explorerUrl, ns);
      expect((await kube.request('admin', 'PATCH', `/api/v1/namespaces/${ns}/configmaps/axe`, { data: { color: 'red' } }, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(200);
      const events = pane.getByRole('list', { name: 'Events' });
      await expect(events.getByRole('listitem').filter({ hasText: 'MODIFIED' }).first()).toBeVisible();
      await events.getByRole('button').filter({ hasText: 'MODIFIED' }).first().click();
    },
  },
  {
    name: 'the command palette, open with matches',
    open: async (page, explorerUrl) => {
      await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'welcome' }).toString()}`);
      await page.keyboard.press('Control+k');
      await page.keyboard.type('con');
      await expect(page.getByRole('option').first()).toBeVisible();
    },
  },
  {
    name: 'ownership with a manager highlighted',
    open: async (page, explorerUrl, ns) => {
      await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'ownership', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'axe' }).toString()}`);
      await page.getByRole('combobox', { name: 'Highlight manager' }).selectOption('kube-api-explorer-e2e');
      await expect(page).toHaveURL(/manager=kube-api-explorer-e2e/);
    },
  },
];

for (const { name, open } of afterActions) {
  test(`axe finds no serious or critical violation in ${name}, light and dark`, async ({ page, explorerUrl, kube, ns }) => {
    const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps?fieldManager=kube-api-explorer-e2e`, { metadata: { name: 'axe' }, data: { color: 'blue' } });
    expect(r.status).toBe(201);
    await open(page, explorerUrl, ns, kube);
    expect(await bothThemes(page)).toEqual({ light: [], dark: [] });
  });
}

test('every view has one h1, named as its tab, inside the main landmark; the first Tab stop skips to it', async ({ page, explorerUrl }) => {
  for (const [view, label] of [['welcome', 'Welcome'], ['discovery', 'Discovery'], ['console', 'Console'], ['lists', 'Lists'], ['watch', 'Watch'], ['edit', 'Edit'], ['ownership', 'Ownership'], ['lessons', 'Lessons'], ['encodings', 'Encodings']] as const) {
    await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view }).toString()}`);
    await expect(page.locator('h1')).toHaveCount(1);
    await expect(page.getByRole('main').locator('h1')).toHaveText(label);
    await expect(page.getByRole('main')).toHaveAccessibleName(label);
  }
  // The navigation starts with the default view.
  await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('link').first()).toHaveText('Welcome');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});

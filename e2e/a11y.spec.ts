// Accessibility: axe on every view, with content in it, and no serious or critical violation.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

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
  { view: 'lessons', params: () => ({}), ready: (p) => expect(p.getByRole('heading').first()).toBeVisible() },
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

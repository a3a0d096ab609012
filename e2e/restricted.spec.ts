// A user who may read one namespace only (a ServiceAccount with a Role there: get/list/watch on
// configmaps, pods, services, events and deployments; no ClusterRoleBinding, so no `list
// namespaces` and no cluster-scoped reads), through an explorer server of this spec's own whose
// kubeconfig has that context with its namespace set. Every view shows what the user may see, or
// says why not; none is left loading.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createRestrictedUser, RESTRICTED_CONTEXT, type RestrictedUser } from '../proxy/cluster/restricted.testkit';
import { testCluster } from '../proxy/cluster/cluster.testkit';
import { startExplorerServer, type ExplorerServer } from '../proxy/src/server';
import { expect, test } from './fixtures';

let dir: string;
let srv: ExplorerServer;
let user: RestrictedUser;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'e2e-restricted-'));
  const kube = testCluster({ dir: process.env.KUBE_TEST_DIR!, server: process.env.KUBE_TEST_SERVER!, etcdUrl: process.env.KUBE_TEST_ETCD!, kubeconfig: process.env.KUBE_TEST_KUBECONFIG!, kubernetesVersion: '' });
  user = await createRestrictedUser(kube, join(dir, 'kubeconfig'));
  const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${user.namespace}/configmaps`, { metadata: { name: 'settings' }, data: { mode: 'restricted' } });
  if (r.status !== 201) throw new Error(`creating the ConfigMap: ${r.status} ${r.body}`);
  srv = await startExplorerServer({ port: 0, kubeconfigPath: user.kubeconfig, staticDir: 'dist', log: () => {} });
});

test.afterAll(async () => {
  await srv?.close();
  await user?.remove();
  rmSync(dir, { recursive: true, force: true });
});

const open = (page: Page, query: string) => page.goto(`${srv.url}?context=${RESTRICTED_CONTEXT}&${query}`);

/** Nothing in the view is still loading. */
async function settled(page: Page) {
  await expect(page.locator('main').getByText(/loading…|Loading…|Reading discovery…|Asking the server/)).toHaveCount(0);
}

test('the namespace comes from the kubeconfig: a link without one opens in the context’s namespace, and Welcome says what the user may do there', async ({ page }) => {
  await open(page, 'view=welcome');
  await expect(page).toHaveURL(new RegExp(`namespace=${user.namespace}`));
  // Not a picker that needs `list namespaces`: a field with the namespace in it, free to type.
  await expect(page.getByRole('textbox', { name: 'Namespace' })).toHaveValue(user.namespace);
  await expect(page.getByRole('heading', { name: `What you may do in ${user.namespace}` })).toBeVisible();
  await expect(page.getByText('get, list, watch: configmaps, pods, services, events')).toBeVisible();
  await settled(page);
});

test('Discovery marks what the user may do, can show only that, and asks the server about itself where the user may read', async ({ page }) => {
  await open(page, `view=discovery&namespace=${user.namespace}`);
  const nav = page.getByRole('navigation', { name: 'API resources' });
  const item = (name: RegExp) => nav.getByRole('region', { name: 'core v1' }).getByRole('listitem').filter({ has: page.getByRole('link', { name }) });
  await expect(item(/^configmaps ConfigMap$/)).toContainText('read');
  await expect(item(/^secrets Secret$/)).toContainText('(no access)');
  await expect(page.getByTestId('rules-note')).toContainText(`what context restricted may do in namespace ${user.namespace}`);
  // The capability probes list a collection the user may read: not "✗" for what it may not ask.
  const summary = page.getByText(/Server v1\.\d+\.\d+: CBOR/);
  await expect(summary).toBeVisible();
  await expect(summary).not.toContainText('?');
  await expect(summary).not.toContainText('✗');
  await page.getByLabel('only what I may use').check();
  await expect(nav.getByRole('link', { name: /^deployments Deployment$/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: /^nodes Node$/ })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: /^secrets Secret$/ })).toHaveCount(0);
  await settled(page);
});

test('Lists: the namespace’s ConfigMaps list; a forbidden list says what the user may list instead, and an all-namespaces list points at the context’s namespace', async ({ page }) => {
  await open(page, `view=lists&namespace=${user.namespace}&group=&version=v1&resource=configmaps`);
  await expect(page.getByRole('cell', { name: 'settings', exact: true })).toBeVisible();

  await open(page, `view=lists&namespace=${user.namespace}&group=&version=v1&resource=secrets`);
  await expect(page.getByText('403 Forbidden')).toBeVisible();
  const hint = page.getByTestId('forbidden-hint');
  await expect(hint).toContainText(`What this context may list in ${user.namespace}`);
  await hint.getByRole('link', { name: 'configmaps', exact: true }).click();
  await expect(page.getByRole('cell', { name: 'settings', exact: true })).toBeVisible();

  // A list across all namespaces (the namespace field emptied).
  const field = page.getByRole('textbox', { name: 'Namespace' });
  await field.fill('');
  await field.press('Enter');
  await expect(page.getByText(/cannot list resource "configmaps" in API group "" at the cluster scope/)).toBeVisible();
  await page.getByTestId('forbidden-hint').getByRole('link', { name: user.namespace }).click();
  await expect(page.getByRole('cell', { name: 'settings', exact: true })).toBeVisible();

  // Cluster-scoped: said so.
  await open(page, `view=lists&namespace=${user.namespace}&group=&version=v1&resource=nodes`);
  await expect(page.getByTestId('forbidden-hint')).toContainText('cluster-scoped');
  await settled(page);
});

test('Watch: a pane on the namespace’s ConfigMaps shows them; a pane the user may not watch says 403 Forbidden', async ({ page }) => {
  const panes = (resource: string) =>
    JSON.stringify([{ id: 'p0', group: '', version: 'v1', resource, namespace: user.namespace, mode: 'list-watch', bookmarks: true, asTable: false, max: 100 }]);
  await open(page, `view=watch&namespace=${user.namespace}&panes=${encodeURIComponent(panes('configmaps'))}`);
  const pane = page.getByRole('article').first();
  await expect(pane.getByText('settings').first()).toBeVisible();

  await open(page, `view=watch&namespace=${user.namespace}&panes=${encodeURIComponent(panes('secrets'))}`);
  await expect(page.getByRole('article').first().getByText(/forbidden/i).first()).toBeVisible();
});

test('Edit, Ownership and Encodings open the namespace’s ConfigMap', async ({ page }) => {
  const obj = `namespace=${user.namespace}&group=&version=v1&resource=configmaps&name=settings`;
  await open(page, `view=edit&${obj}`);
  await expect(page.getByText(`ConfigMap settings in ${user.namespace}`)).toBeVisible();
  // Writes: said before sending, from a SelfSubjectAccessReview.
  await expect(page.getByText(/may not patch configmaps in namespace/)).toBeVisible();
  await settled(page);

  await open(page, `view=ownership&${obj}`);
  await expect(page.getByRole('heading', { name: 'Managers' })).toBeVisible();
  await settled(page);

  await open(page, `view=encodings&${obj}`);
  await expect(page.getByRole('row', { name: /^JSON 200 application\/json/ })).toBeVisible();
  await settled(page);
});

test('Lessons say up front that this context may not create their scratch namespaces, instead of a 403 from listing them', async ({ page }) => {
  await open(page, `view=lessons&namespace=${user.namespace}`);
  await expect(page.getByTestId('scratch-forbidden')).toContainText('may not create namespaces');
  await expect(page.getByTestId('leftovers-forbidden')).toBeVisible();
  await expect(page.getByText('listing namespaces: HTTP 403')).toHaveCount(0);
});

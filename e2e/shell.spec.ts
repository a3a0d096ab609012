// The shell and discovery against the real local control plane: what the server serves, what a
// restricted user may do, deep links, and object content shown as text.
import { expect, test } from './fixtures';

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

test('discovery lists pods in core v1 and deployments in apps/v1 with the verbs the server reports', async ({ page, explorerUrl, kube }) => {
  // What the server itself says, read directly (not through the explorer).
  const agg = JSON.parse(
    (await kube.request('admin', 'GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).body,
  ) as { items: { metadata: { name: string }; versions: { version: string; resources: { resource: string; verbs: string[] }[] }[] }[] };
  const deployVerbs = agg.items.find((i) => i.metadata.name === 'apps')!.versions.find((v) => v.version === 'v1')!.resources.find((r) => r.resource === 'deployments')!.verbs;

  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'discovery' })}`);
  const nav = page.getByRole('navigation', { name: 'API resources' });
  await expect(nav.getByRole('region', { name: 'core v1' }).getByRole('link', { name: /^pods Pod$/ })).toBeVisible();
  await nav.getByRole('region', { name: 'apps/v1' }).getByRole('link', { name: /^deployments Deployment$/ }).click();
  await expect(page.getByRole('heading', { name: /deployments apps\/v1/ })).toBeVisible();
  const verbs = page.getByLabel('Verbs');
  for (const v of deployVerbs) await expect(verbs.getByText(v, { exact: true })).toBeVisible();
  await expect(verbs.locator('.badge')).toHaveCount(deployVerbs.length);

  // Filter by short name.
  await page.getByRole('searchbox', { name: 'Filter resources' }).fill('po');
  await expect(nav.getByRole('link', { name: /^pods Pod$/ })).toBeVisible();
  await expect(nav.getByRole('link', { name: /^deployments Deployment$/ })).toHaveCount(0);
});

test('a CustomResourceDefinition created during the test appears after a refresh, its deprecated version marked', async ({ page, explorerUrl, kube }) => {
  const group = `e2e${Date.now().toString(36)}.example.com`;
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'discovery', filter: group })}`);
  await expect(page.getByText(/Aggregated discovery/)).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'API resources' });
  await expect(nav.getByRole('link')).toHaveCount(0);

  const crdName = `gadgets.${group}`;
  const r = await kube.request('admin', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crdName },
    spec: {
      group,
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', shortNames: ['gdg'], categories: ['gizmos'] },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          deprecated: true,
          deprecationWarning: 'gadgets v1 is going away, use v2',
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  });
  expect(r.status).toBe(201);
  try {
    // Wait until the server serves it (the CRD becomes Established), then refresh in the UI.
    await expect.poll(async () => (await kube.request('admin', 'GET', `/apis/${group}/v1`)).status).toBe(200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await nav.getByRole('region', { name: `${group}/v1` }).getByRole('link', { name: /^gadgets Gadget$/ }).click();
    await expect(page.getByLabel('Resource facts')).toContainText('gdg');
    await expect(page.getByLabel('Resource facts')).toContainText('gizmos');
    // Deprecation: from the CRD, and as the server's own Warning on a request to that version.
    await expect(page.getByRole('note')).toContainText('Deprecated version');
    await expect(page.getByRole('region', { name: /^Warnings the server sends/ })).toContainText('gadgets v1 is going away, use v2');
  } finally {
    await kube.request('admin', 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crdName}`);
  }
});

test('the restricted viewer sees it cannot create before trying, and a forced attempt shows the 403 Status', async ({ page, explorerUrl, ns }) => {
  await page.goto(`${explorerUrl}${q({ context: 'local-viewer', view: 'discovery', namespace: ns, group: '', version: 'v1', resource: 'configmaps' })}`);
  const access = page.getByRole('table', { name: 'Access by verb' });
  const createRow = access.getByRole('row').filter({ has: page.getByText('create', { exact: true }) });
  await expect(createRow).toContainText('denied');
  await expect(createRow).toContainText('403 Forbidden');
  await expect(access.getByRole('row').filter({ has: page.getByText('list', { exact: true }) })).toContainText('allowed');

  await createRow.getByRole('link', { name: 'Try create anyway in the console' }).click();
  await expect(page.getByRole('combobox', { name: 'Path' })).toHaveValue(`/api/v1/namespaces/${ns}/configmaps`);
  // The console asks too, before sending.
  await expect(page.getByRole('note', { name: 'Access check' })).toContainText(`may not create configmaps in namespace ${ns}`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 403');
  const status = page.getByRole('region', { name: 'Response' }).getByRole('alert');
  await expect(status).toContainText('403 Forbidden');
  await expect(status).toContainText(`cannot create resource "configmaps" in API group "" in the namespace "${ns}"`);
});

test('a deep link opened in a fresh page restores the same view', async ({ page, explorerUrl, context }) => {
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'discovery' })}`);
  await page.getByRole('searchbox', { name: 'Filter resources' }).fill('deploy');
  await page.getByRole('navigation', { name: 'API resources' }).getByRole('link', { name: /^deployments Deployment$/ }).click();
  const schema = page.getByRole('region', { name: 'Schema' });
  await schema.getByRole('link', { name: 'spec', exact: true }).click();
  await schema.getByRole('link', { name: 'template', exact: true }).click();
  await expect(schema.getByRole('navigation', { name: 'Field path' })).toContainText('Deployment. spec. template');
  const url = page.url();

  const fresh = await context.newPage();
  await fresh.goto(url);
  await expect(fresh.getByRole('searchbox', { name: 'Filter resources' })).toHaveValue('deploy');
  await expect(fresh.getByRole('heading', { name: /deployments apps\/v1/ })).toBeVisible();
  const freshSchema = fresh.getByRole('region', { name: 'Schema' });
  await expect(freshSchema.getByRole('navigation', { name: 'Field path' })).toContainText('Deployment. spec. template');
  await expect(freshSchema.getByRole('table', { name: 'Fields' })).toContainText('PodSpec');
  await expect(fresh.getByRole('combobox', { name: 'Context' })).toHaveValue('local-admin');
});

test('object content is data, never markup: HTML and script in a ConfigMap show as text and nothing runs', async ({ page, explorerUrl, kube, ns }) => {
  const html = '<img src=x onerror="window.__pwned=1"><b>bold</b>';
  const script = '<script>window.__pwned=2</script>';
  const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'markup', annotations: { note: html } },
    data: { page: script, [`k`]: html },
  });
  expect(r.status).toBe(201);
  page.on('dialog', () => {
    throw new Error('a dialog opened: object content ran as code');
  });

  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', namespace: ns, m: 'GET', p: `/api/v1/namespaces/${ns}/configmaps/markup`, 'h.Accept': 'application/json' })}`);
  await page.getByRole('button', { name: 'Send' }).click();
  const body = page.getByRole('tabpanel', { name: 'Response body' });
  const tabs = page.getByRole('tablist', { name: 'Body views' });
  // Tree
  await expect(body.getByText(JSON.stringify(html)).first()).toBeVisible();
  await expect(body.getByText(JSON.stringify(script))).toBeVisible();
  // Text
  await tabs.getByRole('tab', { name: 'Text' }).click();
  await expect(body).toContainText(script);
  // YAML
  await tabs.getByRole('tab', { name: 'As YAML' }).click();
  await expect(body).toContainText('window.__pwned=2');
  await expect(page.locator('main img, main script, main b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  // As a watch event too.
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', m: 'GET', p: `/api/v1/namespaces/${ns}/configmaps`, 'q.watch': 'true', 'q.fieldSelector': 'metadata.name=markup' })}`);
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByRole('list', { name: 'Watch events' }).getByText('ADDED', { exact: true }).click();
  await expect(page.getByRole('list', { name: 'Watch events' })).toContainText(script);
  await page.getByRole('button', { name: 'Stop' }).click();

  // The lists view's object view.
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'markup' })}`);
  await expect(page.getByRole('main')).toContainText('window.__pwned=2');
  await expect(page.getByRole('main')).toContainText('onerror=');
  await expect(page.locator('main img, main script, main b')).toHaveCount(0);

  // A watch pane (list then watch) on that object: the timeline and the current state.
  const panes = JSON.stringify([{ id: 'm', group: '', version: 'v1', resource: 'configmaps', namespace: ns, name: 'markup', mode: 'list-watch', bookmarks: true, asTable: false, max: 100 }]);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'watch', namespace: ns, panes })}`);
  await expect(page.getByRole('main')).toContainText(`${ns}/markup`);
  await page.getByText(`${ns}/markup`).first().click();
  await expect(page.getByRole('main')).toContainText('window.__pwned=2');

  // Nothing became markup, nothing ran.
  await expect(page.locator('main img, main script, main b')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('keyboard: Alt+number switches views and / focuses the filter; the theme choice survives a reload', async ({ page, explorerUrl }) => {
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'discovery' })}`);
  await expect(page.getByRole('searchbox', { name: 'Filter resources' })).toBeVisible();
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Filter resources' })).toBeFocused();
  await page.keyboard.press('Escape');
  await page.getByRole('heading', { name: 'core v1' }).click();
  await page.keyboard.press('Alt+3');
  await expect(page.getByRole('link', { name: 'Console' })).toHaveAttribute('aria-current', 'page');
  await expect(page).toHaveURL(/view=console/);

  const html = page.locator('html');
  const before = await html.getAttribute('data-theme');
  const next = before === 'dark' ? 'light' : 'dark';
  await page.getByRole('button', { name: `Switch to ${next} theme` }).click();
  await expect(html).toHaveAttribute('data-theme', next);
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', next);
});

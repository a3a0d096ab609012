// The schema-aware editor against the real server's OpenAPI v3: validation marks, completion and
// hover for a built-in kind (Deployment) and for a CRD's own fields, in YAML and JSON; a CRD changed
// since the index was read (the server's redirect to the new document, followed through the proxy);
// and a plain editor with a notice when the schema cannot be loaded (kube-apiserver down).
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
const deployment = (ns: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: ns },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
});

async function replaceText(page: Page, text: string) {
  const editor = page.getByRole('region', { name: 'Object' }).locator('.view-lines');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(text);
}

/** A navigation inside the page (as its links do), which keeps the page's cached queries. */
async function navigateInPage(page: Page, search: string) {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, search);
}

async function openEditor(page: Page, url: string) {
  await page.goto(url);
  await expect(page.getByRole('status', { name: 'Schema notice' })).toContainText('Schema-aware', { timeout: 30_000 });
}

test('a Deployment: unknown fields marked, replicas completed under spec, merge key on hover', async ({ page, explorerUrl, kube, ns }) => {
  expect((await kube.request('admin', 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, deployment(ns))).status).toBe(201);
  await openEditor(page, `${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: 'apps', version: 'v1', resource: 'deployments', name: 'web' })}`);
  const region = page.getByRole('region', { name: 'Object' });

  // The first editor of a page loads Monaco (a few MB): slow on a busy machine.
  await expect(region.locator('.view-lines')).toContainText('kind: Deployment', { timeout: 60_000 });

  // A stored object gets no marks. Proven by a change, not by a wait: an unknown key typed on top of
  // the object as loaded is marked (the validator runs on this text), and once that line is taken
  // out again the marks go, which a validator that flags the server's own fields (status,
  // resourceVersion, managedFields) would not allow.
  const marks = region.locator('.squiggly-error, .squiggly-warning');
  await region.locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.insertText('zzz: 1\n');
  await expect(marks.first()).toBeVisible();
  await page.keyboard.press('ControlOrMeta+Home');
  await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.press('Backspace');
  await expect(region.locator('.view-lines')).toContainText('resourceVersion');
  await expect(region.locator('.view-lines')).not.toContainText('zzz');
  await expect(marks).toHaveCount(0);

  // An unknown field under spec: marked before anything is sent.
  await replaceText(page, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicaz: 2\n  selector:\n    matchLabels:\n      app: web\n  template:\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.27\n');
  const mark = region.locator('.squiggly-error, .squiggly-warning').first();
  await expect(mark).toBeVisible();
  await mark.hover({ force: true });
  await expect(page.locator('.monaco-hover').filter({ hasText: 'replicaz' }).first()).toContainText(/not allowed/);

  // Hover on containers: its type and merge key.
  await page.mouse.move(0, 0);
  await region.locator('.view-line span span', { hasText: /^\s*containers:?\s*$/ }).first().hover();
  await expect(page.locator('.monaco-hover').filter({ hasText: 'patch merge key' }).first()).toContainText('[]Container');

  // Completion under spec offers replicas.
  await replaceText(page, 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  repl');
  await page.keyboard.press('Control+Space');
  await expect(page.locator('.suggest-widget')).toContainText('replicas');
  await page.keyboard.press('Escape');

  // JSON mode: the same schema marks the same mistake.
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  await replaceText(page, JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 'two', selector: {}, template: {} } }, null, 2));
  const jsonMark = region.locator('.squiggly-error, .squiggly-warning').first();
  await expect(jsonMark).toBeVisible();
  await region.locator('.view-line span span', { hasText: /^\s*"two"\s*$/ }).first().hover();
  await expect(page.locator('.monaco-hover').filter({ hasText: /integer/i }).first()).toBeVisible();
});

test("a custom resource: its own enum completed and its minimum marked", async ({ page, explorerUrl, kube, ns }) => {
  const group = `${ns}.example.com`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gadgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', minimum: 1, description: 'How big.' }, color: { type: 'string', enum: ['red', 'blue'] } } } } } } }],
    },
  };
  expect((await kube.request('admin', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
  try {
    const path = `/apis/${group}/v1/namespaces/${ns}/gadgets`;
    await expect.poll(async () => (await kube.request('admin', 'POST', path, { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name: 'g' }, spec: { size: 2, color: 'red' } })).status, { timeout: 30_000 }).toBe(201);
    // The CRD's OpenAPI document is published a moment after the CRD is served.
    await expect.poll(async () => (await kube.request('admin', 'GET', '/openapi/v3')).body.includes(`apis/${group}/v1`), { timeout: 30_000 }).toBe(true);
    await openEditor(page, `${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group, version: 'v1', resource: 'gadgets', name: 'g' })}`);
    const region = page.getByRole('region', { name: 'Object' });
    await expect(region.locator('.view-lines')).toContainText('kind: Gadget', { timeout: 60_000 });
    await replaceText(page, `apiVersion: ${group}/v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  size: 0\n  color: `);
    await page.keyboard.press('Control+Space');
    await expect(page.locator('.suggest-widget')).toContainText('blue');
    await expect(page.locator('.suggest-widget')).toContainText('red');
    await page.keyboard.press('Escape');
    await region.locator('.squiggly-error, .squiggly-warning').first().hover({ force: true });
    await expect(page.locator('.monaco-hover').filter({ hasText: /minimum/i }).first()).toBeVisible();
  } finally {
    await kube.request('admin', 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.${group}`);
  }
});

test("a CRD changed since the page read the schema index: the editor follows the server's redirect to the new document", async ({ page, explorerUrl, kube, ns }) => {
  const group = `${ns}.example.com`;
  const name = `widgets.${group}`;
  const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: { group, scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }] },
  };
  const documentUrl = async () => (JSON.parse((await kube.request('admin', 'GET', '/openapi/v3')).body) as { paths: Record<string, { serverRelativeURL: string }> }).paths[`apis/${group}/v1`]?.serverRelativeURL;
  expect((await kube.request('admin', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
  try {
    await expect.poll(documentUrl, { timeout: 30_000 }).toBeTruthy();
    const before = await documentUrl();
    // The page reads discovery and the /openapi/v3 index (with the CRD's document at its first hash).
    await openEditor(page, `${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps' })}`);

    // The CRD gains a field: the server publishes its document under a new hash and answers the
    // old one with 301 to the new, a path on the API server that the proxy sends back through itself.
    const live = JSON.parse((await kube.request('admin', 'GET', crdPath)).body);
    live.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.color = { type: 'string', enum: ['red', 'blue'] };
    expect((await kube.request('admin', 'PUT', crdPath, live)).status).toBe(200);
    await expect.poll(documentUrl, { timeout: 30_000 }).not.toBe(before);

    // Within the index's freshness, the editor of the CRD asks for the old hash and gets the new field.
    await navigateInPage(page, q({ context: 'local-admin', view: 'edit', namespace: ns, group, version: 'v1', resource: 'widgets' }));
    await expect(page.getByRole('heading', { name: /New Widget/ })).toBeVisible();
    await expect(page.getByRole('status', { name: 'Schema notice' })).toContainText('Schema-aware', { timeout: 30_000 });
    await replaceText(page, `apiVersion: ${group}/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  color: `);
    await page.keyboard.press('Control+Space');
    await expect(page.locator('.suggest-widget')).toContainText('blue');
  } finally {
    await kube.request('admin', 'DELETE', crdPath);
  }
});

test('a schema that cannot be loaded (kube-apiserver down) leaves a working plain editor with a notice', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(180_000);
  const up = () => kube.apiServerReady();
  // Discovery is read; the OpenAPI index is not (the Lists view does not need it).
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps' })}`);
  await expect(page.getByRole('table').first()).toBeVisible({ timeout: 30_000 });
  try {
    // 15 s without kube-apiserver: the index read and its one retry are refused.
    await kube.apiServerOutage(15_000);
    const refused = async () => {
      try {
        await kube.request('admin', 'GET', '/version');
        return false;
      } catch {
        return true;
      }
    };
    await expect.poll(refused, { timeout: 20_000, intervals: [200] }).toBe(true);
    await navigateInPage(page, q({ context: 'local-admin', view: 'edit', namespace: ns, group: 'apps', version: 'v1', resource: 'deployments' }));
    await expect(page.getByRole('heading', { name: /New Deployment/ })).toBeVisible();
    const notice = page.getByRole('status', { name: 'Schema notice' });
    await expect(notice).toContainText('Plain editor: could not read /openapi/v3', { timeout: 30_000 });
    await expect(notice).toContainText('editing and sending work as usual');

    // The editor is there and takes typing; the document gets no schema marks.
    const region = page.getByRole('region', { name: 'Object' });
    await expect(region.locator('.view-lines')).toContainText('kind: Deployment', { timeout: 60_000 });
    await replaceText(page, `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: plain\n  namespace: ${ns}\nspec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: plain\n  template:\n    metadata:\n      labels:\n        app: plain\n    spec:\n      containers:\n      - name: c\n        image: nginx:1.27\n`);
    await expect(region.locator('.view-lines')).toContainText('name: plain');
    await expect(region.locator('.squiggly-error, .squiggly-warning')).toHaveCount(0);

    // Once the server is back, what was typed is sent as it stands.
    await expect.poll(up, { timeout: 120_000, intervals: [1000] }).toBe(true);
    await expect(page.getByLabel('Request to send')).toContainText(`POST /apis/apps/v1/namespaces/${ns}/deployments`);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 201', { timeout: 30_000 });
    expect((await kube.request('admin', 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/plain`)).status).toBe(200);
    // After the 201 the view edits the created object (a new editing session), and with the
    // server back its schema loads: the plain editor was a state of the outage, not a lasting one.
    await expect(notice).toContainText('Schema-aware', { timeout: 30_000 });
  } finally {
    await expect.poll(up, { timeout: 120_000, intervals: [1000] }).toBe(true);
    // kube-controller-manager's informers back off while the server is away (up to 30 s): the
    // specs after this one need it caught up, so wait until it publishes kube-root-ca.crt into a
    // namespace made now.
    const probe = `${ns}-after`;
    await kube.request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: probe } });
    await expect.poll(async () => (await kube.request('admin', 'GET', `/api/v1/namespaces/${probe}/configmaps/kube-root-ca.crt`)).status, { timeout: 120_000, intervals: [1000] }).toBe(200);
    await kube.request('admin', 'DELETE', `/api/v1/namespaces/${probe}`);
  }
});

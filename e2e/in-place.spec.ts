// What a new user and a student trip on (issue 44), through the page: a recording survives every
// kind of in-app link (each changes the view in place; a full load would end it) and holds every
// exchange; a reload while recording asks first; a Lists page count survives a reload; the sample
// recording lands on its rows without a JavaScript error; the command palette reaches an object, a
// lesson (and runs it in five key presses) and another context without the mouse.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const q = (p: Record<string, string>) => `?${new URLSearchParams(p).toString()}`;

/** A mark in the document: a full page load forgets it, an in-place navigation keeps it. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { __samePage?: boolean }).__samePage = true));
}
const samePage = (page: Page) => page.evaluate(() => (window as unknown as { __samePage?: boolean }).__samePage === true);

test('a recording survives every kind of in-app link and holds every exchange; a reload while recording asks first', async ({ page, explorerUrl, kube, ns }) => {
  expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' }, data: { a: '1' } })).status).toBe(201);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'welcome', namespace: ns })}`);
  await page.getByRole('button', { name: '● Record' }).click();
  await markDocument(page);
  // Every HTTP exchange the page has from here on (list chunks and watches go over the mux, and are checked by path below).
  const sent: string[] = [];
  page.on('request', (r) => {
    const m = /\/k8s\/[^/]+(\/.*)$/.exec(r.url());
    if (m) sent.push(decodeURIComponent(m[1]!));
  });

  const follow = async (link: ReturnType<Page['getByRole']>, url: RegExp) => {
    await link.click();
    await expect(page).toHaveURL(url);
    expect(await samePage(page), `${url} loaded the page again`).toBe(true);
  };
  // Welcome: "Start with the lessons".
  await follow(page.getByRole('link', { name: 'Start with the lessons' }), /view=lessons/);
  // The lesson index, and a lesson's step link into the console.
  await follow(page.getByRole('navigation', { name: 'Lessons' }).getByRole('link', { name: /^Health endpoints/ }), /lesson=health/);
  await page.getByRole('button', { name: 'Run all steps' }).click();
  await expect(page.getByTestId('step-verbose').getByTestId('verdict')).toHaveText('The server answered as described.');
  await follow(page.getByTestId('step-verbose').getByRole('link', { name: 'open this request in the console' }).first(), /view=console/);
  // A view tab, then a list row, then the object's links.
  await follow(page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Lists' }), /view=lists/);
  await page.evaluate((search) => {
    history.pushState(null, '', search);
    dispatchEvent(new PopStateEvent('popstate'));
  }, q({ context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps' }));
  await follow(page.getByRole('link', { name: 'web', exact: true }), /name=web/);
  await follow(page.getByRole('link', { name: 'Who owns its fields' }), /view=ownership/);
  await page.goBack();
  await follow(page.getByRole('link', { name: 'Edit it' }), /view=edit/);
  await page.goBack();
  await follow(page.getByRole('link', { name: 'Watch it' }), /view=watch/);
  // A Status's lesson link: an object that does not exist.
  await page.evaluate((search) => {
    history.pushState(null, '', search);
    dispatchEvent(new PopStateEvent('popstate'));
  }, q({ context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'no-such-object' }));
  await follow(page.getByRole('link', { name: 'Lesson: why this happens' }).first(), /view=lessons/);
  // The brand link, home.
  await follow(page.getByRole('link', { name: 'Kube API Explorer' }), /view=welcome/);

  // Still recording; a reload asks first (dismissed: the page, and the recording, stay).
  await expect(page.getByRole('button', { name: '■ Stop recording' })).toBeVisible();
  const asked = page.waitForEvent('dialog');
  void page.evaluate(() => location.reload()).catch(() => undefined);
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  expect(await samePage(page)).toBe(true);
  await expect(page.getByRole('button', { name: '■ Stop recording' })).toBeVisible();

  // Every exchange is in the recording: each HTTP request the page sent, and the mux reads by path.
  await page.getByRole('button', { name: '■ Stop recording' }).click();
  await page.getByRole('button', { name: 'Save…' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save file' }).click();
  const har = JSON.parse(await readFile((await (await downloading).path())!, 'utf8')) as { log: { entries: { _apiPath: string }[] } };
  const recorded = new Set(har.log.entries.map((e) => decodeURIComponent(e._apiPath)));
  expect(sent.length).toBeGreaterThan(5);
  expect(sent.filter((p) => !recorded.has(p))).toEqual([]);
  for (const path of ['/readyz?verbose', `/api/v1/namespaces/${ns}/configmaps/web`, `/api/v1/namespaces/${ns}/configmaps/no-such-object`])
    expect([...recorded].some((p) => p.startsWith(path)), path).toBe(true);
  expect([...recorded].some((p) => p.startsWith(`/api/v1/namespaces/${ns}/configmaps?`))).toBe(true);
});

test('Lists: the pages loaded with Next page come back after a reload', async ({ page, explorerUrl, kube, ns }) => {
  for (let i = 0; i < 7; i++) expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `p-${i}`, labels: { page: 'yes' } } })).status).toBe(201);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps', limit: '3', labelSelector: 'page=yes' })}`);
  const status = page.getByRole('status').filter({ hasText: /rows? in/ });
  await expect(status).toContainText('3 rows in 1 page');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(status).toContainText('6 rows in 2 pages');
  await page.reload();
  await expect(status).toContainText('6 rows in 2 pages, more on the server');
});

test('the sample recording lands on the list it recorded, without a JavaScript error', async ({ page, explorerUrl }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${explorerUrl}?view=welcome`);
  await page.getByRole('button', { name: 'open the sample recording' }).click();
  await expect(page).toHaveURL(/view=lists.*labelSelector=e2e%3Drec|labelSelector=e2e%3Drec.*view=lists/);
  await expect(page.getByRole('table').filter({ hasText: 'before' }).first()).toBeVisible();
  await expect(page.getByText('Unexpected end of JSON input')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the command palette reaches an object, a lesson (run in five key presses) and another context without the mouse', async ({ page, explorerUrl, kube, ns }) => {
  expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'web' } })).status).toBe(201);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', namespace: ns })}`);
  await expect(page.getByRole('combobox', { name: 'Path' })).toBeVisible();
  const palette = page.getByRole('combobox', { name: /^Go to a view/ });

  // An object by name: "cm web".
  await page.keyboard.press('Control+k');
  await expect(palette).toBeFocused();
  await page.keyboard.type('cm web');
  await expect(page.getByRole('listbox', { name: 'Matches' }).getByRole('option', { selected: true })).toContainText('configmaps/web');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/view=edit/);
  await expect(page).toHaveURL(/name=web/);
  await expect(palette).toHaveCount(0);

  // A lesson, run from the palette: five key presses once it is open.
  await page.keyboard.press('Control+k');
  await expect(palette).toBeFocused();
  const presses = ['h', 'e', 'a', 'Enter', 'Enter'];
  for (const [i, key] of presses.entries()) {
    await page.keyboard.press(key);
    if (i === 2) await expect(page.getByRole('listbox', { name: 'Matches' }).getByRole('option', { selected: true })).toContainText('Health');
    if (i === 3) await expect(page.getByRole('button', { name: 'Run all steps' })).toBeFocused();
  }
  expect(presses.length).toBeLessThanOrEqual(5);
  await expect(page.getByTestId('step-verbose').getByTestId('verdict')).toHaveText('The server answered as described.');

  // Another context, with `:` (k9s), where the focus is not in a text field.
  await page.getByRole('button', { name: 'Run all steps' }).focus();
  await page.keyboard.press(':');
  await expect(palette).toBeFocused();
  await page.keyboard.type('viewer');
  await expect(page.getByRole('listbox', { name: 'Matches' }).getByRole('option', { selected: true })).toContainText('local-viewer');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/context=local-viewer/);
  await expect(page.getByRole('combobox', { name: 'Context' })).toHaveValue('local-viewer');
});

test("an object's neighbours: its owner, its dependents and its events, each as the request that finds it", async ({ page, explorerUrl, kube, ns }) => {
  const parent = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'parent' } });
  expect(parent.status).toBe(201);
  const uid = (JSON.parse(parent.body) as { metadata: { uid: string } }).metadata.uid;
  const owner = { apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid };
  const child = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'child', ownerReferences: [owner] } });
  expect(child.status).toBe(201);
  const childUid = (JSON.parse(child.body) as { metadata: { uid: string } }).metadata.uid;
  const list = { context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps' };
  await page.goto(`${explorerUrl}${q({ ...list, name: 'parent' })}`);
  const neighbours = page.getByRole('region', { name: 'Neighbours' });
  await expect(neighbours.getByRole('link', { name: 'Its events' })).toHaveAttribute('href', new RegExp(`involvedObject\\.uid%3D${uid}`));
  await neighbours.getByRole('button', { name: 'Find its dependents' }).click();
  const found = neighbours.getByTestId('dependents');
  await expect(found).toContainText(/^1 found in \d+ lists/);
  await expect(neighbours.getByLabel('Requests sent to find dependents')).toContainText(`GET /api/v1/namespaces/${ns}/configmaps?limit=500`);
  await found.getByRole('link', { name: 'ConfigMap child' }).click();
  await expect(page).toHaveURL(/name=child/);
  // Another object: neither the parent's answer nor a scan nobody asked for.
  await expect(neighbours.getByRole('link', { name: 'Its events' })).toHaveAttribute('href', new RegExp(`involvedObject\\.uid%3D${childUid}`));
  await expect(neighbours.getByRole('button', { name: 'Find its dependents' })).toBeEnabled();
  await expect(neighbours.getByTestId('dependents')).toHaveCount(0);
  await neighbours.getByRole('link', { name: 'ConfigMap parent' }).click();
  await expect(page).toHaveURL(/name=parent/);
});

test("a cluster-scoped object's dependents in a namespace are found (the garbage collector's scope), each page of each list read", async ({ page, explorerUrl, kube, ns }) => {
  const roleName = `nb-owner-${ns}`;
  const role = await kube.request('admin', 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: roleName }, rules: [] });
  expect(role.status).toBe(201);
  try {
    const uid = (JSON.parse(role.body) as { metadata: { uid: string } }).metadata.uid;
    const owner = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', name: roleName, uid };
    expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'owned-by-a-clusterrole', ownerReferences: [owner] } })).status).toBe(201);
    await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'lists', group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', name: roleName })}`);
    const neighbours = page.getByRole('region', { name: 'Neighbours' });
    await neighbours.getByRole('button', { name: 'Find its dependents' }).click();
    const found = neighbours.getByTestId('dependents');
    await expect(found).toContainText(/^1 found in \d+ lists/, { timeout: 60_000 });
    // Namespaced types are listed across all namespaces for a cluster-scoped owner.
    await expect(neighbours.getByLabel('Requests sent to find dependents')).toContainText('GET /api/v1/configmaps?limit=500');
    await found.getByRole('link', { name: 'ConfigMap owned-by-a-clusterrole' }).click();
    await expect(page).toHaveURL(new RegExp(`namespace=${ns}.*name=owned-by-a-clusterrole|name=owned-by-a-clusterrole.*namespace=${ns}`));
  } finally {
    await kube.request('admin', 'DELETE', `/apis/rbac.authorization.k8s.io/v1/clusterroles/${roleName}`);
  }
});

// The first screen: version, readiness, what the user may do, counts, and where to start.
import { expect, test } from './fixtures';
import { KUBERNETES_VERSION } from '../proxy/cluster/versions';

test('the first screen shows the cluster version, readiness, the rules review, counts and where to start', async ({ page, explorerUrl, kube, ns }) => {
  for (const name of ['a', 'b', 'c']) {
    const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name } });
    expect(r.status).toBe(201);
  }
  // kube-controller-manager adds kube-root-ca.crt to a new namespace on its own time: wait for it,
  // so that the count the page reads once is the one asserted below.
  await expect.poll(async () => (await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).status, { timeout: 30_000 }).toBe(200);
  // No view in the URL: the welcome screen.
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', namespace: ns }).toString()}`);
  await expect(page.getByTestId('server-version')).toHaveText(KUBERNETES_VERSION);
  await expect(page.getByTestId('readyz-summary')).toContainText(/✓ ready: (\d+) of \1 checks passed/);
  await expect(page.getByRole('heading', { name: `What you may do in ${ns}` })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Resource rules' })).toContainText('*: *');
  // 3 of ours + kube-root-ca.crt from kube-controller-manager.
  await expect(page.getByTestId('count-configmaps')).toHaveText('4');
  await expect(page.getByTestId('count-pods')).toHaveText('0');

  const start = page.getByRole('region', { name: 'Where to start' });
  const lessons = start.getByRole('link', { name: 'Start with the lessons' });
  expect(new URL(await lessons.getAttribute('href') ?? '', explorerUrl).searchParams.get('view')).toBe('lessons');
  for (const v of ['Discovery', 'Console', 'Lists', 'Watch', 'Edit', 'Ownership', 'Lessons']) await expect(start.getByRole('link', { name: v, exact: true })).toBeVisible();

  // On a wide screen the panels share the whole width.
  await page.setViewportSize({ width: 2400, height: 900 });
  const counts = (await page.getByRole('region', { name: /How much is here/ }).boundingBox())!;
  expect(counts.x + counts.width).toBeGreaterThan(2400 * 0.9);
  await page.setViewportSize({ width: 1400, height: 900 });

  // The brand link comes back to it from any view.
  await start.getByRole('link', { name: 'Discovery', exact: true }).click();
  await expect(page).toHaveURL(/view=discovery/);
  await page.getByRole('link', { name: 'Kube API Explorer' }).click();
  await expect(page.getByTestId('server-version')).toHaveText(KUBERNETES_VERSION);
});

test('the viewer sees read-only rules on the first screen', async ({ page, explorerUrl, ns }) => {
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-viewer', namespace: ns }).toString()}`);
  const rules = page.getByRole('list', { name: 'Resource rules' });
  await expect(rules).toContainText('get, list, watch');
  await expect(rules).not.toContainText('*: *');
});

// "Re-apply my changes to the latest version" in the browser, against the real server (issue 28):
// someone else's change to another list element survives the rebase and the send (case 1), and a
// field both changed is shown with both values and waits for the user's choice.
import { cmPath, openEditor, q, typeObject } from './editor';
import { expect, test } from './fixtures';

type Container = { name: string; image: string; env?: { name: string; value: string }[] };
type Dep = { metadata: { resourceVersion: string; generation: number; managedFields?: unknown }; spec: { template: { spec: { containers: Container[] } } }; status?: { observedGeneration?: number } };
type Kube = { request: (u: 'admin', m: string, p: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: string }> };

async function get<T>(kube: Kube, path: string): Promise<T> {
  return JSON.parse((await kube.request('admin', 'GET', path)).body) as T;
}

/** The Deployment once its controller has observed the last change and stopped writing. */
async function settled(kube: Kube, path: string): Promise<Dep> {
  let last: Dep | undefined;
  for (let i = 0; i < 100; i++) {
    const d = await get<Dep>(kube, path);
    if (d.status?.observedGeneration === d.metadata.generation && last?.metadata.resourceVersion === d.metadata.resourceVersion) return d;
    last = d;
    await new Promise((r) => setTimeout(r, 300));
  }
  return last!;
}

test('case 1: I change container a’s image, a strategic merge patch changes b and adds env Y; after Re-apply and Send both changes are stored', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(120_000);
  const path = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
  const created = await kube.request('admin', 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
    metadata: { name: 'web' },
    spec: { replicas: 0, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }] } } },
  });
  expect(created.status).toBe(201);
  const loaded = await settled(kube, path);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: 'apps', version: 'v1', resource: 'deployments', name: 'web' })}`);
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  await expect(page.getByLabel('Loaded resourceVersion')).toHaveText(loaded.metadata.resourceVersion);
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText('"name": "web"');

  const { managedFields: _, ...meta } = loaded.metadata;
  const mine = { ...loaded, metadata: meta };
  mine.spec.template.spec.containers[0]!.image = 'a:mine';
  await typeObject(page, mine);

  // Another client: kubectl patch deployment web --type strategic -p '…'.
  const theirs = await kube.request('admin', 'PATCH', path, { spec: { template: { spec: { containers: [{ name: 'b', image: 'b:theirs', env: [{ name: 'Y', value: 'y' }] }] } } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
  expect(theirs.status).toBe(200);
  const latest = await settled(kube, path);
  const banner = page.getByRole('alert', { name: 'Changed on the server' });
  await expect(banner).toContainText(latest.metadata.resourceVersion);
  await banner.getByRole('button', { name: 'Re-apply my changes to the latest version' }).click();
  await expect(page.getByRole('status', { name: 'Rebase' })).toContainText('no field was changed on both sides');

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 200');
  const stored = await get<Dep>(kube, path);
  expect(stored.spec.template.spec.containers.map((c) => [c.name, c.image, c.env?.map((e) => e.name) ?? []])).toEqual([
    ['a', 'a:mine', []],
    ['b', 'b:theirs', ['Y']],
  ]);
});

test('a field both changed is shown with both values; nothing is sent until the user chooses, and the choice is stored', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'both' }, data: { a: '1', b: '1' } });
  await openEditor(page, explorerUrl, ns, 'both');
  const loaded = await get<{ metadata: Record<string, unknown>; data: Record<string, string> }>(kube, cmPath(ns, 'both'));
  const { managedFields: _, ...meta } = loaded.metadata;
  await typeObject(page, { ...loaded, metadata: meta, data: { a: 'mine', b: '1' } });
  await kube.request('admin', 'PATCH', cmPath(ns, 'both'), { data: { a: 'theirs', b: 'theirs-b' } }, { 'Content-Type': 'application/merge-patch+json' });
  const banner = page.getByRole('alert', { name: 'Changed on the server' });
  await banner.getByRole('button', { name: 'Re-apply my changes to the latest version' }).click();

  const conflicts = page.getByRole('region', { name: 'Rebase conflicts' });
  const row = conflicts.getByRole('row', { name: 'Conflict .data.a' });
  await expect(row).toContainText('mine');
  await expect(row).toContainText('theirs');
  await expect(conflicts).toContainText('1 still to choose');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();

  await row.getByLabel('Keep mine for .data.a').check();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 200');
  expect((await get<{ data: Record<string, string> }>(kube, cmPath(ns, 'both'))).data).toEqual({ a: 'mine', b: 'theirs-b' });
});

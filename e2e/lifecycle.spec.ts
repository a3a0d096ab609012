// The write side's lifecycle against the real control plane (kube-controller-manager runs, so the
// deployment and replicaset controllers and the garbage collector are real; no scheduler or
// kubelet, so Pods stay Pending): the same change four ways, /scale and /status, deletion as it
// happens, deletecollection, ownership over time and the apply preview.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

type Kube = Parameters<Parameters<typeof test>[2]>[0]['kube'];
type Obj = { metadata: { name: string; ownerReferences?: unknown[]; managedFields?: unknown }; spec?: { replicas?: number }; data?: Record<string, string> } & Record<string, unknown>;

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

async function must(kube: Kube, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Obj> {
  const r = await kube.request('admin', method, path, body, headers);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body) as Obj;
}

const deployment = (ns: string, name: string, replicas = 1) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: ns },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', env: [{ name: 'MODE', value: 'a' }] }] } } },
});

const editUrl = (explorerUrl: string, ns: string, group: string, resource: string, name: string, version = 'v1') => `${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group, version, resource, name })}`;

async function replaceIn(page: Page, region: ReturnType<Page['getByRole']>, text: string) {
  await region.locator('.view-lines').first().click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(text);
}

test('four ways: equal results for one edit, and a list a merge patch replaces wholesale is pointed out', async ({ page, explorerUrl, kube, ns }) => {
  await must(kube, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments?fieldManager=creator`, deployment(ns, 'four'));
  await page.goto(editUrl(explorerUrl, ns, 'apps', 'deployments', 'four'));
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  const objectRegion = page.getByRole('region', { name: 'Object' });
  await expect(objectRegion.locator('.view-lines')).toContainText('"name": "four"');
  const loaded = await must(kube, 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/four`);
  const { managedFields: _m, ...meta } = loaded.metadata;
  const edited = structuredClone({ ...loaded, metadata: meta }) as Obj & { spec: { template: { spec: { containers: { name: string; image: string; env?: { name: string; value: string }[] }[] } } } };
  edited.spec.template.spec.containers[0]!.env![0]!.value = 'b';
  edited.spec.template.spec.containers.push({ name: 'sidecar', image: 'busybox:1.36' });
  await replaceIn(page, objectRegion, JSON.stringify(edited, null, 2));

  await page.locator('summary', { hasText: 'The same change four ways' }).click();
  const four = page.getByRole('region', { name: 'Four ways' });
  await expect(four.getByRole('textbox', { name: 'JSON Patch body' })).toHaveValue(/"op": "add"/);
  await four.getByRole('button', { name: 'Send all four (dryRun=All)' }).click();
  const comparison = four.getByRole('region', { name: 'Four ways comparison' });
  await expect(comparison).toContainText('All four results are identical');
  for (const w of ['JSON Patch', 'JSON Merge Patch', 'Strategic Merge Patch', 'Server-Side Apply']) await expect(four.getByRole('status', { name: `${w} result` })).toContainText('dryRun=All');

  // Only the new container in the merge patch and the strategic merge patch: the merge patch
  // replaces the containers list, strategic merge adds to it by name.
  const onlySidecar = JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'busybox:1.36' }] } } } }, null, 2);
  await four.getByRole('textbox', { name: 'JSON Merge Patch body' }).fill(onlySidecar);
  await four.getByRole('textbox', { name: 'Strategic Merge Patch body' }).fill(onlySidecar);
  await four.getByRole('button', { name: 'Send all four (dryRun=All)' }).click();
  await expect(comparison).toContainText('JSON Merge Patch');
  await expect(comparison).toContainText('replaces a list wholesale');
  // Nothing was stored by any of them.
  const after = await must(kube, 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/four`);
  expect((after.metadata as unknown as { resourceVersion: string }).resourceVersion).toBe((loaded.metadata as unknown as { resourceVersion: string }).resourceVersion);
});

test('scaling through /scale changes spec.replicas; a /status write is owned under subresource status', async ({ page, explorerUrl, kube, ns }) => {
  await must(kube, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, deployment(ns, 'scaled'));
  await page.goto(editUrl(explorerUrl, ns, 'apps', 'deployments', 'scaled'));
  const subs = page.getByRole('region', { name: 'Subresources' });
  await expect(subs).toContainText('scale (get, patch, update)');
  const scale = subs.getByRole('region', { name: 'scale subresource' });
  await scale.getByRole('button', { name: 'Read the Scale' }).click();
  await expect(scale.getByLabel('Scale object')).toContainText('kind: Scale');
  await scale.getByRole('textbox', { name: 'Scale replicas' }).fill('3');
  await scale.getByRole('button', { name: 'Scale (PATCH /scale)' }).click();
  await expect(scale.getByLabel('Parent replicas')).toContainText('1 before, 3 after');
  expect((await must(kube, 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/scaled`)).spec?.replicas).toBe(3);

  // The viewer (the built-in `view` ClusterRole: get deployments/scale, no patch): the 403 is on
  // screen, with the server's reason, and nothing changes.
  await page.goto(editUrl(explorerUrl, ns, 'apps', 'deployments', 'scaled').replace('context=local-admin', 'context=local-viewer'));
  const viewerScale = page.getByRole('region', { name: 'scale subresource' });
  await expect(viewerScale.getByLabel('Scale object')).toContainText('replicas: 3');
  await viewerScale.getByRole('textbox', { name: 'Scale replicas' }).fill('5');
  await viewerScale.getByRole('button', { name: 'Scale (PATCH /scale)' }).click();
  await expect(viewerScale.getByRole('alert', { name: 'Scale refused' })).toContainText('HTTP 403');
  await expect(viewerScale.getByRole('alert', { name: 'Scale refused' })).toContainText('cannot patch resource "deployments/scale"');
  expect((await must(kube, 'GET', `/apis/apps/v1/namespaces/${ns}/deployments/scaled`)).spec?.replicas).toBe(3);
  // A read that fails (the object deleted meanwhile: 404) is on screen too, not an unhandled rejection.
  await must(kube, 'DELETE', `/apis/apps/v1/namespaces/${ns}/deployments/scaled`);
  await viewerScale.getByRole('button', { name: 'Read the Scale' }).click();
  await expect(viewerScale).toContainText(`Could not read /apis/apps/v1/namespaces/${ns}/deployments/scaled/scale`);

  // /status of a custom resource (no controller writes it): applied by status-writer.
  const group = `${ns}.example.com`;
  await must(kube, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `dials.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'dials', singular: 'dial', kind: 'Dial' },
      versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { level: { type: 'integer' } } }, status: { type: 'object', properties: { phase: { type: 'string' } } } } } } }],
    },
  });
  try {
    const path = `/apis/${group}/v1/namespaces/${ns}/dials`;
    await expect.poll(async () => (await kube.request('admin', 'POST', path, { apiVersion: `${group}/v1`, kind: 'Dial', metadata: { name: 'd' }, spec: { level: 1 } })).status, { timeout: 30_000 }).toBe(201);
    await page.goto(editUrl(explorerUrl, ns, group, 'dials', 'd'));
    const status = page.getByRole('region', { name: 'status subresource' });
    await expect(status).toBeVisible({ timeout: 30_000 });
    await replaceIn(page, status, JSON.stringify({ apiVersion: `${group}/v1`, kind: 'Dial', metadata: { name: 'd', namespace: ns }, status: { phase: 'Ready' } }));
    await status.getByRole('button', { name: 'Send to /status' }).click();
    await expect(status.getByLabel('Status ownership')).toContainText('status-writer (Apply)');
    // The main resource ignores status.
    await status.getByRole('button', { name: 'Same body to the main resource (dry run)' }).click();
    await expect(status.getByLabel('Main resource and status')).toContainText('left .status as it was');

    await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'ownership', namespace: ns, group, version: 'v1', resource: 'dials', name: 'd' })}`);
    const owners = page.getByRole('list', { name: 'Managers of .status.phase', exact: true });
    await expect(owners).toContainText('status-writer');
    await expect(owners).toContainText('status');
  } finally {
    await kube.request('admin', 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/dials.${group}`);
  }
});

async function waitForReplicaSet(kube: Kube, ns: string, name: string): Promise<string> {
  let rsName = '';
  await expect
    .poll(
      async () => {
        const list = JSON.parse((await kube.request('admin', 'GET', `/apis/apps/v1/namespaces/${ns}/replicasets`)).body) as { items: Obj[] };
        rsName = list.items.find((i) => i.metadata.name.startsWith(`${name}-`))?.metadata.name ?? '';
        return rsName;
      },
      { timeout: 60_000 },
    )
    .not.toBe('');
  return rsName;
}

test('a Foreground delete shows the ReplicaSet going first, then the Deployment', async ({ page, explorerUrl, kube, ns }) => {
  await must(kube, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, deployment(ns, 'fg', 2));
  const rs = await waitForReplicaSet(kube, ns, 'fg');
  await page.goto(editUrl(explorerUrl, ns, 'apps', 'deployments', 'fg'));
  await page.getByRole('radio', { name: 'Delete' }).check();
  await page.getByRole('combobox', { name: 'propagationPolicy', exact: true }).selectOption('Foreground');
  const table = page.getByRole('table', { name: 'Owner and dependents' });
  await expect(table.getByRole('row', { name: `ReplicaSet ${rs}` })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const log = page.getByRole('list', { name: 'Deletion events' });
  await expect(log).toContainText('Deployment fg: deleted', { timeout: 60_000 });
  const lines = await log.getByRole('listitem').allTextContents();
  const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
  expect(at(/Deployment fg: deletionTimestamp set; finalizers: foregroundDeletion/)).toBeGreaterThanOrEqual(0);
  expect(at(new RegExp(`ReplicaSet ${rs}: deleted`))).toBeGreaterThanOrEqual(0);
  expect(at(new RegExp(`ReplicaSet ${rs}: deleted`))).toBeLessThan(at(/Deployment fg: deleted/));
});

test('an Orphan delete leaves the ReplicaSet without an ownerReference', async ({ page, explorerUrl, kube, ns }) => {
  await must(kube, 'POST', `/apis/apps/v1/namespaces/${ns}/deployments`, deployment(ns, 'orph'));
  const rs = await waitForReplicaSet(kube, ns, 'orph');
  await page.goto(editUrl(explorerUrl, ns, 'apps', 'deployments', 'orph'));
  await page.getByRole('radio', { name: 'Delete' }).check();
  await page.getByRole('combobox', { name: 'propagationPolicy', exact: true }).selectOption('Orphan');
  await expect(page.getByRole('table', { name: 'Owner and dependents' }).getByRole('row', { name: `ReplicaSet ${rs}` })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const log = page.getByRole('list', { name: 'Deletion events' });
  await expect(log).toContainText(`ReplicaSet ${rs}: orphaned`, { timeout: 60_000 });
  await expect(log).toContainText('Deployment orph: deleted', { timeout: 60_000 });
  const left = await must(kube, 'GET', `/apis/apps/v1/namespaces/${ns}/replicasets/${rs}`);
  expect(left.metadata.ownerReferences ?? []).toEqual([]);
});

test('dependents of any type are found by their ownerReferences: a ConfigMap owning a Secret and a Role, deleted Foreground', async ({ page, explorerUrl, kube, ns }) => {
  const owner = await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'owner' } });
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: (owner.metadata as { uid?: string }).uid, blockOwnerDeletion: true };
  // The Secret's own finalizer holds it, so the owner visibly waits for it (Foreground).
  await must(kube, 'POST', `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 'owned-secret', ownerReferences: [ref], finalizers: ['example.com/hold'] } });
  await must(kube, 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/roles`, { metadata: { name: 'owned-role', ownerReferences: [ref] }, rules: [] });
  await page.goto(editUrl(explorerUrl, ns, '', 'configmaps', 'owner'));
  await page.getByRole('radio', { name: 'Delete' }).check();
  // Neither Secrets nor Roles are where a ConfigMap's dependents usually are: the scan finds them.
  await expect(page.getByLabel('Dependent scan')).toContainText(/also watching .*secrets/, { timeout: 60_000 });
  await expect(page.getByLabel('Dependent scan')).toContainText('roles.rbac.authorization.k8s.io');
  const table = page.getByRole('table', { name: 'Owner and dependents' });
  await expect(table.getByRole('row', { name: 'Secret owned-secret' })).toBeVisible({ timeout: 30_000 });
  await expect(table.getByRole('row', { name: 'Role owned-role' })).toBeVisible();
  await page.getByRole('combobox', { name: 'propagationPolicy', exact: true }).selectOption('Foreground');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const log = page.getByRole('list', { name: 'Deletion events' });
  await expect(log).toContainText('ConfigMap owner: deletionTimestamp set; finalizers: foregroundDeletion', { timeout: 60_000 });
  await expect(log).toContainText('Role owned-role: deleted', { timeout: 60_000 });
  await expect(log).toContainText('Secret owned-secret: deletionTimestamp set; finalizers: example.com/hold', { timeout: 60_000 });
  // The owner waits for its held dependent.
  await expect(table.getByRole('row', { name: 'ConfigMap owner' })).toContainText('deleting');
  expect((await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/owner`)).status).toBe(200);
  await must(kube, 'PATCH', `/api/v1/namespaces/${ns}/secrets/owned-secret`, { metadata: { finalizers: null } }, { 'Content-Type': 'application/merge-patch+json' });
  await expect(log).toContainText('Secret owned-secret: deleted', { timeout: 60_000 });
  await expect(log).toContainText('ConfigMap owner: deleted', { timeout: 60_000 });
  expect((await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/owner`)).status).toBe(404);
});

test("deletecollection's dry-run count equals the objects then deleted, and only those (issue 41)", async ({ page, explorerUrl, kube, ns }) => {
  for (const n of ['a', 'b', 'c']) await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `batch-${n}`, labels: { batch: 'x' } } });
  await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'keep', labels: { batch: 'y' } } });
  await page.goto(editUrl(explorerUrl, ns, '', 'configmaps', 'keep'));
  await page.getByRole('radio', { name: 'Delete' }).check();
  const coll = page.getByRole('region', { name: 'Delete a collection' });
  await coll.getByRole('textbox', { name: 'Collection labelSelector' }).fill('batch=x');
  await coll.getByRole('button', { name: 'Count with dryRun=All' }).click();
  await expect(coll.getByRole('region', { name: 'Collection dry run' })).toContainText('would delete 3 configmaps');
  // The dry run deleted nothing.
  expect((JSON.parse((await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=batch%3Dx`)).body) as { items: unknown[] }).items).toHaveLength(3);
  // One created after the count matches the selector too: the button deletes the 3 it names, not 4.
  await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'batch-late', labels: { batch: 'x' } } });
  await coll.getByRole('button', { name: 'Delete these 3 configmaps' }).click();
  await expect(coll.getByRole('region', { name: 'Collection deleted' })).toContainText('Deleted 3 of the 3 counted configmaps');
  expect((JSON.parse((await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=batch%3Dx`)).body) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name)).toEqual(['batch-late']);
  await must(kube, 'GET', `/api/v1/namespaces/${ns}/configmaps/keep`);
});

test('ownership history shows a field moving after a forced apply; the apply preview names conflicts and changes nothing', async ({ page, explorerUrl, kube, ns }) => {
  const path = `/api/v1/namespaces/${ns}/configmaps/moving`;
  const cm = (data: Record<string, string>) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'moving', namespace: ns }, data });
  const applyType = { 'Content-Type': 'application/apply-patch+yaml' };
  await must(kube, 'PATCH', `${path}?fieldManager=alice`, cm({ x: '1' }), applyType);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'ownership', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'moving' })}`);
  const history = page.getByRole('region', { name: 'Ownership history' });
  await history.getByRole('checkbox', { name: 'Follow this object (watch)' }).check();
  await expect(history.getByRole('status')).toContainText('watching from resourceVersion');

  await must(kube, 'PATCH', `${path}?fieldManager=bob&force=true`, cm({ x: '2' }), applyType);
  const entries = history.getByRole('table', { name: 'Ownership history entries' });
  await expect(entries).toContainText(/bob \(Apply\) added · took \.data\.x/);
  await expect(entries).toContainText(/alice \(Apply\) (removed|updated) · gave up \.data\.x/);
  // The tables above follow along.
  await expect(page.getByRole('list', { name: 'Managers of .data.x', exact: true })).toContainText('bob');

  const preview = page.getByRole('region', { name: 'Apply preview' });
  await replaceIn(page, preview, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: moving\n  namespace: ${ns}\ndata:\n  x: "3"\n`);
  await preview.getByRole('textbox', { name: 'Preview field manager' }).fill('carol');
  await preview.getByRole('button', { name: 'Preview (dryRun=All)' }).click();
  const result = preview.getByRole('region', { name: 'Apply preview result' });
  await expect(result.getByRole('table', { name: 'Preview conflicts' })).toContainText('.data.x');
  await expect(result.getByRole('table', { name: 'Preview conflicts' })).toContainText('bob');
  await expect(result).toContainText('unchanged, nothing was stored');
  expect((await must(kube, 'GET', path)).data).toEqual({ x: '2' });

  // With force, the preview shows carol taking the field from bob; still nothing stored.
  await preview.getByRole('checkbox', { name: 'force' }).check();
  await preview.getByRole('button', { name: 'Preview (dryRun=All)' }).click();
  await expect(result.getByRole('list', { name: 'Preview ownership changes' })).toContainText(/carol \(Apply\) added · would take \.data\.x/);
  expect((await must(kube, 'GET', path)).data).toEqual({ x: '2' });
});

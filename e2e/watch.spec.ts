// Watch panes against the real local control plane: events with the server's resourceVersions,
// streaming lists, recovery after the API server restarts, relist after 410 Gone, eight panes.
// Two tests restart kube-apiserver (every open watch of this run drops); they are built to
// converge whatever else is running.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

interface Pane {
  resource?: string;
  namespace: string;
  mode?: string;
  labelSelector?: string;
  fieldSelector?: string;
  bookmarks?: boolean;
}

// Every namespace also gets kube-root-ca.crt from kube-controller-manager, at a moment of its own
// choosing; the panes select on this label so that it never races with the assertions.
const LABEL = 'e2e=watch';
const labelled = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name, labels: { e2e: 'watch' } }, ...extra });

function watchUrl(base: string, panes: Pane[]): string {
  const list = panes.map((p, i) => ({ id: `p${i}`, group: '', version: 'v1', resource: p.resource ?? 'configmaps', namespace: p.namespace, mode: p.mode ?? 'list-watch', labelSelector: p.labelSelector ?? LABEL, ...(p.fieldSelector ? { fieldSelector: p.fieldSelector } : {}), bookmarks: p.bookmarks ?? true, asTable: false, max: 2000 }));
  const q = new URLSearchParams({ context: 'local-admin', view: 'watch', panes: JSON.stringify(list) });
  return new URL(`/?${q.toString()}`, base).toString();
}

type Kube = Parameters<Parameters<typeof test>[2]>[0]['kube'];

async function call(kube: Kube, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ metadata?: { resourceVersion?: string; name?: string } }> {
  const r = await kube.request('admin', method, path, body, headers);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body);
}

async function freshList(kube: Kube, ns: string): Promise<string[]> {
  const list = (await call(kube, 'GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=${LABEL}`)) as unknown as { items: { metadata: { name: string; resourceVersion: string } }[] };
  return list.items.map((o) => `${ns}/${o.metadata.name} ${o.metadata.resourceVersion}`).sort();
}

async function stateRows(page: Page, pane = page.getByRole('article').first()): Promise<string[]> {
  await pane.getByRole('tab', { name: 'Current state' }).click();
  const rows = pane.getByRole('table', { name: 'Current state' }).getByRole('row');
  const texts: string[] = [];
  for (const row of await rows.all()) {
    const cells = await row.getByRole('cell').allTextContents();
    if (cells.length) texts.push(cells.slice(0, 2).join(' '));
  }
  return texts.sort();
}

test('creating, changing and deleting a ConfigMap shows ADDED, MODIFIED and DELETED with the server-assigned resourceVersions', async ({ page, explorerUrl, kube, ns }) => {
  await page.goto(new URL(`/?context=local-admin&view=watch&namespace=${ns}`, explorerUrl).toString());
  const form = page.getByRole('form', { name: 'New watch' });
  await form.getByLabel('Resource').selectOption('/v1/configmaps');
  await form.getByLabel('Watch namespace').fill(ns);
  await form.getByLabel('Label selector').fill(LABEL);
  await form.getByLabel('Start').selectOption('list-watch');
  await form.getByRole('button', { name: 'Add watch' }).click();
  const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (${LABEL})` });
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  await expect(pane.getByRole('listitem').filter({ hasText: 'watch opened' })).toBeVisible();

  const created = await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled('web', { data: { color: 'blue' } }));
  // A second field manager takes over data.color, so the event names the managers it touched.
  const updated = await call(kube, 'PUT', `/api/v1/namespaces/${ns}/configmaps/web?fieldManager=e2e-editor`, { ...created, data: { color: 'green' } });
  await call(kube, 'DELETE', `/api/v1/namespaces/${ns}/configmaps/web`);

  const events = pane.getByRole('list', { name: 'Events' });
  await expect(events.getByRole('listitem').filter({ hasText: 'ADDED' })).toContainText(`${ns}/web`);
  await expect(events.getByRole('listitem').filter({ hasText: 'ADDED' }).filter({ hasText: `${ns}/web` })).toContainText(`rv ${created.metadata!.resourceVersion}`);
  await expect(events.getByRole('listitem').filter({ hasText: 'MODIFIED' })).toContainText(`rv ${updated.metadata!.resourceVersion}`);
  const deleted = events.getByRole('listitem').filter({ hasText: 'DELETED' });
  await expect(deleted).toContainText(`${ns}/web`);
  // DELETE answers with a Status, so the deletion's RV comes from the event: a new one.
  await expect(deleted).not.toContainText(`rv ${updated.metadata!.resourceVersion} `);

  // The MODIFIED event against its previous version: the manager named, then Monaco's diff editor.
  await events.getByRole('listitem').filter({ hasText: 'MODIFIED' }).getByRole('button').click();
  const detail = pane.getByRole('region', { name: 'Event detail' });
  await expect(detail).toContainText(`previous resourceVersion${created.metadata!.resourceVersion}`);
  await expect(detail.getByRole('listitem').filter({ hasText: 'e2e-editor' })).toContainText('added');
  await detail.getByRole('button', { name: 'Diff against previous version' }).click();
  await expect(detail.getByLabel('Object diff').locator('.monaco-diff-editor')).toBeVisible();
  await expect(detail.getByLabel('Object diff')).toContainText(`"resourceVersion": "${updated.metadata!.resourceVersion}"`);
  await expect(detail.getByLabel('Object diff')).toContainText(`"resourceVersion": "${created.metadata!.resourceVersion}"`);

  // Export: the timeline's events as newline-delimited JSON, each line as the server sent it.
  const [download] = await Promise.all([page.waitForEvent('download'), pane.getByRole('button', { name: 'Export NDJSON' }).click()]);
  const lines = (await readFile((await download.path())!, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata?: { resourceVersion?: string } } });
  expect(lines.map((l) => [l.type, l.object.metadata?.resourceVersion])).toEqual(
    expect.arrayContaining([
      ['ADDED', created.metadata!.resourceVersion],
      ['MODIFIED', updated.metadata!.resourceVersion],
    ]),
  );

  // Filter by name, then clear the timeline (the state stays what the server holds: empty).
  await pane.getByLabel('Filter by name').fill('nothing-by-this-name');
  await expect(events.getByRole('listitem')).toHaveCount(0);
  await pane.getByLabel('Filter by name').fill('web');
  await expect(events.getByRole('listitem')).toHaveCount(3);
  await pane.getByRole('button', { name: 'Clear', exact: true }).click();
  await expect(events.getByRole('listitem')).toHaveCount(0);
  await expect(pane.getByText('· 0 objects', { exact: true })).toBeVisible();
});

test('a pane the server refuses as it stands (400: a field selector ConfigMaps do not support) stops, says why, and can be started again', async ({ page, explorerUrl, ns }) => {
  await page.goto(watchUrl(explorerUrl, [{ namespace: ns, mode: 'stream', fieldSelector: 'spec.bogus=1' }]));
  const pane = page.getByRole('article').first();
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('stopped');
  await expect(pane.getByLabel('Staleness')).toContainText('400 BadRequest');
  await expect(pane.getByLabel('Staleness')).toContainText('spec.bogus');
  const events = pane.getByRole('list', { name: 'Events' });
  // The streaming list's 400 falls back to List, then watch; the list's 400 stops it: no retries.
  await expect(events.getByRole('listitem').filter({ hasText: /^.*error/ })).toHaveCount(2);
  await expect(events.getByRole('listitem').filter({ hasText: 'reconnecting' })).toHaveCount(0);
  await pane.getByRole('button', { name: 'Start again' }).click();
  await expect(events.getByRole('listitem').filter({ hasText: /^.*error/ })).toHaveCount(3);
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('stopped');
});

test('a streaming list shows the initial ADDED events, then the initial-events-end bookmark, then live events', async ({ page, explorerUrl, kube, ns }) => {
  for (const n of ['one', 'two']) await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled(n));
  await page.goto(watchUrl(explorerUrl, [{ namespace: ns, mode: 'stream' }]));
  const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (${LABEL})` });
  await expect(pane.getByText('initial events done')).toBeVisible();
  const live = await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled('three'));
  const items = pane.getByRole('list', { name: 'Events' }).getByRole('listitem');
  await expect(items.filter({ hasText: `${ns}/three` })).toContainText(`rv ${live.metadata!.resourceVersion}`);
  const texts = (await items.allTextContents()).filter((t) => !/BOOKMARKbookmark/.test(t));
  const idx = (re: RegExp) => texts.findIndex((t) => re.test(t));
  const one = idx(new RegExp(`ADDED${ns}/one.*initial`));
  const two = idx(new RegExp(`ADDED${ns}/two.*initial`));
  const end = idx(/BOOKMARKk8s\.io\/initial-events-end/);
  const three = idx(new RegExp(`ADDED${ns}/three`));
  expect(Math.min(one, two)).toBeGreaterThanOrEqual(0);
  expect(Math.max(one, two)).toBeLessThan(end);
  expect(end).toBeLessThan(three);
  expect(texts[three]).not.toContain('initial');
});

test('after the API server restarts mid-watch, the pane reconnects and holds exactly what a fresh list returns', async ({ page, explorerUrl, kube, ns }) => {
  await page.goto(watchUrl(explorerUrl, [{ namespace: ns }]));
  const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (${LABEL})` });
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  for (let i = 0; i < 4; i++) await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled(`before-${i}`));
  await expect(pane.getByRole('list', { name: 'Events' }).getByRole('listitem').filter({ hasText: `${ns}/before-3` })).toBeVisible();

  // Writes keep coming, spaced out, while kube-apiserver goes down and comes back; a failed write
  // is retried. Twelve of them keep the state small enough to read from the (virtualized) table.
  let restart: Promise<void> | undefined;
  const WRITES = 12;
  for (let n = 0; n < WRITES; ) {
    if (n === 2) restart ??= kube.restartApiServer();
    try {
      await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled(`during-${n}`));
    } catch (e) {
      // A create whose answer was lost may still have happened: 409 means it did.
      if (!String(e).includes(': 409 ')) {
        await new Promise((r) => setTimeout(r, 300));
        continue;
      }
    }
    if (n % 2 === 0) await call(kube, 'PATCH', `/api/v1/namespaces/${ns}/configmaps/before-${n % 4}`, { data: { n: String(n) } }, { 'Content-Type': 'application/merge-patch+json' }).catch(() => undefined);
    n++;
    await new Promise((r) => setTimeout(r, 300));
  }
  await restart;
  const n = WRITES;
  await call(kube, 'DELETE', `/api/v1/namespaces/${ns}/configmaps/before-0`);
  const last = await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled('after'));

  await expect(pane.getByRole('list', { name: 'Events' }).getByRole('listitem').filter({ hasText: `${ns}/after` })).toContainText(`rv ${last.metadata!.resourceVersion}`);
  // Hide the object events: the stream's own entries (end, error, reconnect, open) remain.
  for (const t of ['ADDED', 'MODIFIED', 'DELETED']) await pane.getByRole('checkbox', { name: t }).uncheck();
  await expect(pane.getByRole('list', { name: 'Events' }).getByRole('listitem').filter({ hasText: /reconnectreconnecting in \d+ ms from resourceVersion/ }).first()).toBeVisible();
  await expect(pane.getByRole('list', { name: 'Events' }).getByRole('listitem').filter({ hasText: 'watch opened from resourceVersion' }).last()).toBeVisible();
  for (const t of ['ADDED', 'MODIFIED', 'DELETED']) await pane.getByRole('checkbox', { name: t }).check();
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  const expected = await freshList(kube, ns);
  expect(expected.length).toBe(4 - 1 + n + 1);
  await expect.poll(() => stateRows(page, pane)).toEqual(expected);
});

test('a 410 Gone after compaction relists and shows what appeared, changed and vanished', async ({ page, explorerUrl, kube, ns }) => {
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  await call(kube, 'POST', base, labelled('keep'));
  const change = await call(kube, 'POST', base, labelled('change', { data: { v: '1' } }));
  await call(kube, 'POST', base, labelled('vanish'));
  await page.goto(watchUrl(explorerUrl, [{ namespace: ns, bookmarks: false }]));
  const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (${LABEL})` });
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  await expect(pane.getByText('· 3 objects', { exact: true })).toBeVisible();

  // While the pane's stream is down: changes it never sees, then compaction past its
  // resourceVersion and a restart, so that neither etcd nor the fresh watch cache has that history.
  await pane.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('paused');
  await call(kube, 'PUT', `${base}/change`, { ...change, data: { v: '2' } });
  await call(kube, 'DELETE', `${base}/vanish`);
  await call(kube, 'POST', base, labelled('appear'));
  await kube.compact();
  await kube.restartApiServer();
  await pane.getByRole('button', { name: 'Resume', exact: true }).click();

  const events = pane.getByRole('list', { name: 'Events' });
  await expect(events.getByRole('listitem').filter({ hasText: /ERROR410 Expired|410 Gone/ }).first()).toBeVisible();
  const relist = events.getByRole('listitem').filter({ hasText: '1 appeared, 1 changed, 1 vanished' });
  await expect(relist).toBeVisible();
  await relist.getByRole('button').click();
  const detail = pane.getByRole('region', { name: 'Event detail' });
  await expect(detail).toContainText(`appeared${ns}/appear`);
  await expect(detail).toContainText(`changed${ns}/change`);
  await expect(detail).toContainText(`vanished${ns}/vanish`);
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  await expect.poll(() => stateRows(page, pane)).toEqual(await freshList(kube, ns));
});

test('eight panes open at once all receive their events', async ({ page, explorerUrl, kube, ns }) => {
  const panes = Array.from({ length: 8 }, (_, i) => ({ namespace: ns, labelSelector: `pane=p${i}`, mode: i % 2 ? 'stream' : 'list-watch' }));
  await page.goto(watchUrl(explorerUrl, panes));
  for (let i = 0; i < 8; i++) {
    await expect(page.getByRole('article', { name: `Watch configmaps in ${ns} (pane=p${i})` }).getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  }
  const created = [];
  for (let i = 0; i < 8; i++) created.push(await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${i}`, labels: { pane: `p${i}` } } }));
  for (let i = 0; i < 8; i++) {
    const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (pane=p${i})` });
    await expect(pane.getByRole('list', { name: 'Events' }).getByRole('listitem').filter({ hasText: `${ns}/cm-${i}` })).toContainText(`rv ${created[i]!.metadata!.resourceVersion}`);
    await expect(pane.getByText('· 1 objects', { exact: true })).toBeVisible();
  }
  // The rest of the explorer still answers over HTTP while eight watches are open (they share
  // the one mux WebSocket instead of holding six HTTP connections).
  const ok = await page.evaluate(async () => {
    const token = document.querySelector('meta[name="explorer-token"]')?.getAttribute('content') ?? '';
    const res = await Promise.all(Array.from({ length: 8 }, () => fetch('/k8s/local-admin/api/v1/namespaces?limit=1', { headers: { 'X-Explorer-Token': token } }).then((r) => r.status)));
    return res;
  });
  expect(ok).toEqual(Array(8).fill(200));
});

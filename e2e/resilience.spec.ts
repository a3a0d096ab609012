// Faults in the page, against the real control plane and explorer server: the explorer server
// restarted under an open watch pane (new token, picked up by the page), and the walkthrough of an
// outage: kube-apiserver killed under an open watch pane and an open list, writes during the
// outage, and the pane recovering with every write exactly once (no duplicate, no gap) while the
// page says what happened. Both restart shared processes; they converge whatever else runs.
import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

type Kube = Parameters<Parameters<typeof test>[2]>[0]['kube'];

const LABEL = 'e2e=resilience';
const labelled = (name: string, extra: Record<string, unknown> = {}) => ({ metadata: { name, labels: { e2e: 'resilience' } }, ...extra });

function watchUrl(base: string, ns: string): string {
  const panes = [{ id: 'r0', group: '', version: 'v1', resource: 'configmaps', namespace: ns, mode: 'list-watch', labelSelector: LABEL, bookmarks: true, asTable: false, max: 2000 }];
  return new URL(`/?${new URLSearchParams({ context: 'local-admin', view: 'watch', panes: JSON.stringify(panes) }).toString()}`, base).toString();
}

function listUrl(base: string, ns: string): string {
  return new URL(`/?${new URLSearchParams({ context: 'local-admin', view: 'lists', group: '', version: 'v1', resource: 'configmaps', namespace: ns, limit: '3', labelSelector: LABEL }).toString()}`, base).toString();
}

async function call(kube: Kube, method: string, path: string, body?: unknown): Promise<{ metadata?: { resourceVersion?: string } }> {
  const r = await kube.request('admin', method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body);
}

/** Creates a ConfigMap whatever the API server is going through: retried until it exists once. */
async function createSurely(kube: Kube, ns: string, name: string): Promise<void> {
  for (;;) {
    try {
      const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled(name));
      // 409: an earlier attempt whose answer was lost did create it.
      if (r.status === 201 || r.status === 409) return;
    } catch {
      // Connection refused or reset: the API server is down.
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** The pane's timeline as exported (NDJSON: events exactly as the server sent them). */
async function exported(page: Page): Promise<{ type: string; object: { metadata: { name: string; resourceVersion: string } } }[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('article').first().getByRole('button', { name: 'Export NDJSON' }).click()]);
  const text = await readFile((await download.path())!, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Every name ADDED exactly once, and no resourceVersion of an object delivered twice. */
function expectExactlyOnce(events: Awaited<ReturnType<typeof exported>>, names: string[]): void {
  const added = events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);
  for (const n of names) expect(added.filter((a) => a === n), `ADDED ${n}`).toHaveLength(1);
  const versions = events.filter((e) => e.type !== 'BOOKMARK' && e.type !== 'ERROR').map((e) => `${e.object.metadata.name}@${e.object.metadata.resourceVersion}`);
  expect(new Set(versions).size, 'an object version delivered twice').toBe(versions.length);
}

async function stateNames(page: Page): Promise<string[]> {
  const pane = page.getByRole('article').first();
  await pane.getByRole('tab', { name: 'Current state' }).click();
  const cells = await pane.getByRole('table', { name: 'Current state' }).getByRole('row').evaluateAll((rows) => rows.map((r) => r.querySelector('[role="cell"]')?.textContent ?? '').filter(Boolean));
  await pane.getByRole('tab', { name: 'Timeline' }).click();
  return cells.sort();
}

test('the explorer server restarted under an open watch pane: the page picks up the new token and the pane carries on, every write once', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(150_000);
  await page.goto(watchUrl(explorerUrl, ns));
  const pane = page.getByRole('article').first();
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  const oldToken = await page.evaluate(() => document.querySelector('meta[name="explorer-token"]')?.getAttribute('content'));
  for (let i = 0; i < 3; i++) await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled(`before-${i}`));
  await expect(pane.getByRole('listitem').filter({ hasText: `${ns}/before-2` })).toBeVisible();

  // Writes while the explorer server is away: the pane must catch up on them, from its resourceVersion.
  const restart = kube.restartExplorer();
  for (let i = 0; i < 3; i++) await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled(`during-${i}`));
  const newToken = await restart;
  expect(newToken).not.toBe(oldToken);
  for (let i = 0; i < 2; i++) await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled(`after-${i}`));

  await expect(pane.getByRole('listitem').filter({ hasText: `${ns}/after-1` })).toBeVisible({ timeout: 60_000 });
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  // How fresh the pane is, in words: a live pane heard from its stream seconds ago.
  await expect(pane.getByLabel('Staleness')).toContainText(/last event or bookmark \d+ s ago/);
  const names = [...[0, 1, 2].map((i) => `before-${i}`), ...[0, 1, 2].map((i) => `during-${i}`), 'after-0', 'after-1'];
  expectExactlyOnce(await exported(page), names);
  expect(await stateNames(page)).toEqual(names.map((n) => `${ns}/${n}`).sort());

  // The page says what happened: the pane resumed from a resourceVersion, the indicator tells of the new token.
  for (const t of ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']) await pane.getByRole('checkbox', { name: t }).uncheck();
  await expect(pane.getByRole('listitem').filter({ hasText: 'watch opened from resourceVersion' }).last()).toBeVisible();
  await page.getByLabel('Connection status').click();
  await expect(page.getByRole('region', { name: 'Connections' })).toContainText('picked up its new token');
  // Requests of the page over HTTP (the indicator's own) use the new token too: it says connected.
  await expect(page.getByLabel('Connection status')).toContainText('connected');
});

test('walkthrough: kube-apiserver killed under an open watch pane and an open list; writes during the outage show exactly once and the page says what happened', async ({ page, context, explorerUrl, kube, ns }) => {
  test.setTimeout(180_000);
  for (let i = 0; i < 5; i++) await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled(`before-${i}`));
  await page.goto(watchUrl(explorerUrl, ns));
  const pane = page.getByRole('article').first();
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  await expect(pane.getByText('· 5 objects', { exact: true })).toBeVisible();

  const list = await context.newPage();
  await list.goto(listUrl(explorerUrl, ns));
  await expect(list.getByRole('status').filter({ hasText: 'rows in' })).toContainText('3 rows in 1 page, more on the server');

  await kube.killApiServer();
  await expect.poll(() => kube.apiServerReady(), { timeout: 30_000, intervals: [100] }).toBe(false);
  // The open list asks for its next page during the outage: it fails, and says so.
  await list.getByRole('button', { name: 'Next page' }).click();
  await expect(list.getByText('List failed')).toBeVisible();
  await expect(list.getByLabel('Connection status')).toContainText('down');

  // Writes during the outage, each retried until the API server takes it.
  const during = Array.from({ length: 6 }, (_, i) => `during-${i}`);
  for (const n of during) await createSurely(kube, ns, n);
  await expect.poll(() => kube.apiServerReady(), { timeout: 90_000 }).toBe(true);
  await call(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, labelled('after'));

  // The pane recovers: every write once, the state what a fresh list returns.
  await expect(pane.getByRole('listitem').filter({ hasText: `${ns}/after` })).toBeVisible({ timeout: 60_000 });
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  const names = [...Array.from({ length: 5 }, (_, i) => `before-${i}`), ...during, 'after'];
  const events = await exported(page);
  expect(await stateNames(page)).toEqual(names.map((n) => `${ns}/${n}`).sort());
  // ...and tells what happened: the stream was lost, the pane waited, then resumed from a resourceVersion.
  for (const t of ['ADDED', 'MODIFIED', 'DELETED', 'BOOKMARK']) await pane.getByRole('checkbox', { name: t }).uncheck();
  const story = pane.getByRole('list', { name: 'Events' }).getByRole('listitem');
  await expect(story.filter({ hasText: /^.{12}error/ }).first()).toBeVisible();
  await expect(story.filter({ hasText: /reconnecting in \d+ ms from resourceVersion/ }).first()).toBeVisible();
  await expect(story.filter({ hasText: 'watch opened from resourceVersion' }).last()).toBeVisible();
  // The restarted server's watch cache starts at the revision of its first list, so a resume from
  // an older resourceVersion may be answered 410 Gone (seen in some runs, not in others: it
  // depends on what was written around the restart). After a 410 the pane relists, and the
  // outage's writes arrive in that list, not as ADDED events: then no name may come twice.
  if ((await story.filter({ hasText: /relist at resourceVersion/ }).count()) > 0) {
    await expect(story.filter({ hasText: /410 Gone/ }).first()).toBeVisible();
    const added = events.filter((e) => e.type === 'ADDED').map((e) => e.object.metadata.name);
    for (const n of names) expect(added.filter((a) => a === n).length, `ADDED ${n} at most once`).toBeLessThanOrEqual(1);
    const versions = events.filter((e) => e.type !== 'BOOKMARK' && e.type !== 'ERROR').map((e) => `${e.object.metadata.name}@${e.object.metadata.resourceVersion}`);
    expect(new Set(versions).size, 'an object version delivered twice').toBe(versions.length);
  } else {
    expectExactlyOnce(events, names);
  }

  // The list carries on too: started again, it holds every object once.
  await list.getByRole('button', { name: 'Start again' }).click();
  await list.getByRole('button', { name: 'Load all' }).click();
  await expect(list.getByRole('status').filter({ hasText: 'rows in' })).toContainText(`${names.length} rows in`);
  await expect(list.getByRole('status').filter({ hasText: 'rows in' })).toContainText('list complete');
  await expect(list.getByText(/seen twice/)).toHaveCount(0);
  await expect(list.getByLabel('Connection status')).toContainText('connected', { timeout: 30_000 });
});

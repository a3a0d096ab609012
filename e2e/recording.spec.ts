// Record, save, replay: a session against the real server (a list, a watch with creates, updates
// and deletes, an apply, a conflict) is recorded with the top bar's switch, saved to a file that
// passes the HAR 1.2 schema, and opened by an explorer started with --replay and no cluster at
// all: the same list rows, the same watch events, and the object's versions with who changed
// its fields. With RECORDING_SAMPLE_OUT set, the file is also written there (the sample in
// public/recordings/ is made this way, from the local control plane, redacted).
import { copyFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startExplorerServer } from '../proxy/src/server';
import { harProblems } from '../src/k8s/record/har.testkit';
import { expect, test } from './fixtures';

const LABEL = 'e2e=rec';
/** The namespace of the sample recording (public/recordings/sample.har). */
const SAMPLE_NAMESPACE = 'recording-sample';

/** Moves the SPA to another view without reloading the page (a reload would end the recording). */
async function go(page: Page, params: Record<string, string>): Promise<void> {
  await page.evaluate((search) => {
    history.pushState(null, '', `/?${search}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, new URLSearchParams(params).toString());
}

/** Stops the recording, saves it through the download, and checks the file against the HAR 1.2 schema. */
async function stopAndSave(page: Page): Promise<{ file: string; har: any }> {
  await page.getByRole('button', { name: '■ Stop recording' }).click();
  await page.getByRole('button', { name: 'Save…' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Save file' }).click();
  const file = await (await downloading).path();
  const har = JSON.parse(await readFile(file, 'utf8'));
  expect(harProblems(har)).toEqual([]);
  return { file, har };
}

async function texts(page: Page, role: 'row' | 'listitem', container: ReturnType<Page['getByRole']>): Promise<string[]> {
  const out: string[] = [];
  for (const el of await container.getByRole(role).all()) out.push((await el.innerText()).replace(/\s+/g, ' ').trim());
  return out;
}

/**
 * The Time travel panel as a user reads it: its versions (rows), then who changed replicas in
 * the last change (the scaler's merge patch) and in the one before (the console's apply).
 */
async function timeTravel(page: Page): Promise<{ versions: string[]; last: string; before: string }> {
  const tt = page.getByRole('region', { name: 'Time travel' });
  const versions = tt.getByRole('table', { name: 'Versions' }).getByRole('row');
  // The header, the create, the apply, the scaler's update (a read of the last one is not another version).
  await expect(versions).toHaveCount(4);
  const replicas = tt.getByTestId('tt-change-.data.replicas');
  await expect(replicas).toContainText('e2e-scaler (Update');
  const last = (await replicas.innerText()).replace(/\s+/g, ' ');
  await versions.nth(1).getByRole('radio', { name: /^from/ }).check();
  await versions.nth(2).getByRole('radio', { name: /^to/ }).check();
  await expect(replicas).toContainText('e2e-applier (Apply');
  const before = (await replicas.innerText()).replace(/\s+/g, ' ');
  return { versions: await texts(page, 'row', tt.getByRole('table', { name: 'Versions' })), last, before };
}

test('a recorded session replays without a cluster: the same rows, events, versions and managers', async ({ page, explorerUrl, kube, ns: testNs }) => {
  test.setTimeout(120_000);
  // The sample is made in a namespace with a name a reader understands (this run's own control plane).
  const ns = process.env.RECORDING_SAMPLE_OUT ? SAMPLE_NAMESPACE : testNs;
  if (ns !== testNs) expect((await kube.request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const labelled = (name: string, data: Record<string, string>) => ({ metadata: { name, labels: { e2e: 'rec' } }, data });
  expect((await kube.request('admin', 'POST', cms, labelled('before', { a: '1' }))).status).toBe(201);

  await page.goto(`${explorerUrl}?context=local-admin&view=welcome&namespace=${ns}`);
  await page.getByRole('button', { name: '● Record' }).click();
  await expect(page.getByRole('status', { name: 'Recording size' })).toContainText('exchange');

  // A list.
  const listParams = { context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps', labelSelector: LABEL };
  await go(page, listParams);
  const rows = page.getByRole('table').filter({ hasText: 'before' }).first();
  await expect(rows).toBeVisible();
  const liveRows = await texts(page, 'row', rows);

  // A watch, with a create, updates and a delete.
  const pane = [{ id: 'p0', group: '', version: 'v1', resource: 'configmaps', namespace: ns, mode: 'list-watch', labelSelector: LABEL, bookmarks: false, asTable: false, max: 2000 }];
  const watchParams = { context: 'local-admin', view: 'watch', namespace: ns, panes: JSON.stringify(pane) };
  await go(page, watchParams);
  const article = page.getByRole('article').first();
  await expect(article.getByRole('status', { name: 'Watch state' })).toContainText(/watching/i);
  expect((await kube.request('admin', 'POST', cms, labelled('moving', { n: '1' }))).status).toBe(201);
  expect((await kube.request('admin', 'PATCH', `${cms}/moving`, { data: { n: '2' } }, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(200);
  expect((await kube.request('admin', 'DELETE', `${cms}/moving`)).status).toBe(200);
  expect((await kube.request('admin', 'POST', cms, labelled('target', { seed: 'x' }))).status).toBe(201);
  await expect(article.getByRole('list', { name: 'Events' })).toContainText('DELETED');

  // An apply from the console, another manager's update, then the same apply again: a conflict.
  const apply = { context: 'local-admin', view: 'console', m: 'PATCH', p: `${cms}/target`, 'q.fieldManager': 'e2e-applier', 'h.Content-Type': 'application/apply-patch+yaml', body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: target\ndata:\n  replicas: "2"\n` };
  await go(page, apply);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  expect((await kube.request('admin', 'PATCH', `${cms}/target?fieldManager=e2e-scaler`, { data: { replicas: '5' } }, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(200);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 409');

  // Time travel while recording: the object's versions and who changed replicas.
  const ownership = { context: 'local-admin', view: 'ownership', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name: 'target' };
  await go(page, ownership);
  const liveTravel = await timeTravel(page);

  // The watch saw every version; what it shows is what the replay must show.
  await go(page, watchParams);
  await expect(article.getByRole('list', { name: 'Events' })).toContainText('target');
  const liveEvents = (await texts(page, 'listitem', article.getByRole('list', { name: 'Events' }))).map((t) => t.replace(/^\S+ /, ''));

  const { file, har } = await stopAndSave(page);
  expect(har.log._recording.redaction.enabled).toBe(true);
  // The first watch of the session ended when its view was left: the page closed it, not the
  // server. A replay ends only what the server ended (a pane then watches again: a "watch opened"
  // the live session never had) and leaves what the page closed open and quiet.
  const watches = har.log.entries.filter((e: { _watch?: boolean; _apiPath: string }) => e._watch && e._apiPath.startsWith(cms));
  expect(watches.length).toBeGreaterThanOrEqual(2);
  expect(watches[0]._closedByPage).toBe(true);
  if (process.env.RECORDING_SAMPLE_OUT) await copyFile(file, process.env.RECORDING_SAMPLE_OUT);

  // No cluster: an explorer that only has the file.
  const replay = await startExplorerServer({ port: 0, replay: file, staticDir: join(process.cwd(), 'dist'), log: () => undefined });
  try {
    await page.goto(`${replay.url}?${new URLSearchParams(listParams).toString()}`);
    await expect(page.getByRole('region', { name: 'Replay' })).toBeVisible();
    const replayRows = page.getByRole('table').filter({ hasText: 'before' }).first();
    await expect(replayRows).toBeVisible();
    expect(await texts(page, 'row', replayRows)).toEqual(liveRows);

    await go(page, watchParams);
    const replayed = page.getByRole('article').first().getByRole('list', { name: 'Events' });
    await expect(replayed).toContainText('target');
    await expect.poll(async () => (await texts(page, 'listitem', replayed)).map((t) => t.replace(/^\S+ /, ''))).toEqual(liveEvents);

    // Time travel: the same versions, and the same managers for each change.
    await go(page, ownership);
    expect(await timeTravel(page)).toEqual(liveTravel);
  } finally {
    await replay.close();
  }
  expect(replay.stats().upstreamTotal).toBe(0);
});

test('a lesson run while recording: each step is a mark, its exchanges say which step sent them; the Welcome page opens the file', async ({ page, explorerUrl }) => {
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'lessons', lesson: 'health' }).toString()}`);
  await expect(page.locator('#lesson-title')).toBeVisible();
  await page.getByRole('button', { name: '● Record' }).click();
  await page.getByRole('button', { name: 'Run all steps' }).click();
  await expect(page.getByTestId('step-verbose').getByTestId('verdict')).toHaveText('The server answered as described.');
  const { file, har } = await stopAndSave(page);
  const labels: string[] = har.log._recording.marks.map((m: { label: string }) => m.label);
  expect(labels).toContain('lesson health, step plain');
  expect(labels).toContain('lesson health, step verbose');
  const verbose = har.log.entries.filter((e: { _lesson?: { step: string } }) => e._lesson?.step === 'verbose');
  expect(verbose.map((e: { _apiPath: string }) => e._apiPath)).toContain('/readyz?verbose');
  expect(verbose[0].comment).toBe('lesson health, step verbose');

  // Picked on the Welcome page (as a dropped file is read): the replay bar jumps to a step.
  await page.goto(`${explorerUrl}?view=welcome`);
  await page.getByLabel('Recording file').setInputFiles(file);
  const bar = page.getByRole('region', { name: 'Replay' });
  await expect(bar).toBeVisible();
  const mark = har.log._recording.marks.find((m: { label: string }) => m.label === 'lesson health, step verbose');
  const jump = bar.getByRole('combobox', { name: 'Jump to a mark' });
  await jump.selectOption({ label: (await jump.getByRole('option').filter({ hasText: 'step verbose' }).innerText()).trim() });
  const start = Math.min(Date.parse(har.log._recording.startedDateTime), ...har.log.entries.map((e: { startedDateTime: string }) => Date.parse(e.startedDateTime)));
  await expect(bar.getByRole('slider', { name: 'Replay time' })).toHaveValue(String(Date.parse(mark.time) - start));
});

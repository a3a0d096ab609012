// The sample recording that ships with the explorer (public/recordings/sample.har, made from the
// local control plane by e2e/recording.spec.ts with RECORDING_SAMPLE_OUT, redacted): the Welcome
// page opens it; a link to a moment opens it at that time in that view; the replay bar's clock
// (play, pause, speed, the slider) drives the watch panes; the link the bar copies opens the same
// moment again. Nothing here needs the cluster's data: every answer comes from the file.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { fromRecordingHar } from '../src/k8s/record/har';
import { ReplaySession } from '../src/k8s/record/replay';
import { expect, test } from './fixtures';

const NS = 'recording-sample';
const SAMPLE = '/recordings/sample.har';
const pane = [{ id: 'p0', group: '', version: 'v1', resource: 'configmaps', namespace: NS, mode: 'list-watch', labelSelector: 'e2e=rec', bookmarks: false, asTable: false, max: 2000 }];
const watchView = { context: 'local-admin', view: 'watch', namespace: NS, panes: JSON.stringify(pane) };

/** The sample's clock: where it starts, and when each watch frame arrived (as the replay computes them). */
function sampleClock(): { start: number; frames: { at: number; type: string; name: string }[] } {
  const rec = fromRecordingHar(JSON.parse(readFileSync('public/recordings/sample.har', 'utf8')));
  const session = new ReplaySession(rec, SAMPLE);
  session.dispose();
  const frames = rec.exchanges
    .filter((x) => x.watch && x.request.path.includes('/configmaps'))
    .flatMap((x) => x.chunks.map((c) => ({ at: c.at, ...(JSON.parse(new TextDecoder().decode(c.bytes)) as { type: string; object: { metadata: { name: string } } }) })))
    .map((f) => ({ at: f.at, type: f.type, name: f.object.metadata.name }));
  return { start: session.start, frames };
}

async function go(page: Page, params: Record<string, string>): Promise<void> {
  await page.evaluate((search) => {
    history.pushState(null, '', `${location.pathname}?${search}`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, new URLSearchParams(params).toString());
}

test('the Welcome page opens the sample recording, and its lists show the recorded rows', async ({ page, explorerUrl }) => {
  await page.goto(`${explorerUrl}?view=welcome`);
  await page.getByRole('button', { name: 'open the sample recording' }).click();
  await expect(page.getByRole('region', { name: 'Replay' })).toBeVisible();
  await go(page, { context: 'local-admin', view: 'lists', namespace: NS, group: '', version: 'v1', resource: 'configmaps', labelSelector: 'e2e=rec' });
  await expect(page.getByRole('table').filter({ hasText: 'before' }).first()).toBeVisible();
  // Ownership of the object the session changed: its versions and who changed replicas.
  await go(page, { context: 'local-admin', view: 'ownership', namespace: NS, group: '', version: 'v1', resource: 'configmaps', name: 'target' });
  await expect(page.getByRole('region', { name: 'Time travel' }).getByTestId('tt-change-.data.replicas')).toContainText('e2e-scaler (Update');
});

test('a link to a moment opens the sample at that time in that view; play, pause, speed and the slider move the watch pane', async ({ page, explorerUrl }) => {
  const { start, frames } = sampleClock();
  const modified = frames.findIndex((f) => f.type === 'MODIFIED' && f.name === 'moving');
  const deleted = frames.findIndex((f) => f.type === 'DELETED' && f.name === 'moving');
  expect(modified).toBeGreaterThanOrEqual(0);
  expect(deleted).toBe(modified + 1);
  // Between the update and the delete of "moving".
  const at = Math.floor((frames[modified]!.at + frames[deleted]!.at) / 2) - start;

  // A replay sends nothing toward a cluster: no request to the proxy's /k8s/, no mux WebSocket.
  const sent: string[] = [];
  page.on('request', (r) => void (r.url().includes('/k8s/') && sent.push(r.url())));
  page.on('websocket', (ws) => void sent.push(ws.url()));
  await page.goto(`${explorerUrl}?${new URLSearchParams({ replay: SAMPLE, at: String(at), ...watchView }).toString()}`);
  const bar = page.getByRole('region', { name: 'Replay' });
  await expect(bar.getByRole('slider', { name: 'Replay time' })).toHaveValue(String(at));
  const events = page.getByRole('article').first().getByRole('list', { name: 'Events' });
  await expect(events).toContainText('MODIFIED');
  await expect(bar.getByTestId('replay-time')).toContainText(`${modified + 1} of ${frames.length} watch events`);
  await expect(events).not.toContainText('DELETED');

  // Play at a quarter of the speed: the delete arrives; pause holds the clock before the end.
  await bar.getByRole('combobox', { name: 'Replay speed' }).selectOption('0.25');
  await bar.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(events).toContainText('DELETED');
  await bar.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(bar.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  const paused = Number(await bar.getByRole('slider', { name: 'Replay time' }).inputValue());
  expect(paused).toBeGreaterThan(at);

  // The link to this moment opens the same time and view.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(explorerUrl).origin });
  await bar.getByRole('button', { name: 'Copy link to this moment' }).click();
  await expect(bar.getByRole('button', { name: 'Link copied' })).toBeVisible();
  const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
  expect(link.searchParams.get('replay')).toBe(SAMPLE);
  expect(link.searchParams.get('view')).toBe('watch');
  expect(Number(link.searchParams.get('at'))).toBe(paused);

  // Back to the start: the pane mounts again and holds no event yet.
  await bar.getByRole('slider', { name: 'Replay time' }).fill('0');
  await expect(bar.getByTestId('replay-time')).toContainText(`0 of ${frames.length} watch events`);
  await expect(events).not.toContainText('moving');

  await page.goto(link.toString());
  await expect(page.getByRole('region', { name: 'Replay' }).getByRole('slider', { name: 'Replay time' })).toHaveValue(String(paused));
  await expect(page.getByRole('article').first().getByRole('list', { name: 'Events' })).toContainText('DELETED');
  expect(sent).toEqual([]);
});

test('a link to a recording that cannot be read says so, instead of showing the live cluster as if it were the recording', async ({ page, explorerUrl }) => {
  await page.goto(`${explorerUrl}?replay=/recordings/no-such-recording.har&view=welcome`);
  await expect(page.getByText('Could not open the recording')).toBeVisible();
  await expect(page.getByText('GET /recordings/no-such-recording.har: HTTP 404')).toBeVisible();
});

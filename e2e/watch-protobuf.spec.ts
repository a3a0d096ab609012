// A watch pane in Protobuf: chosen in the form (which says why it has no server columns), the
// server's Content-Type shown as what it sent, live events from REST writes, the pane's own
// Created column, and an opened event shown as it went over the wire: decoded with the schema
// and as the frame's bytes.
import { expect, test } from './fixtures';

test('a Protobuf pane: chosen in the form, confirmed by the server, live events, an event opened with its bytes', async ({ page, explorerUrl, kube, ns }) => {
  const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const r = await kube.request('admin', method, path, body, headers);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
    return JSON.parse(r.body) as { metadata: { name: string; resourceVersion: string; creationTimestamp: string } };
  };
  const cm = (name = '') => `/api/v1/namespaces/${ns}/configmaps${name ? `/${name}` : ''}`;
  const first = await call('POST', cm(), { metadata: { name: 'pb-1', labels: { e2e: 'protobuf' } }, data: { text: 'one' } });

  await page.goto(new URL(`/?${new URLSearchParams({ context: 'local-admin', view: 'watch' }).toString()}`, explorerUrl).toString());
  const form = page.getByRole('form', { name: 'New watch' });
  await form.getByLabel('Resource').selectOption('/v1/configmaps');
  await form.getByLabel('Watch namespace').fill(ns);
  await form.getByLabel('Label selector').fill('e2e=protobuf');
  await form.getByLabel('Start').selectOption('stream');
  await form.getByLabel('Encoding').selectOption('protobuf');
  await expect(form.getByRole('note', { name: 'Protobuf encoding' })).toContainText('the server serves Tables (as=Table) as JSON only');
  await expect(form.getByRole('checkbox', { name: 'Table rows (as=Table)' })).toBeDisabled();
  await form.getByRole('button', { name: 'Add watch' }).click();

  const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (e2e=protobuf)` });
  await expect(pane.getByText('initial events done')).toBeVisible();
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  // What the server answered, not what the pane asked for.
  await expect(pane.getByLabel('Stream encoding')).toContainText('application/vnd.kubernetes.protobuf;stream=watch');
  await expect(pane.getByText('Protobuf', { exact: true })).toBeVisible();

  const changed = await call('PATCH', cm('pb-1'), { data: { text: 'changed ✓' } }, { 'Content-Type': 'application/merge-patch+json' });
  const second = await call('POST', cm(), { metadata: { name: 'pb-2', labels: { e2e: 'protobuf' } } });
  const events = pane.getByRole('list', { name: 'Events' });
  await expect(events.getByRole('listitem').filter({ hasText: 'MODIFIED' })).toContainText(`rv ${changed.metadata.resourceVersion}`);
  await expect(events.getByRole('listitem').filter({ hasText: `${ns}/pb-2` })).toContainText(`rv ${second.metadata.resourceVersion}`);

  // Opened: decoded whole with the schema (the worker read only its metadata), and its bytes.
  await events.getByRole('listitem').filter({ hasText: 'MODIFIED' }).getByRole('button').click();
  const detail = pane.getByRole('region', { name: 'Event detail' });
  const decoded = detail.getByLabel('Decoded object');
  await expect(decoded).toContainText('"text": "changed ✓"');
  await expect(decoded).toContainText(`"resourceVersion": "${changed.metadata.resourceVersion}"`);
  // The diff's previous version comes from the frame it replaced.
  await expect(detail).toContainText(`previous resourceVersion${first.metadata.resourceVersion}`);
  await detail.getByText('The frame’s bytes (hex)').click();
  const hex = detail.getByLabel('Hex view');
  // The frame: a 4-byte length, then WatchEvent field 1 ("MODIFIED"), and the k8s\0 envelope further on.
  await expect(hex).toContainText('|....');
  await expect(hex).toContainText('MODIFIED');
  await expect(hex).toContainText('k8s.');

  // The pane's own column, from each object's ObjectMeta: its creation time.
  await pane.getByRole('tab', { name: 'Current state' }).click();
  const table = pane.getByRole('table', { name: 'Current state' });
  await expect(table.getByRole('columnheader', { name: 'Created' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: `${ns}/pb-1` })).toContainText(first.metadata.creationTimestamp);
  await expect(table.getByRole('row').filter({ hasText: `${ns}/pb-1` })).toContainText(changed.metadata.resourceVersion);
});

test('a Protobuf pane meets the server’s 410 as an ERROR event in Protobuf, shows its Status, relists and ends equal to a fresh list', async ({ page, explorerUrl, kube, ns }) => {
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await kube.request('admin', method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
    return JSON.parse(r.body) as { metadata: { name: string; resourceVersion: string } };
  };
  const base = `/api/v1/namespaces/${ns}/configmaps`;
  const labelled = (name: string) => ({ metadata: { name, labels: { e2e: 'protobuf-410' } } });
  await call('POST', base, labelled('keep'));
  await call('POST', base, labelled('vanish'));
  const panes = [{ id: 'g', group: '', version: 'v1', resource: 'configmaps', namespace: ns, labelSelector: 'e2e=protobuf-410', mode: 'list-watch', bookmarks: false, asTable: false, encoding: 'protobuf', max: 2000 }];
  await page.goto(new URL(`/?${new URLSearchParams({ context: 'local-admin', view: 'watch', panes: JSON.stringify(panes) }).toString()}`, explorerUrl).toString());
  const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (e2e=protobuf-410)` });
  const state = pane.getByRole('status', { name: 'Watch state' });
  await expect(state).toHaveText('watching');
  await expect(pane.getByLabel('Stream encoding')).toContainText('application/vnd.kubernetes.protobuf;stream=watch');
  await expect(pane.getByText('· 2 objects', { exact: true })).toBeVisible();

  // While paused: a change the pane never sees, then compaction and a restart, so that neither etcd
  // nor the new watch cache has the history the pane would resume from.
  await pane.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(state).toHaveText('paused');
  await call('DELETE', `${base}/vanish`);
  await call('POST', base, labelled('appear'));
  await kube.compact();
  await kube.restartApiServer();
  await pane.getByRole('button', { name: 'Resume', exact: true }).click();

  const events = pane.getByRole('list', { name: 'Events' });
  const error = events.getByRole('listitem').filter({ hasText: 'ERROR' }).first();
  await expect(error).toContainText('410 Expired');
  await expect(events.getByRole('listitem').filter({ hasText: '1 appeared, 0 changed, 1 vanished' })).toBeVisible();
  await expect(state).toHaveText('watching');
  await expect(pane.getByText('· 2 objects', { exact: true })).toBeVisible();
  // The ERROR event opened: its Status as the server encoded it, read from the frame.
  await error.getByRole('button').click();
  const detail = pane.getByRole('region', { name: 'Event detail' });
  await expect(detail).toContainText('too old resource version');
  await detail.getByText('The frame’s bytes (hex)').click();
  // After the 4-byte length: field 1 (type), 5 bytes, "ERROR".
  await expect(detail.getByLabel('Hex view')).toContainText('0a 05 45 52 52 4f 52');
  // Its object decoded with the schema: the Status the JSON stream would carry.
  await expect(detail.getByLabel('Decoded object')).toContainText('"code": 410');
});

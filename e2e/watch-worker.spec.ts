// A watch pane fed by the watch worker (framing, JSON.parse and the reducer off the main thread):
// the pane says where its engine runs, and what it shows is what the server holds.
import { expect, test } from './fixtures';

const LABEL = 'e2e=watch-worker';

test('a pane fed by the watch worker shows the objects a fresh list returns, live changes, and the full event on request', async ({ page, explorerUrl, kube, ns }) => {
  const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const r = await kube.request('admin', method, path, body, headers);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
    return JSON.parse(r.body) as { metadata: { name: string; resourceVersion: string } };
  };
  const N = 120;
  for (let i = 0; i < N; i++) await call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `w-${String(i).padStart(3, '0')}`, labels: { e2e: 'watch-worker' } }, data: { i: String(i) } });
  const panes = [{ id: 'w', group: '', version: 'v1', resource: 'configmaps', namespace: ns, labelSelector: LABEL, mode: 'stream', bookmarks: true, asTable: false, max: 2000 }];
  await page.goto(new URL(`/?${new URLSearchParams({ context: 'local-admin', view: 'watch', panes: JSON.stringify(panes) }).toString()}`, explorerUrl).toString());
  const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (${LABEL})` });
  await expect(pane).toHaveAttribute('data-engine', 'worker');
  await expect(pane.getByText('initial events done')).toBeVisible();
  // The page's dedicated worker (Playwright lists it once it has started).
  await expect.poll(() => page.workers().some((w) => /\/(entry-[\w-]+\.js|watch\/worker\/entry\.ts)/.test(w.url()))).toBe(true);
  await expect(pane.getByText(`· ${N} objects`, { exact: true })).toBeVisible();

  const changed = await call('PATCH', `/api/v1/namespaces/${ns}/configmaps/w-007`, { data: { i: 'changed' } }, { 'Content-Type': 'application/merge-patch+json' });
  await call('DELETE', `/api/v1/namespaces/${ns}/configmaps/w-000`);
  const events = pane.getByRole('list', { name: 'Events' });
  await expect(events.getByRole('listitem').filter({ hasText: 'MODIFIED' })).toContainText(`rv ${changed.metadata.resourceVersion}`);
  await expect(pane.getByText(`· ${N - 1} objects`, { exact: true })).toBeVisible();

  // The Current state tab against a fresh list: every name with its resourceVersion.
  const list = (await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=${LABEL}`)).body;
  const want = (JSON.parse(list) as { items: { metadata: { name: string; resourceVersion: string } }[] }).items.map((o) => `${ns}/${o.metadata.name} ${o.metadata.resourceVersion}`).sort();
  await pane.getByRole('tab', { name: 'Current state' }).click();
  const table = pane.getByRole('table', { name: 'Current state' });
  await expect(table).toHaveAttribute('aria-rowcount', String(N));
  // The table is virtualised: check the rows on screen against the list, then scroll to the end.
  const shown = async () => {
    const out: string[] = [];
    for (const row of await table.getByRole('row').all()) {
      const cells = await row.getByRole('cell').allTextContents();
      if (cells.length >= 2) out.push(`${cells[0]} ${cells[1]}`);
    }
    return out;
  };
  const first = await shown();
  expect(first.length).toBeGreaterThan(5);
  for (const r of first) expect(want).toContain(r);
  expect(first).toContain(`${ns}/w-007 ${changed.metadata.resourceVersion}`);
  expect(first.some((r) => r.startsWith(`${ns}/w-000 `))).toBe(false);

  // The timeline holds summaries; opening an event fetches the full object from the worker.
  await pane.getByRole('tab', { name: 'Timeline' }).click();
  await events.getByRole('listitem').filter({ hasText: 'MODIFIED' }).getByRole('button').click();
  const detail = pane.getByRole('region', { name: 'Event detail' });
  await expect(detail).toContainText('"i": "changed"');
  await expect(detail).toContainText(`"resourceVersion": "${changed.metadata.resourceVersion}"`);
});

test('the timeline follows the newest event until the reader scrolls up, and again once they scroll back to the end', async ({ page, explorerUrl, kube, ns }) => {
  const patch = async (name: string, i: string) => {
    const r = await kube.request('admin', 'PATCH', `/api/v1/namespaces/${ns}/configmaps/${name}`, { data: { i } }, { 'Content-Type': 'application/merge-patch+json' });
    if (r.status !== 200) throw new Error(`PATCH ${name}: ${r.status} ${r.body}`);
    return (JSON.parse(r.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  };
  const N = 80;
  for (let i = 0; i < N; i++) {
    const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `f-${String(i).padStart(3, '0')}`, labels: { e2e: 'follow' } }, data: { i: String(i) } });
    if (r.status !== 201) throw new Error(`create: ${r.status} ${r.body}`);
  }
  const panes = [{ id: 'f', group: '', version: 'v1', resource: 'configmaps', namespace: ns, labelSelector: 'e2e=follow', mode: 'stream', bookmarks: true, asTable: false, max: 2000 }];
  await page.goto(new URL(`/?${new URLSearchParams({ context: 'local-admin', view: 'watch', panes: JSON.stringify(panes) }).toString()}`, explorerUrl).toString());
  const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (e2e=follow)` });
  const events = pane.getByRole('list', { name: 'Events' });
  const timeline = pane.locator('.watch-timeline');
  const row = (text: string) => events.getByRole('listitem').filter({ hasText: text });
  // A bookmark may carry the resourceVersion of the change just before it: the change's own row.
  const modified = (rv: string) => row(`rv ${rv}`).filter({ hasText: 'MODIFIED' });
  // Only the rows in view exist (the timeline is virtualized): the end of the initial events is
  // one of them, the first objects are not.
  await expect(row('k8s.io/initial-events-end')).toBeInViewport();
  await expect(row(`${ns}/f-000`)).toHaveCount(0);

  // Scrolled to the top, the view stays there while events arrive.
  await timeline.evaluate((el) => (el.scrollTop = 0));
  await expect(row(`${ns}/f-000`)).toBeInViewport();
  const rv1 = await patch('f-010', 'one');
  await expect(pane.getByLabel('Event counts')).toContainText('MODIFIED 1');
  // Two frames for a follow that should not happen.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await expect(row(`${ns}/f-000`)).toBeInViewport();
  await expect(modified(rv1)).toHaveCount(0);
  expect(await timeline.evaluate((el) => el.scrollTop)).toBe(0);

  // Back at the end, the newest event is in view, and the next one too without scrolling.
  await timeline.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(modified(rv1)).toBeInViewport();
  const rv2 = await patch('f-020', 'two');
  await expect(modified(rv2)).toBeInViewport();
  await expect(row(`${ns}/f-000`)).toHaveCount(0);
});

test('a pane with a small budget for whole objects lists every object, and opening one whose body it let go reads it from the server, said to be read now', async ({ page, explorerUrl, kube, ns }) => {
  const call = async (method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const r = await kube.request('admin', method, path, body, headers);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
    return JSON.parse(r.body) as { metadata: { name: string; resourceVersion: string } };
  };
  const N = 40;
  const name = (i: number) => `b-${String(i).padStart(2, '0')}`;
  for (let i = 0; i < N; i++) await call('POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: name(i), labels: { e2e: 'budget' } }, data: { v: 'x'.repeat(2000) } });
  // 4,000 bytes: one or two bodies of about 2.2 kB each.
  const panes = [{ id: 'b', group: '', version: 'v1', resource: 'configmaps', namespace: ns, labelSelector: 'e2e=budget', mode: 'stream', bookmarks: true, asTable: false, max: 2000, objectMiB: 4000 / 1024 / 1024 }];
  await page.goto(new URL(`/?${new URLSearchParams({ context: 'local-admin', view: 'watch', panes: JSON.stringify(panes) }).toString()}`, explorerUrl).toString());
  const pane = page.getByRole('article', { name: `Watch configmaps in ${ns} (e2e=budget)` });
  await expect(pane.getByText('initial events done')).toBeVisible();
  await expect(pane.getByText(`· ${N} objects`, { exact: true })).toBeVisible();
  // Changed last: b-04's body is the newest kept; b-05's (delivered by the streaming list) was let go.
  let last = { metadata: { name: '', resourceVersion: '' } };
  for (let i = 0; i < 5; i++) last = await call('PATCH', `/api/v1/namespaces/${ns}/configmaps/${name(i)}`, { data: { v: `changed ${i}` } }, { 'Content-Type': 'application/merge-patch+json' });

  await pane.getByRole('tab', { name: 'Current state' }).click();
  const table = pane.getByRole('table', { name: 'Current state' });
  await expect(table).toHaveAttribute('aria-rowcount', String(N + 1));
  const row = (n: string) => table.getByRole('row').filter({ has: page.getByRole('button', { name: `${ns}/${n}`, exact: true }) });
  await expect(row(name(4))).toContainText(last.metadata.resourceVersion);
  await expect(row(name(4))).toContainText('MODIFIED');
  await expect(row(name(5))).toContainText('ADDED');

  // A kept body: the version the watch delivered, no request.
  await row(name(4)).getByRole('button').click();
  const view = pane.getByRole('region', { name: 'Object' });
  await expect(view.getByRole('note', { name: 'Version shown' })).toContainText(`resourceVersion ${last.metadata.resourceVersion}`);
  await expect(view).toContainText('"v": "changed 4"');

  // A body let go: a GET of that object, and the view says it is the server's version read now.
  const get = page.waitForRequest((r) => r.method() === 'GET' && r.url().includes(`/namespaces/${ns}/configmaps/${name(5)}`));
  await row(name(5)).getByRole('button').click();
  await get;
  const note = view.getByRole('note', { name: 'Read now' });
  await expect(note).toContainText('Read from the server now');
  await expect(note).toContainText('not the version the watch delivered');
  await expect(note).toContainText('within 3.9 KiB');
  await expect(view).toContainText(`"name": "${name(5)}"`);

  // b-00's first version was let go before its change arrived: the event says so, and offers no diff
  // against a version it does not have (never "first version seen").
  await pane.getByRole('tab', { name: 'Timeline' }).click();
  await pane.getByRole('list', { name: 'Events' }).getByRole('listitem').filter({ hasText: 'MODIFIED' }).filter({ hasText: `${ns}/${name(0)}` }).getByRole('button').click();
  const detail = pane.getByRole('region', { name: 'Event detail' });
  await expect(detail).toContainText('its body was not kept');
  await expect(detail).not.toContainText('first version seen');
  await expect(detail.getByRole('button', { name: 'Diff against previous version' })).toHaveCount(0);
});

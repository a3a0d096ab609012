// Lists against the real local control plane: chunked pagination as the server does it, Table
// columns as the server defines them (built-in and custom resources), an expired continue token
// and both ways out of it, and metadata-only versus full lists.
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';

type Kube = Parameters<Parameters<typeof test>[2]>[0]['kube'];

function listUrl(explorerUrl: string, q: Record<string, string>): string {
  return `${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'lists', ...q }).toString()}`;
}

async function must(kube: Kube, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<string> {
  const r = await kube.request('admin', method, path, body, headers);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return r.body;
}

/** Creates ConfigMaps with at most 16 requests in flight. */
async function createConfigMaps(kube: Kube, ns: string, names: string[], data: Record<string, string> = {}): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < names.length) {
        const name = names[next++]!;
        await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data });
      }
    }),
  );
}

/** kube-controller-manager adds kube-root-ca.crt to each new namespace, a little later. */
async function waitForRootCA(kube: Kube, ns: string): Promise<void> {
  await expect.poll(async () => (await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`)).status, { timeout: 30_000 }).toBe(200);
}

/** Scrolls a virtualized table from top to bottom and returns each row's name by row index. */
async function collectNames(page: Page, table: Locator, total: number): Promise<Map<number, string>> {
  const seen = new Map<number, string>();
  const scroller = table.getByTestId('lists-scroll');
  const height = await scroller.evaluate((el) => el.clientHeight);
  for (let top = 0; seen.size < total; top += Math.floor(height * 0.8)) {
    await scroller.evaluate((el, y) => {
      el.scrollTop = y;
    }, top);
    // Rendered rows follow the scroll: wait for the rows at the new top and at the new bottom (row
    // index 1 is the header). The top row alone may still be there from the previous render's
    // overscan, whose rows then end short of this step's bottom, and a step's rows go unseen.
    const firstIndex = Math.min(Math.floor(top / 28), total - 1) + 2;
    const lastIndex = Math.min(Math.floor((top + height) / 28), total - 1) + 2;
    await expect(table.locator(`[role="row"][aria-rowindex="${firstIndex}"]`)).toBeAttached();
    await expect(table.locator(`[role="row"][aria-rowindex="${lastIndex}"]`)).toBeAttached();
    const rows = await table.getByRole('row').evaluateAll((els) => els.map((e) => [Number(e.getAttribute('aria-rowindex')), e.querySelector('[role="cell"]')?.textContent ?? ''] as const));
    for (const [i, name] of rows) if (i > 1) seen.set(i, name);
    if (top > total * 28) break;
  }
  return seen;
}

test('pages 1,200 ConfigMaps in chunks of 500: one resourceVersion, remainingItemCount 700, 200, then absent', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(180_000);
  await waitForRootCA(kube, ns);
  // 1,199 of ours plus kube-root-ca.crt: 1,200 objects in the namespace.
  const names = Array.from({ length: 1199 }, (_, i) => `cm-${String(i).padStart(4, '0')}`);
  await createConfigMaps(kube, ns, names);

  await page.goto(listUrl(explorerUrl, { namespace: ns, group: '', version: 'v1', resource: 'configmaps', limit: '500' }));
  const meta = page.getByRole('table', { name: 'ListMeta per page' });
  await expect(page.getByRole('status')).toContainText('500 rows in 1 page, more on the server');
  await expect(meta.getByRole('row').nth(1).getByRole('cell').nth(3)).toHaveText('700');

  await page.getByRole('button', { name: 'Load all' }).click();
  await expect(page.getByRole('status')).toContainText('1,200 rows in 3 pages, list complete');
  const cells = (n: number) => meta.getByRole('row').nth(n).getByRole('cell');
  await expect(cells(1).nth(1)).toHaveText('500');
  await expect(cells(2).nth(1)).toHaveText('500');
  await expect(cells(3).nth(1)).toHaveText('200');
  await expect(cells(2).nth(3)).toHaveText('200');
  await expect(cells(3).nth(3)).toHaveText('absent (last page)');
  await expect(cells(3).nth(5)).toHaveText('none');
  const rvs = await Promise.all([1, 2, 3].map((n) => cells(n).nth(2).textContent()));
  expect(new Set(rvs).size).toBe(1);
  await expect(page.getByText(`one resourceVersion for the consistent pages: ${rvs[0]}`)).toBeVisible();
  // The token's content, shown as an implementation detail: pinned to the same revision.
  await expect(cells(1).nth(6)).toContainText(`rv ${rvs[0]}, start key "/cm-0499\\u0000"`);

  const table = page.getByRole('table', { name: 'ConfigMap list' });
  await expect(table).toHaveAttribute('aria-rowcount', '1201');
  const shown = await collectNames(page, table, 1200);
  expect(shown.size).toBe(1200);
  const shownNames = [...shown.values()];
  expect(new Set(shownNames).size).toBe(1200);
  expect(new Set(shownNames)).toEqual(new Set([...names, 'kube-root-ca.crt']));
  await expect(page.getByText(/seen twice/)).toHaveCount(0);
  // The chunks were decoded in the page's list worker (src/k8s/lists/decoder.ts), not on its main thread.
  expect(page.workers().map((w) => w.url())).toContainEqual(expect.stringMatching(/decodeWorker/));
});

/** 80 ConfigMaps listed whole: more rows than the table renders at once, so that scrolling moves them. */
async function eightyRows(page: Page, explorerUrl: string, kube: Kube, ns: string) {
  await createConfigMaps(kube, ns, Array.from({ length: 80 }, (_, i) => `cm-${String(i).padStart(2, '0')}`));
  await page.goto(listUrl(explorerUrl, { namespace: ns, group: '', version: 'v1', resource: 'configmaps' }));
  const table = page.getByRole('table', { name: 'ConfigMap list' });
  await expect(page.getByRole('status').filter({ hasText: 'list complete' })).toBeVisible();
  const scroller = table.getByTestId('lists-scroll');
  return { table, scroller };
}

test('a row keeps its stripe while the table scrolls past it one row at a time', async ({ page, explorerUrl, kube, ns }) => {
  const { table, scroller } = await eightyRows(page, explorerUrl, kube, ns);
  // Row 40 (aria-rowindex 42, after the header) stays in view from a scroll offset of 30 rows to 31:
  // the rows rendered start one row later, and the row's stripe must not change with it.
  const row = table.locator('[role="row"][aria-rowindex="42"]');
  const background = () => row.evaluate((el) => getComputedStyle(el).backgroundColor);
  const neighbour = table.locator('[role="row"][aria-rowindex="43"]');
  const stripes: string[] = [];
  for (const top of [30 * 28, 31 * 28, 32 * 28]) {
    await scroller.evaluate((el, y) => {
      el.scrollTop = y;
    }, top);
    await expect(table.locator(`[role="row"][aria-rowindex="${Math.floor(top / 28) + 2}"]`)).toBeAttached();
    await expect(row).toBeAttached();
    stripes.push(await background());
    // Rows alternate: the next row is the other stripe.
    expect(await neighbour.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(stripes.at(-1));
  }
  expect(new Set(stripes).size).toBe(1);
});

test('a scroll jump shows other rows in the same row elements, and a focused row keeps the focus as rows shift', async ({ page, explorerUrl, kube, ns }) => {
  const { table, scroller } = await eightyRows(page, explorerUrl, kube, ns);
  const rows = table.locator('[data-row-index]');
  // Elements created once: a jump changes what they show (creating them again is most of a jump's frame).
  const before = await rows.evaluateAll((els) => els.map((e) => ((e as HTMLElement & { mark?: number }).mark = Number(e.getAttribute('data-row-index')))));
  await scroller.evaluate((el) => {
    el.scrollTop = 40 * 28;
  });
  await expect(table.getByRole('link', { name: 'cm-45' })).toBeAttached();
  const after = await rows.evaluateAll((els) => els.map((e) => [(e as HTMLElement & { mark?: number }).mark, Number(e.getAttribute('data-row-index'))] as const));
  expect(after.filter(([mark]) => mark !== undefined)).toHaveLength(Math.min(before.length, after.length));
  expect(after.every(([mark, index]) => mark !== index)).toBe(true);
  // The focused row's link keeps the focus when the rows shift under the elements: Enter opens it.
  await table.getByRole('link', { name: 'cm-45' }).focus();
  for (const top of [41 * 28, 43 * 28]) {
    await scroller.evaluate((el, y) => {
      el.scrollTop = y;
    }, top);
    await expect(table.locator(`[role="row"][aria-rowindex="${Math.floor(top / 28) + 2}"]`)).toBeAttached();
    await expect(table.getByRole('link', { name: 'cm-45' })).toBeFocused();
  }
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/name=cm-45/);
});

/** Every row's cells are the same boxes, side by side in the header's order, each under its own header. */
async function expectCellsUnderHeaders(table: Locator): Promise<void> {
  const [header, ...rows] = await table.getByRole('row').evaluateAll((els) =>
    els.map((row) => [...row.querySelectorAll('[role="cell"], [role="columnheader"]')].map((c) => ({ x: c.getBoundingClientRect().x, w: c.getBoundingClientRect().width }))),
  );
  if (!header) throw new Error('no header row');
  // a, b, the long one, and kube-root-ca.crt once kube-controller-manager has added it.
  expect(rows.length).toBeGreaterThanOrEqual(3);
  expect(header.length).toBeGreaterThan(1);
  for (const cells of rows) {
    expect(cells).toHaveLength(header.length);
    // The same boxes in every row: a row's layout does not depend on what it shows.
    cells.forEach((c, i) => {
      expect(Math.abs(c.x - rows[0]![i]!.x)).toBeLessThan(0.5);
      expect(Math.abs(c.w - rows[0]![i]!.w)).toBeLessThan(0.5);
      // Side by side, in the header's order, each under its own header (the header also spans a
      // scrollbar, when there is one: its columns may be that much wider).
      expect(c.w).toBeGreaterThan(20);
      if (i > 0) expect(c.x).toBeGreaterThanOrEqual(cells[i - 1]!.x + cells[i - 1]!.w);
      expect(Math.abs(c.x - header[i]!.x)).toBeLessThan(20);
      expect(c.x + c.w).toBeLessThanOrEqual(header[i]!.x + header[i]!.w + 0.5);
    });
  }
}

test('every row places its cells in the same columns as its header, whatever its text; a long name is cut, not widened', async ({ page, explorerUrl, kube, ns }) => {
  const long = `cm-${'x'.repeat(200)}`;
  await createConfigMaps(kube, ns, ['a', long, 'b'], { k: 'v' });
  await page.goto(listUrl(explorerUrl, { namespace: ns, group: '', version: 'v1', resource: 'configmaps' }));
  const table = page.getByRole('table', { name: 'ConfigMap list' });
  await expect(page.getByRole('status').filter({ hasText: 'list complete' })).toBeVisible();
  await expectCellsUnderHeaders(table);
  // A narrower window: the columns are measured again and every row follows.
  const before = await table.getByRole('columnheader').last().evaluate((h) => h.getBoundingClientRect().x);
  await page.setViewportSize({ width: 1100, height: 900 });
  await expect.poll(() => table.getByRole('columnheader').last().evaluate((h) => h.getBoundingClientRect().x)).toBeLessThan(before - 50);
  await expect(() => expectCellsUnderHeaders(table)).toPass();
  // The long name is cut to its column (the whole name on hover is the link's text).
  const link = table.getByRole('link', { name: long });
  expect(await link.evaluate((a) => (a.parentElement as HTMLElement).scrollWidth > (a.parentElement as HTMLElement).clientWidth)).toBe(true);
  expect(await link.evaluate((a) => getComputedStyle(a.parentElement as HTMLElement).overflowX)).toBe('hidden');
  // No cell's text spills into the next column: it fits, or its cell clips it.
  const spilling = await table.locator('[data-row-index] [role="cell"]').evaluateAll((cells) =>
    cells.filter((c) => getComputedStyle(c).overflowX !== 'hidden' && c.scrollWidth > c.clientWidth + 0.5).map((c) => c.textContent),
  );
  expect(spilling).toEqual([]);
});

test('shows the server pod columns, wide columns behind the toggle, and a CRD printer columns', async ({ page, explorerUrl, kube, ns }) => {
  await must(kube, 'POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name: 'web' }, spec: { containers: [{ name: 'c', image: 'registry.invalid/none' }] } });
  await page.goto(listUrl(explorerUrl, { namespace: ns, group: '', version: 'v1', resource: 'pods' }));
  const pods = page.getByRole('table', { name: 'Pod list' });
  await expect(pods.getByRole('columnheader')).toHaveText(['Name', 'Ready', 'Status', 'Restarts', 'Age'].map((n) => new RegExp(`^${n}`)));
  const row = pods.getByRole('row').filter({ hasText: 'web' });
  await expect(row.getByRole('cell')).toHaveText(['web', '0/1', 'Pending', '0', /^\d+s$/]);
  await expect(pods.getByRole('columnheader', { name: /^IP/ })).toHaveCount(0);
  await page.getByRole('checkbox', { name: /Wide/ }).check();
  await expect(pods.getByRole('columnheader')).toHaveText(['Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP', 'Node', 'Nominated Node', 'Readiness Gates'].map((n) => new RegExp(`^${n}`)));
  await expect(page).toHaveURL(/wide=1/);

  // A CRD whose printer columns nothing in the explorer knows about.
  const group = `${ns}.lists.example.com`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `gadgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget', shortNames: ['gdg'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { colour: { type: 'string' }, size: { type: 'integer' } } } } } },
          additionalPrinterColumns: [
            { name: 'Colour', type: 'string', jsonPath: '.spec.colour', description: 'What colour the gadget is' },
            { name: 'Size', type: 'integer', jsonPath: '.spec.size', priority: 1 },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
    },
  };
  await must(kube, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  try {
    await expect.poll(async () => (await kube.request('admin', 'GET', `/apis/${group}/v1/namespaces/${ns}/gadgets`)).status, { timeout: 30_000 }).toBe(200);
    await must(kube, 'POST', `/apis/${group}/v1/namespaces/${ns}/gadgets`, { apiVersion: `${group}/v1`, kind: 'Gadget', metadata: { name: 'g1' }, spec: { colour: 'teal', size: 7 } });
    // Aggregated discovery learns of the new group a moment after it serves.
    await expect
      .poll(async () => (await kube.request('admin', 'GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' })).body.includes(`"${group}"`), { timeout: 30_000 })
      .toBe(true);

    // Choose it with the resource picker, by its short name.
    await page.goto(listUrl(explorerUrl, { namespace: ns }));
    await page.getByRole('searchbox', { name: 'Filter resources' }).fill('gdg');
    await page.getByRole('combobox', { name: 'Resource' }).selectOption({ label: `gadgets (gdg) — Gadget, ${group}/v1` });
    await expect(page).toHaveURL(new RegExp(`group=${group.replace(/\./g, '\\.')}&version=v1&resource=gadgets`));
    const gadgets = page.getByRole('table', { name: 'Gadget list' });
    await expect(gadgets.getByRole('columnheader')).toHaveText([/^Name/, /^Colour/, /^Age/]);
    await expect(gadgets.getByRole('columnheader', { name: /^Colour/ })).toHaveAttribute('title', 'What colour the gadget is');
    await expect(gadgets.getByRole('row').filter({ hasText: 'g1' }).getByRole('cell')).toHaveText(['g1', 'teal', /^\d+s$/]);
    await page.getByRole('checkbox', { name: /Wide/ }).check();
    await expect(gadgets.getByRole('columnheader')).toHaveText([/^Name/, /^Colour/, /^Size/, /^Age/]);
    await expect(gadgets.getByRole('row').filter({ hasText: 'g1' }).getByRole('cell').nth(2)).toHaveText('7');
  } finally {
    await kube.request('admin', 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.${group}`);
  }
});

/** Reads page 1's token from the UI, compacts etcd, and waits until the server answers it with 410. */
async function expireToken(page: Page, kube: Kube, ns: string, lateName: string): Promise<void> {
  const meta = page.getByRole('table', { name: 'ListMeta per page' });
  const token = await meta.getByRole('row').last().locator('code.token').getAttribute('title');
  expect(token).toBeTruthy();
  // A write after the list, so the list's revision is older than the compaction point.
  await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: lateName } });
  await kube.compact();
  // The apiserver notices a compaction a few seconds after it happens.
  await expect
    .poll(async () => (await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps?limit=5&continue=${encodeURIComponent(token!)}`)).status, { timeout: 60_000, intervals: [500] })
    .toBe(410);
}

test('an expired continue token shows the 410 and both ways out work', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(150_000);
  await waitForRootCA(kube, ns);
  await createConfigMaps(kube, ns, Array.from({ length: 19 }, (_, i) => `cm-${String(i).padStart(2, '0')}`));
  await page.goto(listUrl(explorerUrl, { namespace: ns, group: '', version: 'v1', resource: 'configmaps', limit: '5' }));
  const status = page.getByRole('status');
  await expect(status).toContainText('5 rows in 1 page, more on the server');

  // Way out 1: continue inconsistently with the token the 410 carries.
  await expireToken(page, kube, ns, 'zz-late-1');
  await page.getByRole('button', { name: 'Next page' }).click();
  const expired = page.getByRole('region', { name: 'Expired continue token' });
  await expect(expired.getByRole('alert')).toContainText('410 Expired');
  await expect(expired).toContainText('The provided continue parameter is too old');
  await expect(expired.locator('code.token')).toHaveAttribute('title', /.+/);
  await expired.getByRole('button', { name: 'Continue inconsistently' }).click();
  await expect(expired).toHaveCount(0);
  await expect(status).toContainText('10 rows in 2 pages');
  const meta = page.getByRole('table', { name: 'ListMeta per page' });
  await expect(meta.getByRole('row').nth(2)).toContainText('inconsistent');
  const rv1 = await meta.getByRole('row').nth(1).getByRole('cell').nth(2).textContent();
  await expect(meta.getByRole('row').nth(2).getByRole('cell').nth(2)).not.toHaveText(rv1!);
  await page.getByRole('button', { name: 'Load all' }).click();
  await expect(status).toContainText('list complete');
  // Read at a newer resourceVersion, the rest includes what was created after the first page.
  await expect(page.getByRole('table', { name: 'ConfigMap list' }).getByRole('link', { name: 'zz-late-1' })).toBeAttached();

  // Way out 2: start again.
  await page.getByRole('button', { name: 'Start again' }).click();
  await expect(status).toContainText('5 rows in 1 page, more on the server');
  await expireToken(page, kube, ns, 'zz-late-2');
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(expired.getByRole('alert')).toContainText('410 Expired');
  await expired.getByRole('button', { name: 'Start again' }).click();
  await expect(expired).toHaveCount(0);
  await expect(status).toContainText('5 rows in 1 page, more on the server');
  await page.getByRole('button', { name: 'Load all' }).click();
  await expect(status).toContainText('22 rows in 5 pages, list complete');
  await expect(meta.getByRole('row').filter({ hasText: 'inconsistent' })).toHaveCount(0);
});

test('metadata-only lists carry no data and weigh less than full lists; a row opens its object', async ({ page, explorerUrl, kube, ns }) => {
  await createConfigMaps(kube, ns, ['alpha', 'beta', 'gamma'], { payload: 'p'.repeat(2000) });
  const sizeOf = async () => Number((await page.getByText(/response size/).textContent())!.match(/\(([\d,]+) bytes\)/)![1]!.replace(/,/g, ''));
  const first = page.getByLabel('First item as received');

  await page.goto(listUrl(explorerUrl, { namespace: ns, group: '', version: 'v1', resource: 'configmaps', mode: 'metadata', labelSelector: '' }));
  await expect(page.getByText('Accept: application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1')).toBeVisible();
  await expect(page.getByRole('link', { name: 'gamma' })).toBeVisible();
  await page.getByText(/First item as received/).click();
  await expect(first).toContainText('"kind": "PartialObjectMetadata"');
  await expect(first).not.toContainText('"data"');
  // managedFields still name f:payload; the value itself is not there.
  await expect(first).not.toContainText('pppp');
  const metaSize = await sizeOf();

  await page.getByRole('radio', { name: 'Full objects' }).check();
  await expect(page).toHaveURL(/mode=full/);
  await expect(page.getByText(/Accept: application\/json$/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'gamma' })).toBeVisible();
  await page.getByText(/First item as received/).click();
  await expect(first).toContainText('"data"');
  await expect(first).toContainText('pppp');
  const fullSize = await sizeOf();
  expect(metaSize).toBeLessThan(fullSize);

  // All three side by side, each its own list of the same objects.
  await page.getByRole('button', { name: 'Compare sizes of the first page' }).click();
  const compare = page.getByRole('table', { name: 'Response size by representation' });
  await expect(compare.getByRole('row')).toHaveCount(4);
  const bytesIn = async (n: number) => Number((await compare.getByRole('row').nth(n).getByRole('cell').nth(3).textContent())!.match(/\(([\d,]+) bytes\)/)![1]!.replace(/,/g, ''));
  await expect(compare.getByRole('row').nth(1).getByRole('cell').nth(1)).toHaveText('Table');
  await expect(compare.getByRole('row').nth(2).getByRole('cell').nth(1)).toHaveText('PartialObjectMetadataList');
  await expect(compare.getByRole('row').nth(3).getByRole('cell').nth(1)).toHaveText('ConfigMapList');
  const [table, metadata, full] = [await bytesIn(1), await bytesIn(2), await bytesIn(3)];
  expect(metadata).toBeLessThan(full);
  expect(table).toBeLessThan(full);

  // Open an object: its metadata, links to the other views, managedFields hidden until asked for.
  await page.getByRole('radio', { name: 'Table' }).check();
  await page.getByRole('link', { name: 'beta' }).click();
  await expect(page).toHaveURL(/name=beta/);
  const obj = page.getByRole('complementary', { name: 'Object beta' });
  const cm = JSON.parse(await must(kube, 'GET', `/api/v1/namespaces/${ns}/configmaps/beta`)) as { metadata: { uid: string; resourceVersion: string } };
  await expect(obj).toContainText(cm.metadata.uid);
  await expect(obj).toContainText(cm.metadata.resourceVersion);
  await expect(obj.getByLabel('Object text')).toContainText('payload: ppp');
  await expect(obj.getByLabel('Object text')).not.toContainText('managedFields');
  await obj.getByRole('checkbox', { name: /Show managedFields/ }).check();
  await expect(obj.getByLabel('Object text')).toContainText('managedFields');
  await obj.getByRole('radio', { name: 'JSON' }).check();
  await expect(obj.getByLabel('Object text')).toContainText('"managedFields": [');
  for (const [name, view] of [['Watch it', 'watch'], ['Edit it', 'edit'], ['Who owns its fields', 'ownership']] as const) {
    const href = await obj.getByRole('link', { name }).getAttribute('href');
    const q = new URLSearchParams(href!.replace(/^[^?]*\?/, ''));
    expect(Object.fromEntries(q)).toMatchObject({ view, group: '', version: 'v1', resource: 'configmaps', namespace: ns, name: 'beta' });
  }
});

test('lists across all namespaces with a label selector, with each row namespace', async ({ page, explorerUrl, kube, ns }) => {
  await must(kube, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'tagged', labels: { 'lists-e2e': ns } } });
  // A link naming the context but no namespace opens in the context's namespace (the kubeconfig
  // names `default` for local-admin), as kubectl would; all namespaces are asked for as namespace=*.
  await page.goto(listUrl(explorerUrl, { group: '', version: 'v1', resource: 'configmaps' }));
  await expect(page).toHaveURL(/[?&]namespace=default(&|$)/);
  await expect(page.getByRole('combobox', { name: 'Namespace' })).toHaveValue('default');
  await page.goto(listUrl(explorerUrl, { namespace: '*', group: '', version: 'v1', resource: 'configmaps' }));
  await expect(page.getByRole('combobox', { name: 'Namespace' })).toHaveValue('');
  await page.getByLabel('Label selector').fill(`lists-e2e=${ns}`);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText(/^GET \/api\/v1\/configmaps\?.*includeObject=Metadata/)).toBeVisible();
  const table = page.getByRole('table', { name: 'ConfigMap list' });
  await expect(table.getByRole('columnheader')).toHaveText([/^Name/, /^Namespace/, /^Data/, /^Age/]);
  await expect(table.getByRole('row').nth(1).getByRole('cell')).toHaveText(['tagged', ns, '0', /^\d+s$/]);
  await expect(page.getByRole('status')).toContainText('1 row in 1 page, list complete');
  // The row's link (middle-click, copy link) is this view's URL with the object in it, the list kept across namespaces.
  const href = new URLSearchParams((await table.getByRole('link', { name: 'tagged' }).getAttribute('href')) ?? '');
  expect(Object.fromEntries(href)).toMatchObject({ view: 'lists', resource: 'configmaps', name: 'tagged', namespace: ns, listScope: 'all', labelSelector: `lists-e2e=${ns}` });
  // Opening it scopes the object, not the list.
  await table.getByRole('link', { name: 'tagged' }).click();
  await expect(page.getByRole('complementary', { name: 'Object tagged' })).toContainText(`lists-e2e: ${ns}`);
  await expect(page.getByRole('combobox', { name: 'Namespace' })).toHaveValue(ns);
  await expect(table.getByRole('row').nth(1).getByRole('cell').nth(1)).toHaveText(ns);
});

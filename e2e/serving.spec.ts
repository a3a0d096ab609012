// The serving matrix in the page, against the real local control plane and its aggregated
// wardle.example.com server: a deep link to one group, the 406 for Protobuf and CBOR in the
// Flunders row, nothing that would break an informer, the CSV download, and the dry-run writes
// sent only after the user saw them and said yes.
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';

test('a deep link probes one group; the aggregated Flunders refuse Protobuf and CBOR; the matrix downloads as CSV; writes only when opted into', async ({ page, explorerUrl, kube, ns }) => {
  for (const name of ['a', 'b']) {
    const r = await kube.request('admin', 'POST', `/apis/wardle.example.com/v1beta1/namespaces/${ns}/flunders`, { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name } });
    expect(r.status).toBe(201);
  }
  const writes: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET') writes.push(`${r.method()} ${r.url()}`);
  });
  await page.goto(`${explorerUrl}?context=local-admin&view=serving&group=wardle.example.com&namespace=${ns}`);
  await expect(page.getByRole('status').filter({ hasText: 'resources probed' })).toHaveText('3 resources probed', { timeout: 60_000 });
  const matrix = page.getByRole('table', { name: 'Serving matrix' });
  const flunders = matrix.getByRole('row', { name: /^flunders\.wardle\.example\.com\/v1beta1/ });
  const header = await matrix.getByRole('columnheader').allTextContents();
  const cell = (name: string) => flunders.getByRole('cell').nth(header.indexOf(name) - 1);
  await expect(cell('Protobuf')).toContainText('no: Protobuf refused: 406 NotAcceptable');
  await expect(cell('CBOR')).toContainText('no: CBOR refused: 406 NotAcceptable');
  await expect(cell('Table')).toContainText('yes');
  await expect(cell('Chunking (continue)')).toContainText('yes');
  await expect(cell('Streaming list')).toContainText('initial-events-end');
  await expect(cell('Server-side apply')).toContainText('skipped: writes not opted into');
  await expect(page.getByRole('region', { name: 'Would break informers' })).toContainText('None');
  // Reads only so far (the proxy's WebSocket aside).
  expect(writes.filter((w) => w.includes('/k8s/'))).toEqual([]);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await readFile((await (await download).path())!, 'utf8');
  const line = csv.split('\r\n').find((l) => l.startsWith('flunders.wardle.example.com/v1beta1,'));
  // Columns: list, Table, Protobuf, CBOR, metadata, metadata watch, selectors, chunking, expired
  // continue (yes once etcd compacted resourceVersion 1, unknown before), watch, bookmarks (not
  // waited for in the page), compacted watch, streaming list, dry-run, apply.
  expect(line).toMatch(/^flunders\.wardle\.example\.com\/v1beta1,wardle\.example\.com,v1beta1,Flunder,true,yes,yes,no,no,yes,yes,yes,yes,yes,(yes|unknown),yes,skipped,yes,yes,skipped,skipped,$/);

  // Writes: shown first, sent after "Send them", with dryRun=All.
  // Stays unticked until the writes are confirmed.
  await page.getByLabel(/Also send dry-run writes/).click();
  const dialog = page.getByRole('dialog', { name: 'Send dry-run writes?' });
  await expect(dialog).toContainText('dryRun=All');
  expect(writes.filter((w) => w.includes('/k8s/'))).toEqual([]);
  await dialog.getByRole('button', { name: 'Send them' }).click();
  await expect(cell('Server-side apply')).toContainText('yes', { timeout: 60_000 });
  await expect(cell('Dry-run')).toContainText('yes');
  expect(writes.filter((w) => w.includes('/k8s/')).every((w) => w.includes('dryRun=All'))).toBe(true);
  expect((await kube.request('admin', 'GET', `/apis/wardle.example.com/v1beta1/namespaces/${ns}/flunders/kube-api-explorer-serving-probe`)).status).toBe(404);
});

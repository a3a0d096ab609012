// The User-Agent the API server sees, in the browser against the real control plane. The proxy
// sends the explorer's own, not Chromium's (kube-apiserver pretty-prints JSON for `Mozilla/5.0…`),
// so the sizes the Encodings view, the console and Lists show are the sizes a client gets: the test
// compares them with the same requests sent by Node (whose client sends no User-Agent at all).
import { expect, test } from './fixtures';

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
const number = (s: string | null) => Number(s!.replace(/,/g, ''));

test('sizes in the Encodings view, the console and Lists are those a non-browser client gets', async ({ page, explorerUrl, kube, ns }) => {
  const name = 'sized';
  const created = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name, labels: { sized: 'yes' } }, data: { greeting: 'hello', list: 'a, b, c' } });
  expect(created.status).toBe(201);
  const path = `/api/v1/namespaces/${ns}/configmaps/${name}`;
  const node = await kube.request('admin', 'GET', path, undefined, { Accept: 'application/json' });
  const nodeBytes = Buffer.byteLength(node.body);
  // The console shows bytes exactly below 1 KiB; the object is well under it.
  expect(nodeBytes).toBeLessThan(1024);

  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'encodings', p: path })}`);
  await page.getByRole('button', { name: 'Fetch in every format' }).click();
  const jsonRow = page.getByRole('table', { name: 'Formats' }).getByRole('row').nth(1);
  await expect(jsonRow.getByRole('cell').first()).toHaveText('JSON');
  expect(number(await jsonRow.getByRole('cell').nth(3).textContent())).toBe(nodeBytes);

  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', m: 'GET', p: path, 'h.Accept': 'application/json' })}`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  await expect(page.getByLabel('Status line')).toContainText(`· ${nodeBytes} B decoded`);
  // The exchange names the User-Agent the request went out with.
  await page.getByText(/^Request as sent/).click();
  await expect(page.getByLabel('Request as sent')).toContainText(/User-Agent: kube-api-explorer\/\S+ \(\w+\/\w+\)/);

  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps', mode: 'full', labelSelector: 'sized=yes' })}`);
  await expect(page.getByRole('link', { name })).toBeVisible();
  const listPath = (await page.getByText(/^GET \/api\/v1\/namespaces\//).textContent())!.replace(/^GET /, '').trim();
  const shown = number((await page.getByText(/response size/).textContent())!.match(/\(([\d,]+) bytes\)/)![1]!);
  const nodeList = await kube.request('admin', 'GET', listPath, undefined, { Accept: 'application/json' });
  // A list carries the resourceVersion of the moment it was read, the same number of digits here.
  expect(shown).toBe(Buffer.byteLength(nodeList.body));
});

test('the console sends another User-Agent on purpose, and the server answers a browser’s way', async ({ page, explorerUrl, kube, ns }) => {
  const path = `/api/v1/namespaces/${ns}/configmaps`;
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', m: 'POST', p: path, 'h.Content-Type': 'application/json', 'h.User-Agent': 'Mozilla/5.0 (on purpose)', body: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"as-a-browser"},"data":{"k":"v"}}' })}`);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 201');
  await page.getByText(/^Request as sent/).click();
  await expect(page.getByLabel('Request as sent')).toContainText('User-Agent: Mozilla/5.0 (on purpose)');
  const back = JSON.parse((await kube.request('admin', 'GET', `${path}/as-a-browser`)).body) as { metadata: { managedFields: { manager: string }[] } };
  // kube-apiserver names the manager of a write without fieldManager after the User-Agent's first part.
  expect(back.metadata.managedFields.map((f) => f.manager)).toEqual(['Mozilla']);
});

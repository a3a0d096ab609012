// Wire formats in the browser against the real control plane: the encodings view fetches one
// object in every format and finds them equal, and points at the bytes of metadata.name; the
// console sends a Protobuf body encoded from the JSON the user typed; KYAML is a view.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
const hex = (s: string) => Array.from(new TextEncoder().encode(s), (b) => b.toString(16).padStart(2, '0')).join('');

async function highlighted(page: Page): Promise<string> {
  return (await page.getByLabel('Highlighted hex').locator('.hex-on').allTextContents()).join('');
}

test('the encodings view shows every format equal and where the bytes of metadata.name are', async ({ page, explorerUrl, kube, ns }) => {
  const name = 'every-format';
  const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data: { greeting: 'hello' }, binaryData: { blob: 'AAEC/w==' } });
  expect(r.status).toBe(201);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'encodings', p: `/api/v1/namespaces/${ns}/configmaps/${name}` })}`);
  await page.getByRole('button', { name: 'Fetch in every format' }).click();
  const table = page.getByRole('table', { name: 'Formats' });
  for (const f of ['YAML', 'Protobuf', 'CBOR']) await expect(table.getByLabel(`${f} equality`)).toHaveText('equal');
  await expect(table).toContainText('application/vnd.kubernetes.protobuf');
  await expect(table).toContainText('KYAML');

  // Protobuf: metadata.name is field 1 of ObjectMeta: key 0a, a length, then the name's bytes.
  await expect(page.getByLabel('Highlighted range')).toContainText('metadata.name: bytes');
  expect(await highlighted(page)).toBe(`0a${name.length.toString(16).padStart(2, '0')}${hex(name)}`);
  // CBOR: the key "name" and the value, both byte strings (major type 2).
  await page.getByRole('combobox', { name: 'Hex format' }).selectOption('CBOR');
  expect(await highlighted(page)).toBe(`44${hex('name')}${(0x40 + name.length).toString(16)}${hex(name)}`);
  await page.getByRole('combobox', { name: 'Highlight field' }).selectOption('binaryData.blob');
  // The []byte value travels raw in tag 22 (d6), not as base64 text.
  expect(await highlighted(page)).toBe(`44${hex('blob')}d644000102ff`);
});

test('the console sends a Protobuf body encoded from the typed JSON, and shows KYAML', async ({ page, explorerUrl, kube, ns }) => {
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console' })}`);
  await page.getByRole('combobox', { name: 'Method' }).selectOption('POST');
  await page.getByRole('combobox', { name: 'Path' }).fill(`/api/v1/namespaces/${ns}/configmaps`);
  await page.getByRole('combobox', { name: 'Content-Type' }).selectOption('application/vnd.kubernetes.protobuf');
  const editor = page.getByRole('textbox', { name: 'Request body' });
  await editor.focus();
  await page.keyboard.insertText('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"sent-as-protobuf"},"data":{"via":"protobuf"}}');
  await expect(page.getByLabel('Encoded body')).toContainText('Sent as Protobuf');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 201');
  const back = await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps/sent-as-protobuf`);
  expect(JSON.parse(back.body)).toMatchObject({ data: { via: 'protobuf' } });

  await page.getByRole('tab', { name: 'As KYAML' }).click();
  await expect(page.getByLabel('KYAML')).toContainText('via: "protobuf",');
});

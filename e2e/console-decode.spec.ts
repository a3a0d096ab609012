// The console's Decoded view against the real server: a CBOR GET shows the object as a tree,
// a protobuf GET shows apiVersion, kind and the JSON form its schema gives (loaded lazily).
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

async function send(page: Page, explorerUrl: string, path: string, accept: string) {
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'console', m: 'GET', p: path })}`);
  await expect(page.getByRole('combobox', { name: 'Path' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Accept' }).selectOption(accept);
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByLabel('Status line')).toContainText('HTTP 200');
  await expect(page.getByRole('tab', { name: 'Decoded' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Hex' })).toBeVisible();
}

test('CBOR and protobuf responses show a Decoded view with the object’s name', async ({ page, explorerUrl, kube, ns }) => {
  const name = 'decoded-in-browser';
  const r = await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data: { greeting: 'hello' } });
  expect(r.status).toBe(201);
  const path = `/api/v1/namespaces/${ns}/configmaps/${name}`;

  await send(page, explorerUrl, path, 'application/cbor');
  const cbor = page.getByRole('tree', { name: 'Decoded CBOR' });
  await expect(cbor.getByText(JSON.stringify(name))).toBeVisible();
  await expect(cbor.getByText('"hello"')).toBeVisible();

  await send(page, explorerUrl, path, 'application/vnd.kubernetes.protobuf');
  const body = page.getByRole('tabpanel', { name: 'Response body' });
  await expect(body).toContainText('v1 ConfigMap');
  await expect(body).toContainText('k8s.io.api.core.v1.ConfigMap');
  const pb = page.getByRole('tree', { name: 'Decoded protobuf (JSON form)' });
  await expect(pb.getByText(JSON.stringify(name))).toBeVisible();
  await expect(pb.getByText('"hello"')).toBeVisible();
});

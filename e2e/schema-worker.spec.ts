// The OpenAPI v3 documents are parsed and walked in the schema worker: the schema browser and the
// editor show the same schema as before (Pod, the largest document, and a CRD's), and the page's
// main thread never parses a whole document. The init script watches every way the page could
// decode one (JSON.parse, Response.json/text, TextDecoder) and notes any result that is an OpenAPI
// document (it has components.schemas); the /openapi/v3 index (paths only) is small and stays in
// the page.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

const WATCH_PARSES = () => {
  const w = window as unknown as { __documentsParsed: string[] };
  w.__documentsParsed = [];
  const note = (how: string, v: unknown) => {
    if (typeof v === 'string' ? v.includes('"components"') && v.includes('"x-kubernetes-group-version-kind"') : !!(v as { components?: { schemas?: unknown } } | null)?.components?.schemas) w.__documentsParsed.push(how);
    return v;
  };
  const parse = JSON.parse;
  JSON.parse = function (text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown) {
    return note('JSON.parse', parse.call(JSON, text, reviver));
  } as typeof JSON.parse;
  const json = Response.prototype.json;
  Response.prototype.json = async function () {
    return note('Response.json', await json.call(this));
  };
  const text = Response.prototype.text;
  Response.prototype.text = async function () {
    return note('Response.text', await text.call(this)) as string;
  };
  const decode = TextDecoder.prototype.decode;
  TextDecoder.prototype.decode = function (...args: Parameters<TextDecoder['decode']>) {
    return note('TextDecoder.decode', decode.apply(this, args)) as string;
  };
};

const parsedInPage = (page: Page) => page.evaluate(() => (window as unknown as { __documentsParsed: string[] }).__documentsParsed);

test('the Pod schema in the schema browser and the editor: the same fields, and the page never parses the document', async ({ page, explorerUrl }) => {
  await page.addInitScript(WATCH_PARSES);
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'discovery', group: '', version: 'v1', resource: 'pods' })}`);
  const schema = page.getByRole('region', { name: 'Schema' });
  const fields = schema.getByRole('table', { name: 'Fields' });
  await expect(fields).toContainText('PodSpec', { timeout: 30_000 });
  await expect(schema.getByRole('navigation', { name: 'Field path' })).toContainText('<Pod> · from /openapi/v3/api/v1');

  // One level down, as kubectl explain pod.spec: containers is a required list of Container with its merge key.
  await fields.getByRole('link', { name: 'spec' }).click();
  const containers = fields.getByRole('row').filter({ has: page.getByRole('cell', { name: /^containers/ }) });
  await expect(containers).toContainText('<[]Container>');
  await expect(containers).toContainText('required');
  await expect(containers).toContainText('patch-merge-key: name');

  // The editor of a new Pod: schema-aware from the same document.
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: 'default', group: '', version: 'v1', resource: 'pods' })}`);
  await expect(page.getByRole('status', { name: 'Schema notice' })).toContainText('Schema-aware: completion (Ctrl+Space), hover and validation marks from /openapi/v3/api/v1', { timeout: 60_000 });
  expect(await parsedInPage(page)).toEqual([]);
});

test("a CRD's schema in the schema browser, its own validation rule included, with no document parsed in the page", async ({ page, explorerUrl, kube, ns }) => {
  const group = `${ns}.example.com`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `pulleys.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'pulleys', singular: 'pulley', kind: 'Pulley' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.size >= 1', message: 'at least one' }], properties: { size: { type: 'integer', minimum: 1, description: 'How many wheels.' } } } } } } }],
    },
  };
  expect((await kube.request('admin', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
  try {
    // The CRD's OpenAPI document is published a moment after the CRD is served.
    await expect.poll(async () => (await kube.request('admin', 'GET', '/openapi/v3')).body.includes(`apis/${group}/v1`), { timeout: 30_000 }).toBe(true);
    await page.addInitScript(WATCH_PARSES);
    await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'discovery', group, version: 'v1', resource: 'pulleys', field: 'spec' })}`);
    const schema = page.getByRole('region', { name: 'Schema' });
    await expect(schema.getByRole('list', { name: 'Validation rules' })).toContainText('self.size >= 1', { timeout: 30_000 });
    const size = schema.getByRole('table', { name: 'Fields' }).getByRole('row').filter({ has: page.getByRole('cell', { name: /^size/ }) });
    await expect(size).toContainText('<integer>');
    await expect(size).toContainText('minimum 1');
    await expect(size).toContainText('How many wheels.');
    expect(await parsedInPage(page)).toEqual([]);
  } finally {
    await kube.request('admin', 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/pulleys.${group}`);
  }
});

import { chromium } from '@playwright/test';
import { execFileSync } from 'node:child_process';
const URL0 = process.env.U;
const kbin = '/root/.cache/kube-api-explorer/k8s-v1.37.1-etcd-v3.6.16/kubectl';
const kc = (input, ...a) => execFileSync(kbin, ['--kubeconfig', '/work/ci/.cluster/kubeconfig', ...a], { encoding: 'utf8', input });
const ns = kc(undefined, 'get', 'ns', '-o', 'name').split('\n').find((l) => l.includes('hostile')).split('/')[1];
kc(JSON.stringify({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'bigs.hostile.example.com' }, spec: { group: 'hostile.example.com', scope: 'Namespaced', names: { plural: 'bigs', singular: 'big', kind: 'Big' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { n: { type: 'integer', format: 'int64' }, f: { type: 'number' }, s: { type: 'string' }, list: { type: 'array', items: { type: 'integer' } } } } } } } }] } }), 'apply', '-f', '-');
await new Promise((r) => setTimeout(r, 3000));
const raw = `{"apiVersion":"hostile.example.com/v1","kind":"Big","metadata":{"name":"b1","namespace":"${ns}"},"spec":{"n":9007199254740993,"f":1.0000000000000002,"s":"x","list":[9223372036854775807,-9223372036854775808,1e3]}}`;
console.log(kc(raw, 'apply', '-f', '-'));
console.log('BEFORE', kc(undefined, 'get', 'bigs.hostile.example.com', '-n', ns, 'b1', '-o', 'jsonpath={.spec}'));
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await b.newPage({ viewport: { width: 1400, height: 900 } });
const q = (p) => `${URL0}?${new URLSearchParams(p)}`;
for (const mode of ['JSON Merge Patch', 'Replace (PUT)', 'JSON Patch', 'Server-Side Apply']) {
  await page.goto(q({ context: 'local-admin', view: 'edit', namespace: ns, group: 'hostile.example.com', version: 'v1', resource: 'bigs', name: 'b1' }));
  await page.getByRole('radio', { name: 'YAML', exact: true }).check();
  const ed = page.getByRole('region', { name: 'Object' }).locator('.view-lines');
  await ed.waitFor(); await page.waitForTimeout(1500);
  // change only s: find the line "s: x" and retype
  const text = await page.evaluate(() => window.monaco?.editor?.getModels?.().map((m) => m.getValue()) ?? null);
  await page.getByRole('radio', { name: new RegExp('^' + mode.replace(/[()]/g, '\\$&')) }).check().catch((e) => console.log('mode', mode, e.message.slice(0, 100)));
  await ed.click();
  await page.keyboard.press('ControlOrMeta+F');
  await page.keyboard.type('s: x');
  await page.keyboard.press('Escape');
  await page.keyboard.press('End');
  await page.keyboard.type('y');
  await page.waitForTimeout(800);
  const body = await page.getByRole('region', { name: /Patch body|Request body|body/i }).first().innerText().catch(() => '?');
  console.log('MODE', mode, 'BODY', body.replace(/\n+/g, ' ').slice(0, 400));
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.waitForTimeout(2000);
  console.log('RESULT', (await page.getByRole('region', { name: 'Result' }).innerText().catch(() => 'none')).split('\n')[0]);
  console.log('AFTER', kc(undefined, 'get', 'bigs.hostile.example.com', '-n', ns, 'b1', '-o', 'jsonpath={.spec}'));
}
await page.screenshot({ path: '.hostile/c1.png' });
await b.close();

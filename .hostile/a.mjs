import { chromium } from '@playwright/test';
import { execFileSync } from 'node:child_process';
const URL0 = process.env.U;
const K = ['--kubeconfig', '/work/ci/.cluster/kubeconfig'];
const kc = (...a) => execFileSync('/root/.cache/kube-api-explorer/k8s-v1.37.1-etcd-v3.6.16/kubectl', [...K, ...a], { encoding: 'utf8' });
const ns = 'hostile-' + Date.now().toString(36);
kc('create', 'ns', ns);
const name = 'odd.name-0.x';
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, annotations: { 'example.com/owner': 'me', 'example.com/other': 'x' }, labels: { 'app.kubernetes.io/name': 'odd' } },
  data: { '.dot': '🦄 unicorn', 'x-y': '\u202eRTL override', html: '<img src=x onerror=alert(1)>', crlf: 'a\r\nb  \n', big: '12345678901234567890', empty: '' } };
execFileSync('/root/.cache/kube-api-explorer/k8s-v1.37.1-etcd-v3.6.16/kubectl', [...K, 'apply', '-f', '-'], { input: JSON.stringify(cm) });
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await b.newPage({ viewport: { width: 1400, height: 900 } });
const dialogs = []; page.on('dialog', (d) => { dialogs.push(d.message()); d.dismiss(); });
const errors = []; page.on('pageerror', (e) => errors.push(String(e)));
const q = (p) => `${URL0}?${new URLSearchParams(p)}`;
await page.goto(q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name }));
await page.getByRole('radio', { name: 'JSON', exact: true }).check();
await page.getByRole('region', { name: 'Object' }).locator('.view-lines').waitFor();
await page.waitForTimeout(1500);
const loaded = JSON.parse(kc('get', 'cm', '-n', ns, name, '-o', 'json'));
delete loaded.metadata.managedFields;
const mine = structuredClone(loaded);
mine.data['.dot'] = '🐉 dragon';
mine.metadata.annotations['example.com/owner'] = 'mine';
await page.getByRole('region', { name: 'Object' }).locator('.view-lines').click();
await page.keyboard.press('ControlOrMeta+A'); await page.keyboard.press('Backspace');
await page.keyboard.insertText(JSON.stringify(mine, null, 2));
// the other person: kubectl changes other keys
kc('annotate', 'cm', '-n', ns, name, '--overwrite', 'example.com/other=theirs');
kc('patch', 'cm', '-n', ns, name, '--type', 'merge', '-p', JSON.stringify({ data: { 'x-y': 'theirs', html: null } }));
await page.waitForTimeout(3000);
console.log('BANNER', await page.getByRole('alert', { name: 'Changed on the server' }).innerText().catch((e) => 'none ' + e.message.slice(0, 80)));
await page.getByRole('alert', { name: 'Changed on the server' }).getByRole('button', { name: 'Re-apply my changes to the latest version' }).click();
await page.waitForTimeout(1500);
console.log('REBASE', await page.getByRole('status', { name: 'Rebase' }).innerText().catch(() => 'none'));
await page.screenshot({ path: '.hostile/a1.png' });
await page.getByRole('button', { name: 'Send', exact: true }).click();
await page.waitForTimeout(2000);
console.log('RESULT', (await page.getByRole('region', { name: 'Result' }).innerText().catch(() => 'none')).slice(0, 400));
const stored = JSON.parse(kc('get', 'cm', '-n', ns, name, '-o', 'json'));
console.log('STORED data', JSON.stringify(stored.data));
console.log('STORED ann', JSON.stringify(stored.metadata.annotations));
console.log('dialogs', dialogs, 'errors', errors);
// Lists, Ownership, Encodings on the odd object
for (const view of ['lists', 'ownership', 'encodings']) {
  await page.goto(q({ context: 'local-admin', view, namespace: ns, group: '', version: 'v1', resource: 'configmaps', name }));
  await page.waitForTimeout(2500);
  await page.screenshot({ path: `.hostile/a-${view}.png` });
  const t = await page.locator('main').innerText().catch(() => page.locator('body').innerText());
  console.log('VIEW', view, t.slice(0, 600).replace(/\n+/g, ' | '));
}
console.log('dialogs', dialogs, 'errors', errors);
await b.close();

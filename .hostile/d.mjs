import { chromium } from '@playwright/test';
const URL0 = process.env.U;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await b.newPage({ viewport: { width: 1400, height: 900 } });
const reqs = []; page.on('request', (r) => { if (r.url().includes('/k8s/')) reqs.push(r.method() + ' ' + decodeURIComponent(r.url().split('/k8s/')[1])); });
const errors = []; page.on('pageerror', (e) => errors.push(String(e)));
const q = (p) => `${URL0}?${new URLSearchParams(p)}`;
const cases = [
  { view: 'edit', namespace: 'default', group: '', version: 'v1', resource: 'configmaps', name: '../secrets/x' },
  { view: 'edit', namespace: '../kube-system', group: '', version: 'v1', resource: 'configmaps', name: 'x' },
  { view: 'lists', namespace: 'default', group: '', version: 'v1', resource: 'configmaps/../secrets' },
  { view: 'ownership', namespace: 'default', group: '', version: 'v1', resource: 'configmaps', name: 'a?b=c' },
  { view: 'watch', namespace: 'default', group: 'apps', version: 'v1', resource: 'deployments', labelSelector: 'a in (' },
  { view: 'lists', namespace: 'default', group: '', version: 'v1', resource: 'pods', fieldSelector: 'spec.nodeName==' + 'x'.repeat(5000) },
  { view: 'encodings', namespace: 'default', group: '', version: 'v1', resource: 'configmaps', name: '%2e%2e' },
  { view: 'discovery', group: 'no.such.group', version: 'v9' },
  { view: 'lessons', lesson: '<script>alert(1)</script>' },
  { context: 'no-such-context', view: 'lists', namespace: 'default', group: '', version: 'v1', resource: 'configmaps' },
];
for (const c of cases) {
  reqs.length = 0;
  await page.goto(q({ context: 'local-admin', ...c }));
  await page.waitForTimeout(2500);
  const t = (await page.locator('main').innerText().catch(() => page.locator('body').innerText())).replace(/\n+/g, ' | ');
  console.log('CASE', JSON.stringify(c).slice(0, 140));
  console.log('  TEXT', t.slice(0, 260));
  console.log('  REQS', reqs.filter((r) => !r.includes('/openapi') && !r.includes('/apis?') ).slice(0, 6).map((r) => r.slice(0, 140)));
}
console.log('errors', errors);
await b.close();

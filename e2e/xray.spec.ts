// X-ray in the browser: the real kubectl runs through the explorer's X-ray endpoint while the
// Clients view is open, and the view shows what kubectl sent and what the server answered, live:
// the server-side apply's PATCH (application/apply-patch+yaml, fieldManager=kubectl, the body as
// sent, the server's answer), then a client-side apply run, then the diff of the two runs. Each
// run is `xray --attach` with the long-lived endpoint's kubeconfig the page offers, so that it
// shows in this page.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { XRAY_KUBECONFIG_PATH } from '../protocol/xray';

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

/** The long-lived endpoint's kubeconfig, as the page's "Connect a client" downloads it (with the page's token). */
async function longLivedKubeconfig(page: Page, explorerUrl: string): Promise<string> {
  const token = await page.locator('meta[name="explorer-token"]').getAttribute('content');
  const res = await fetch(new URL(XRAY_KUBECONFIG_PATH, explorerUrl), { headers: { 'X-Explorer-Token': token ?? '' } });
  expect(res.status).toBe(200);
  return res.text();
}

/**
 * `xray --attach FILE -- kubectl ARGS…` (cli/entry.ts, the command users run), with the control
 * plane's kubectl first on the PATH: the run shows in the running explorer's page, live.
 */
function xrayRun(attach: string, dir: string, argv: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const kubectl = process.env.KUBE_TEST_KUBECTL!;
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/entry.ts', 'xray', '--attach', attach, '--context', 'local-admin', '--', 'kubectl', ...argv], {
    env: { ...process.env, PATH: `${dirname(kubectl)}:${process.env.PATH ?? ''}`, HOME: dir, KUBECONFIG: process.env.KUBE_TEST_KUBECONFIG },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((ok) => child.on('close', (code) => ok({ code, stdout, stderr })));
}

test('kubectl apply through X-ray: the Clients view shows the server-side PATCH, a client-side run, and their diff', async ({ page, explorerUrl, kube, ns }) => {
  const dir = mkdtempSync(join(tmpdir(), 'xray-e2e-'));
  try {
    await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'clients' })}`);
    await expect(page.getByLabel('Journal state')).toHaveAttribute('data-state', 'live');
    await page.getByText('Connect a client', { exact: true }).click();
    await expect(page.getByLabel('Endpoint state')).toContainText(/listening at https:\/\/127\.0\.0\.1:\d+/);

    const attach = join(dir, 'attach.kubeconfig');
    writeFileSync(attach, await longLivedKubeconfig(page, explorerUrl), { mode: 0o600 });
    const manifest = join(dir, 'cm.yaml');
    writeFileSync(manifest, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: xrayed\n  namespace: ${ns}\ndata:\n  color: blue\n`);
    const ssa = await xrayRun(attach, dir, ['apply', '--server-side', '-f', manifest]);
    expect(ssa.stderr).toBe('');
    expect(ssa.code).toBe(0);
    expect(ssa.stdout).toContain('configmap/xrayed serverside-applied');

    // The run's PATCH, live in the list, under kubectl.
    const path = `/api/v1/namespaces/${ns}/configmaps/xrayed`;
    await expect(page.getByRole('navigation', { name: 'Clients and runs' })).toContainText('kubectl');
    await expect(page.getByRole('navigation', { name: 'Clients and runs' })).toContainText('kubectl apply --server-side');
    const patch = page.getByRole('list', { name: 'Client exchanges' }).getByRole('button', { name: new RegExp(`PATCH ${path.replace(/\//g, '\\/')}\\?fieldManager=kubectl&`) });
    await patch.click();
    const detail = page.getByRole('region', { name: 'Client exchange' });
    await expect(detail.getByLabel('What it means')).toContainText(`patch configmaps xrayed in ${ns}; a server-side apply`);
    await expect(detail.getByLabel('What it means')).toContainText('field manager kubectl');
    // The body as kubectl sent it: the manifest as JSON, under the apply-patch YAML media type.
    await expect(detail.getByLabel('Request body', { exact: true })).toContainText('application/apply-patch+yaml');
    await expect(detail.getByLabel('Request body text')).toHaveText(`{"apiVersion":"v1","data":{"color":"blue"},"kind":"ConfigMap","metadata":{"name":"xrayed","namespace":"${ns}"}}`);
    // The server's answer: 201 (apply created it), the object with kubectl as its Apply manager.
    await expect(detail.getByLabel('Status line')).toContainText('HTTP 201');
    await expect(detail.locator(':scope > p[aria-label="API Priority and Fairness"]')).toContainText(/FlowSchema UID [0-9a-f-]{36}, PriorityLevel UID [0-9a-f-]{36}/);
    // The server's own record of kubectl's request (issue 46): the audit event its Audit-Id names,
    // with the user the endpoint's credentials are (the admin's client certificate) and kubectl's agent.
    const audit = detail.locator('details[aria-label="Audit"]');
    await audit.locator('summary').click();
    await expect(audit.locator('[data-audit="username"]').first()).toHaveText('explorer-admin');
    await expect(audit.locator('[data-audit="decision"]')).toHaveText('allow');
    await detail.getByRole('tab', { name: 'Text' }).click();
    await expect(detail.getByRole('tabpanel', { name: 'Response body' })).toContainText('"manager": "kubectl"');
    await expect(detail.getByRole('tabpanel', { name: 'Response body' })).toContainText('"operation": "Apply"');
    // Open in console carries the request, without the endpoint's token.
    const consoleHref = await detail.getByRole('link', { name: 'Open in console' }).getAttribute('href');
    const extra = new URLSearchParams(consoleHref!);
    expect([extra.get('view'), extra.get('m'), extra.get('p'), extra.get('q.fieldManager'), extra.get('h.Content-Type'), extra.get('h.Authorization')]).toEqual(['console', 'PATCH', path, 'kubectl', 'application/apply-patch+yaml', null]);

    // A client-side apply of a changed manifest, as a second run.
    writeFileSync(manifest, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: xrayed\n  namespace: ${ns}\ndata:\n  color: green\n`);
    const csa = await xrayRun(attach, dir, ['apply', '-f', manifest]);
    expect(csa.code).toBe(0);
    expect(csa.stdout).toContain('configmap/xrayed configured');

    // The diff: the PATCHes aligned, differing in Content-Type, fieldManager, force and body.
    const runs = page.getByRole('region', { name: 'Diff two runs' });
    await runs.getByLabel('Left run').selectOption({ label: `kubectl apply -f ${manifest} (exit 0)` });
    await runs.getByLabel('Right run').selectOption({ label: `kubectl apply --server-side -f ${manifest} (exit 0)` });
    const row = runs.getByRole('table', { name: 'Aligned exchanges' }).getByRole('row').filter({ hasText: `PATCH ${path}` });
    await expect(row).toHaveCount(1);
    await expect(row.getByLabel('differs: Content-Type')).toContainText('application/strategic-merge-patch+json ≠ application/apply-patch+yaml');
    await expect(row.getByLabel('differs: ?fieldManager')).toContainText('kubectl-client-side-apply ≠ kubectl');
    await expect(row.getByLabel('differs: ?force')).toContainText('(absent) ≠ false');
    await expect(row.getByLabel('differs: body')).toContainText('"color":"green"');
    await expect(row.getByLabel('differs: body')).toContainText('kubectl.kubernetes.io/last-applied-configuration');

    // A watch: kubectl get -w, an object created while it watches, the watch ended by kubectl's request timeout.
    const watching = xrayRun(attach, dir, ['get', 'configmaps', '-n', ns, '-w', '--request-timeout=4s']);
    const watch = page.getByRole('list', { name: 'Client exchanges' }).getByRole('button', { name: new RegExp(`GET /api/v1/namespaces/${ns}/configmaps\\?.*watch=true`) });
    await expect(watch).toBeVisible();
    expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'seen-by-watch' } })).status).toBe(201);
    await watching;
    await watch.click();
    const frames = detail.getByRole('group', { name: 'Watch frames' });
    await expect(frames.getByRole('table', { name: 'Frames' }).getByRole('row').filter({ hasText: 'seen-by-watch' })).toContainText('ADDED');
    // kubectl's --request-timeout ends it (how, the sentence says: the journal's `closedBy` and error); kubectl does not watch again.
    await expect(frames.getByLabel('Where the client went on')).toContainText(/^The stream ended \(.+\); the client did not watch this collection again in this run\.$/);

    // The view with all of it open holds no serious or critical accessibility violation (as e2e/a11y.spec.ts asks of every view).
    const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The clusters people run, in the page: a context whose exec credential plugin waits for a browser
// login (kubelogin-style: it prints a URL on stderr), one whose plugin hangs and is cancelled, and
// a cluster that answers but is not ready (its etcd stopped). Real plugin scripts, a second
// explorer server of this spec's own (its kubeconfig has the plugin users), the shared control
// plane's etcd stopped with SIGSTOP through the global setup's control endpoint.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump as stringify, load as parse } from 'js-yaml';
import { startExplorerServer, type ExplorerServer } from '../proxy/src/server';
import { expect, test } from './fixtures';

let dir: string;
let srv: ExplorerServer;

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'e2e-clusters-'));
  const kubeconfig = process.env.KUBE_TEST_KUBECONFIG!;
  const base = parse(readFileSync(kubeconfig, 'utf8')) as { clusters: { name: string }[]; users: Record<string, unknown>[]; contexts: Record<string, unknown>[] };
  const pkiDir = join(process.env.KUBE_TEST_DIR!, 'pki');
  const credential = JSON.stringify({
    apiVersion: 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    status: { clientCertificateData: readFileSync(join(pkiDir, 'user-viewer.crt'), 'utf8'), clientKeyData: readFileSync(join(pkiDir, 'user-viewer.key'), 'utf8') },
  });
  writeFileSync(join(dir, 'cred.json'), credential);
  const script = (name: string, body: string) => {
    const f = join(dir, name);
    writeFileSync(f, `#!/bin/sh\n${body}\n`);
    chmodSync(f, 0o755);
    return f;
  };
  // Waits for the "browser login" (a file the test writes), as kubelogin waits for its callback.
  const login = script('kubelogin.sh', `echo "Please visit the following URL in your browser: https://login.example/device?code=E2E-1234" >&2\ni=0; while [ ! -f "${join(dir, 'logged-in')}" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done\ncat "${join(dir, 'cred.json')}"`);
  const exec = (command: string, args: string[] = []) => ({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command, args, interactiveMode: 'IfAvailable' } });
  base.users.push({ name: 'login', user: exec(login) }, { name: 'hang', user: exec('/bin/sleep', ['600']) });
  const cluster = base.clusters[0]!.name;
  base.contexts.push({ name: 'login', context: { cluster, user: 'login', namespace: 'default' } }, { name: 'hang', context: { cluster, user: 'hang', namespace: 'default' } });
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, stringify(base));
  srv = await startExplorerServer({ port: 0, kubeconfigPath: file, staticDir: 'dist', log: () => {}, exec: { timeoutMs: 90_000, interactive: false } });
  // (Requests wait 5 s for a run under way, then are answered "still waiting": the browser's few
  // connections stay free for the status poll that shows the login URL.)
});

test.afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a plugin waiting for a browser login: the page says what it waits for, shows the login URL, and loads once the login is done', async ({ page }) => {
  await page.goto(`${srv.url}?context=login&view=discovery`);
  const indicator = page.getByLabel('Connection status');
  await expect(indicator).toContainText('waiting for kubelogin.sh');
  // The panel opens by itself: the user has something to do.
  const panel = page.getByRole('region', { name: 'Connections' });
  await expect(panel).toContainText(`waiting for \`${join(dir, 'kubelogin.sh')}\``);
  await expect(panel.getByLabel('What the plugin of login wrote')).toContainText('https://login.example/device?code=E2E-1234');
  writeFileSync(join(dir, 'logged-in'), '');
  await expect(indicator).toContainText('connected', { timeout: 30_000 });
  await expect(page.getByText('Reading discovery…')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByText('Discovery failed')).toHaveCount(0);
});

test('a hanging plugin (/bin/sleep 600) can be cancelled from the page, which then says why nothing loads', async ({ page }) => {
  await page.goto(`${srv.url}?context=hang&view=discovery`);
  await expect(page.getByLabel('Connection status')).toContainText('waiting for sleep');
  const panel = page.getByRole('region', { name: 'Connections' });
  await panel.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Discovery failed')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/the exec plugin `\/bin\/sleep 600` was stopped: cancelled from the page/).first()).toBeVisible();
  await expect(page.getByText('Reading discovery…')).toHaveCount(0);
  // The panel stays open: it says the plugin was stopped and offers to run it again.
  await expect(panel.getByRole('button', { name: 'Try again now' })).toBeVisible();
  await expect(page.getByLabel('Connection status')).toContainText('down');
});

test('etcd stopped: the indicator says the cluster is not ready and names the failed check, then connected again', async ({ page, explorerUrl }) => {
  test.setTimeout(150_000);
  await page.goto(`${explorerUrl}?context=local-admin&view=discovery`);
  const indicator = page.getByLabel('Connection status');
  await expect(indicator).toContainText('connected');
  const signal = (s: string) => fetch(`${process.env.KUBE_TEST_CONTROL}/signal?component=etcd&signal=${s}`, { method: 'POST' });
  expect((await signal('SIGSTOP')).ok).toBe(true);
  try {
    await expect(indicator).toContainText(/not ready: etcd( and [\w-]+)* failed/, { timeout: 60_000 });
  } finally {
    await signal('SIGCONT');
  }
  await expect(indicator).toContainText('connected', { timeout: 60_000 });
});

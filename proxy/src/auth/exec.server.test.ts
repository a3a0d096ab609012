// Exec credential plugins and legacy auth-providers, with real plugin scripts against the real
// control plane: the credential is a client certificate of the cluster's PKI (ExecCredential
// clientCertificateData) or a ServiceAccount token (status.token, and the auth-provider's token).
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dump as stringify, load as parse } from 'js-yaml';
import { testCluster } from '../../cluster/cluster.testkit';
import { createNamespace, deleteNamespace, json, raw, type RawResponse, waitUntil } from '../explorer.testkit';
import { type ExplorerServer, startExplorerServer } from '../server';
import { ExecCredentials } from './exec';
import type { CredentialRun, ExplorerStatus } from '../../../protocol/status';

const cluster = testCluster(inject('controlPlane'));
const PLUGIN_TIMEOUT_MS = 6_000;

describe('exec credential plugins and auth-providers (real scripts, real API server)', () => {
  let dir: string;
  let srv: ExplorerServer;
  let ns: string;
  let saToken = '';
  const runs = (name: string) => (existsSync(join(dir, `${name}.runs`)) ? readFileSync(join(dir, `${name}.runs`), 'utf8').trim().split('\n').filter(Boolean) : []);

  /** A plugin script: logs its pid to NAME.runs, then runs `body` (sh). */
  const script = (name: string, body: string) => {
    const file = join(dir, `${name}.sh`);
    writeFileSync(file, `#!/bin/sh\necho $$ >> "${join(dir, `${name}.runs`)}"\n${body}\n`);
    chmodSync(file, 0o755);
    return file;
  };
  const credential = (status: Record<string, unknown>) => JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'explorer-exec-'));
    ns = await createNamespace(cluster, 'proxy-exec');
    expect((await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'plugin' } })).status).toBe(201);
    const tr = await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/plugin/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
    saToken = JSON.parse(tr.body).status.token as string;
    const viewer = cluster.credentials('viewer');
    writeFileSync(join(dir, 'cert.json'), credential({ clientCertificateData: viewer.cert, clientKeyData: viewer.key }));
    writeFileSync(join(dir, 'token.json'), credential({ token: saToken }));
    writeFileSync(join(dir, 'bad.json'), credential({ token: 'not-a-token-the-server-knows' }));
    const cat = (f: string) => `cat "${join(dir, f)}"`;

    const base = parse(readFileSync(cluster.kubeconfig, 'utf8')) as { clusters: Record<string, any>[]; users: Record<string, any>[]; contexts: Record<string, any>[] };
    const local = base.clusters[0]!;
    local.cluster.extensions = [{ name: 'client.authentication.k8s.io/exec', extension: { audience: 'explorer-tests' } }];
    const exec = (command: string, more: Record<string, unknown> = {}) => ({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command, interactiveMode: 'Never', ...more } });
    const users: [string, Record<string, unknown>][] = [
      ['hang', exec(script('hang', 'echo "To sign in, open https://login.example/device?code=WXYZ-1234" >&2\nexec sleep 600'))],
      ['cancel', exec(script('cancel', 'echo "waiting for your browser" >&2\nexec sleep 600'))],
      ['slow', exec(script('slow', `sleep 1\n${cat('cert.json')}`))],
      ['failing', exec(script('failing', 'echo "error: you are not logged in (run: plugin login)" >&2\nexit 3'))],
      ['expiring', exec(script('expiring', `printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s","expirationTimestamp":"%s"}}' "${saToken}" "$(date -u -d '+3 seconds' +%Y-%m-%dT%H:%M:%SZ)"`))],
      // Answers a token the server refuses on its first run, the viewer's certificate afterwards.
      ['rotated', exec(script('rotated', `if [ "$(wc -l < "${join(dir, 'rotated.runs')}")" -le 1 ]; then ${cat('bad.json')}; else ${cat('cert.json')}; fi`))],
      ['refused', exec(script('refused', cat('bad.json')))],
      ['always', exec(script('always', cat('cert.json')), { interactiveMode: 'Always' })],
      ['info', exec(script('info', `printf '%s' "$KUBERNETES_EXEC_INFO" > "${join(dir, 'info.json')}"\n${cat('cert.json')}`), { interactiveMode: 'IfAvailable', provideClusterInfo: true, env: [{ name: 'PLUGIN_MODE', value: 'test' }] })],
      ['missing', exec(join(dir, 'no-such-plugin'), { installHint: 'Install it with: brew install no-such-plugin' })],
      // A legacy gcp auth-provider whose command waits until the test lets it go (or 10 s).
      ['gcp', { 'auth-provider': { name: 'gcp', config: { 'cmd-path': script('gcp', `touch "${join(dir, 'gcp.started')}"\ni=0; while [ ! -f "${join(dir, 'gcp.release')}" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done\n[ -f "${join(dir, 'gcp.release')}" ] && echo released > "${join(dir, 'gcp.outcome')}" || echo gave-up > "${join(dir, 'gcp.outcome')}"\nprintf '{"credential":{"access_token":"%s","token_expiry":"2099-01-01T00:00:00Z"}}' "${saToken}"`), 'cmd-args': 'config config-helper --format=json', 'token-key': '{.credential.access_token}', 'expiry-key': '{.credential.token_expiry}' } } }],
      ['gcp-broken', { 'auth-provider': { name: 'gcp', config: { 'cmd-path': script('gcp-broken', 'echo "ERROR: gcloud crashed" >&2\nexit 1'), 'token-key': '{.credential.access_token}' } } }],
    ];
    for (const [name, user] of users) {
      base.users.push({ name, user });
      base.contexts.push({ name, context: { cluster: local.name, user: name, namespace: ns } });
    }
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, stringify(base));
    srv = await startExplorerServer({ port: 0, kubeconfigPath: file, staticDir: dir, log: () => undefined, exec: { timeoutMs: PLUGIN_TIMEOUT_MS, waitMs: Infinity, interactive: false } });
  });

  afterAll(async () => {
    await srv?.close();
    await deleteNamespace(cluster, ns);
    rmSync(dir, { recursive: true, force: true });
  });

  const headers = () => ({ 'X-Explorer-Token': srv.token, Accept: 'application/json' });
  const get = (context: string, path = '/api') => raw(srv.port, { path: `/k8s/${encodeURIComponent(context)}${path}`, headers: headers() });
  const whoAmI = async (context: string) => {
    const res = await raw(srv.port, {
      method: 'POST',
      path: `/k8s/${context}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      headers: { ...headers(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });
    return { res, user: res.status === 201 ? (json(res).status.userInfo.username as string) : undefined };
  };
  const credentialsOf = async (user: string): Promise<CredentialRun | undefined> => {
    const status = json(await raw(srv.port, { path: '/proxy/status', headers: headers() })) as ExplorerStatus;
    return status.credentials?.find((c) => c.user === user);
  };
  const reason = (r: RawResponse) => json(r).details?.causes?.[0]?.reason as string | undefined;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('runs a hanging plugin once for all waiting requests, shows its stderr, and answers them all when it times out', async () => {
    const pending = Array.from({ length: 6 }, () => get('hang', '/api'));
    await waitUntil('the page can see the plugin running, with its stderr', async () => (await credentialsOf('hang'))?.stderr.includes('https://login.example/device?code=WXYZ-1234') ?? false);
    const shown = (await credentialsOf('hang'))!;
    expect(shown).toMatchObject({ state: 'running', contexts: ['hang'] });
    expect(shown.command).toMatch(/hang\.sh$/);
    expect(runs('hang')).toHaveLength(1);
    const answers = await Promise.all(pending);
    for (const r of answers) {
      expect(r.status).toBe(502);
      expect(reason(r)).toBe('CredentialsFailed');
      expect(json(r).message).toMatch(/hang\.sh` did not finish within 6 s and was stopped; it wrote: To sign in, open https:\/\/login\.example/);
    }
    expect(runs('hang')).toHaveLength(1);
    await waitUntil('the plugin process is gone', () => !alive(Number(runs('hang')[0])));
    // A request right after the failure does not start it again (the failure is remembered).
    const again = await get('hang');
    expect(again.status).toBe(502);
    expect(json(again).message).toMatch(/the next try is not before/);
    expect(runs('hang')).toHaveLength(1);
    expect((await credentialsOf('hang'))?.state).toBe('failed');
  });

  it('lets the page cancel a run under way: the waiting request fails at once and the plugin is stopped', async () => {
    const pending = get('cancel');
    await waitUntil('the plugin runs and has written to stderr', async () => (await credentialsOf('cancel'))?.stderr.includes('waiting for your browser') ?? false);
    const cancel = await raw(srv.port, { method: 'POST', path: '/proxy/credentials/cancel?context=cancel', headers: headers() });
    expect(json(cancel)).toEqual({ cancelled: true });
    const r = await pending;
    expect(r.status).toBe(502);
    expect(json(r).message).toMatch(/was stopped: cancelled from the page/);
    await waitUntil('the plugin process is gone', () => !alive(Number(runs('cancel')[0])));
    // Not started over by the next request (the login would begin again), only when asked.
    expect(json(await get('cancel')).message).toMatch(/it runs again when asked from the page/);
    expect(runs('cancel')).toHaveLength(1);
  });

  it('answers a request that waited a while "still waiting", leaving the run going for a later one', async () => {
    const impatient = new ExecCredentials({ timeoutMs: 20_000, waitMs: 300, interactive: false });
    const file = script('pending', `echo "open https://login.example/pending" >&2\nwhile [ ! -f "${join(dir, 'pending.done')}" ]; do sleep 0.1; done\ncat "${join(dir, 'token.json')}"`);
    const exec = { apiVersion: 'client.authentication.k8s.io/v1', command: file, interactiveMode: 'Never' as const };
    const first = await impatient.get('pending', exec, 'pending', { name: 'local', info: () => ({}) }).catch((e: Error) => e);
    expect((first as Error).name).toBe('ExecCredentialPending');
    expect((first as Error).message).toMatch(/^waiting for the exec plugin `.*pending\.sh` \(running since \d\d:\d\d:\d\d UTC; it wrote: open https:\/\/login\.example\/pending\)$/);
    await expect(impatient.get('pending', exec, 'pending', { name: 'local', info: () => ({}) })).rejects.toThrow(/waiting for the exec plugin/);
    writeFileSync(join(dir, 'pending.done'), '');
    await waitUntil('the run ends with a credential', () => impatient.snapshot()[0]?.state === 'ready');
    expect((await impatient.get('pending', exec, 'pending', { name: 'local', info: () => ({}) })).token).toBe(saToken);
    expect(runs('pending')).toHaveLength(1);
  });

  it('lets concurrent requests wait for one slow run, then serves from the cached credential', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => whoAmI('slow')));
    expect(users.map((u) => u.user)).toEqual(Array(5).fill('explorer-viewer'));
    expect((await get('slow', '/api/v1/namespaces/default/configmaps?limit=1')).status).toBe(200);
    expect(runs('slow')).toHaveLength(1);
    expect((await credentialsOf('slow'))?.state).toBe('ready');
  });

  it('reports a failing plugin with its stderr, backs off, and runs it again on Retry', async () => {
    const first = await get('failing');
    expect(first.status).toBe(502);
    expect(json(first).message).toMatch(/failed \(exit code 3\): error: you are not logged in \(run: plugin login\)/);
    expect((await get('failing')).status).toBe(502);
    expect(runs('failing')).toHaveLength(1);
    await raw(srv.port, { method: 'POST', path: '/proxy/credentials/retry?context=failing', headers: headers() });
    expect((await get('failing')).status).toBe(502);
    expect(runs('failing')).toHaveLength(2);
  });

  it('keeps a credential until its expirationTimestamp, then runs the plugin again', async () => {
    expect((await whoAmI('expiring')).user).toBe(`system:serviceaccount:${ns}:plugin`);
    expect((await whoAmI('expiring')).user).toBe(`system:serviceaccount:${ns}:plugin`);
    expect(runs('expiring')).toHaveLength(1);
    const expiresAt = Date.parse((await credentialsOf('expiring'))!.expiresAt!);
    await waitUntil('the credential expired', () => Date.now() > expiresAt);
    expect((await whoAmI('expiring')).user).toBe(`system:serviceaccount:${ns}:plugin`);
    expect(runs('expiring')).toHaveLength(2);
  });

  it('runs the plugin again after a 401 to its credential, and only once for a credential from such a re-run', async () => {
    expect((await get('rotated')).status).toBe(401);
    expect((await whoAmI('rotated')).user).toBe('explorer-viewer');
    expect(runs('rotated')).toHaveLength(2);
    expect((await get('refused')).status).toBe(401);
    expect((await get('refused')).status).toBe(401);
    expect((await get('refused')).status).toBe(401);
    expect(runs('refused')).toHaveLength(2);
  });

  it('honours interactiveMode (Always needs a terminal) and provideClusterInfo', async () => {
    const always = await get('always');
    expect(always.status).toBe(502);
    expect(json(always).message).toMatch(/needs a terminal \(interactiveMode: Always\)/);
    expect(runs('always')).toHaveLength(0);

    expect((await whoAmI('info')).user).toBe('explorer-viewer');
    const info = JSON.parse(readFileSync(join(dir, 'info.json'), 'utf8'));
    expect(info).toMatchObject({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', spec: { interactive: false, cluster: { server: cluster.server, config: { audience: 'explorer-tests' } } } });
    expect(Buffer.from(info.spec.cluster['certificate-authority-data'], 'base64').toString()).toBe(cluster.credentials('admin').ca);
  });

  it('tells a plugin with a terminal that it may ask (spec.interactive), and names the install hint of a missing one', async () => {
    const withTerminal = new ExecCredentials({ interactive: true, timeoutMs: PLUGIN_TIMEOUT_MS });
    const file = script('tty', `printf '%s' "$KUBERNETES_EXEC_INFO" > "${join(dir, 'tty.json')}"\ncat "${join(dir, 'token.json')}"`);
    const cred = await withTerminal.get('tty', { apiVersion: 'client.authentication.k8s.io/v1', command: file, interactiveMode: 'IfAvailable' }, 'tty', { name: 'local', info: () => ({}) });
    expect(cred.token).toBe(saToken);
    expect(JSON.parse(readFileSync(join(dir, 'tty.json'), 'utf8')).spec).toEqual({ interactive: true });
    const missing = await get('missing');
    expect(missing.status).toBe(502);
    expect(json(missing).message).toMatch(/no-such-plugin was not found\nInstall it with: brew install no-such-plugin/);
  });

  it('runs a legacy gcp auth-provider command without stopping the server: another context answers meanwhile', async () => {
    const pending = whoAmI('gcp');
    await waitUntil('the gcp command started', () => existsSync(join(dir, 'gcp.started')), 20_000);
    // With the command running synchronously (execSync), this request would be served only after it gave up.
    expect((await get('local-admin', '/api')).status).toBe(200);
    writeFileSync(join(dir, 'gcp.release'), '');
    expect((await pending).user).toBe(`system:serviceaccount:${ns}:plugin`);
    expect(readFileSync(join(dir, 'gcp.outcome'), 'utf8').trim()).toBe('released');
    expect((await whoAmI('gcp')).user).toBe(`system:serviceaccount:${ns}:plugin`);
    expect(runs('gcp')).toHaveLength(1);
  });

  it('remembers a failing auth-provider command instead of running it on every request', async () => {
    const first = await get('gcp-broken');
    expect(first.status).toBe(502);
    expect(reason(first)).toBe('CredentialsFailed');
    expect(json(first).message).toMatch(/ERROR: gcloud crashed/);
    expect((await get('gcp-broken')).status).toBe(502);
    expect(runs('gcp-broken')).toHaveLength(1);
  });
});

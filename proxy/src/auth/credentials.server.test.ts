// Credentials read from the kubeconfig as kubectl reads them, against the real control plane and
// the real kubectl built with it: an exec credential minted for one cluster stays with it, plugin
// output is never echoed, `tokenFile` (not `token-file`) is read, and impersonation is whole (the kubeconfig's, or the page's
// instead of it).
//
// The second cluster is the same kube-apiserver reached under another server URL (localhost
// instead of 127.0.0.1; its certificate names both): a second kube-apiserver costs too much on a
// 2-core machine, and the plugin, told the server URL in spec.cluster, mints a different identity
// for each, so the identity each context acts as (SelfSubjectReview) tells which credential it got.
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dump as stringify, load as parse } from 'js-yaml';
import { testCluster } from '../../cluster/cluster.testkit';
import { createNamespace, deleteNamespace, json, raw } from '../explorer.testkit';
import { type ExplorerServer, startExplorerServer } from '../server';

const cp = inject('controlPlane');
const cluster = testCluster(cp);
const run = promisify(execFile);
const PLANTED = 'sha256~PLANTEDplugin0utputDoNotEcho1234567890';

interface Who {
  status: number;
  userInfo?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  message?: string;
}

describe('kubeconfig credentials as kubectl uses them (real plugins, real kubectl, two server URLs)', () => {
  let dir: string;
  let file: string;
  let srv: ExplorerServer;
  let ns: string;
  let saToken = '';
  let localCluster = '';
  const logs: string[] = [];
  const seen: string[] = [];
  const runs = (name: string) => (existsSync(join(dir, `${name}.runs`)) ? readFileSync(join(dir, `${name}.runs`), 'utf8').trim().split('\n').filter(Boolean) : []);
  const script = (name: string, body: string) => {
    const f = join(dir, `${name}.sh`);
    writeFileSync(f, `#!/bin/sh\necho "$$" >> "${join(dir, `${name}.runs`)}"\n${body}\n`);
    chmodSync(f, 0o755);
    return f;
  };

  beforeAll(async () => {
    expect(cp.kubectl, 'the kubectl built with the control plane').toBeDefined();
    dir = mkdtempSync(join(tmpdir(), 'explorer-credentials-'));
    ns = await createNamespace(cluster, 'proxy-credentials');
    expect((await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'minted' } })).status).toBe(201);
    const tr = await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/minted/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
    saToken = JSON.parse(tr.body).status.token as string;
    const credential = (status: Record<string, unknown>) => JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status });
    const viewer = cluster.credentials('viewer');
    writeFileSync(join(dir, 'viewer.json'), credential({ clientCertificateData: viewer.cert, clientKeyData: viewer.key }));
    writeFileSync(join(dir, 'token.json'), credential({ token: saToken }));
    mkdirSync(join(dir, 'tokens'));
    writeFileSync(join(dir, 'tokens', 'sa'), `${saToken}\n`);

    const base = parse(readFileSync(cp.kubeconfig, 'utf8')) as { clusters: Record<string, any>[]; users: Record<string, any>[]; contexts: Record<string, any>[] };
    const local = base.clusters[0]!;
    localCluster = String(local.name);
    const admin = base.users.find((u) => u.name === 'explorer-admin')!.user as Record<string, unknown>;
    base.clusters.push({ name: 'by-name', cluster: { ...local.cluster, server: String(local.cluster.server).replace('127.0.0.1', 'localhost') } });
    const exec = (command: string, more: Record<string, unknown> = {}) => ({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command, interactiveMode: 'Never', ...more } });
    // Mints a credential for the server it is told about: the viewer's certificate for localhost, the ServiceAccount's token otherwise.
    const perCluster = `case "$KUBERNETES_EXEC_INFO" in *'"server":"https://localhost:'*) cat "${join(dir, 'viewer.json')}";; *) cat "${join(dir, 'token.json')}";; esac`;
    const users: [string, Record<string, unknown>][] = [
      ['per-cluster', exec(script('per-cluster', perCluster), { provideClusterInfo: true })],
      ['shared', exec(script('shared', `cat "${join(dir, 'token.json')}"`))],
      ['bare', exec(script('bare', `echo "${PLANTED}"`))],
      ['odd-kind', exec(script('odd-kind', `printf '{"kind":"${PLANTED}","apiVersion":"${PLANTED}"}'`))],
      ['bare-gcp', { 'auth-provider': { name: 'gcp', config: { 'cmd-path': script('bare-gcp', `echo "${PLANTED}"`), 'token-key': '{.access_token}' } } }],
      ['token-file', { tokenFile: 'tokens/sa' }],
      ['token-file-dashed', { 'token-file': join(dir, 'tokens', 'sa') }],
      ['token-and-file', { token: 'not-a-token-the-server-knows', tokenFile: 'tokens/sa' }],
      ['as-full', { ...admin, as: 'jane', 'as-uid': 'uid-42', 'as-groups': ['dev', 'ops'], 'as-user-extra': { scopes: ['view', 'edit'], 'example.com/team id': ['blue'] } }],
      ['as-groups-only', { ...admin, 'as-groups': ['system:masters'] }],
    ];
    const ctx = (name: string, c: string, user: string) => ({ name, context: { cluster: c, user, namespace: ns } });
    for (const [name, user] of users) base.users.push({ name, user });
    base.contexts.push(ctx('pc-ip', local.name, 'per-cluster'), ctx('pc-name', 'by-name', 'per-cluster'), ctx('shared-ip', local.name, 'shared'), ctx('shared-name', 'by-name', 'shared'));
    for (const [name] of users.slice(2)) base.contexts.push(ctx(name, local.name, name));
    file = join(dir, 'kubeconfig');
    writeFileSync(file, stringify(base));
    srv = await startExplorerServer({ port: 0, kubeconfigPath: file, staticDir: dir, log: (l) => logs.push(l), exec: { timeoutMs: 10_000, waitMs: Infinity, interactive: false } });
  });

  afterAll(async () => {
    await srv?.close();
    await deleteNamespace(cluster, ns);
    rmSync(dir, { recursive: true, force: true });
  });

  const headers = () => ({ 'X-Explorer-Token': srv.token, Accept: 'application/json' });
  /** SelfSubjectReview through the explorer. */
  const explorer = async (context: string, more: Record<string, string> = {}): Promise<Who> => {
    const res = await raw(srv.port, {
      method: 'POST',
      path: `/k8s/${context}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      headers: { ...headers(), 'Content-Type': 'application/json', ...more },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });
    seen.push(JSON.stringify(res.headers) + res.body.toString());
    const body = json(res);
    return res.status === 201 ? { status: 201, userInfo: body.status.userInfo } : { status: res.status, message: body.message };
  };
  /** `kubectl auth whoami` with the same kubeconfig and context. */
  const kubectl = async (context: string): Promise<Who> => {
    try {
      const p = run(cp.kubectl!, ['auth', 'whoami', '-o', 'json', '--kubeconfig', file, '--context', context], { env: { PATH: process.env.PATH ?? '', HOME: dir }, timeout: 30_000 });
      // Nothing to read: kubectl asks for a user name and password on stdin when it has no credentials.
      p.child.stdin?.end();
      const { stdout } = await p;
      return { status: 201, userInfo: JSON.parse(stdout).status.userInfo };
    } catch (e) {
      return { status: 0, message: String((e as { stderr?: string }).stderr ?? e) };
    }
  };

  it('runs a plugin that gets cluster info once per cluster, and sends each cluster its own credential, as kubectl does', async () => {
    // The 127.0.0.1 context first: the old cache (one entry per user) then served its token to localhost.
    const ip = await explorer('pc-ip');
    const byName = await explorer('pc-name');
    expect(ip.userInfo?.username).toBe(`system:serviceaccount:${ns}:minted`);
    expect(byName.userInfo?.username).toBe('explorer-viewer');
    expect(runs('per-cluster')).toHaveLength(2);
    // Served from the cache afterwards, each from its own entry.
    expect((await explorer('pc-name')).userInfo?.username).toBe('explorer-viewer');
    expect((await explorer('pc-ip')).userInfo?.username).toBe(`system:serviceaccount:${ns}:minted`);
    expect(runs('per-cluster')).toHaveLength(2);
    // The page sees one entry per cluster (never the credential).
    const status = json(await raw(srv.port, { path: '/proxy/status', headers: headers() })) as { credentials: { user: string; cluster?: string; contexts: string[] }[] };
    expect(status.credentials.filter((c) => c.user === 'per-cluster').map((c) => [c.cluster, c.contexts]).sort()).toEqual([['by-name', ['pc-name']], [localCluster, ['pc-ip']]].sort());
    expect((await kubectl('pc-ip')).userInfo?.username).toBe(ip.userInfo?.username);
    expect((await kubectl('pc-name')).userInfo?.username).toBe(byName.userInfo?.username);
  });

  it('runs a plugin without cluster info once for every cluster of its user, as client-go caches it', async () => {
    expect((await explorer('shared-ip')).userInfo?.username).toBe(`system:serviceaccount:${ns}:minted`);
    expect((await explorer('shared-name')).userInfo?.username).toBe(`system:serviceaccount:${ns}:minted`);
    expect(runs('shared')).toHaveLength(1);
  });

  it('never echoes what a plugin printed: not in the 502, /proxy/status or the log', async () => {
    for (const context of ['bare', 'odd-kind', 'bare-gcp']) {
      const who = await explorer(context);
      expect(who.status).toBe(502);
      expect(who.message).toMatch(/answered no usable (credential|token)/);
    }
    const status = await raw(srv.port, { path: '/proxy/status', headers: headers() });
    for (const text of [...seen, status.body.toString(), ...logs]) expect(text).not.toContain('PLANTED');
  });

  it('reads tokenFile relative to the kubeconfig, ignores token-file, and prefers the file to a token, as kubectl does', async () => {
    const sa = `system:serviceaccount:${ns}:minted`;
    expect((await explorer('token-file')).userInfo?.username).toBe(sa);
    expect((await explorer('token-and-file')).userInfo?.username).toBe(sa);
    const dashed = await explorer('token-file-dashed');
    expect(dashed.userInfo?.username).not.toBe(sa);
    for (const context of ['token-file', 'token-and-file', 'token-file-dashed']) {
      const [ours, theirs] = [await explorer(context), await kubectl(context)];
      expect(ours.userInfo?.username, context).toBe(theirs.userInfo?.username);
    }
  });

  it('impersonates with the user, uid, groups and extra of the kubeconfig, and refuses groups without a user as kubectl does', async () => {
    const ours = await explorer('as-full');
    const theirs = await kubectl('as-full');
    expect(ours.userInfo).toEqual({ username: 'jane', uid: 'uid-42', groups: ['dev', 'ops', 'system:authenticated'], extra: { scopes: ['view', 'edit'], 'example.com/team id': ['blue'] } });
    expect(ours.userInfo).toEqual(theirs.userInfo);
    const refused = await explorer('as-groups-only');
    const kubectlRefused = await kubectl('as-groups-only');
    expect(kubectlRefused.status).toBe(0);
    expect(kubectlRefused.message).toContain('without impersonating a user');
    expect(refused.status).toBe(502);
    expect(refused.message).toContain('requesting uid, groups or user-extra for as-groups-only without impersonating a user');
  });

  it('lets the page\'s Impersonate-* replace the context\'s impersonation as a whole, never mixed with it', async () => {
    // as-full impersonates jane with a uid, groups and extra; the page names only a user: the
    // server must see that user alone (the kubeconfig's uid, groups and extra dropped with its `as`).
    const ours = await explorer('as-full', { 'Impersonate-User': 'explorer-viewer' });
    expect(ours.userInfo).toEqual({ username: 'explorer-viewer', groups: ['system:authenticated'] });
    // Without the page's headers the context's impersonation still applies, whole.
    expect((await explorer('as-full')).userInfo?.username).toBe('jane');
  });
});

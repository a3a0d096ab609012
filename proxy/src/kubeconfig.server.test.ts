import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dump as stringify, load as parse } from 'js-yaml';
import { testCluster } from '../cluster/cluster.testkit';
import { findKubeconfig, Kubeconfig } from './kubeconfig';
import { MuxClient, createNamespace, deleteNamespace, json, raw, waitUntil } from './explorer.testkit';
import { type ExplorerServer, startExplorerServer } from './server';
import type { MuxResponse } from '../../protocol/mux';

const cluster = testCluster(inject('controlPlane'));

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'explorer-kubeconfig-'));
}

function kubeconfigFile(dir: string, name: string, doc: Record<string, unknown>): string {
  const file = join(dir, name);
  writeFileSync(file, stringify(doc));
  return file;
}

const cfg = (clusters: [string, string][], users: [string, Record<string, unknown>][], contexts: [string, string, string][], current?: string) => ({
  apiVersion: 'v1',
  kind: 'Config',
  clusters: clusters.map(([name, server]) => ({ name, cluster: { server } })),
  users: users.map(([name, user]) => ({ name, user })),
  contexts: contexts.map(([name, c, u]) => ({ name, context: { cluster: c, user: u } })),
  ...(current ? { 'current-context': current } : {}),
});

describe('findKubeconfig', () => {
  it('prefers --kubeconfig, then KUBECONFIG (missing files skipped), then ~/.kube/config, else none', () => {
    const dir = tempDir();
    try {
      const a = kubeconfigFile(dir, 'a', cfg([], [], []));
      const b = kubeconfigFile(dir, 'b', cfg([], [], []));
      expect(findKubeconfig({ path: a, env: { KUBECONFIG: b } })).toEqual([a]);
      expect(findKubeconfig({ env: { KUBECONFIG: `${join(dir, 'missing')}:${b}:${a}` } })).toEqual([b, a]);
      expect(findKubeconfig({ env: { KUBECONFIG: join(dir, 'missing') }, home: dir })).toBeNull();
      expect(findKubeconfig({ env: {}, home: dir })).toBeNull();
      const home = tempDir();
      mkdirSync(join(home, '.kube'));
      writeFileSync(join(home, '.kube', 'config'), stringify(cfg([], [], [])));
      expect(findKubeconfig({ env: {}, home })).toEqual([join(home, '.kube', 'config')]);
      rmSync(home, { recursive: true, force: true });
      expect(() => findKubeconfig({ path: join(dir, 'missing') })).toThrow(/does not exist/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('Kubeconfig', () => {
  it('merges files like kubectl: the first definition of a name and the first current-context win', () => {
    const dir = tempDir();
    try {
      const first = kubeconfigFile(dir, 'first', cfg([['c1', 'https://one.example:6443']], [['u1', { token: 'first-token' }]], [['shared', 'c1', 'u1']], 'shared'));
      const second = kubeconfigFile(
        dir,
        'second',
        cfg([['c1', 'https://two.example'], ['c2', 'https://user:pw@two.example/prefix']], [['u1', { token: 'second-token' }], ['u2', { token: 't' }]], [['shared', 'c2', 'u2'], ['only-second', 'c2', 'u2']], 'only-second'),
      );
      const kc = new Kubeconfig([first, second]);
      const list = kc.list();
      expect(list.current).toBe('shared');
      expect(list.contexts).toEqual([
        { name: 'shared', cluster: 'c1', server: 'https://one.example:6443', user: 'u1', namespace: 'default', current: true },
        { name: 'only-second', cluster: 'c2', server: 'https://two.example/prefix', user: 'u2', namespace: 'default', current: false },
      ]);
      expect(JSON.stringify(list)).not.toMatch(/token|pw/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('resolves a target with credentials, the server path prefix and a keep-alive agent', async () => {
    const dir = tempDir();
    try {
      const file = kubeconfigFile(dir, 'c', cfg([['c', 'https://host.example:8443/k8s/clusters/c-1/']], [['u', { token: 'abc' }]], [['x', 'c', 'u']], 'x'));
      const kc = new Kubeconfig([file]);
      const t = await kc.target('x');
      expect(t).toMatchObject({ context: 'x', hostname: 'host.example', port: 8443, basePath: '/k8s/clusters/c-1', secure: true, headers: { Authorization: 'Bearer abc' } });
      expect((t.agent as unknown as { keepAlive: boolean }).keepAlive).toBe(true);
      expect((await kc.target('x')).agent).toBe(t.agent);
      await expect(kc.target('nope')).rejects.toMatchObject({ code: 404, proxyCause: 'UnknownContext' });
      kc.destroy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function closedPort(): Promise<number> {
  return new Promise((ok) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

describe('contexts with other kinds of credentials and broken clusters (real API server)', () => {
  let dir: string;
  let srv: ExplorerServer;
  let ns: string;
  const tokenFile = () => join(dir, 'tokens', 'sa.token');
  let saToken = '';

  beforeAll(async () => {
    dir = tempDir();
    ns = await createNamespace(cluster, 'proxy-kubeconfig');
    expect((await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'reader' } })).status).toBe(201);
    const tr = await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/reader/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
    expect(tr.status).toBe(201);
    saToken = JSON.parse(tr.body).status.token as string;
    mkdirSync(join(dir, 'tokens'));
    writeFileSync(tokenFile(), `${saToken}\n`);

    const viewer = cluster.credentials('viewer');
    writeFileSync(join(dir, 'cred.json'), JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { clientCertificateData: viewer.cert, clientKeyData: viewer.key } }));
    writeFileSync(join(dir, 'exec-plugin.sh'), `#!/bin/sh\ncat "${join(dir, 'cred.json')}"\n`);
    writeFileSync(join(dir, 'broken-plugin.sh'), '#!/bin/sh\necho "plugin says no" >&2\nexit 1\n');
    chmodSync(join(dir, 'exec-plugin.sh'), 0o755);
    chmodSync(join(dir, 'broken-plugin.sh'), 0o755);

    const base = parse(readFileSync(cluster.kubeconfig, 'utf8')) as { clusters: Record<string, any>[]; users: Record<string, any>[]; contexts: Record<string, any>[] };
    const local = base.clusters[0]!;
    const admin = base.users.find((u) => u.name === 'explorer-admin')!;
    const execv1 = (command: string) => ({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command, interactiveMode: 'Never' } });
    base.clusters.push(
      { name: 'down', cluster: { server: `https://127.0.0.1:${await closedPort()}`, 'certificate-authority-data': local.cluster['certificate-authority-data'] } },
      { name: 'no-ca', cluster: { server: local.cluster.server } },
      { name: 'insecure', cluster: { server: local.cluster.server, 'insecure-skip-tls-verify': true } },
    );
    base.users.push(
      { name: 'exec-viewer', user: execv1('./exec-plugin.sh') },
      { name: 'exec-broken', user: execv1('./broken-plugin.sh') },
      { name: 'sa-token-file', user: { tokenFile: 'tokens/sa.token' } },
      { name: 'sa-token', user: { token: saToken } },
    );
    const ctx = (name: string, c: string, user: string) => ({ name, context: { cluster: c, user, namespace: ns } });
    base.contexts.push(
      ctx('down', 'down', 'explorer-admin'),
      ctx('no-ca', 'no-ca', 'explorer-admin'),
      ctx('insecure', 'insecure', 'explorer-admin'),
      ctx('exec', local.name, 'exec-viewer'),
      ctx('exec-broken', local.name, 'exec-broken'),
      ctx('token-file', local.name, 'sa-token-file'),
      ctx('token', local.name, 'sa-token'),
      ctx('missing-cluster', 'no-such-cluster', 'explorer-admin'),
    );
    expect(admin).toBeDefined();
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, stringify(base));
    srv = await startExplorerServer({ port: 0, kubeconfigPath: file, staticDir: dir, log: () => undefined });
  });

  afterAll(async () => {
    await srv?.close();
    await deleteNamespace(cluster, ns);
    rmSync(dir, { recursive: true, force: true });
  });

  const responses: string[] = [];
  const record = async (p: ReturnType<typeof raw>) => {
    const r = await p;
    responses.push(JSON.stringify(r.headers) + r.body.toString('latin1'));
    return r;
  };
  const get = (context: string, path: string) => record(raw(srv.port, { path: `/k8s/${encodeURIComponent(context)}${path}`, headers: { 'X-Explorer-Token': srv.token, Accept: 'application/json' } }));
  const whoAmI = async (context: string) => {
    const res = await record(raw(srv.port, {
      method: 'POST',
      path: `/k8s/${context}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      headers: { 'X-Explorer-Token': srv.token, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    }));
    return { res, user: res.status === 201 ? (json(res).status.userInfo.username as string) : undefined };
  };

  it('answers a context whose server is down with a 502 proxy Status, and keeps serving the others', async () => {
    const res = await get('down', '/api');
    expect(res.status).toBe(502);
    expect(res.headers['x-explorer-proxy-error']).toBe('1');
    expect(json(res)).toMatchObject({ kind: 'Status', code: 502, reason: 'ServiceUnavailable', details: { kind: 'proxy', name: 'down', causes: [{ reason: 'ClusterUnreachable' }] } });
    expect(json(res).message).toContain('ECONNREFUSED');
    expect((await get('local-admin', '/api')).status).toBe(200);
  });

  it('answers a down context over the mux the same way', async () => {
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    mux.send({ type: 'auth', token: srv.token });
    mux.send({ type: 'open', id: 3, context: 'down', path: '/api/v1/pods?watch=1' });
    await waitUntil('the stream ends', () => !!mux.message(3, 'end'));
    mux.ws.close();
    expect((mux.message(3, 'response') as MuxResponse).status).toBe(502);
    expect(JSON.parse(mux.body(3).toString()).details.causes[0].reason).toBe('ClusterUnreachable');
  });

  it('reports a server certificate it cannot verify as a TLS failure', async () => {
    const res = await get('no-ca', '/api');
    expect(res.status).toBe(502);
    expect(json(res).details.causes[0].reason).toBe('TLSFailure');
  });

  it('honours insecure-skip-tls-verify', async () => {
    expect((await whoAmI('insecure')).user).toBe('explorer-admin');
  });

  it('gets client certificates from an exec plugin (command relative to the kubeconfig)', async () => {
    expect((await whoAmI('exec')).user).toBe('explorer-viewer');
  });

  it('reports a failing exec plugin as a credentials failure', async () => {
    const res = await get('exec-broken', '/api');
    expect(res.status).toBe(502);
    expect(res.headers['x-explorer-proxy-error']).toBe('1');
    expect(json(res).details.causes[0].reason).toBe('CredentialsFailed');
  });

  it('uses a bearer token', async () => {
    expect((await whoAmI('token')).user).toBe(`system:serviceaccount:${ns}:reader`);
  });

  it('reads a token file relative to the kubeconfig, again on each request (rotation)', async () => {
    expect((await whoAmI('token-file')).user).toBe(`system:serviceaccount:${ns}:reader`);
    writeFileSync(tokenFile(), 'not-a-valid-token');
    const rejected = await whoAmI('token-file');
    expect(rejected.res.status).toBe(401);
    expect(rejected.res.headers['x-explorer-proxy-error']).toBeUndefined();
    writeFileSync(tokenFile(), saToken);
    expect((await whoAmI('token-file')).user).toBe(`system:serviceaccount:${ns}:reader`);
  });

  it('reports a context pointing at a missing cluster', async () => {
    const res = await get('missing-cluster', '/api');
    expect(res.status).toBe(502);
    expect(json(res).details.causes[0].reason).toBe('InvalidKubeconfig');
  });

  it('lists all contexts without any credential', async () => {
    const res = await raw(srv.port, { path: '/proxy/contexts', headers: { 'X-Explorer-Token': srv.token } });
    const text = res.body.toString();
    expect(json(res).contexts.map((c: { name: string }) => c.name)).toEqual(['local-admin', 'local-viewer', 'down', 'no-ca', 'insecure', 'exec', 'exec-broken', 'token-file', 'token', 'missing-cluster']);
    expect(text).not.toContain(saToken.slice(0, 40));
    expect(text).not.toContain('BEGIN');
    expect(text).not.toContain('exec-plugin');
  });

  it('puts no token or private key into any response, errors included', () => {
    expect(responses.length).toBeGreaterThan(8);
    const keyLines = (['admin', 'viewer'] as const).flatMap((u) => cluster.credentials(u).key.split('\n').filter((l) => l.length >= 40));
    for (const text of responses) {
      expect(text).not.toContain(saToken.slice(0, 40));
      expect(text).not.toContain('PRIVATE KEY');
      for (const line of keyLines) expect(text).not.toContain(line);
    }
  });
});

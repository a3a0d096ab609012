// Clusters behind a proxy (kubeconfig `proxy-url`) and clusters whose certificate names another
// host (`tls-server-name`), against the real API server through real proxies started here: an
// HTTP CONNECT proxy and a SOCKS5 proxy that count their tunnels and resolve the cluster's name
// themselves. The kubeconfig names the API server `kubernetes.default.svc` (in its certificate,
// not in this machine's DNS), so a request that did not go through the proxy cannot reach it.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dump as stringify, load as parse } from 'js-yaml';
import { testCluster } from '../cluster/cluster.testkit';
import { MuxClient, createNamespace, deleteNamespace, json, raw, waitUntil } from './explorer.testkit';
import { type Relay, startConnectProxy, startRelay, startSocksProxy, type TestProxy } from './network.testkit';
import { type ExplorerServer, startExplorerServer } from './server';
import type { MuxResponse } from '../../protocol/mux';

const cluster = testCluster(inject('controlPlane'));
const apiPort = Number(new URL(cluster.server).port);
/** In the serving certificate's SANs, unknown to this machine's resolver. */
const IN_CLUSTER = 'kubernetes.default.svc';
/** In neither. */
const ELSEWHERE = 'api.explorer.invalid';
const hosts = { [IN_CLUSTER]: '127.0.0.1', [ELSEWHERE]: '127.0.0.1' };

describe('proxy-url and tls-server-name (real proxies, real API server)', () => {
  let dir: string;
  let srv: ExplorerServer;
  let ns: string;
  let connect: TestProxy;
  let guarded: TestProxy;
  let socks: TestProxy;
  let relay: Relay;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'explorer-proxy-url-'));
    ns = await createNamespace(cluster, 'proxy-url');
    connect = await startConnectProxy({ hosts });
    guarded = await startConnectProxy({ hosts, auth: { user: 'ops', password: 'p@ss:word' } });
    socks = await startSocksProxy({ hosts });
    // 127.0.0.2 is loopback too, but not in the serving certificate (127.0.0.1 is).
    relay = await startRelay({ host: '127.0.0.1', port: apiPort }, 0, '127.0.0.2');

    const viewer = cluster.credentials('viewer');
    writeFileSync(join(dir, 'cred.json'), JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { clientCertificateData: viewer.cert, clientKeyData: viewer.key } }));
    writeFileSync(join(dir, 'plugin.sh'), `#!/bin/sh\ncat "${join(dir, 'cred.json')}"\n`);
    chmodSync(join(dir, 'plugin.sh'), 0o755);

    const base = parse(readFileSync(cluster.kubeconfig, 'utf8')) as { clusters: Record<string, any>[]; users: Record<string, any>[]; contexts: Record<string, any>[] };
    const ca = base.clusters[0]!.cluster['certificate-authority-data'] as string;
    const c = (name: string, server: string, more: Record<string, unknown> = {}) => base.clusters.push({ name, cluster: { server, 'certificate-authority-data': ca, ...more } });
    c('via-connect', `https://${IN_CLUSTER}:${apiPort}`, { 'proxy-url': connect.url });
    c('via-socks', `https://${IN_CLUSTER}:${apiPort}`, { 'proxy-url': socks.url });
    c('via-guarded', `https://${IN_CLUSTER}:${apiPort}`, { 'proxy-url': guarded.url });
    c('via-guarded-wrong', `https://${IN_CLUSTER}:${apiPort}`, { 'proxy-url': guarded.url.replace('p%40ss', 'nope') });
    c('elsewhere-named', `https://${ELSEWHERE}:${apiPort}`, { 'proxy-url': connect.url, 'tls-server-name': 'kubernetes' });
    c('elsewhere', `https://${ELSEWHERE}:${apiPort}`, { 'proxy-url': connect.url });
    c('ftp-proxy', `https://${IN_CLUSTER}:${apiPort}`, { 'proxy-url': 'ftp://127.0.0.1:21' });
    c('other-ip-named', `https://127.0.0.2:${relay.port}`, { 'tls-server-name': 'localhost' });
    c('other-ip', `https://127.0.0.2:${relay.port}`);
    base.users.push({ name: 'exec-viewer', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh', interactiveMode: 'Never' } } });
    for (const name of ['via-connect', 'via-socks', 'via-guarded', 'via-guarded-wrong', 'elsewhere-named', 'elsewhere', 'ftp-proxy', 'other-ip-named', 'other-ip']) {
      base.contexts.push({ name, context: { cluster: name, user: 'explorer-admin', namespace: ns } });
    }
    base.contexts.push({ name: 'exec-via-connect', context: { cluster: 'via-connect', user: 'exec-viewer', namespace: ns } });
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, stringify(base));
    srv = await startExplorerServer({ port: 0, kubeconfigPath: file, staticDir: dir, log: () => undefined });
  });

  afterAll(async () => {
    await srv?.close();
    await Promise.all([connect?.close(), guarded?.close(), socks?.close(), relay?.close()]);
    await deleteNamespace(cluster, ns);
    rmSync(dir, { recursive: true, force: true });
  });

  const k8s = (context: string, path: string, method = 'GET', body?: unknown, contentType = 'application/json') =>
    raw(srv.port, {
      method,
      path: `/k8s/${context}${path}`,
      headers: { 'X-Explorer-Token': srv.token, Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': contentType } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  const cause = (r: Awaited<ReturnType<typeof raw>>) => json(r).details?.causes?.[0]?.reason as string | undefined;

  it('the cluster name used here cannot be reached without the proxy', async () => {
    await expect(lookup(IN_CLUSTER)).rejects.toThrow();
    await expect(lookup(ELSEWHERE)).rejects.toThrow();
  });

  it('reads, lists and writes through an HTTP CONNECT proxy, every tunnel to the kubeconfig server', async () => {
    const before = connect.tunnels();
    const api = await k8s('via-connect', '/api');
    expect(api.status).toBe(200);
    expect(json(api).kind).toBe('APIVersions');
    const created = await k8s('via-connect', `/api/v1/namespaces/${ns}/configmaps`, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'through-proxy' }, data: { a: '1' } });
    expect(created.status).toBe(201);
    const patched = await k8s('via-connect', `/api/v1/namespaces/${ns}/configmaps/through-proxy`, 'PATCH', { data: { b: '2' } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    expect(json(patched).data).toEqual({ a: '1', b: '2' });
    const list = await k8s('via-connect', `/api/v1/namespaces/${ns}/configmaps`);
    expect(json(list).items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain('through-proxy');
    expect(connect.tunnels()).toBeGreaterThan(before);
    // Every tunnel asked for names the API server as the kubeconfig does (the proxy resolves it).
    expect(connect.targets().every((t) => t === `${IN_CLUSTER}:${apiPort}` || t === `${ELSEWHERE}:${apiPort}`)).toBe(true);
    expect(connect.plainRequests()).toBe(0);
  });

  it('keeps tunnels alive: ten reads one after another open at most one new tunnel', async () => {
    expect((await k8s('via-connect', '/version')).status).toBe(200);
    const before = connect.tunnels();
    for (let i = 0; i < 10; i++) expect((await k8s('via-connect', `/api/v1/namespaces/${ns}/configmaps?limit=1&i=${i}`)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await k8s('via-connect', `/api/v1/namespaces/${ns}/configmaps`, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'keep-' } }, 'application/json')).status).toBe(201);
    expect(connect.tunnels() - before).toBeLessThanOrEqual(2);
  });

  it('watches through the proxy over HTTP and over the mux', async () => {
    const before = connect.tunnels();
    const list = json(await k8s('via-connect', `/api/v1/namespaces/${ns}/configmaps`));
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    mux.send({ type: 'auth', token: srv.token });
    mux.send({ type: 'open', id: 1, context: 'via-connect', path: `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}` });
    await waitUntil('the mux watch is open', () => !!mux.message(1, 'response'));
    expect((mux.message(1, 'response') as MuxResponse).status).toBe(200);
    expect((await k8s('via-connect', `/api/v1/namespaces/${ns}/configmaps`, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' } })).status).toBe(201);
    await waitUntil('the mux watch saw the new ConfigMap', () => mux.body(1).toString().includes('"name":"watched"'));
    mux.ws.close();
    // A watch over plain HTTP: its first event (the object just made, from the list's RV) comes through the tunnel.
    const watch = await new Promise<string>((ok, fail) => {
      void import('node:http').then(({ request }) => {
        const req = request({ host: '127.0.0.1', port: srv.port, path: `/k8s/via-connect/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${list.metadata.resourceVersion}`, headers: { 'X-Explorer-Token': srv.token, Host: `127.0.0.1:${srv.port}` } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
            if (text.includes('"name":"watched"')) {
              req.destroy();
              ok(text);
            }
          });
        });
        req.on('error', fail);
        req.end();
      });
    });
    expect(watch).toContain('"type":"ADDED"');
    expect(connect.tunnels()).toBeGreaterThan(before);
  });

  it('gets an exec plugin\'s client certificate through the proxy, for reads and writes', async () => {
    const review = await k8s('exec-via-connect', '/apis/authentication.k8s.io/v1/selfsubjectreviews', 'POST', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    expect(review.status).toBe(201);
    expect(json(review).status.userInfo.username).toBe('explorer-viewer');
    expect((await k8s('exec-via-connect', `/api/v1/namespaces/${ns}/configmaps`)).status).toBe(200);
  });

  it('goes through a SOCKS5 proxy (the name resolved by the proxy), reads, writes and mux watches', async () => {
    expect((await k8s('via-socks', '/api')).status).toBe(200);
    expect((await k8s('via-socks', `/api/v1/namespaces/${ns}/configmaps`, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'by-socks' } })).status).toBe(201);
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    mux.send({ type: 'auth', token: srv.token });
    mux.send({ type: 'open', id: 2, context: 'via-socks', path: `/api/v1/namespaces/${ns}/configmaps?watch=1&fieldSelector=metadata.name%3Dby-socks` });
    await waitUntil('the socks watch sends the ConfigMap', () => mux.body(2).toString().includes('"name":"by-socks"'));
    mux.ws.close();
    expect(socks.tunnels()).toBeGreaterThan(0);
    expect(socks.targets().every((t) => t === `${IN_CLUSTER}:${apiPort}`)).toBe(true);
  });

  it('sends the proxy-url\'s credentials to the proxy, and says so when the proxy refuses them', async () => {
    expect((await k8s('via-guarded', '/api')).status).toBe(200);
    expect(guarded.tunnels()).toBeGreaterThan(0);
    const refused = await k8s('via-guarded-wrong', '/api');
    expect(refused.status).toBe(502);
    expect(refused.headers['x-explorer-proxy-error']).toBe('1');
    expect(cause(refused)).toBe('ProxyRefused');
    expect(json(refused).message).toContain('407');
    // The password is never in a message.
    expect(refused.body.toString()).not.toContain('nope');
    expect(refused.body.toString()).not.toContain('p@ss');
  });

  it('checks the server certificate against tls-server-name, through a proxy and directly', async () => {
    // Through the proxy: the server is named api.explorer.invalid, its certificate says kubernetes.
    const named = await k8s('elsewhere-named', '/api');
    expect(named.status).toBe(200);
    expect((await k8s('elsewhere-named', `/api/v1/namespaces/${ns}/configmaps`, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'by-name' } })).status).toBe(201);
    const unnamed = await k8s('elsewhere', '/api');
    expect(unnamed.status).toBe(502);
    expect(cause(unnamed)).toBe('TLSFailure');
    expect(json(unnamed).message).toMatch(/api\.explorer\.invalid/);
    // Directly: 127.0.0.2 is not in the certificate; tls-server-name names a host that is.
    expect((await k8s('other-ip-named', '/api')).status).toBe(200);
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    mux.send({ type: 'auth', token: srv.token });
    mux.send({ type: 'open', id: 3, context: 'other-ip-named', path: `/api/v1/namespaces/${ns}/configmaps?watch=1&fieldSelector=metadata.name%3Dby-name` });
    await waitUntil('the watch through tls-server-name sends the ConfigMap', () => mux.body(3).toString().includes('"name":"by-name"'));
    mux.ws.close();
    const wrongIp = await k8s('other-ip', '/api');
    expect(wrongIp.status).toBe(502);
    expect(cause(wrongIp)).toBe('TLSFailure');
    expect(json(wrongIp).message).toContain('127.0.0.2');
  });

  it('refuses a proxy-url scheme kubectl refuses, with kubectl\'s words', async () => {
    const res = await k8s('ftp-proxy', '/api');
    expect(res.status).toBe(502);
    expect(cause(res)).toBe('InvalidKubeconfig');
    expect(json(res).message).toContain('unsupported scheme "ftp", must be http, https, or socks5');
  });
});

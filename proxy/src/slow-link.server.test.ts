// Round trips the proxy saves on a slow link, against the real API server through a real TCP
// relay that holds every chunk 100 ms each way: connections opened as the page loads (so that TCP
// and TLS overlap with the page's start), and a write that starts on a connection the reads left
// open instead of a new TCP and TLS handshake. The relay counts the connections it accepted.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dump as stringify, load as parse } from 'js-yaml';
import { testCluster } from '../cluster/cluster.testkit';
import { createNamespace, deleteNamespace, json, raw, waitUntil } from './explorer.testkit';
import { type Relay, startRelay } from './network.testkit';
import { type ExplorerServer, startExplorerServer } from './server';

const cluster = testCluster(inject('controlPlane'));
const api = new URL(cluster.server);

describe('a slow link (a relay adding 100 ms each way)', () => {
  let dir: string;
  let relay: Relay;
  let srv: ExplorerServer;
  let ns: string;
  const ran = () => join(dir, 'plugin-ran');

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'explorer-slow-link-'));
    ns = await createNamespace(cluster, 'slow-link');
    relay = await startRelay({ host: api.hostname, port: Number(api.port) }, 100);
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>explorer</title>');
    const viewer = cluster.credentials('viewer');
    writeFileSync(join(dir, 'cred.json'), JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { clientCertificateData: viewer.cert, clientKeyData: viewer.key } }));
    writeFileSync(join(dir, 'plugin.sh'), `#!/bin/sh\ntouch "${ran()}"\ncat "${join(dir, 'cred.json')}"\n`);
    chmodSync(join(dir, 'plugin.sh'), 0o755);
    const base = parse(readFileSync(cluster.kubeconfig, 'utf8')) as { clusters: Record<string, any>[]; users: Record<string, any>[]; contexts: Record<string, any>[] };
    for (const c of base.clusters) c.cluster.server = `https://${api.hostname}:${relay.port}`;
    base.users.push({ name: 'exec-viewer', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh', interactiveMode: 'Never' } } });
    base.contexts.push({ name: 'exec', context: { cluster: base.clusters[0]!.name, user: 'exec-viewer' } });
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, stringify(base));
    srv = await startExplorerServer({ port: 0, kubeconfigPath: file, staticDir: dir, log: () => undefined });
  });

  afterAll(async () => {
    await srv?.close();
    await relay?.close();
    await deleteNamespace(cluster, ns);
    rmSync(dir, { recursive: true, force: true });
  });

  const page = (query: string) => raw(srv.port, { path: `/${query}` });
  const k8s = (path: string, method = 'GET', body?: unknown) =>
    raw(srv.port, {
      method,
      path: `/k8s/local-admin${path}`,
      headers: { 'X-Explorer-Token': srv.token, Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });

  it('opens connections to the page\'s context as the page loads, before any API request; never runs a credential plugin for that', async () => {
    expect((await page('?context=exec&view=discovery')).status).toBe(200);
    expect(relay.connections()).toBe(0);
    expect((await page('?context=local-admin&view=discovery')).status).toBe(200);
    await waitUntil('the relay accepted the connections opened for the page', () => relay.connections() >= 4);
    expect(existsSync(ran())).toBe(false);
    // The page's first requests then find them (no new connection for one of them).
    const opened = relay.connections();
    const [core, apis] = await Promise.all([k8s('/api'), k8s('/apis')]);
    expect([core.status, apis.status]).toEqual([200, 200]);
    expect(relay.connections()).toBe(opened);
  });

  it('starts a write on a connection the reads left open: no new connection for the save', async () => {
    // Made directly: this explorer has sent no write yet (its writes' client holds no connection).
    const made = await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'edited' }, data: { a: '1' } });
    expect(made.status).toBe(201);
    // As the editor does: the object is read, then saved.
    expect((await k8s(`/api/v1/namespaces/${ns}/configmaps/edited`)).status).toBe(200);
    const before = relay.connections();
    const saved = await k8s(`/api/v1/namespaces/${ns}/configmaps/edited`, 'PATCH', { data: { a: '2' } });
    expect(saved.status).toBe(200);
    expect(json(saved).data).toEqual({ a: '2' });
    expect(relay.connections()).toBe(before);
    // Reads go on working beside the write's connection, and a second write reuses it.
    expect(json(await k8s(`/api/v1/namespaces/${ns}/configmaps/edited`)).data).toEqual({ a: '2' });
    expect((await k8s(`/api/v1/namespaces/${ns}/configmaps`, 'POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'second' } })).status).toBe(201);
  });
});

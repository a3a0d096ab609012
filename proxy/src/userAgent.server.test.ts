// The User-Agent the API server sees through the proxy, against the real local control plane:
// kube-apiserver pretty-prints JSON for a browser's User-Agent and names a write's field manager
// after it, so the proxy sends the explorer's own whatever the browser sent (HTTP and mux alike),
// and the one the page asks for on purpose (X-Explorer-User-Agent) when it asks.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from '../cluster/cluster.testkit';
import type { MuxResponse } from '../../protocol/mux';
import { explorerUserAgent } from './headers';
import { type ExplorerServer, startExplorerServer } from './server';
import { MuxClient, createNamespace, deleteNamespace, direct, json, raw, uniqueName, waitUntil } from './explorer.testkit';

const cluster = testCluster(inject('controlPlane'));
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
let srv: ExplorerServer;
let staticDir: string;
let ns: string;
let cm: string;

const viaProxy = (r: Parameters<typeof raw>[1]) => raw(srv.port, { ...r, headers: { 'X-Explorer-Token': srv.token, ...r.headers } });

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'explorer-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><meta name="explorer-token" content="__EXPLORER_TOKEN__" />');
  srv = await startExplorerServer({ port: 0, kubeconfigPath: cluster.kubeconfig, staticDir, log: () => undefined });
  ns = await createNamespace(cluster, 'user-agent');
  cm = uniqueName('ua');
  await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: cm }, data: { a: '1', b: 'two' } });
});

afterAll(async () => {
  await srv?.close();
  await deleteNamespace(cluster, ns);
  rmSync(staticDir, { recursive: true, force: true });
});

describe('the User-Agent the API server sees through the proxy', () => {
  it('is the explorer’s for a browser’s GET: the JSON is the bytes a non-browser client gets, not pretty-printed', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps/${cm}`;
    const [viaP, viaD, pretty] = await Promise.all([
      viaProxy({ path: `/k8s/local-admin${path}`, headers: { Accept: 'application/json', 'User-Agent': CHROME } }),
      // Node's http client sends no User-Agent: what any program (client-go, kubectl) gets.
      direct(cluster, 'admin', { path, headers: { Accept: 'application/json' } }),
      direct(cluster, 'admin', { path, headers: { Accept: 'application/json', 'User-Agent': CHROME } }),
    ]);
    expect(viaP.status).toBe(200);
    expect(viaP.body.length).toBe(viaD.body.length);
    expect(viaP.body.toString()).not.toContain('\n  ');
    // The server's behaviour this guards against, seen directly: a browser gets indented JSON.
    expect(pretty.body.toString()).toContain('\n  ');
    expect(pretty.body.length).toBeGreaterThan(viaD.body.length);
  });

  it('names the field manager of a write without fieldManager after the explorer, not “Mozilla”', async () => {
    const name = uniqueName('ua-write');
    const res = await viaProxy({
      method: 'POST',
      path: `/k8s/local-admin/api/v1/namespaces/${ns}/configmaps`,
      headers: { 'Content-Type': 'application/json', 'User-Agent': CHROME },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }),
    });
    expect(res.status).toBe(201);
    // kube-apiserver takes the User-Agent up to its first '/' as the manager of an unnamed write.
    expect(json(res).metadata.managedFields.map((f: { manager: string }) => f.manager)).toEqual(['kube-api-explorer']);
    expect(explorerUserAgent().split('/')[0]).toBe('kube-api-explorer');
  });

  it('is the one the page asks for in X-Explorer-User-Agent, on purpose', async () => {
    const name = uniqueName('ua-asked');
    const res = await viaProxy({
      method: 'POST',
      path: `/k8s/local-admin/api/v1/namespaces/${ns}/configmaps`,
      headers: { 'Content-Type': 'application/json', 'X-Explorer-User-Agent': 'curl/8.5.0' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } }),
    });
    expect(res.status).toBe(201);
    expect(res.body.toString()).toContain('\n  ');
    expect(json(res).metadata.managedFields.map((f: { manager: string }) => f.manager)).toEqual(['curl']);
  });

  it('is named by /proxy/contexts, for the page to show in the exchange and the HAR', async () => {
    const res = await viaProxy({ path: '/proxy/contexts' });
    expect(json(res).userAgent).toBe(explorerUserAgent());
  });

  it('is the explorer’s over the mux too, whatever the open message’s headers say', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps/${cm}`;
    const viaD = await direct(cluster, 'admin', { path, headers: { Accept: 'application/json' } });
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    try {
      mux.send({ type: 'auth', token: srv.token });
      mux.send({ type: 'open', id: 1, context: 'local-admin', path, headers: { Accept: 'application/json', 'User-Agent': CHROME } });
      mux.send({ type: 'open', id: 2, context: 'local-admin', path, headers: { Accept: 'application/json', 'X-Explorer-User-Agent': 'Wget/1.21' } });
      await waitUntil('both streams end', () => !!mux.message(1, 'end') && !!mux.message(2, 'end'));
      expect((mux.message(1, 'response') as MuxResponse).status).toBe(200);
      expect(mux.body(1).equals(viaD.body)).toBe(true);
      expect(mux.body(2).toString()).toContain('\n  ');
    } finally {
      mux.ws.close();
    }
  });
});

// For tests: an explorer server whose context authenticates with a real exec credential plugin, for
// recorded sessions with credentials to look for (record.server.test.ts, console/planted.server.test.ts).
// Not in testing.ts: e2e specs import that one, and this one needs vitest and the page's client.
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { WebSocket } from 'ws';
import type { TestCluster } from '../../../proxy/cluster/cluster.testkit';
import { type ExplorerServer, startExplorerServer } from '../../../proxy/src/server';
import { fromYaml } from '../../codecs/yaml';
import { configureProxy, MuxClient, type WebSocketConstructor } from '../client';

/** An explorer server whose context `exec` authenticates with a real exec credential plugin. */
export interface ExecExplorer {
  srv: ExplorerServer;
  mux: MuxClient;
  /** The token the plugin prints: a cluster-admin service account's in the namespace. */
  execToken: string;
  /** The folder of the plugin scripts and the kubeconfig. */
  dir: string;
  close(): Promise<void>;
}

export interface ExecExplorerOptions {
  log: (line: string) => void;
  /** More plugin scripts (name → body, given the folder), users and contexts for the kubeconfig. */
  scripts?: Record<string, (dir: string) => string>;
  users?: unknown[];
  contexts?: unknown[];
}

/**
 * Creates namespace `ns` with a cluster-admin service account, and starts an explorer server on a
 * kubeconfig whose context `exec` (namespace `ns`) gets that account's token from a plugin script
 * printing an ExecCredential; the page's proxy client and a mux client point at it.
 */
export async function startExecExplorer(c: TestCluster, ns: string, opts: ExecExplorerOptions): Promise<ExecExplorer> {
  const binding = `${ns}-admin`;
  expect((await c.request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  expect((await c.request('admin', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'exec' } })).status).toBe(201);
  const rb = { metadata: { name: binding }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ kind: 'ServiceAccount', name: 'exec', namespace: ns }] };
  expect((await c.request('admin', 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', rb)).status).toBe(201);
  const tr = await c.request('admin', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/exec/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
  const execToken = (JSON.parse(tr.body) as { status: { token: string } }).status.token;
  const dir = mkdtempSync(join(tmpdir(), 'exec-explorer-'));
  writeFileSync(join(dir, 'cred.json'), JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: execToken } }));
  const scripts: Record<string, (d: string) => string> = { 'plugin.sh': (d) => `cat "${join(d, 'cred.json')}"`, ...opts.scripts };
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(dir, name), `#!/bin/sh\n${body(dir)}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  const base = fromYaml(readFileSync(c.kubeconfig, 'utf8')) as { clusters: { name: string }[] };
  const kubeconfig = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: base.clusters,
    users: [{ name: 'exec', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh', interactiveMode: 'Never' } } }, ...(opts.users ?? [])],
    contexts: [{ name: 'exec', context: { cluster: base.clusters[0]!.name, user: 'exec', namespace: ns } }, ...(opts.contexts ?? [])],
    'current-context': 'exec',
  };
  writeFileSync(join(dir, 'kubeconfig'), JSON.stringify(kubeconfig));
  const srv = await startExplorerServer({ port: 0, kubeconfigPath: join(dir, 'kubeconfig'), staticDir: dir, log: opts.log });
  configureProxy({ origin: srv.url, token: srv.token });
  const mux = new MuxClient({ url: new URL('/proxy/mux', srv.url.replace(/^http/, 'ws')).toString(), token: () => srv.token, WebSocket: WebSocket as unknown as WebSocketConstructor });
  return {
    srv,
    mux,
    execToken,
    dir,
    close: async () => {
      mux.close();
      await srv.close();
      rmSync(dir, { recursive: true, force: true });
      await c.request('admin', 'DELETE', `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${binding}`);
      await c.request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
    },
  };
}

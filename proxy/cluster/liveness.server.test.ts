// A component that stops answering without exiting, on a control plane of this file's own (its etcd
// and kube-apiserver are stopped with SIGSTOP on purpose): the supervisor reports it, and
// kube-apiserver's /readyz, read through the explorer, names the failed check while the server
// still answers (what the page's indicator shows instead of "connected").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlPlane, startControlPlane } from './controlplane';
import type { SupervisorEvent } from './supervisor';
import { type ExplorerServer, startExplorerServer } from '../src/server';
import { json, raw, waitUntil } from '../src/explorer.testkit';
import type { ExplorerStatus } from '../../protocol/status';

let cp: ControlPlane;
let srv: ExplorerServer;
let dir: string;
const events: SupervisorEvent[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kube-explorer-liveness-'));
  cp = await startControlPlane({ dir, controllerManager: false, aggregatedApi: false, log: () => undefined, supervision: { livenessIntervalMs: 500 } });
  cp.onEvent((e) => events.push(e));
  srv = await startExplorerServer({ port: 0, kubeconfigPath: cp.kubeconfig, staticDir: dir, log: () => undefined, controlPlane: cp });
}, 240_000);

afterAll(async () => {
  await srv?.close();
  await cp?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string) => raw(srv.port, { path: `/k8s/local-admin${path}`, headers: { 'X-Explorer-Token': srv.token } });
const status = async () => json(await raw(srv.port, { path: '/proxy/status', headers: { 'X-Explorer-Token': srv.token } })) as ExplorerStatus;
const stateOf = async (name: string) => (await status()).controlPlane!.components.find((c) => c.name === name)!.state;

describe('a component that stops answering', () => {
  it('etcd stopped: the supervisor reports it, and /readyz through the explorer names "etcd" while the server answers', async () => {
    expect((await get('/readyz?verbose')).status).toBe(200);
    const pid = cp.signal('etcd', 'SIGSTOP')!;
    try {
      await waitUntil('the explorer reports etcd unresponsive', async () => (await stateOf('etcd')) === 'unresponsive', 30_000);
      expect(events.find((e) => e.component === 'etcd' && e.type === 'unresponsive')?.message).toBe(`etcd (pid ${pid}) is stopped (SIGSTOP or a debugger): its process is there but does not run until it gets SIGCONT`);
      // kube-apiserver answers, and says what it cannot do.
      await waitUntil('/readyz fails on etcd', async () => {
        const r = await get('/readyz?verbose');
        return r.status === 500 && r.body.toString().includes('[-]etcd failed');
      }, 60_000);
      expect((await get('/livez/ping')).status).toBe(200);
      expect(await stateOf('kube-apiserver')).toBe('running');
    } finally {
      cp.signal('etcd', 'SIGCONT');
    }
    await waitUntil('etcd answers again', async () => (await stateOf('etcd')) === 'running', 30_000);
    await waitUntil('/readyz passes again', async () => (await get('/readyz')).status === 200, 60_000);
    expect(events.filter((e) => e.component === 'etcd').map((e) => e.type)).toEqual(['unresponsive', 'answering']);
  });

  it('kube-apiserver stopped: reported as unresponsive, not restarted, and running again once continued', async () => {
    const restarts = cp.status().components.find((c) => c.name === 'kube-apiserver')!.restarts;
    cp.signal('kube-apiserver', 'SIGSTOP');
    try {
      await waitUntil('kube-apiserver reported unresponsive', () => cp.status().components.find((c) => c.name === 'kube-apiserver')!.state === 'unresponsive', 30_000);
    } finally {
      cp.signal('kube-apiserver', 'SIGCONT');
    }
    await waitUntil('kube-apiserver answers again', async () => (await stateOf('kube-apiserver')) === 'running', 30_000);
    expect(cp.status().components.find((c) => c.name === 'kube-apiserver')!.restarts).toBe(restarts);
  });
});

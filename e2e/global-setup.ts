// Playwright global setup: a real local control plane and the explorer server in front of it,
// both on loopback, for the whole run. Workers learn the addresses from environment variables
// (set here, before the workers start) and use e2e/fixtures.ts.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startControlPlane } from '../proxy/cluster/controlplane';
import { startExplorerServer } from '../proxy/src/server';

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync('/usr/bin/chromium')) {
    throw new Error("end-to-end tests drive Debian's chromium at /usr/bin/chromium: install it with `apt-get install -y chromium` (bash .ci/run does)");
  }
  const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-e2e-'));
  // KUBE_EXPLORER_KUBERNETES picks another release (the skew suite sets it; see versions.ts).
  const cp = await startControlPlane({ dir, kubernetesVersion: process.env.KUBE_EXPLORER_KUBERNETES || undefined });
  let explorer = await startExplorerServer({ port: 0, kubeconfigPath: cp.kubeconfig, staticDir: 'dist', auditLogs: [{ server: cp.server, path: cp.auditLog }], log: () => {} });

  // A loopback control endpoint for what only this process can do: restart kube-apiserver
  // (to drop every open watch, as a real outage would), kill it (an outage the spec writes
  // through), stop it for a set time (an outage of known length), freeze and thaw it (SIGSTOP,
  // SIGCONT; etcd too), restart the explorer server (same port, new token).
  const control = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/kill-apiserver') {
      // With a supervised control plane, SIGKILL and let the supervisor restart it; without one,
      // stop and start it. Either way answer at once: the spec writes during the outage.
      const supervised = cp as { signal?: (component: 'kube-apiserver', signal: NodeJS.Signals) => unknown };
      if (typeof supervised.signal === 'function') supervised.signal('kube-apiserver', 'SIGKILL');
      else void cp.restartApiServer().catch(() => {});
      res.end('ok');
      return;
    }
    const sig = req.method === 'POST' ? /^\/signal-apiserver\?signal=(SIGSTOP|SIGCONT)$/.exec(req.url ?? '') : null;
    if (sig) {
      // Freezes (SIGSTOP) or thaws (SIGCONT) this run's own kube-apiserver: a frozen server
      // accepts connections (the kernel does) and answers nothing.
      const pid = cp.signal('kube-apiserver', sig[1] as NodeJS.Signals);
      res.statusCode = pid === undefined ? 409 : 200;
      res.end(String(pid ?? 'not running'));
      return;
    }
    const outage = req.method === 'POST' ? /^\/apiserver-outage\?ms=(\d+)$/.exec(req.url ?? '') : null;
    if (outage) {
      // kube-apiserver stopped for that long (connections refused), then started again; answered
      // at once, so that the spec acts during the outage.
      void cp.restartApiServer({ downMs: Number(outage[1]) }).catch(() => {});
      res.end('ok');
      return;
    }
    // A component stopped or continued (SIGSTOP/SIGCONT of this run's own etcd, kube-apiserver or aggregated API server).
    const componentSignal = req.method === 'POST' ? /^\/signal\?component=(etcd|kube-apiserver|sample-apiserver)&signal=(SIGSTOP|SIGCONT)$/.exec(req.url ?? '') : null;
    if (componentSignal) {
      const pid = cp.signal(componentSignal[1] as 'etcd' | 'kube-apiserver' | 'sample-apiserver', componentSignal[2] as NodeJS.Signals);
      res.statusCode = pid ? 200 : 409;
      res.end(String(pid ?? 'no such process'));
      return;
    }
    if (req.method === 'POST' && req.url === '/restart-explorer') {
      const port = explorer.port;
      explorer.close().then(
        async () => {
          // A moment of outage, as a real restart has.
          await new Promise((r) => setTimeout(r, 1000));
          explorer = await startExplorerServer({ port, kubeconfigPath: cp.kubeconfig, staticDir: 'dist', auditLogs: [{ server: cp.server, path: cp.auditLog }], log: () => {} });
          res.end(explorer.token);
        },
        (e: unknown) => {
          res.statusCode = 500;
          res.end(String(e));
        },
      );
      return;
    }
    if (req.method === 'POST' && req.url === '/restart-apiserver') {
      cp.restartApiServer().then(
        () => res.end('ok'),
        (e: unknown) => {
          res.statusCode = 500;
          res.end(String(e));
        },
      );
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => control.listen(0, '127.0.0.1', r));
  const addr = control.address();
  const controlPort = typeof addr === 'object' && addr ? addr.port : 0;

  process.env.EXPLORER_URL = explorer.url;
  process.env.KUBE_TEST_DIR = cp.dir;
  process.env.KUBE_TEST_SERVER = cp.server;
  process.env.KUBE_TEST_ETCD = cp.etcdUrl;
  process.env.KUBE_TEST_KUBECONFIG = cp.kubeconfig;
  process.env.KUBE_TEST_VERSION = cp.kubernetesVersion;
  process.env.KUBE_TEST_KUBECTL = cp.binaries.kubectl;
  process.env.KUBE_TEST_CONTROL = `http://127.0.0.1:${controlPort}`;

  return async () => {
    control.close();
    await explorer.close();
    await cp.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

// Fixtures for end-to-end specs: the explorer's URL, direct access to the real API server
// (admin or viewer client certificates) for setup and checks, and a fresh namespace per test.
import { test as base, expect } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { testCluster, type TestCluster } from '../proxy/cluster/cluster.testkit';
import { KUBERNETES_VERSION } from '../proxy/cluster/versions';

export interface E2EFixtures {
  /** Base URL of the explorer server (serves the SPA and the proxy). */
  explorerUrl: string;
  /** The real local control plane, reached directly (not through the proxy). */
  kube: TestCluster & {
    restartApiServer(): Promise<void>;
    /** Kills kube-apiserver and returns at once; it comes back (supervised restart, or a start) on its own. */
    killApiServer(): Promise<void>;
    /** True when kube-apiserver answers /readyz with 200; false when it is not ready or not there. */
    apiServerReady(): Promise<boolean>;
    /** Stops kube-apiserver for `ms` (connections refused) and returns at once; it starts again on its own. */
    apiServerOutage(ms: number): Promise<void>;
    /** Restarts the explorer server on the same port; resolves with its new token. */
    restartExplorer(): Promise<string>;
    /** Sends kube-apiserver SIGSTOP (frozen: connections accepted, nothing answered) or SIGCONT. */
    signalApiServer(signal: 'SIGSTOP' | 'SIGCONT'): Promise<void>;
  };
  /** A namespace created for this test and deleted after it. */
  ns: string;
}

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the specs with playwright.config.ts (its global setup starts the control plane)`);
  return v;
}

export const test = base.extend<E2EFixtures>({
  // eslint-disable-next-line no-empty-pattern -- Playwright fixtures take their dependencies as a destructured first argument
  explorerUrl: async ({}, use) => {
    await use(env('EXPLORER_URL'));
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  kube: async ({}, use) => {
    const cluster = testCluster({ dir: env('KUBE_TEST_DIR'), server: env('KUBE_TEST_SERVER'), etcdUrl: env('KUBE_TEST_ETCD'), kubeconfig: env('KUBE_TEST_KUBECONFIG'), kubernetesVersion: process.env.KUBE_TEST_VERSION ?? KUBERNETES_VERSION });
    await use({
      ...cluster,
      async restartApiServer() {
        const r = await fetch(`${env('KUBE_TEST_CONTROL')}/restart-apiserver`, { method: 'POST' });
        if (!r.ok) throw new Error(`restart-apiserver: ${r.status} ${await r.text()}`);
      },
      async killApiServer() {
        const r = await fetch(`${env('KUBE_TEST_CONTROL')}/kill-apiserver`, { method: 'POST' });
        if (!r.ok) throw new Error(`kill-apiserver: ${r.status} ${await r.text()}`);
      },
      async apiServerReady() {
        try {
          return (await cluster.request('admin', 'GET', '/readyz')).status === 200;
        } catch {
          return false;
        }
      },
      async apiServerOutage(ms: number) {
        const r = await fetch(`${env('KUBE_TEST_CONTROL')}/apiserver-outage?ms=${Math.round(ms)}`, { method: 'POST' });
        if (!r.ok) throw new Error(`apiserver-outage: ${r.status} ${await r.text()}`);
      },
      async restartExplorer() {
        const r = await fetch(`${env('KUBE_TEST_CONTROL')}/restart-explorer`, { method: 'POST' });
        if (!r.ok) throw new Error(`restart-explorer: ${r.status} ${await r.text()}`);
        return r.text();
      },
      async signalApiServer(signal: 'SIGSTOP' | 'SIGCONT') {
        const r = await fetch(`${env('KUBE_TEST_CONTROL')}/signal-apiserver?signal=${signal}`, { method: 'POST' });
        if (!r.ok) throw new Error(`signal-apiserver ${signal}: ${r.status} ${await r.text()}`);
      },
    });
  },
  ns: async ({ kube }, use, testInfo) => {
    const name = `e2e-${testInfo.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 30).replace(/-+$/, '')}-${randomBytes(3).toString('hex')}`;
    const r = await kube.request('admin', 'POST', '/api/v1/namespaces', { metadata: { name } });
    if (r.status !== 201) throw new Error(`creating namespace ${name}: ${r.status} ${r.body}`);
    await use(name);
    await kube.request('admin', 'DELETE', `/api/v1/namespaces/${name}`);
  },
});

export { expect };

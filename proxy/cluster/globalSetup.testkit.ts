// Vitest global setup: one real control plane for the whole unit/integration run, in a temp folder.
// Tests reach it with inject('controlPlane') (see ./testing.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { type ControlPlane, startControlPlane } from './controlplane';

export interface InjectedControlPlane {
  dir: string;
  kubeconfig: string;
  server: string;
  etcdUrl: string;
  kubernetesVersion: string;
  /** The audit log kube-apiserver writes (audit.ts). */
  auditLog?: string;
  /** The kubectl built with this control plane (absent when KUBEBUILDER_ASSETS has none): differential tests compare with it. */
  kubectl?: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    controlPlane: InjectedControlPlane;
    /** The explorer server (proxy) in front of it, for tests of the SPA's client code. */
    explorer: { url: string; token: string };
  }
}

let cp: ControlPlane | undefined;
let explorer: { close(): Promise<void> } | undefined;
let staticDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-vitest-'));
  // KUBE_EXPLORER_KUBERNETES picks another release (versions.ts), e.g. to run the server tests against the older one.
  cp = await startControlPlane({ dir, kubernetesVersion: process.env.KUBE_EXPLORER_KUBERNETES || undefined });
  project.provide('controlPlane', { dir, kubeconfig: cp.kubeconfig, server: cp.server, etcdUrl: cp.etcdUrl, kubernetesVersion: cp.kubernetesVersion, auditLog: cp.auditLog, kubectl: cp.binaries.kubectl });
  // Imported lazily so that the control plane's own tests do not depend on the proxy's code.
  const { startExplorerServer } = await import('../src/server');
  // staticDir: unit tests never load the page, so no build is needed; an empty folder will do.
  staticDir = mkdtempSync(join(tmpdir(), 'kube-explorer-static-'));
  const server = await startExplorerServer({ port: 0, kubeconfigPath: cp.kubeconfig, staticDir, auditLogs: [{ server: cp.server, path: cp.auditLog }], log: () => {} });
  explorer = server;
  project.provide('explorer', { url: server.url, token: server.token });
}

export async function teardown(): Promise<void> {
  await explorer?.close();
  if (staticDir) rmSync(staticDir, { recursive: true, force: true });
  if (!cp) return;
  await cp.stop();
  rmSync(cp.dir, { recursive: true, force: true });
}

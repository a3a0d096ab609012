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
}

declare module 'vitest' {
  export interface ProvidedContext {
    controlPlane: InjectedControlPlane;
  }
}

let cp: ControlPlane | undefined;

export async function setup(project: TestProject): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-vitest-'));
  cp = await startControlPlane({ dir });
  project.provide('controlPlane', { dir, kubeconfig: cp.kubeconfig, server: cp.server, etcdUrl: cp.etcdUrl, kubernetesVersion: cp.kubernetesVersion });
}

export async function teardown(): Promise<void> {
  if (!cp) return;
  await cp.stop();
  rmSync(cp.dir, { recursive: true, force: true });
}

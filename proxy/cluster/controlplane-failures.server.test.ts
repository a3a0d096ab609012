// Starts that must fail say why and leave nothing running.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { ensureBinaries } from './build';
import { startControlPlane, StartError } from './controlplane';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'kube-explorer-fail-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Processes started from this folder's binaries: none may survive a failed start. */
function runningFrom(dir: string): string[] {
  const out = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
  return out.split('\n').filter((l) => l.includes(dir) && /etcd|kube-apiserver|kube-controller-manager/.test(l));
}

describe('control plane start failures', () => {
  it('refuses a second start on a folder whose control plane is running', async () => {
    const running = inject('controlPlane');
    await expect(startControlPlane({ dir: running.dir, log: () => {} })).rejects.toThrow(/already running/);
  });

  it('refuses etcd data written for another version and names --fresh, starting nothing', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'etcd'), { recursive: true });
    writeFileSync(join(dir, 'etcd-data-version'), 'etcd v3.5.0 for kubernetes v1.30.0');
    const err = await startControlPlane({ dir, log: () => {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect(String((err as Error).message)).toMatch(/--fresh/);
    expect(runningFrom(dir)).toEqual([]);
  });

  it('names the missing binary and how to build it', async () => {
    const real = await ensureBinaries({ log: () => {} });
    const dir = tempDir();
    const err = await startControlPlane({ dir, log: () => {}, binaries: { ...real, dir, 'kube-apiserver': join(dir, 'nope', 'kube-apiserver') } }).catch((e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/missing binaries .*kube-apiserver.*npm run cluster:build/);
    expect(runningFrom(dir)).toEqual([]);
  });

  it('stops etcd again when a later component fails to start', async () => {
    const real = await ensureBinaries({ log: () => {} });
    const dir = tempDir();
    // A "kube-apiserver" that exits at once: etcd has started by then and must be stopped.
    const fake = join(dir, 'failing-apiserver');
    writeFileSync(fake, '#!/bin/sh\necho "simulated failure: address already in use" >&2\nexit 1\n', { mode: 0o755 });
    const err = await startControlPlane({ dir, log: () => {}, binaries: { ...real, 'kube-apiserver': fake } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect(String((err as Error).message)).toMatch(/kube-apiserver: a port it needs is already in use/);
    expect(runningFrom(dir)).toEqual([]);
  });
});

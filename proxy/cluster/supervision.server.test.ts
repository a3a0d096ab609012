// The real control plane under supervision: its processes never outlive the explorer, even when
// the explorer is killed with SIGKILL and cannot clean up.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('the supervised control plane', () => {
  it('leaves no etcd, kube-apiserver, kube-controller-manager or sample-apiserver running when the explorer is killed with SIGKILL', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-orphan-'));
    const parent = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'controlplane-child.ts'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const pids = await new Promise<number[]>((ok, fail) => {
        let out = '';
        parent.stdout!.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('\n')) ok((JSON.parse(out.slice(0, out.indexOf('\n'))) as { pids: number[] }).pids);
        });
        parent.once('exit', (code) => fail(new Error(`the control plane process exited early (${code})`)));
      });
      expect(pids).toHaveLength(4);
      expect(pids.every(alive)).toBe(true);
      parent.kill('SIGKILL');
      const deadline = Date.now() + 30_000;
      while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(pids.filter(alive)).toEqual([]);
    } finally {
      parent.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

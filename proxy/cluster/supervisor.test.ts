// The supervisor with real processes (sh, sleep), no control plane: restarts with backoff, gives up
// with the log tail, and leaves no child behind however its parent ends.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StartError, Supervisor, type SupervisorEvent } from './supervisor';

const dirs: string[] = [];
const sups: Supervisor[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'kube-explorer-sup-'));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  for (const s of sups.splice(0)) await s.stopAll();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const always = { ready: async () => true, readyTimeoutMs: 10_000, readyWhat: 'running' };

describe('supervisor', () => {
  it('restarts a component that exits, with backoff, and records exited/restarting/ready events', async () => {
    const dir = tempDir();
    const sup = new Supervisor(dir, () => undefined, { backoffMs: [100, 300], maxRestarts: 5, stableMs: 60_000 });
    sups.push(sup);
    const events: SupervisorEvent[] = [];
    sup.onEvent((e) => events.push(e));
    await sup.start({ name: 'sleeper', bin: '/bin/sleep', args: ['600'], ...always });
    const first = sup.status().components[0]!.pid!;
    process.kill(first, 'SIGKILL');
    await until('it runs again', () => events.some((e) => e.type === 'ready'));
    const now = sup.status().components[0]!;
    expect(now.state).toBe('running');
    expect(now.pid).not.toBe(first);
    expect(alive(now.pid!)).toBe(true);
    expect(now.restarts).toBe(1);
    expect(now.lastExit).toMatchObject({ signal: 'SIGKILL', code: null });
    expect(events.map((e) => e.type)).toEqual(['exited', 'restarting', 'ready']);
    expect(events[0]).toMatchObject({ component: 'sleeper', pid: first, signal: 'SIGKILL', attempt: 1 });
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(sup.status().events).toEqual(events);
  });

  it('gives up after repeated failures and reports the tail of the log', async () => {
    const dir = tempDir();
    // Runs long enough to count as started, then fails with a message, every time.
    const script = join(dir, 'flaky.sh');
    writeFileSync(script, '#!/bin/sh\nsleep 0.3\necho "fatal: cannot open the data folder (attempt $$)"\nexit 3\n', { mode: 0o755 });
    const sup = new Supervisor(dir, () => undefined, { backoffMs: [50], maxRestarts: 2, stableMs: 60_000 });
    sups.push(sup);
    const events: SupervisorEvent[] = [];
    sup.onEvent((e) => events.push(e));
    await sup.start({ name: 'flaky', bin: script, args: [], ...always });
    await until('it is given up', () => events.some((e) => e.type === 'failed'));
    const failed = events.find((e) => e.type === 'failed')!;
    expect(failed.message).toMatch(/failed 3 times in a row; not restarting it again/);
    expect(failed.logTail).toMatch(/fatal: cannot open the data folder/);
    expect(failed.code).toBe(3);
    expect(sup.status().components[0]).toMatchObject({ state: 'failed', restarts: 2 });
    expect(sup.status().components[0]!.pid).toBeUndefined();
    expect(events.filter((e) => e.type === 'exited')).toHaveLength(2);
  });

  it('fails the first start with the log tail instead of restarting', async () => {
    const dir = tempDir();
    const script = join(dir, 'broken.sh');
    writeFileSync(script, '#!/bin/sh\necho "listen tcp 127.0.0.1:2379: bind: address already in use"\nexit 1\n', { mode: 0o755 });
    const sup = new Supervisor(dir, () => undefined);
    sups.push(sup);
    const err = await sup.start({ name: 'etcd', bin: script, args: [], ready: async () => false, readyTimeoutMs: 10_000, readyWhat: 'healthy' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartError);
    expect((err as Error).message).toMatch(/etcd: a port it needs is already in use[\s\S]*address already in use/);
  });

  it('does not restart what it stops, and stops a SIGSTOPped component too', async () => {
    const dir = tempDir();
    const sup = new Supervisor(dir, () => undefined, { backoffMs: [50] });
    sups.push(sup);
    await sup.start({ name: 'a', bin: '/bin/sleep', args: ['600'], ...always });
    await sup.start({ name: 'b', bin: '/bin/sleep', args: ['600'], ...always });
    const pids = sup.status().components.map((c) => c.pid!);
    sup.signal('b', 'SIGSTOP');
    await sup.stopAll();
    expect(pids.filter(alive)).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(sup.status().components.map((c) => c.state)).toEqual(['stopped', 'stopped']);
  });

  it('notices a component that stops answering without exiting: stopped (SIGSTOP), and hung (its check fails)', async () => {
    const dir = tempDir();
    const events: SupervisorEvent[] = [];
    const sup = new Supervisor(dir, () => undefined, { livenessIntervalMs: 100, livenessFailures: 2 });
    sups.push(sup);
    sup.onEvent((e) => events.push(e));
    let answering = true;
    await sup.start({ name: 'etcd', bin: '/bin/sleep', args: ['600'], ...always });
    await sup.start({ name: 'kube-apiserver', bin: '/bin/sleep', args: ['601'], ...always, alive: async () => answering });
    const state = (name: string) => sup.status().components.find((c) => c.name === name)!.state;

    const pid = sup.signal('etcd', 'SIGSTOP')!;
    await until('the stopped etcd is reported', () => state('etcd') === 'unresponsive');
    expect(events.find((e) => e.component === 'etcd' && e.type === 'unresponsive')?.message).toBe(`etcd (pid ${pid}) is stopped (SIGSTOP or a debugger): its process is there but does not run until it gets SIGCONT`);
    sup.signal('etcd', 'SIGCONT');
    await until('etcd answers again', () => state('etcd') === 'running');
    expect(events.filter((e) => e.component === 'etcd').map((e) => e.type)).toEqual(['unresponsive', 'answering']);

    answering = false;
    await until('the hung kube-apiserver is reported', () => state('kube-apiserver') === 'unresponsive');
    expect(events.find((e) => e.component === 'kube-apiserver' && e.type === 'unresponsive')?.message).toMatch(/does not answer its health check \(2 checks 0\.1 s apart\)/);
    answering = true;
    await until('kube-apiserver answers again', () => state('kube-apiserver') === 'running');
    // Reported, not restarted: a freeze may be on purpose.
    expect(sup.status().components.map((c) => c.restarts)).toEqual([0, 0]);
  });

  // Whatever ends the explorer, its children end too: the watchdog sees its pipe close.
  it.each(['SIGKILL', 'SIGTERM', 'SIGINT', 'SIGHUP'] as const)('leaves no child running when its parent gets %s', async (signal) => {
    const dir = tempDir();
    const specs = [
      { name: 'etcd', bin: '/bin/sleep', args: ['600'] },
      { name: 'kube-apiserver', bin: '/bin/sleep', args: ['601'] },
    ];
    const parent = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'supervisor-child.ts'), JSON.stringify(specs), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    const info = await new Promise<{ children: number[]; watchdog: number }>((ok, fail) => {
      let out = '';
      parent.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) ok(JSON.parse(out.slice(0, out.indexOf('\n'))) as { children: number[]; watchdog: number });
      });
      parent.once('exit', (code) => fail(new Error(`the parent exited early (${code})`)));
    });
    expect(info.children).toHaveLength(2);
    expect(info.children.every(alive)).toBe(true);
    parent.kill(signal);
    await until('the children and the watchdog are gone', () => ![...info.children, info.watchdog].some(alive));
  });
});

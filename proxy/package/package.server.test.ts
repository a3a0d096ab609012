// The packaged executable, as a user gets it: built once for the whole file with `npm run package`'s
// code, copied alone into a clean folder (no node_modules, no project files) and run there against
// the real local control plane. The page is then opened in Chromium, where it must list namespaces.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { chromium } from '@playwright/test';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cacheDir } from '../cluster/build';
import { buildPackage, EXECUTABLE } from './build';

const cp = inject('controlPlane');
let clean: string;
let exe: string;
const running: ChildProcess[] = [];

interface Started {
  child: ChildProcess;
  url: string;
  stdout: () => string;
  stderr: () => string;
}

/** Starts the executable and resolves once it printed its URL (the one line a user reads). */
function start(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 60_000): Promise<Started> {
  // A minimal environment: no KUBECONFIG, no npm variables; HOME in the clean folder.
  const child = spawn(exe, args, { cwd: clean, env: { PATH: '/usr/bin:/bin', HOME: clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`)), timeoutMs);
    const check = () => {
      const m = /^Kube API Explorer: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out);
      // The URL line and the line after it (where the contexts come from) are two writes.
      if (m && /^ {2}contexts from .*$/m.test(out)) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stdout: () => out, stderr: () => err });
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before printing a URL\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

function stop(child: ChildProcess, timeoutMs = 60_000): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

beforeAll(async () => {
  const out = mkdtempSync(join(tmpdir(), 'kube-explorer-package-'));
  const built = await buildPackage({ outDir: out, log: () => {} });
  clean = mkdtempSync(join(tmpdir(), 'kube-explorer-clean-'));
  exe = join(clean, EXECUTABLE);
  copyFileSync(built.executable, exe);
  rmSync(out, { recursive: true, force: true });
}, 600_000);

afterAll(async () => {
  await Promise.all(running.map((c) => stop(c)));
  if (clean) rmSync(clean, { recursive: true, force: true });
});

describe('the packaged kubectl-api_explorer', () => {
  it('is one file, alone in its folder', () => {
    expect(readdirSync(clean)).toEqual([EXECUTABLE]);
  });

  it('serves the explorer from a clean folder, and the page lists the cluster namespaces', async () => {
    const s = await start(['--kubeconfig', cp.kubeconfig, '--no-browser', '--port', '0']);
    expect(s.stdout()).toContain(`contexts from ${cp.kubeconfig}`);
    const page = await fetch(s.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    const token = /name="explorer-token" content="([0-9a-f]{64})"/.exec(html)?.[1];
    expect(token).toBeDefined();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect((await fetch(new URL(script!, s.url))).headers.get('content-type')).toMatch(/javascript/);

    // Through the proxy, as the page asks.
    const list = await fetch(new URL('/k8s/local-admin/api/v1/namespaces', s.url), { headers: { 'x-explorer-token': token! } });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { items: { metadata: { name: string } }[] }).items.map((n) => n.metadata.name)).toContain('kube-system');

    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const tab = await browser.newPage();
      await tab.goto(s.url);
      await expect.poll(async () => tab.getByRole('combobox', { name: 'Namespace' }).locator('option').allTextContents(), { timeout: 60_000 }).toContain('kube-system');
    } finally {
      await browser.close();
    }
    expect(await stop(s.child)).toBe(0);
  });

  it('opens on the context and namespace given by --context and --namespace', async () => {
    const s = await start(['--kubeconfig', cp.kubeconfig, '--no-browser', '--port', '0', '--context', 'local-viewer', '--namespace', 'kube-public']);
    const html = await (await fetch(s.url)).text();
    const token = /name="explorer-token" content="([0-9a-f]{64})"/.exec(html)![1]!;
    const contexts = (await (await fetch(new URL('/proxy/contexts', s.url), { headers: { 'x-explorer-token': token } })).json()) as { current: string; contexts: { name: string; namespace: string }[] };
    expect(contexts.current).toBe('local-viewer');
    expect(contexts.contexts.find((c) => c.name === 'local-viewer')?.namespace).toBe('kube-public');
    await stop(s.child);
  });

  it('refuses a non-loopback --address and an unknown --context with a clear error', () => {
    const run = (args: string[]) => {
      try {
        execFileSync(exe, args, { cwd: clean, env: { PATH: '/usr/bin:/bin', HOME: clean }, stdio: 'pipe' });
        return { code: 0, stderr: '' };
      } catch (e) {
        const err = e as { status: number; stderr: Buffer };
        return { code: err.status, stderr: err.stderr.toString() };
      }
    };
    const address = run(['--address', '0.0.0.0', '--no-browser']);
    expect(address.code).toBe(2);
    expect(address.stderr).toContain('--address "0.0.0.0" refused');
    const context = run(['--kubeconfig', cp.kubeconfig, '--context', 'nope', '--no-browser', '--port', '0']);
    expect(context.code).toBe(1);
    expect(context.stderr).toContain('context "nope" is not in');
  });

  it('runs as `kubectl api-explorer` when it is on the PATH', () => {
    const kubectl = join(cacheDir(), 'kubectl');
    expect(existsSync(kubectl)).toBe(true);
    const version = execFileSync(kubectl, ['api-explorer', '--version'], { env: { PATH: `${clean}${delimiter}/usr/bin:/bin`, HOME: clean } }).toString();
    expect(version).toMatch(/^kube-api-explorer \d+\.\d+\.\d+\n/);
    expect(version).toContain(`Kubernetes ${cp.kubernetesVersion}`);
    const plugins = execFileSync(kubectl, ['plugin', 'list', '--name-only'], { env: { PATH: `${clean}${delimiter}/usr/bin:/bin`, HOME: clean } }).toString();
    expect(plugins).toContain(EXECUTABLE);
  });

  it('runs `kubectl api-explorer check`: the headless check, with its exit status', () => {
    const kubectl = join(cacheDir(), 'kubectl');
    const json = execFileSync(kubectl, ['api-explorer', 'check', '--kubeconfig', cp.kubeconfig, '--group', 'core', '--resource', 'configmaps', '--output', 'json', '--bookmark-wait', '0'], { env: { PATH: `${clean}${delimiter}/usr/bin:/bin`, HOME: clean } }).toString();
    const report = JSON.parse(json) as { resources: { name: string; results: { check: string; result: string }[] }[] };
    expect(report.resources.map((r) => r.name)).toEqual(['configmaps/v1']);
    expect(report.resources[0]!.results.find((c) => c.check === 'streamingList')?.result).toBe(cp.kubernetesVersion.startsWith('v1.33') ? 'no' : 'yes');
  });

  it('--local starts its own control plane from the binaries cache, with no checkout around', async () => {
    const state = join(clean, 'state');
    mkdirSync(state);
    // HOME stays the real one's cache: the binaries built for this run are reused, not rebuilt.
    const s = await start(['--local', '--no-browser', '--port', '0'], { XDG_STATE_HOME: state, KUBE_EXPLORER_CACHE: join(cacheDir(), '..') }, 180_000);
    expect(s.stdout()).toContain('(local control plane)');
    const html = await (await fetch(s.url)).text();
    const token = /name="explorer-token" content="([0-9a-f]{64})"/.exec(html)![1]!;
    const ns = await fetch(new URL('/k8s/local-admin/api/v1/namespaces/kube-system', s.url), { headers: { 'x-explorer-token': token } });
    expect(ns.status).toBe(200);
    expect(await stop(s.child)).toBe(0);
    expect(existsSync(join(state, 'kube-api-explorer', 'cluster', 'kubeconfig'))).toBe(true);
  }, 240_000);
});

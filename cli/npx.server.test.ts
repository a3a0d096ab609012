// `npx kube-api-explorer`, as someone with Node and no checkout gets it: `npm pack` (its prepack
// builds the page and bin/kube-api-explorer.mjs), the tarball installed into an empty folder with
// --omit=dev and --offline (the package has no dependency to fetch), then its bin run there:
// --help, `check --output json` against the real local control plane, and the server serving the page.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Report } from './check/report';
import { runCheck } from './check/check.testkit';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const cp = inject('controlPlane');
const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-npx-'));
const app = join(dir, 'app');
const started: ChildProcess[] = [];

function npm(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('npm', args, { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 }, (err, stdout, stderr) => (err ? reject(new Error(`npm ${args.join(' ')}: ${err.message}\n${stderr}`)) : resolve(stdout))),
  );
}

/** `npx kube-api-explorer …` in the folder it was installed in; --no: never fetched from the registry; `--`: the flags are the program's, not npx's. */
const npx = (args: string[]) => ['npx', '--no', '--', 'kube-api-explorer', ...args];

beforeAll(async () => {
  await npm(['pack', '--pack-destination', dir], ROOT);
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  expect(tarball).toMatch(/^kube-api-explorer-\d+\.\d+\.\d+\.tgz$/);
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"name":"empty","private":true}\n');
  await npm(['install', '--omit=dev', '--offline', '--no-audit', '--no-fund', join(dir, tarball)], app);
}, 300_000);

afterAll(async () => {
  // npx and the node it started: their own process group, ended together.
  for (const c of started) if (c.pid && c.exitCode === null) process.kill(-c.pid, 'SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('npx kube-api-explorer, installed from the packed tarball', () => {
  it('installs nothing but itself', () => {
    expect(readdirSync(join(app, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual(['kube-api-explorer']);
  });

  it('--help names the check', async () => {
    const run = await runCheck(['--help'], { command: npx([]), cwd: app });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('kube-api-explorer check [flags]');
  });

  it('check --output json against the local control plane', async () => {
    const run = await runCheck(['check', '--kubeconfig', cp.kubeconfig, '--group', 'wardle.example.com', '--output', 'json', '--bookmark-wait', '0'], { command: npx([]), cwd: app });
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    const flunders = report.resources.find((r) => r.name === 'flunders.wardle.example.com/v1beta1')!;
    expect(flunders.results.find((c) => c.check === 'cbor')).toMatchObject({ result: 'no', httpStatus: 406 });
  });

  it('--port 0 --no-browser serves the page', async () => {
    const child = spawn('npx', npx(['--kubeconfig', cp.kubeconfig, '--port', '0', '--no-browser']).slice(1), { cwd: app, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    started.push(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', () => {
        const m = /^Kube API Explorer: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
    });
    const html = await (await fetch(url)).text();
    expect(html).toMatch(/name="explorer-token" content="[0-9a-f]{64}"/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect((await fetch(new URL(script!, url))).headers.get('content-type')).toMatch(/javascript/);
  });
});

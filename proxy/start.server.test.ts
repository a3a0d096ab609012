// `npm start` as a newcomer runs it: node proxy/start.mjs bundles the server and runs it with plain
// node; against the real local control plane it serves the page with its token and forwards the
// API, and stops cleanly on SIGTERM. The bundle is made again only when a source changed.
import { type ChildProcess, spawn } from 'node:child_process';
import { statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { freshBundle } from './bundle.mjs';

const cp = inject('controlPlane');
const root = join(import.meta.dirname, '..');
const running: ChildProcess[] = [];

afterAll(() => {
  for (const c of running) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('npm start (proxy/start.mjs)', () => {
  it('serves the page with its token, forwards the API through the lean client, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['proxy/start.mjs', '--kubeconfig', cp.kubeconfig, '--port', '0', '--no-browser'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    running.push(child);
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    // A fresh clone may have to build dist/ first (vite build), as npm start does for a newcomer.
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL within 150 s\nstdout: ${out}\nstderr: ${err}`)), 150_000);
      child.stdout!.on('data', () => {
        const m = /^Kube API Explorer: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(out);
        if (m) {
          clearTimeout(timer);
          ok(m[1]!);
        }
      });
      child.once('exit', (code) => fail(new Error(`exited with ${code}\nstdout: ${out}\nstderr: ${err}`)));
    });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    const token = /<meta name="explorer-token" content="([0-9a-f]{64})"/.exec(await page.text())?.[1];
    expect(token).toBeDefined();
    const api = await fetch(new URL('/k8s/local-admin/api', url), { headers: { 'X-Explorer-Token': token! } });
    expect(api.status).toBe(200);
    expect(await api.json()).toMatchObject({ kind: 'APIVersions' });
    const code = await new Promise<number | null>((ok) => {
      child.once('exit', ok);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  }, 180_000);

  it('bundles again only when a source file is newer than the bundle', async () => {
    const first = await freshBundle('proxy/src/explorer-child.ts', 'start-test.mjs');
    const built = statSync(first).mtimeMs;
    await new Promise((r) => setTimeout(r, 20));
    expect(statSync(await freshBundle('proxy/src/explorer-child.ts', 'start-test.mjs')).mtimeMs).toBe(built);
    // A source touched after the bundle was made (as an edit would).
    const source = join(root, 'protocol', 'mux.ts');
    const was = statSync(source);
    const later = new Date(built + 5_000);
    utimesSync(source, later, later);
    try {
      expect(statSync(await freshBundle('proxy/src/explorer-child.ts', 'start-test.mjs')).mtimeMs).toBeGreaterThan(built);
    } finally {
      utimesSync(source, was.atime, was.mtime);
    }
  });
});

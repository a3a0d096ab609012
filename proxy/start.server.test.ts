// `npm start` as a newcomer runs it: node proxy/start.mjs bundles the server and runs it with plain
// node; against the real local control plane it serves the page with its token and forwards the
// API, and stops cleanly on SIGTERM. The bundle is made again only when a source changed.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump as stringify, load as parse } from 'js-yaml';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from './cluster/cluster.testkit';
import { freshBundle } from './bundle.mjs';
import { json, raw, startExplorerChild } from './src/explorer.testkit';

const cp = inject('controlPlane');
const cluster = testCluster(cp);
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

describe("the server bundle's share of @kubernetes/client-node (bundle.mjs: kubeConfigOnly)", () => {
  /** The modules in a bundle, from the path comments esbuild puts before each one. */
  const modulesOf = (bundle: string) => [...readFileSync(bundle, 'utf8').matchAll(/^\/\/ (node_modules\/\S+)$/gm)].map((m) => m[1]!);

  it('holds KubeConfig and its auth providers, and none of the generated API clients or models', async () => {
    const modules = modulesOf(await freshBundle('proxy/src/main.ts', 'server.mjs'));
    const clientNode = modules.filter((m) => m.startsWith('node_modules/@kubernetes/client-node/dist/'));
    expect(clientNode).toEqual(expect.arrayContaining(['config.js', 'exec_auth.js', 'oidc_auth.js', 'azure_auth.js', 'gcp_auth.js', 'file_auth.js'].map((f) => `node_modules/@kubernetes/client-node/dist/${f}`)));
    expect(clientNode.filter((m) => /\/dist\/gen\/(apis|models)\//.test(m))).toEqual([]);
    // Nothing else of ours is bundled from node_modules: the rest stays external.
    expect(modules.filter((m) => m.startsWith('node_modules/ws/') || m.startsWith('node_modules/js-yaml/'))).toEqual([]);
  });

  it('authenticates through an exec plugin when bundled, as the sources do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'explorer-bundle-auth-'));
    const viewer = cluster.credentials('viewer');
    writeFileSync(join(dir, 'cred.json'), JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { clientCertificateData: viewer.cert, clientKeyData: viewer.key } }));
    writeFileSync(join(dir, 'plugin.sh'), `#!/bin/sh\ncat "${join(dir, 'cred.json')}"\n`);
    chmodSync(join(dir, 'plugin.sh'), 0o755);
    const base = parse(readFileSync(cp.kubeconfig, 'utf8')) as { clusters: { name: string }[]; users: Record<string, unknown>[]; contexts: Record<string, unknown>[] };
    base.users.push({ name: 'exec-viewer', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh', interactiveMode: 'Never' } } });
    base.contexts.push({ name: 'exec', context: { cluster: base.clusters[0]!.name, user: 'exec-viewer' } });
    writeFileSync(join(dir, 'kubeconfig'), stringify(base));
    const { child, port, token } = await startExplorerChild([await freshBundle('proxy/src/explorer-child.ts', 'start-test.mjs'), join(dir, 'kubeconfig'), dir]);
    running.push(child);
    try {
      const whoAmI = async (context: string) => {
        const res = await raw(port, {
          method: 'POST',
          path: `/k8s/${context}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
          headers: { 'X-Explorer-Token': token, 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
        });
        expect(res.status).toBe(201);
        return json(res).status.userInfo.username as string;
      };
      expect(await whoAmI('exec')).toBe('explorer-viewer');
      expect(await whoAmI('local-admin')).toBe('explorer-admin');
    } finally {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

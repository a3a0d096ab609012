// Lists at scale, in one run against one real local control plane holding 10,000 ConfigMaps:
// the explorer (headless Chromium, Table chunks of 500 with includeObject=None) against
// `kubectl get configmaps --chunk-size=500` from the same Kubernetes build. Measures time to the
// first row / first line and to all rows / exit, and the browser heap per 1,000 Table rows.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest, Agent as HttpsAgent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startControlPlane } from '../proxy/cluster/controlplane';
import { startExplorerServer } from '../proxy/src/server';
import type { BenchResult } from './run';

const CONFIGMAPS = 10_000;
const CHUNK = 500;
const CREATE_CONCURRENCY = 16;
const REPEATS = 5;
const NS = 'bench-lists';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** kubectl: ms from spawn to the first stdout bytes, and to exit. */
function timeKubectl(kubectl: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ first: number; done: number; lines: number }> {
  return new Promise((ok, fail) => {
    const t0 = Date.now();
    let first = -1;
    let lines = 0;
    const p = spawn(kubectl, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    p.stdout.on('data', (b: Buffer) => {
      if (first < 0) first = Date.now() - t0;
      for (const c of b) if (c === 10) lines++;
    });
    p.stderr.on('data', (b: Buffer) => (err += b.toString()));
    p.on('error', fail);
    p.on('close', (code) => (code === 0 ? ok({ first, done: Date.now() - t0, lines }) : fail(new Error(`kubectl exited ${code}: ${err}`))));
  });
}

export async function run(log: (line: string) => void): Promise<BenchResult> {
  if (!existsSync('dist/index.html')) {
    log('dist/ missing: building the SPA (vite build)');
    const b = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
    if (b.status !== 0) throw new Error('vite build failed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-bench-lists-'));
  // No controller manager: nothing else loads the API server while we measure (and no
  // kube-root-ca.crt ConfigMap: the namespace holds exactly what we create).
  const cp = await startControlPlane({ dir, controllerManager: false, log: () => undefined });
  const srv = await startExplorerServer({ port: 0, kubeconfigPath: cp.kubeconfig, staticDir: 'dist', log: () => undefined });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--enable-precise-memory-info'],
  });
  try {
    const creds = cp.credentials('admin');
    const agent = new HttpsAgent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key });
    const base = new URL(cp.server);
    const post = (path: string, body: unknown) =>
      new Promise<number>((ok, fail) => {
        const req = httpsRequest({ hostname: base.hostname, port: base.port, method: 'POST', path, agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
          res.resume();
          res.on('end', () => ok(res.statusCode ?? 0));
        });
        req.on('error', fail);
        req.end(JSON.stringify(body));
      });
    if ((await post('/api/v1/namespaces', { metadata: { name: NS } })) !== 201) throw new Error('creating the namespace failed');
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CREATE_CONCURRENCY }, async () => {
        while (next < CONFIGMAPS) {
          const i = next++;
          const s = await post(`/api/v1/namespaces/${NS}/configmaps`, { metadata: { name: `cm-${String(i).padStart(5, '0')}`, labels: { bench: 'lists' } }, data: { index: String(i), text: 'lorem ipsum '.repeat(8) } });
          if (s !== 201) throw new Error(`create cm-${i}: ${s}`);
        }
      }),
    );
    agent.destroy();
    log(`kubernetes ${cp.kubernetesVersion}: created ${CONFIGMAPS} ConfigMaps in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    // kubectl, with its own discovery cache (warmed by the first, unmeasured run, as a user's would be).
    const kubectlHome = join(dir, 'kubectl-home');
    mkdirSync(kubectlHome);
    const env = { ...process.env, HOME: kubectlHome, KUBECONFIG: cp.kubeconfig };
    const args = ['get', 'configmaps', '-n', NS, `--chunk-size=${CHUNK}`];

    // The explorer: the Lists view with load=all, which loads chunk after chunk on its own.
    const url = `${srv.url}?${new URLSearchParams({ context: 'local-admin', view: 'lists', namespace: NS, group: '', version: 'v1', resource: 'configmaps', limit: String(CHUNK), load: 'all' })}`;
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // Timestamps taken in the page when the first data row, then the complete list, appear
    // (Date.now() shares the clock with this process).
    // A string, not a function: tsx compiles functions with helpers (__name) the page lacks.
    await context.addInitScript(`
      window.__lists = {};
      const check = () => {
        if (window.__lists.first === undefined && document.querySelector('[role="row"][aria-rowindex="2"]')) window.__lists.first = Date.now();
        if (window.__lists.all === undefined && /${CONFIGMAPS.toLocaleString('en-US')} rows in \\d+ pages, list complete/.test(document.querySelector('[role="status"]')?.textContent ?? '')) window.__lists.all = Date.now();
      };
      new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
    `);
    const page = await context.newPage();
    const timeExplorer = async () => {
      const start = Date.now();
      await page.goto(url);
      try {
        await page.waitForFunction(() => (window as unknown as { __lists: { all?: number } }).__lists.all !== undefined, undefined, { timeout: Number(process.env.LISTS_BENCH_TIMEOUT ?? 120_000), polling: 100 });
      } catch (e) {
        const status = await page.getByRole('status').textContent().catch(() => null);
        const state = await page.evaluate(() => JSON.stringify((window as unknown as { __lists: unknown }).__lists)).catch(() => null);
        throw new Error(`the list did not complete: status ${JSON.stringify(status)}, timings ${state}: ${String(e)}`);
      }
      const t = await page.evaluate(() => (window as unknown as { __lists: { first: number; all: number } }).__lists);
      return { first: t.first - start, done: t.all - start };
    };

    await timeKubectl(cp.binaries.kubectl, args, env);
    await timeExplorer();
    const kFirst: number[] = [];
    const kDone: number[] = [];
    const eFirst: number[] = [];
    const eDone: number[] = [];
    let lines = 0;
    // Interleaved, so that both see the same machine load.
    for (let i = 0; i < REPEATS; i++) {
      const k = await timeKubectl(cp.binaries.kubectl, args, env);
      kFirst.push(k.first);
      kDone.push(k.done);
      lines = k.lines;
      const e = await timeExplorer();
      eFirst.push(e.first);
      eDone.push(e.done);
    }
    log(`kubectl ${args.join(' ')}: ${lines} lines; first line ${median(kFirst)} ms, done ${median(kDone)} ms (median of ${REPEATS})`);
    log(`explorer lists view, limit=${CHUNK}, load all: first row ${median(eFirst)} ms, all ${CONFIGMAPS} rows ${median(eDone)} ms (median of ${REPEATS}, from navigation start)`);

    // Heap: the same view holding one chunk, then all chunks, each after a forced GC.
    const cdp = await context.newCDPSession(page);
    const heapAfterGc = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize;
    };
    await page.goto(url.replace('&load=all', ''));
    await page.getByRole('status').filter({ hasText: `${CHUNK} rows in 1 page` }).waitFor();
    const heapOne = await heapAfterGc();
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { __lists: { all?: number } }).__lists.all !== undefined, undefined, { timeout: 120_000 });
    const heapAll = await heapAfterGc();
    const perThousand = (heapAll - heapOne) / ((CONFIGMAPS - CHUNK) / 1000);
    log(`browser heap after GC: ${(heapOne / 1048576).toFixed(1)} MiB with ${CHUNK} rows, ${(heapAll / 1048576).toFixed(1)} MiB with ${CONFIGMAPS}: ${(perThousand / 1024).toFixed(1)} KiB per 1,000 Table rows`);

    const firstRatio = median(eFirst) / median(kFirst);
    const allRatio = median(eDone) / median(kDone);
    log(`ratios: first row / kubectl first line = ${firstRatio.toFixed(3)} (goal <= 1); all rows / kubectl done = ${allRatio.toFixed(3)} (goal <= 1.5)`);
    return {
      name: 'lists',
      ratios: {
        'first row / kubectl first line (goal <= 1)': firstRatio,
        'all rows / kubectl done (goal <= 1.5)': allRatio,
        'heap KiB per 1,000 Table rows': perThousand / 1024,
      },
    };
  } finally {
    await browser.close();
    await srv.close();
    await cp.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

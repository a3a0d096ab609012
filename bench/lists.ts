// Lists at scale, in one run against one real local control plane holding 10,000 ConfigMaps:
// the explorer (headless Chromium, Table chunks of 500 with includeObject=None) against
// `kubectl get configmaps --chunk-size=500` from the same Kubernetes build and against the data
// floor (the same Table chunks fetched through the proxy and JSON.parse'd in this process, no UI).
// Measures time to the first row / first line and to all rows / exit, and the browser heap per
// 1,000 Table rows: after forced GCs, over the same view holding an empty list.
// LISTS_BENCH_LARGE=150000 adds one more namespace of that many ConfigMaps (several minutes to
// create): one timed load of each, plus the frame time of scrolling through all the rows.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from '@playwright/test';
import { startControlPlane } from '../proxy/cluster/controlplane';
import { kubectlOf } from '../proxy/cluster/build';
import { startExplorerServer } from '../proxy/src/server';
import { type CpuProfile, summariseProfile } from './profile';
import type { BenchResult } from './run';

const CONFIGMAPS = 10_000;
const CHUNK = 500;
const CREATE_CONCURRENCY = 16;
const REPEATS = 5;
const NS = 'bench-lists';
/** The heap baseline: the same view on a namespace without ConfigMaps (no controller manager, so no kube-root-ca.crt either). */
const EMPTY_NS = 'bench-lists-empty';
const LARGE = Number(process.env.LISTS_BENCH_LARGE ?? 0);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * kubectl: ms from spawn to the first stdout bytes, and to exit. With `maxRssMiB`, a kubectl whose
 * resident memory grows past it is killed (kubectl holds every row before it prints a table: at
 * 150,000 Pods that is gigabytes, on a machine the control plane and the browser share): then
 * `done` is NaN and `killed` says when and at what size.
 */
export function timeKubectl(kubectl: string, args: string[], env: NodeJS.ProcessEnv, maxRssMiB?: number): Promise<{ first: number; done: number; lines: number; killed?: { ms: number; rssMiB: number } }> {
  return new Promise((ok, fail) => {
    const t0 = Date.now();
    let first = -1;
    let lines = 0;
    let killed: { ms: number; rssMiB: number } | undefined;
    const p = spawn(kubectl, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const watch = maxRssMiB
      ? setInterval(() => {
          const rss = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${p.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
          if (rss > maxRssMiB && !killed) {
            killed = { ms: Date.now() - t0, rssMiB: rss };
            p.kill('SIGKILL');
          }
        }, 200)
      : undefined;
    let err = '';
    p.stdout.on('data', (b: Buffer) => {
      if (first < 0) first = Date.now() - t0;
      for (const c of b) if (c === 10) lines++;
    });
    p.stderr.on('data', (b: Buffer) => (err += b.toString()));
    p.on('error', fail);
    p.on('close', (code) => {
      clearInterval(watch);
      if (killed) ok({ first, done: NaN, lines, killed });
      else if (code === 0) ok({ first, done: Date.now() - t0, lines });
      else fail(new Error(`kubectl exited ${code}: ${err}`));
    });
  });
}

// Timestamps taken in the page when the first data row, then the complete list, appear
// (Date.now() shares the clock with this process). A string, not a function: tsx compiles
// functions with helpers (__name) that the page does not have.
export const MARKS = `
  window.__lists = {};
  let statusEl = null;
  const check = () => {
    if (window.__lists.first === undefined && document.querySelector('[role="row"][aria-rowindex="2"]')) window.__lists.first = Date.now();
    // The status element is looked up until found, then only read: the observer runs after every
    // batch of mutations, and a query over the whole document each time was 38 ms of the page's
    // main thread before the first row in a CPU profile: the bench's cost, not the explorer's.
    if (!statusEl || !statusEl.isConnected) statusEl = document.querySelector('[role="status"]');
    const status = statusEl?.textContent ?? '';
    if (window.__lists.all === undefined && status.includes('list complete')) { window.__lists.all = Date.now(); window.__lists.status = status; observer.disconnect(); }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, childList: true, characterData: true });
`;

/** LISTS_BENCH_PROFILE=1: a CPU profile of the page's main thread from navigation to the first row; =all: to the last. */
const PROFILE = process.env.LISTS_BENCH_PROFILE === '1' || process.env.LISTS_BENCH_PROFILE === 'all';
const PROFILE_UNTIL: keyof Marks = process.env.LISTS_BENCH_PROFILE === 'all' ? 'all' : 'first';
/** LISTS_BENCH_COMPARE=<dir>: also serves another build of the SPA (vite build --outDir <dir>) and times it beside dist/, interleaved. */
const COMPARE = process.env.LISTS_BENCH_COMPARE;
/** LISTS_BENCH_WATERFALL=1: print every request of each explorer run, from navigation start. */
const WATERFALL = process.env.LISTS_BENCH_WATERFALL === '1';

interface Marks {
  first?: number;
  all?: number;
  status?: string;
}

export async function timeExplorer(page: Page, url: string, rows: number): Promise<{ first: number; done: number }> {
  const cdp = PROFILE ? await page.context().newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const start = Date.now();
  await page.goto(url);
  if (cdp) {
    await page.waitForFunction((k) => (window as unknown as { __lists: Marks }).__lists[k] !== undefined, PROFILE_UNTIL, { timeout: 600_000, polling: 10 });
    const profile = (await cdp.send('Profiler.stop')).profile as CpuProfile;
    writeFileSync(join(tmpdir(), `lists-${PROFILE_UNTIL}-profile.cpuprofile`), JSON.stringify(profile));
    console.log(summariseProfile(profile, `main thread from navigation to the ${PROFILE_UNTIL === 'all' ? 'last' : 'first'} row`));
    await cdp.detach();
  }
  try {
    await page.waitForFunction(() => (window as unknown as { __lists: Marks }).__lists.all !== undefined, undefined, { timeout: 600_000, polling: 100 });
  } catch (e) {
    const status = await page.getByRole('status').textContent().catch(() => null);
    throw new Error(`the list did not complete: status ${JSON.stringify(status)}: ${String(e)}`, { cause: e });
  }
  const t = await page.evaluate(() => (window as unknown as { __lists: Required<Marks> }).__lists);
  if (WATERFALL) {
    // Where the time to the first row goes: every request of the page, from navigation start.
    const w = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
      const rs = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const marks = (window as unknown as { __lists: Required<Marks> }).__lists;
      return {
        nav: nav ? `document ${nav.responseEnd.toFixed(0)} domContentLoaded ${nav.domContentLoadedEventEnd.toFixed(0)}` : '',
        // start–responseStart–end, and the proxy's Server-Timing (the API server's time to first byte).
        rows: rs.map(
          (r) =>
            `${r.startTime.toFixed(0).padStart(5)}–${r.responseStart.toFixed(0).padStart(5)}–${r.responseEnd.toFixed(0).padStart(5)} ms${r.serverTiming.length ? ` (upstream ${r.serverTiming.map((t) => t.duration.toFixed(1)).join()} ms)` : ''}  ${r.name.replace(location.origin, '').slice(0, 90)}`,
        ),
        first: marks.first - performance.timeOrigin,
        all: marks.all - performance.timeOrigin,
      };
    });
    console.log(`  waterfall (ms from navigation start): ${w.nav}; first row ${w.first.toFixed(0)}; all rows ${w.all.toFixed(0)}\n${w.rows.map((r) => `    ${r}`).join('\n')}`);
  }
  const expected = `${rows.toLocaleString('en-US')} rows in`;
  if (!t.status.includes(expected)) throw new Error(`expected "${expected}…", the view says "${t.status}"`);
  return { first: t.first - start, done: t.all - start };
}

/**
 * The data floor: every Table chunk the Lists view asks for, fetched through the explorer's proxy
 * with a keep-alive agent and JSON.parse'd, one after the other, no UI. What the view adds on top
 * (rendering, bookkeeping) is the view's own cost.
 */
async function dataFloor(explorerUrl: string, token: string, ns: string, chunk: number, gzip = false): Promise<{ ms: number; rows: number }> {
  const agent = new HttpAgent({ keepAlive: true });
  const get = (path: string) =>
    new Promise<string>((ok, fail) => {
      const headers = { 'X-Explorer-Token': token, Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json', ...(gzip ? { 'Accept-Encoding': 'gzip' } : {}) };
      const req = httpRequest(new URL(path, explorerUrl), { agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(Buffer.concat(chunks)) : Buffer.concat(chunks);
          if (res.statusCode === 200) ok(body.toString());
          else fail(new Error(`floor: HTTP ${res.statusCode}`));
        });
      });
      req.on('error', fail);
      req.end();
    });
  const t0 = performance.now();
  let rows = 0;
  let token_: string | undefined;
  do {
    const q = new URLSearchParams({ limit: String(chunk), includeObject: 'None', ...(token_ ? { continue: token_ } : {}) });
    const page = JSON.parse(await get(`/k8s/local-admin/api/v1/namespaces/${ns}/configmaps?${q}`)) as { rows: unknown[]; metadata: { continue?: string } };
    rows += page.rows.length;
    token_ = page.metadata.continue || undefined;
  } while (token_);
  const ms = performance.now() - t0;
  agent.destroy();
  return { ms, rows };
}

/** The page's JS heap after full garbage collections (two: the first may leave what finalizers free). */
export async function heapAfterGc(context: BrowserContext, page: Page): Promise<number> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize;
}

/**
 * Scrolls the virtualized rows top to bottom in 120 steps; each step's time to the second frame
 * after it. Each step starts in the microtask after a frame's animation callback, so a step whose
 * frames are all on time measures two frame intervals, and one that makes the browser miss a frame
 * measures three. `idle` is the same measure in the same page with no jump, 120 times just before:
 * what two frames take on this machine at this moment (its vsync jitter), the floor of the jumps.
 */
export function scrollFrames(page: Page): Promise<{ p50: number; p95: number; max: number; idle: { p50: number; p95: number; max: number } }> {
  return page.evaluate(`(async () => {
    const el = document.querySelector('[data-testid="lists-scroll"]');
    const twoFrames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const stats = (times) => { times.sort((a, b) => a - b); return { p50: times[60], p95: times[114], max: times[120] }; };
    await twoFrames();
    const idle = [];
    for (let i = 0; i <= 120; i++) {
      const t = performance.now();
      await twoFrames();
      idle.push(performance.now() - t);
    }
    const times = [];
    for (let i = 0; i <= 120; i++) {
      const t = performance.now();
      el.scrollTop = (el.scrollHeight * i) / 120;
      await twoFrames();
      times.push(performance.now() - t);
    }
    return { ...stats(times), idle: stats(idle) };
  })()`);
}

export async function run(log: (line: string) => void): Promise<BenchResult> {
  if (!existsSync('dist/index.html')) {
    log('dist/ missing: building the SPA (vite build)');
    const b = spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' });
    if (b.status !== 0) throw new Error('vite build failed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-bench-lists-'));
  // No controller manager: nothing else loads the API server while we measure (and no
  // kube-root-ca.crt ConfigMap: a namespace holds exactly what we create).
  const cp = await startControlPlane({ dir, controllerManager: false, aggregatedApi: false, log: () => undefined });
  const srv = await startExplorerServer({ port: 0, kubeconfigPath: cp.kubeconfig, staticDir: 'dist', log: () => undefined });
  const srvB = COMPARE ? await startExplorerServer({ port: 0, kubeconfigPath: cp.kubeconfig, staticDir: COMPARE, log: () => undefined }) : undefined;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const creds = cp.credentials('admin');
  const agent = new HttpsAgent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key });
  try {
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
    const createConfigMaps = async (ns: string, n: number) => {
      if ((await post('/api/v1/namespaces', { metadata: { name: ns } })) !== 201) throw new Error(`creating namespace ${ns} failed`);
      const t0 = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CREATE_CONCURRENCY }, async () => {
          while (next < n) {
            const i = next++;
            const s = await post(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `cm-${String(i).padStart(6, '0')}`, labels: { bench: 'lists' } }, data: { index: String(i), text: 'lorem ipsum '.repeat(8) } });
            if (s !== 201) throw new Error(`create cm-${i} in ${ns}: ${s}`);
          }
        }),
      );
      log(`created ${n.toLocaleString('en-US')} ConfigMaps in ${ns} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    };
    await createConfigMaps(NS, CONFIGMAPS);
    if ((await post('/api/v1/namespaces', { metadata: { name: EMPTY_NS } })) !== 201) throw new Error(`creating namespace ${EMPTY_NS} failed`);

    // kubectl, with its own discovery cache (warmed by the first, unmeasured run, as a user's would be).
    const kubectlHome = join(dir, 'kubectl-home');
    mkdirSync(kubectlHome);
    const env = { ...process.env, HOME: kubectlHome, KUBECONFIG: cp.kubeconfig };
    const kubectlArgs = (ns: string) => ['get', 'configmaps', '-n', ns, `--chunk-size=${CHUNK}`];
    // The explorer: the Lists view with load=all, which loads chunk after chunk on its own.
    const urlFor = (ns: string, all: boolean, base = srv.url) =>
      `${base}?${new URLSearchParams({ context: 'local-admin', view: 'lists', namespace: ns, group: '', version: 'v1', resource: 'configmaps', limit: String(CHUNK), ...(all ? { load: 'all' } : {}) })}`;

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript(MARKS);
    const page = await context.newPage();

    await timeKubectl(kubectlOf(cp.binaries), kubectlArgs(NS), env);
    await timeExplorer(page, urlFor(NS, true), CONFIGMAPS);
    if (srvB) await timeExplorer(page, urlFor(NS, true, srvB.url), CONFIGMAPS);
    const bFirst: number[] = [];
    const bDone: number[] = [];
    const floors: number[] = [];
    const gzipFloors: number[] = [];
    const kFirst: number[] = [];
    const kDone: number[] = [];
    const eFirst: number[] = [];
    const eDone: number[] = [];
    let lines = 0;
    // Interleaved, so that both see the same machine load.
    for (let i = 0; i < REPEATS; i++) {
      const k = await timeKubectl(kubectlOf(cp.binaries), kubectlArgs(NS), env);
      kFirst.push(k.first);
      kDone.push(k.done);
      lines = k.lines;
      const e = await timeExplorer(page, urlFor(NS, true), CONFIGMAPS);
      eFirst.push(e.first);
      eDone.push(e.done);
      if (srvB) {
        const b = await timeExplorer(page, urlFor(NS, true, srvB.url), CONFIGMAPS);
        bFirst.push(b.first);
        bDone.push(b.done);
      }
      const f = await dataFloor(srv.url, srv.token, NS, CHUNK);
      if (f.rows !== CONFIGMAPS) throw new Error(`data floor read ${f.rows} rows`);
      floors.push(f.ms);
      // The same with Accept-Encoding: gzip, which browsers send with every fetch (and scripts
      // cannot take off): kube-apiserver then compresses each chunk over 128 KiB.
      const g = await dataFloor(srv.url, srv.token, NS, CHUNK, true);
      if (g.rows !== CONFIGMAPS) throw new Error(`gzip data floor read ${g.rows} rows`);
      gzipFloors.push(g.ms);
    }
    log(`data floor (all ${CONFIGMAPS / CHUNK} Table chunks through the proxy, keep-alive, JSON.parse, no UI): ${median(floors).toFixed(0)} ms (median of ${REPEATS}); asking for gzip as browsers do: ${median(gzipFloors).toFixed(0)} ms`);
    log(`kubectl ${kubectlArgs(NS).join(' ')}: ${lines} lines; first line ${median(kFirst)} ms, done ${median(kDone)} ms (median of ${REPEATS})`);
    log(`explorer lists view, limit=${CHUNK}, load all: first row ${median(eFirst)} ms, all ${CONFIGMAPS} rows ${median(eDone)} ms (median of ${REPEATS}, from navigation start)`);
    if (srvB) log(`the same, build in ${COMPARE}: first row ${median(bFirst)} ms, all rows ${median(bDone)} ms (runs of dist/: ${eDone.join(', ')} ms; of ${COMPARE}: ${bDone.join(', ')} ms)`);

    // Heap: the same view, each after a forced GC, holding an empty list (a namespace with no
    // ConfigMaps: the baseline, everything but the rows), then one chunk, then all of them.
    await page.goto(urlFor(EMPTY_NS, false));
    await page.getByRole('status').filter({ hasText: '0 rows in 1 page, list complete' }).waitFor();
    const heapEmpty = await heapAfterGc(context, page);
    await page.goto(urlFor(NS, false));
    await page.getByRole('status').filter({ hasText: `${CHUNK} rows in 1 page` }).waitFor();
    const heapOne = await heapAfterGc(context, page);
    await timeExplorer(page, urlFor(NS, true), CONFIGMAPS);
    const heapAll = await heapAfterGc(context, page);
    const perThousand = (heapAll - heapEmpty) / (CONFIGMAPS / 1000);
    const marginal = (heapAll - heapOne) / ((CONFIGMAPS - CHUNK) / 1000);
    log(
      `browser heap after GC: ${(heapEmpty / 1048576).toFixed(2)} MiB with an empty list, ${(heapOne / 1048576).toFixed(2)} MiB with ${CHUNK} rows, ${(heapAll / 1048576).toFixed(2)} MiB with ${CONFIGMAPS}: ` +
        `${(perThousand / 1024).toFixed(1)} KiB per 1,000 Table rows over the empty list (${(marginal / 1024).toFixed(1)} KiB from ${CHUNK} to ${CONFIGMAPS} rows)`,
    );
    const frames = await scrollFrames(page);
    log(`scrolling ${CONFIGMAPS} rows in 120 steps, time to the second frame after each: p50 ${frames.p50.toFixed(0)} ms, p95 ${frames.p95.toFixed(0)} ms, max ${frames.max.toFixed(0)} ms`);

    const firstRatio = median(eFirst) / median(kFirst);
    const allRatio = median(eDone) / median(kDone);
    log(`ratios: first row / kubectl first line = ${firstRatio.toFixed(3)} (goal <= 1); all rows / kubectl done = ${allRatio.toFixed(3)} (goal <= 1.5); all rows / data floor = ${(median(eDone) / median(floors)).toFixed(3)} (goal <= 4)`);
    const ratios: Record<string, number> = {
      'first row / kubectl first line (goal <= 1)': firstRatio,
      'all rows / kubectl done (goal <= 1.5)': allRatio,
      'heap KiB per 1,000 Table rows': perThousand / 1024,
      'all rows / data floor (goal <= 4)': median(eDone) / median(floors),
      'heap per 1,000 rows / 100 KiB (goal <= 1)': perThousand / 1024 / 100,
    };

    if (LARGE > 0) {
      const big = 'bench-lists-large';
      await createConfigMaps(big, LARGE);
      const k = await timeKubectl(kubectlOf(cp.binaries), kubectlArgs(big), env);
      const e = await timeExplorer(page, urlFor(big, true), LARGE);
      const heap = await heapAfterGc(context, page);
      const f = await scrollFrames(page);
      log(`${LARGE.toLocaleString('en-US')} rows: kubectl first line ${k.first} ms, done ${k.done} ms; explorer first row ${e.first} ms, all rows ${e.done} ms; heap ${(heap / 1048576).toFixed(1)} MiB; scroll step p50 ${f.p50.toFixed(0)} ms, p95 ${f.p95.toFixed(0)} ms, max ${f.max.toFixed(0)} ms`);
      ratios[`${LARGE} rows: all rows / kubectl done`] = e.done / k.done;
    }
    return { name: 'lists', ratios };
  } finally {
    agent.destroy();
    await browser.close();
    await srv.close();
    await srvB?.close();
    await cp.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

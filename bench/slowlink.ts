// A slow link: a real TCP relay that holds every chunk 100 ms each way (a 200 ms round trip, and
// one more round trip before a new connection's first byte passes, for TCP's handshake) between
// the client and kube-apiserver. Through it, in one run: the explorer in headless Chromium (time
// from navigation to the Discovery view showing its groups, and to the first row of a list)
// against kubectl through the same relay (`kubectl api-resources`, which reads discovery afresh;
// `kubectl get configmaps` with a cold discovery cache and with a warm one, to its first line).
// The explorer starts cold (a new server: no connection to the API server yet) for each page
// load, as a user opening it does; the connections the relay accepted tell the round trips spent
// on handshakes. `SLOWLINK_DELAY_MS` changes the delay, `SLOWLINK_RUNS` the rounds (median).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import { startControlPlane } from '../proxy/cluster/controlplane';
import { kubectlOf } from '../proxy/cluster/build';
import { request as httpRequest } from 'node:http';
import { type ExplorerServer, startExplorerServer } from '../proxy/src/server';
import { startRelay } from '../proxy/src/network.testkit';
import { timeKubectl } from './lists';
import type { BenchResult } from './run';

const DELAY_MS = Number(process.env.SLOWLINK_DELAY_MS ?? 100);
const RUNS = Number(process.env.SLOWLINK_RUNS ?? 5);
const NS = 'bench-slowlink';
const CONFIGMAPS = 200;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Date.now() when `selector` first matches (a string: tsx's helpers do not exist in the page). */
const APPEARS = (selector: string) => `
  window.__appeared = undefined;
  new MutationObserver((_, o) => {
    if (document.querySelector(${JSON.stringify(selector)})) { window.__appeared = Date.now(); o.disconnect(); }
  }).observe(document, { subtree: true, childList: true });
`;

async function timeToAppear(browser: Browser, url: string, selector: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(APPEARS(selector));
  const page = await context.newPage();
  try {
    const start = Date.now();
    await page.goto(url);
    await page.waitForFunction(() => (window as unknown as { __appeared?: number }).__appeared !== undefined, undefined, { timeout: 120_000, polling: 10 });
    return (await page.evaluate(() => (window as unknown as { __appeared: number }).__appeared)) - start;
  } finally {
    await context.close();
  }
}

/** One request to the explorer's proxy (its token), the body read to the end; throws unless 2xx. */
function explorerCall(srv: ExplorerServer, method: string, path: string, body?: string): Promise<void> {
  return new Promise((ok, fail) => {
    const req = httpRequest(new URL(path, srv.url), { method, headers: { 'X-Explorer-Token': srv.token, ...(body ? { 'Content-Type': 'application/merge-patch+json' } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => ((res.statusCode ?? 0) < 300 ? ok() : fail(new Error(`${method} ${path}: ${res.statusCode}`))));
    });
    req.on('error', fail);
    req.end(body);
  });
}

export async function run(log: (line: string) => void): Promise<BenchResult> {
  if (!existsSync('dist/index.html')) {
    log('dist/ missing: building the SPA (vite build)');
    if (spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' }).status !== 0) throw new Error('vite build failed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-bench-slowlink-'));
  const cp = await startControlPlane({ dir, controllerManager: false, aggregatedApi: false, log: () => undefined });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const api = new URL(cp.server);
  const relay = await startRelay({ host: api.hostname, port: Number(api.port) }, DELAY_MS);
  try {
    // Setup goes straight to the API server (not through the relay).
    const admin = { ...process.env, KUBECONFIG: cp.kubeconfig, HOME: join(dir, 'setup-home') };
    const sh = (args: string[], input?: string) => {
      const r = spawnSync(kubectlOf(cp.binaries), args, { env: admin, input, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
    };
    sh(['create', 'namespace', NS]);
    const items = Array.from({ length: CONFIGMAPS }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${String(i).padStart(4, '0')}`, namespace: NS }, data: { i: String(i) } }));
    sh(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));

    const kubeconfig = join(dir, 'through-relay');
    writeFileSync(kubeconfig, readFileSync(cp.kubeconfig, 'utf8').replaceAll(api.origin, `https://${api.hostname}:${relay.port}`), { mode: 0o600 });
    const kubectl = kubectlOf(cp.binaries);
    let homes = 0;
    const freshHome = () => {
      const home = join(dir, `home-${homes++}`);
      mkdirSync(home);
      return { ...process.env, HOME: home, KUBECONFIG: kubeconfig };
    };
    const warmHome = freshHome();
    await timeKubectl(kubectl, ['get', 'configmaps', '-n', NS], warmHome);

    const k = { discovery: [] as number[], coldFirst: [] as number[], warmFirst: [] as number[], patch: [] as number[] };
    const e = { discovery: [] as number[], first: [] as number[], warmFirst: [] as number[], conns: [] as number[], save: [] as number[] };
    const discoveryUrl = (base: string) => `${base}?${new URLSearchParams({ context: 'local-admin', view: 'discovery' })}`;
    const listUrl = (base: string) => `${base}?${new URLSearchParams({ context: 'local-admin', view: 'lists', namespace: NS, group: '', version: 'v1', resource: 'configmaps' })}`;
    const load: number[][] = [];
    for (let i = 0; i <= RUNS; i++) {
      load.push(loadavg());
      const kd = (await timeKubectl(kubectl, ['api-resources'], freshHome())).done;
      const kc = (await timeKubectl(kubectl, ['get', 'configmaps', '-n', NS], freshHome())).first;
      const kw = (await timeKubectl(kubectl, ['get', 'configmaps', '-n', NS], warmHome)).first;
      // A new explorer server for each cold page load: no connection to the API server yet.
      const a = await startExplorerServer({ port: 0, kubeconfigPath: kubeconfig, staticDir: 'dist', log: () => undefined });
      const c0 = relay.connections();
      const ed = await timeToAppear(browser, discoveryUrl(a.url), '[aria-label="apps/v1"]');
      const conns = relay.connections() - c0;
      await a.close();
      const b = await startExplorerServer({ port: 0, kubeconfigPath: kubeconfig, staticDir: 'dist', log: () => undefined });
      const ef = await timeToAppear(browser, listUrl(b.url), '[role="row"][aria-rowindex="2"]');
      const ew = await timeToAppear(browser, listUrl(b.url), '[role="row"][aria-rowindex="2"]');
      // The editor's save: a read of the object (as the editor loads it), then a merge patch, timed.
      const object = `/k8s/local-admin/api/v1/namespaces/${NS}/configmaps/cm-0000`;
      await explorerCall(b, 'GET', object);
      const t0 = Date.now();
      await explorerCall(b, 'PATCH', object, JSON.stringify({ data: { saved: String(i) } }));
      const es = Date.now() - t0;
      await b.close();
      const kp = (await timeKubectl(kubectl, ['patch', 'configmap', 'cm-0000', '-n', NS, '--type=merge', '-p', JSON.stringify({ data: { kubectl: String(i) } })], warmHome)).done;
      // The first round warms the page's code in the browser's cache and kubectl's binary in the OS's.
      if (i === 0) continue;
      k.discovery.push(kd);
      k.coldFirst.push(kc);
      k.warmFirst.push(kw);
      e.discovery.push(ed);
      e.first.push(ef);
      e.warmFirst.push(ew);
      e.conns.push(conns);
      e.save.push(es);
      k.patch.push(kp);
      log(`  run ${i}: discovery explorer ${ed} ms (${conns} connections) / kubectl ${kd} ms; first row explorer ${ef} ms cold, ${ew} ms warm / kubectl first line ${kc} ms cold cache, ${kw} ms warm; save after a read ${es} ms / kubectl patch ${kp} ms`);
    }
    const avg = load.map((l) => l[0]!.toFixed(1));
    log(`slow link (${DELAY_MS} ms each way), median of ${RUNS}: discovery on screen ${median(e.discovery)} ms (kubectl api-resources ${median(k.discovery)} ms); first row ${median(e.first)} ms from a cold server, ${median(e.warmFirst)} ms warm (kubectl get: ${median(k.coldFirst)} ms with a cold discovery cache, ${median(k.warmFirst)} ms warm); a save after a read ${median(e.save)} ms (kubectl patch, a process of its own: ${median(k.patch)} ms); connections through the relay per cold discovery ${median(e.conns)}; 1-min load average during the runs ${avg.join(', ')}`);
    return {
      name: 'slowlink',
      ratios: {
        'discovery on screen / kubectl api-resources': median(e.discovery) / median(k.discovery),
        'first row, cold server / kubectl get, cold discovery cache': median(e.first) / median(k.coldFirst),
        'first row, warm / kubectl get, warm discovery cache': median(e.warmFirst) / median(k.warmFirst),
        'save after a read / the round trip': median(e.save) / (2 * DELAY_MS),
      },
    };
  } finally {
    await browser.close();
    await relay.close();
    await cp.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Proxy overhead against the real local control plane, in one run: direct, through the explorer,
// and through `kubectl proxy` (the tool users would pick instead, from the same build): latency of
// a small GET, and throughput of a large list.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freshBundle } from '../proxy/bundle.mjs';
import { startControlPlane } from '../proxy/cluster/controlplane';
import { kubectlOf } from '../proxy/cluster/build';
import { cpuMs, peakRssMiB } from './cpu';
import { measureLean } from './lean';
import type { BenchResult } from './run';

/** `PROXY_BENCH_QUICK=1`: a few rounds of everything, to check that the bench runs (its numbers mean nothing). */
const QUICK = process.env.PROXY_BENCH_QUICK === '1';
const SMALL_REQUESTS = QUICK ? 30 : 3000;
/**
 * Interleaved rounds before the small GETs are timed. Measured: after 300 rounds, direct requests
 * still got faster over the next 2,000 (p50 1.61 ms in the first 1,000, 1.12–1.14 ms from the third
 * on), and so did both Node proxies (the JIT, and the API server's and client's own warm-up); the
 * timed part is the steady state a long-running proxy serves in.
 */
const WARM_UP_ROUNDS = QUICK ? 20 : 2000;
/** Objects in the large list: `BENCH_OBJECTS=150000 npm run bench -- proxy` for the large-cluster size. */
const CONFIGMAPS = Number(process.env.BENCH_OBJECTS ?? 10_000);
const CREATE_CONCURRENCY = 20;
/** Lists through each path (median taken; see the ratios). */
const LIST_REPEATS = QUICK ? 3 : Math.max(10, Math.round((100 * 10_000) / CONFIGMAPS));
/** The lean method's rounds (see lean.ts): warm-up, timed small GETs, large lists per path. */
const LEAN = QUICK ? { warmUp: 10, rounds: 20, lists: 3 } : { warmUp: 1000, rounds: 1500, lists: Math.max(10, Math.round((60 * 10_000) / CONFIGMAPS)) };

export type Send = (method: string, path: string, body?: string) => Promise<{ status: number; bytes: number }>;

export function client(request: typeof httpRequest | typeof httpsRequest, base: URL, agent: HttpAgent | HttpsAgent, headers: Record<string, string>): Send {
  return (method, path, body) =>
    new Promise((ok, fail) => {
      const req = request(
        { hostname: base.hostname, port: base.port, method, path: base.pathname.replace(/\/$/, '') + path, agent, headers: { Accept: 'application/json', ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) } },
        (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => ok({ status: res.statusCode ?? 0, bytes }));
          res.on('error', fail);
        },
      );
      req.on('error', fail);
      req.end(body);
    });
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const ms = (x: number) => `${x.toFixed(3)} ms`;

/**
 * The explorer server in a process of its own, as `npm start` runs it (one esbuild bundle, plain
 * node: proxy/start.mjs) and as kubectl proxy runs: in this process it would share one thread with
 * the bench's own client.
 */
export async function startExplorer(kubeconfig: string, staticDir: string): Promise<{ url: string; token: string; child: ChildProcess; xrayKubeconfig?: string }> {
  const script = await freshBundle('proxy/src/explorer-child.ts', 'explorer-child.mjs');
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, [script, kubeconfig, staticDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (!out.includes('\n')) return;
      const { port, token, xray } = JSON.parse(out.slice(0, out.indexOf('\n'))) as { port: number; token: string; xray?: string };
      ok({ url: `http://127.0.0.1:${port}/`, token, child, ...(xray ? { xrayKubeconfig: xray } : {}) });
    });
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`the explorer exited (${code})`)));
  });
}

/**
 * The floor for any proxy on Node: a bare pass-through (node:http server, node:https keep-alive
 * agent, the body piped) with none of the explorer's checks, in a process of its own. It shows how
 * much of the explorer's added latency is Node's HTTP stack itself.
 */
const FLOOR_PROXY = `
import { createServer } from 'node:http';
import { Agent, request } from 'node:https';
const u = new URL(process.env.FLOOR_SERVER);
const agent = new Agent({ keepAlive: true, ca: process.env.FLOOR_CA, cert: process.env.FLOOR_CERT, key: process.env.FLOOR_KEY });
const hop = new Set(['connection', 'keep-alive', 'transfer-encoding']);
const srv = createServer({ noDelay: true }, (req, res) => {
  const up = request({ hostname: u.hostname, port: u.port, method: req.method, path: req.url, agent, headers: { accept: req.headers.accept ?? '*/*' } }, (r) => {
    const out = [];
    for (let i = 0; i < r.rawHeaders.length; i += 2) if (!hop.has(r.rawHeaders[i].toLowerCase())) out.push(r.rawHeaders[i], r.rawHeaders[i + 1]);
    res.writeHead(r.statusCode, out);
    r.pipe(res);
  });
  up.on('error', () => res.destroy());
  up.end();
});
srv.listen(0, '127.0.0.1', () => process.stdout.write(srv.address().port + '\\n'));
`;

export function startFloorProxy(server: string, creds: { ca: string; cert: string; key: string }): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((ok, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', FLOOR_PROXY], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, FLOOR_SERVER: server, FLOOR_CA: creds.ca, FLOOR_CERT: creds.cert, FLOOR_KEY: creds.key },
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) ok({ url: `http://127.0.0.1:${out.trim()}/`, child });
    });
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`the floor proxy exited (${code})`)));
  });
}

/** Starts `kubectl proxy` on a free loopback port; resolves with its base URL once it serves. */
export function startKubectlProxy(kubectl: string, kubeconfig: string): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((ok, fail) => {
    const child = spawn(kubectl, ['proxy', '--port=0', '--address=127.0.0.1', `--kubeconfig=${kubeconfig}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /Starting to serve on 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) ok({ url: `http://127.0.0.1:${m[1]}/`, child });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', fail);
    child.once('exit', (code) => fail(new Error(`kubectl proxy exited (${code}): ${out}`)));
  });
}

export async function run(log: (line: string) => void): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-bench-'));
  // No controller manager: nothing else loads the API server while we measure.
  const cp = await startControlPlane({ dir, controllerManager: false, aggregatedApi: false, log });
  const srv = await startExplorer(cp.kubeconfig, dir);
  const kp = await startKubectlProxy(kubectlOf(cp.binaries), cp.kubeconfig);
  const floor = await startFloorProxy(cp.server, cp.credentials('admin'));
  try {
    const creds = cp.credentials('admin');
    const directAgent = new HttpsAgent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key });
    const proxyAgent = new HttpAgent({ keepAlive: true });
    const direct = client(httpsRequest, new URL(cp.server), directAgent, {});
    const proxy = client(httpRequest, new URL(`${srv.url}k8s/local-admin/`), proxyAgent, { 'X-Explorer-Token': srv.token });
    const kubectlAgent = new HttpAgent({ keepAlive: true });
    const kubectl = client(httpRequest, new URL(kp.url), kubectlAgent, {});
    const floorAgent = new HttpAgent({ keepAlive: true });
    const bare = client(httpRequest, new URL(floor.url), floorAgent, {});
    log(`kubernetes ${cp.kubernetesVersion}, ${cp.server} direct vs ${srv.url}k8s/local-admin/ vs kubectl proxy ${kp.url} vs a bare Node proxy ${floor.url} (all keep-alive)`);

    // Small GET: interleaved so that all four see the same server state; warm-up first (WARM_UP_ROUNDS).
    const small = '/api/v1/namespaces/default';
    for (let i = 0; i < WARM_UP_ROUNDS; i++) {
      await direct('GET', small);
      await proxy('GET', small);
      await kubectl('GET', small);
      await bare('GET', small);
    }
    const tDirect: number[] = [];
    const tProxy: number[] = [];
    const tKubectl: number[] = [];
    const tBare: number[] = [];
    const cpu0 = [cpuMs(srv.child.pid), cpuMs(kp.child.pid), cpuMs(floor.child.pid)];
    for (let i = 0; i < SMALL_REQUESTS; i++) {
      for (const [send, out] of [[direct, tDirect], [proxy, tProxy], [kubectl, tKubectl], [bare, tBare]] as const) {
        const t0 = performance.now();
        const r = await send('GET', small);
        out.push(performance.now() - t0);
        if (r.status !== 200) throw new Error(`GET ${small}: ${r.status}`);
      }
    }
    const p50d = percentile(tDirect, 50);
    const p50p = percentile(tProxy, 50);
    const p50k = percentile(tKubectl, 50);
    const p50b = percentile(tBare, 50);
    const cpu1 = [cpuMs(srv.child.pid), cpuMs(kp.child.pid), cpuMs(floor.child.pid)];
    const perRequest = (i: number) => (cpu0[i] === undefined || cpu1[i] === undefined ? 'n/a' : `${(((cpu1[i]! - cpu0[i]!) * 1000) / SMALL_REQUESTS).toFixed(0)} µs`);
    log(`small GET ${small} x${SMALL_REQUESTS}: direct p50 ${ms(p50d)} p90 ${ms(percentile(tDirect, 90))}; explorer p50 ${ms(p50p)} p90 ${ms(percentile(tProxy, 90))}; kubectl proxy p50 ${ms(p50k)} p90 ${ms(percentile(tKubectl, 90))}; bare Node proxy p50 ${ms(p50b)} p90 ${ms(percentile(tBare, 90))}`);
    log(`small GET added p50: explorer ${ms(p50p - p50d)}, kubectl proxy ${ms(p50k - p50d)}, bare Node proxy ${ms(p50b - p50d)}`);
    log(`CPU per small GET (user + system, whole process): explorer ${perRequest(0)}, kubectl proxy ${perRequest(1)}, bare Node proxy ${perRequest(2)}`);

    // Large list.
    const ns = 'bench';
    await direct('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CREATE_CONCURRENCY }, async () => {
        while (next < CONFIGMAPS) {
          const i = next++;
          const r = await direct('POST', `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, labels: { bench: 'true' } }, data: { index: String(i), text: 'lorem ipsum '.repeat(8) } }));
          if (r.status !== 201) throw new Error(`create cm-${i}: ${r.status}`);
        }
      }),
    );
    log(`created ${CONFIGMAPS} ConfigMaps (${CREATE_CONCURRENCY} at a time) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const list = `/api/v1/namespaces/${ns}/configmaps`;
    const senders = { direct, proxy, kubectl, bare } as const;
    const order = ['direct', 'proxy', 'kubectl', 'bare'] as const;
    const times = { direct: [] as number[], proxy: [] as number[], kubectl: [] as number[], bare: [] as number[] };
    let bytes = 0;
    for (const send of Object.values(senders)) await send('GET', list);
    // Each round lists once through each path, starting one further along each time: the API
    // server's garbage collector runs every few lists (each allocates megabytes while encoding), and
    // a fixed order would hand its pauses to the same path every round.
    for (let i = 0; i < LIST_REPEATS; i++) {
      for (let j = 0; j < order.length; j++) {
        const which = order[(i + j) % order.length]!;
        const t = performance.now();
        const r = await senders[which]('GET', list);
        times[which].push(performance.now() - t);
        if (r.status !== 200) throw new Error(`GET ${list} (${which}): ${r.status} after ${(performance.now() - t).toFixed(0)} ms`);
        if (which === 'direct') bytes = r.bytes;
      }
    }
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const med = (which: keyof typeof times) => percentile(times[which], 50);
    const mbps = (t: number) => (bytes / (1024 * 1024) / (t / 1000)).toFixed(1);
    const describe = (which: keyof typeof times) => `median ${ms(med(which))} (${mbps(med(which))} MiB/s; p10 ${ms(percentile(times[which], 10))}, p90 ${ms(percentile(times[which], 90))}, mean ${ms(sum(times[which]) / LIST_REPEATS)})`;
    log(`large list ${list} (${CONFIGMAPS} items, ${(bytes / (1024 * 1024)).toFixed(1)} MiB JSON) x${LIST_REPEATS} each, order rotated per round: direct ${describe('direct')}; explorer ${describe('proxy')}; kubectl proxy ${describe('kubectl')}; bare Node proxy ${describe('bare')}`);
    log(`large list throughput from the summed times (one slow list weighs in whole): explorer/direct ${(sum(times.direct) / sum(times.proxy)).toFixed(3)}, kubectl proxy/direct ${(sum(times.direct) / sum(times.kubectl)).toFixed(3)}, bare Node proxy/direct ${(sum(times.direct) / sum(times.bare)).toFixed(3)}`);

    // The lean method: the same three paths through the leanest client (one socket each).
    const hwm0 = peakRssMiB(srv.child.pid);
    const lean = await measureLean(
      [
        { name: 'direct', base: cp.server, tls: creds },
        { name: 'explorer', base: `${srv.url}k8s/local-admin/`, headers: { 'X-Explorer-Token': srv.token } },
        { name: 'kubectl', base: kp.url },
      ],
      { small, list, ...LEAN },
    );
    const hwm1 = peakRssMiB(srv.child.pid);
    log(`lean (http.get, one keep-alive socket per path, bytes counted only; ${LEAN.warmUp} warm-up rounds, ${LEAN.rounds} timed): small GET p50 direct ${ms(lean.p50.direct)}, added explorer ${ms(lean.addedP50.explorer)}, kubectl proxy ${ms(lean.addedP50.kubectl)}; large list (${(lean.listBytes / 1048576).toFixed(1)} MiB) median direct ${ms(lean.listMedian.direct)}, explorer ${ms(lean.listMedian.explorer)}, kubectl proxy ${ms(lean.listMedian.kubectl)}`);
    log(`explorer peak RSS: ${hwm0?.toFixed(0) ?? 'n/a'} MiB before the lean lists, ${hwm1?.toFixed(0) ?? 'n/a'} MiB after (list ${(lean.listBytes / 1048576).toFixed(1)} MiB)`);

    directAgent.destroy();
    proxyAgent.destroy();
    kubectlAgent.destroy();
    floorAgent.destroy();
    return {
      name: 'proxy',
      ratios: {
        // Goal <= 1.0: the explorer adds no more latency than kubectl proxy.
        'small GET added p50 explorer/kubectl proxy': (p50p - p50d) / (p50k - p50d),
        'small GET p50 explorer/direct': p50p / p50d,
        // What Node's HTTP stack alone adds, against kubectl proxy: the floor of the ratio above.
        'small GET added p50 bare Node proxy/kubectl proxy': (p50b - p50d) / (p50k - p50d),
        // Goal >= 0.95 (higher is better).
        // Throughput at the median list of each path: a list that met a pause of the API server's
        // garbage collector or another process on these two shared cores is one of LIST_REPEATS.
        'large list throughput explorer/direct (higher is better)': med('direct') / med('proxy'),
        'large list throughput kubectl proxy/direct (higher is better)': med('direct') / med('kubectl'),
        'large list throughput bare Node proxy/direct (higher is better)': med('direct') / med('bare'),
        // The lean method (lean.ts). Goals: added p50 <= kubectl proxy's; list throughput >= kubectl
        // proxy's and >= 0.95 of direct; the proxy's memory bounded (growth far below the list's size).
        'lean: small GET added p50 explorer/kubectl proxy': lean.addedP50.explorer / lean.addedP50.kubectl,
        'lean: large list throughput explorer/direct (higher is better)': lean.listMedian.direct / lean.listMedian.explorer,
        'lean: large list throughput explorer/kubectl proxy (higher is better)': lean.listMedian.kubectl / lean.listMedian.explorer,
        'lean: explorer peak RSS growth during the lists / list size': hwm0 !== undefined && hwm1 !== undefined ? (hwm1 - hwm0) / (lean.listBytes / 1048576) : NaN,
      },
    };
  } finally {
    kp.child.kill('SIGTERM');
    floor.child.kill('SIGTERM');
    srv.child.kill('SIGTERM');
    await cp.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// The scale bench: the goals at a size of cluster where other tools break, each as a
// ratio against a baseline from the same run. One control plane is filled by the seeder
// (proxy/cluster/seed.ts: realistic Pods spread over namespaces, and CRDs), then:
//   lists      the Lists view over every Pod (scale-browser.ts) against kubectl and the data floor
//   watch      a streaming list of every Pod in a watch pane: events/s, long tasks, memory
//   discovery  the Discovery view and schemas with the CRDs, against kubectl api-resources
//   proxy      the lean method (lean.ts) with the whole Pod list as the large list, and the
//              explorer's peak RSS over it
// `npm run bench -- scale` runs it at 3,000 Pods and 30 CRDs (short); `--objects 150000` at the
// issue's size (300 CRDs from 150,000 on; `--crds N` to choose). `--cluster-dir DIR` keeps the
// control plane's state in DIR and seeds it only when it does not hold the size asked for, so that
// the 150,000-Pod seed (half an hour on this machine) is made once.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium } from '@playwright/test';
import { type ControlPlane, kubeRequest, startControlPlane } from '../proxy/cluster/controlplane';
import { kubectlOf } from '../proxy/cluster/build';
import { seedCluster, seedGroup, seedNamespace } from '../proxy/cluster/seed';
import { startExplorerServer } from '../proxy/src/server';
import { peakRssMiB } from './cpu';
import { measureLean } from './lean';
import { startExplorer, startFloorProxy, startKubectlProxy } from './proxy';
import type { BenchResult } from './run';
import { compareDiscovery, compareLists } from './scale-compare';
import { scaleDiscovery, scaleLists, type ScaleTarget } from './scale-browser';
import { scaleWatch } from './scale-watch';

// Read when the bench runs, not when this module loads: run.ts sets them from its flags after
// the imports.
let OBJECTS = 0;
let CRDS = 0;
let NAMESPACES = 0;
let CLUSTER_DIR: string | undefined;
/** SCALE_ONLY=lists,watch: some of the parts only. */
let ONLY: string[] | undefined;

function configure(): void {
  OBJECTS = Number(process.env.SCALE_OBJECTS ?? 3000);
  CRDS = Number(process.env.SCALE_CRDS ?? (OBJECTS >= 150_000 ? 300 : 30));
  NAMESPACES = Math.max(1, Math.ceil(OBJECTS / 1000));
  CLUSTER_DIR = process.env.SCALE_CLUSTER_DIR;
  ONLY = process.env.SCALE_ONLY?.split(',');
}
const PREFIX = 'seed';
/** The seeder's kinds, ten per group (seed.ts). */
const KINDS = ['Widget', 'Gadget', 'Sprocket', 'Gear', 'Lever', 'Pulley', 'Valve', 'Spring', 'Bolt', 'Rivet'];

/** How many objects a list holds, from one item and remainingItemCount. */
async function count(cp: ControlPlane, path: string): Promise<number> {
  const r = await kubeRequest(cp.server, cp.credentials('admin'), 'GET', `${path}?limit=1`);
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status}`);
  const l = JSON.parse(r.body) as { items: unknown[]; metadata: { remainingItemCount?: number } };
  return l.items.length + (l.metadata.remainingItemCount ?? 0);
}

/** The seeded resources aggregated discovery serves (each CRD's group shows once its handlers are installed). */
async function servedSeedResources(cp: ControlPlane): Promise<number> {
  const r = await kubeRequest(cp.server, cp.credentials('admin'), 'GET', '/apis', undefined, { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
  const d = JSON.parse(r.body) as { items: { metadata: { name: string }; versions: { resources: unknown[] }[] }[] };
  return d.items.filter((g) => g.metadata.name.startsWith(`${PREFIX}-g`)).reduce((n, g) => n + (g.versions[0]?.resources.length ?? 0), 0);
}

/** Seeds the cluster unless it holds the size asked for already (a kept --cluster-dir). */
async function ensureSeeded(cp: ControlPlane, log: (l: string) => void): Promise<void> {
  const pods = await count(cp, '/api/v1/pods');
  if (pods > OBJECTS) throw new Error(`the cluster holds ${pods} Pods, more than the ${OBJECTS} asked for: another size's --cluster-dir?`);
  if (pods < OBJECTS || (await servedSeedResources(cp)) < CRDS) {
    await seedCluster(cp.server, cp.credentials('admin'), { pods: OBJECTS, namespaces: NAMESPACES, crds: CRDS, prefix: PREFIX, log });
  } else log(`the cluster holds ${pods.toLocaleString('en-US')} Pods already: not seeded again`);
  const deadline = Date.now() + 600_000;
  while ((await servedSeedResources(cp)) < CRDS) {
    if (Date.now() > deadline) throw new Error(`discovery serves ${await servedSeedResources(cp)} of the ${CRDS} seeded CRDs after 10 minutes`);
    await new Promise((ok) => setTimeout(ok, 1000));
  }
  const ns = await kubeRequest(cp.server, cp.credentials('admin'), 'POST', '/api/v1/namespaces', { metadata: { name: 'bench-scale-empty' } });
  if (ns.status !== 201 && ns.status !== 409) throw new Error(`creating bench-scale-empty: ${ns.status}`);
}

/** Runs a part, logs its failure and goes on: at 150,000 objects one part failing must not lose the others' numbers. */
async function part(name: string, log: (l: string) => void, fn: () => Promise<Record<string, number>>): Promise<Record<string, number>> {
  if (ONLY && !ONLY.includes(name)) return {};
  const t0 = Date.now();
  try {
    const r = await fn();
    log(`(${name}: ${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    return r;
  } catch (e) {
    log(`${name}: FAILED after ${((Date.now() - t0) / 1000).toFixed(0)} s: ${e instanceof Error ? e.message : String(e)}`);
    return { [`${name}: failed`]: NaN };
  }
}

/**
 * The lean method (lean.ts) at scale. Added p50 of a small GET; list throughput on one seeded
 * namespace's Pods (1,000 Pods), many lists per path, because the list of every Pod takes
 * kube-apiserver 11–24 s and two or three of those per path measured its garbage collector's
 * pauses rather than the paths (two quiet runs gave 0.67 and 1.75); then that whole list once per
 * path, for the explorer's peak RSS over it (memory bounded) and its time as an indication.
 */
async function scaleProxy(cp: ControlPlane, dir: string, log: (l: string) => void): Promise<Record<string, number>> {
  const srv = await startExplorer(cp.kubeconfig, dir);
  const kp = await startKubectlProxy(kubectlOf(cp.binaries), cp.kubeconfig);
  const floor = await startFloorProxy(cp.server, cp.credentials('admin'));
  try {
    const paths = [
      { name: 'direct' as const, base: cp.server, tls: cp.credentials('admin') },
      { name: 'explorer' as const, base: `${srv.url}k8s/local-admin/`, headers: { 'X-Explorer-Token': srv.token } },
      { name: 'kubectl' as const, base: kp.url },
    ];
    const rounds = { warmUp: 1000, rounds: 1500, lists: 30 };
    const nsList = `/api/v1/namespaces/${seedNamespace(PREFIX, 0)}/pods`;
    // The bare Node pass-through takes part in the namespace's rounds only (not in the every-Pod list).
    const lean = await measureLean([...paths, { name: 'bare' as const, base: floor.url }], { small: '/api/v1/namespaces/default', list: nsList, ...rounds });
    const nsMib = lean.listBytes / 1048576;
    log(`proxy (lean: http.get, one keep-alive socket per path; ${rounds.warmUp} warm-up rounds, ${rounds.rounds} timed, ${rounds.lists} lists of ${nsList}): small GET p50 direct ${lean.p50.direct.toFixed(3)} ms, added explorer ${lean.addedP50.explorer.toFixed(3)} ms, kubectl proxy ${lean.addedP50.kubectl.toFixed(3)} ms, a bare Node pass-through ${lean.addedP50.bare!.toFixed(3)} ms; the namespace's Pods (${nsMib.toFixed(1)} MiB) median direct ${lean.listMedian.direct.toFixed(1)} ms, explorer ${lean.listMedian.explorer.toFixed(1)} ms, kubectl proxy ${lean.listMedian.kubectl.toFixed(1)} ms, bare Node ${lean.listMedian.bare!.toFixed(1)} ms`);
    const hwm0 = peakRssMiB(srv.child.pid);
    const all = await measureLean(paths, { small: '/api/v1/namespaces/default', list: '/api/v1/pods', warmUp: 0, rounds: 1, lists: 1, listWarmUp: false });
    const hwm1 = peakRssMiB(srv.child.pid);
    const mib = all.listBytes / 1048576;
    log(`proxy: every Pod (${mib.toFixed(0)} MiB) once per path: direct ${all.listMedian.direct.toFixed(0)} ms, explorer ${all.listMedian.explorer.toFixed(0)} ms, kubectl proxy ${all.listMedian.kubectl.toFixed(0)} ms (one list each: kube-apiserver's pauses decide these); the explorer's peak RSS ${hwm0?.toFixed(0) ?? 'n/a'} MiB before, ${hwm1?.toFixed(0) ?? 'n/a'} MiB after`);
    return {
      'proxy (lean): small GET added p50 explorer / kubectl proxy (goal <= 1)': lean.addedP50.explorer / lean.addedP50.kubectl,
      // The floor of any proxy written for Node: its HTTP server and client with nothing of ours.
      'proxy (lean): small GET added p50 explorer / a bare Node pass-through': lean.addedP50.explorer / lean.addedP50.bare!,
      'proxy (lean): a namespace of Pods, list throughput explorer / kubectl proxy (goal >= 1, higher is better)': lean.listMedian.kubectl / lean.listMedian.explorer,
      'proxy (lean): a namespace of Pods, list throughput explorer / direct (goal >= 0.95, higher is better)': lean.listMedian.direct / lean.listMedian.explorer,
      'proxy (lean): explorer peak RSS growth over the every-Pod list / its size (bounded: goal << 1)': hwm0 !== undefined && hwm1 !== undefined ? (hwm1 - hwm0) / mib : NaN,
    };
  } finally {
    kp.child.kill('SIGTERM');
    floor.child.kill('SIGTERM');
    srv.child.kill('SIGTERM');
  }
}

export async function run(log: (line: string) => void): Promise<BenchResult> {
  configure();
  if (!existsSync('dist/index.html')) {
    log('dist/ missing: building the SPA (vite build)');
    if (spawnSync('npx', ['vite', 'build'], { stdio: 'inherit' }).status !== 0) throw new Error('vite build failed');
  }
  const started = Date.now();
  const dir = CLUSTER_DIR ?? mkdtempSync(join(tmpdir(), 'kube-explorer-bench-scale-'));
  // No controller manager: nothing else loads the API server, and the Pods stay as seeded.
  const cp = await startControlPlane({ dir, controllerManager: false, aggregatedApi: false, apiServerReadyTimeoutMs: 900_000, log: () => undefined });
  log(`control plane ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const work = mkdtempSync(join(tmpdir(), 'kube-explorer-bench-scale-work-'));
  try {
    log(`scale: ${OBJECTS.toLocaleString('en-US')} Pods in ${NAMESPACES} namespaces, ${CRDS} CRDs (state in ${dir})`);
    await ensureSeeded(cp, log);
    const ratios: Record<string, number> = {};
    const srv = await startExplorerServer({ port: 0, kubeconfigPath: cp.kubeconfig, staticDir: 'dist', log: () => undefined });
    // SCALE_WATCH_COMPARE=<dir>: another build of the SPA for the watch part (scale-watch.ts);
    // SCALE_LISTS_COMPARE / SCALE_DISCOVERY_COMPARE for those parts (scale-compare.ts).
    const compareDir = process.env.SCALE_WATCH_COMPARE ?? process.env.SCALE_LISTS_COMPARE ?? process.env.SCALE_DISCOVERY_COMPARE;
    const compare = compareDir ? await startExplorerServer({ port: 0, kubeconfigPath: cp.kubeconfig, staticDir: compareDir, log: () => undefined }) : undefined;
    // A JS heap cap per isolate (the page's and the watch worker's): a renderer that needs more dies
    // alone ("out of memory", reported by the part) instead of taking the machine's memory.
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--js-flags=--max-old-space-size=4096'] });
    try {
      const home = join(work, 'kubectl-home');
      mkdirSync(home);
      const t: ScaleTarget = { browser, url: srv.url, token: srv.token, kubectl: kubectlOf(cp.binaries), env: { ...process.env, HOME: home, KUBECONFIG: cp.kubeconfig }, objects: OBJECTS, log,
        apiserver: { server: cp.server, creds: cp.credentials('admin') },
        // The seeder's naming (seed.ts): Pod i in namespace floor(i / Pods per namespace).
        podPath: (i) => `/api/v1/namespaces/${seedNamespace(PREFIX, Math.floor(i / Math.ceil(OBJECTS / NAMESPACES)))}/pods/pod-${String(i).padStart(6, '0')}`,
        compareUrl: compare?.url };
      const lastGroup = seedGroup(PREFIX, Math.floor((CRDS - 1) / KINDS.length));
      const crdResource = `${KINDS[(CRDS - 1) % KINDS.length]!.toLowerCase()}s`;
      const listsCompare = process.env.SCALE_LISTS_COMPARE;
      const discoveryCompare = process.env.SCALE_DISCOVERY_COMPARE;
      Object.assign(ratios, await part('discovery', log, () => (discoveryCompare ? compareDiscovery(t, discoveryCompare, lastGroup, crdResource) : scaleDiscovery(t, lastGroup, crdResource))));
      Object.assign(ratios, await part('lists', log, () => (listsCompare ? compareLists(t, listsCompare) : scaleLists(t))));
      Object.assign(ratios, await part('watch', log, () => scaleWatch(t)));
    } finally {
      await browser.close();
      await srv.close();
      await compare?.close();
    }
    Object.assign(ratios, await part('proxy', log, () => scaleProxy(cp, work, log)));
    return { name: `scale ${OBJECTS}`, ratios };
  } finally {
    await cp.stop();
    rmSync(work, { recursive: true, force: true });
    if (!CLUSTER_DIR) rmSync(dir, { recursive: true, force: true });
  }
}

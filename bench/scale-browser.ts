// The browser half of the scale bench (scale.ts): the Lists view and the Discovery view with its
// schemas (the watch pane: scale-watch.ts), each in headless Chromium against a seeded cluster, each
// against its baseline from the same run (kubectl from the same build, or the data read by Node
// through the same proxy with no page). Long tasks come from the Long Tasks API, memory from
// forced GCs (the page's heap).
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { Browser, Page } from '@playwright/test';
import type { Credentials } from '../proxy/cluster/controlplane';
import { heapAfterGc, MARKS, scrollFrames, timeExplorer, timeKubectl } from './lists';
import { DESCRIBE_FRAME, LONG_FRAMES } from './longFrames';
import { traceLongTasks } from './longTaskTrace';

const LISTS_TRACE = process.env.SCALE_LISTS_TRACE === '1';

export interface ScaleTarget {
  browser: Browser;
  /** The explorer serving dist/, and its token (for Node's reads through the proxy). */
  url: string;
  token: string;
  kubectl: string;
  /** Environment for kubectl: KUBECONFIG and a HOME of its own (its discovery cache). */
  env: NodeJS.ProcessEnv;
  objects: number;
  log: (line: string) => void;
  /** kube-apiserver and an admin's credentials, for requests straight to it (the watch part's live writes and direct streams). */
  apiserver: { server: string; creds: Credentials };
  /** The path of the i-th seeded Pod (i from 0; the first 200 share a namespace). */
  podPath: (i: number) => string;
  /** SCALE_WATCH_COMPARE=<dir>: an explorer serving another build of the SPA, measured beside dist/. */
  compareUrl?: string;
}

/**
 * Main-thread tasks over 50 ms (Long Tasks API), with their start (performance.now()), from the
 * document's start; and the long animation frames, which say what each was (longFrames.ts).
 */
export const LONG_TASKS = `
  window.__longTasks = [];
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([e.startTime, e.duration]); }).observe({ type: 'longtask', buffered: true });
  } catch {}
${LONG_FRAMES}`;

export interface LongTasks {
  longest: number;
  count: number;
  /** What the longest was: its long animation frame's script, rendering and the rest, in one line (longFrames.ts). */
  frame: string;
}

/**
 * The longest main-thread task of the current document that started after `from` (an expression
 * evaluated in the page, a performance.now() time), how many there were, and what the longest was.
 */
export function longTasks(page: Page, from = '0'): Promise<LongTasks> {
  return page.evaluate(`(() => {
    const from = ${from};
    const ts = window.__longTasks.filter(([s]) => s >= from);
    const top = ts.reduce((m, t) => (!m || t[1] > m[1] ? t : m), null);
    return { longest: top ? top[1] : 0, count: ts.length, frame: ${DESCRIBE_FRAME}(from, top) };
  })()`);
}

/** The longer of two longest tasks, with what it was. */
export const longer = (a: LongTasks, b: LongTasks): LongTasks => (b.longest > a.longest ? b : a);
export const NO_LONG_TASK: LongTasks = { longest: 0, count: 0, frame: 'no task over 50 ms' };

/**
 * SCALE_CPU_THROTTLE=N: the discovery pages' main thread N times slower (CDP), so that a response
 * more often arrives whole while the page is busy: for a change to how a body is read, seen side
 * by side. Every task is N times longer too: compare what the long frames were, not their count.
 */
async function throttle(page: Page): Promise<void> {
  const rate = Number(process.env.SCALE_CPU_THROTTLE ?? 1);
  if (rate > 1) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate });
}

/** kubectl holds every row before printing; past this it is stopped (see timeKubectl). */
const KUBECTL_MAX_RSS_MIB = Number(process.env.SCALE_KUBECTL_MAX_RSS_MIB ?? 4096);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Every Table chunk of a list through the explorer's proxy, keep-alive, JSON.parse'd, no page: the Lists view's data floor. */
async function tableFloor(t: ScaleTarget, path: string, includeObject: string, chunk: number): Promise<{ ms: number; rows: number }> {
  const agent = new HttpAgent({ keepAlive: true });
  const get = (p: string) =>
    new Promise<string>((ok, fail) => {
      const headers = { 'X-Explorer-Token': t.token, Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json' };
      const req = httpRequest(new URL(p, t.url), { agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? ok(Buffer.concat(chunks).toString()) : fail(new Error(`floor: HTTP ${res.statusCode}`))));
      });
      req.on('error', fail);
      req.end();
    });
  const t0 = performance.now();
  let rows = 0;
  let token: string | undefined;
  do {
    const q = new URLSearchParams({ limit: String(chunk), includeObject, ...(token ? { continue: token } : {}) });
    const page = JSON.parse(await get(`${path}?${q}`)) as { rows: unknown[]; metadata: { continue?: string } };
    rows += page.rows.length;
    token = page.metadata.continue || undefined;
  } while (token);
  agent.destroy();
  return { ms: performance.now() - t0, rows };
}

/**
 * The Lists view over every Pod of the cluster (all namespaces, chunks of 500, load=all) against
 * `kubectl get pods -A --chunk-size=500` and the data floor; heap per 1,000 rows over the same view
 * holding an empty list (a label selector that matches nothing); scrolling; long tasks while loading.
 */
export async function scaleLists(t: ScaleTarget): Promise<Record<string, number>> {
  const CHUNK = 500;
  const repeats = t.objects >= 50_000 ? 1 : 3;
  const context = await t.browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(MARKS + LONG_TASKS);
  const page = await context.newPage();
  const url = (extra: Record<string, string>) => `${t.url}?${new URLSearchParams({ context: 'local-admin', view: 'lists', group: '', version: 'v1', resource: 'pods', limit: String(CHUNK), ...extra })}`;
  const kubectlArgs = ['get', 'pods', '-A', `--chunk-size=${CHUNK}`];
  try {
    // Warm-ups: kubectl's discovery cache, the page's code; neither reads the large list.
    await timeKubectl(t.kubectl, ['get', 'pods', '-n', 'default', `--chunk-size=${CHUNK}`], t.env);
    await page.goto(url({ labelSelector: 'bench-scale=none' }));
    await page.getByRole('status').filter({ hasText: '0 rows in 1 page, list complete' }).waitFor({ timeout: 120_000 });
    const heapEmpty = await heapAfterGc(context, page);
    const k: { first: number; done: number; killed?: { ms: number; rssMiB: number } }[] = [];
    const e: { first: number; done: number }[] = [];
    const floors: number[] = [];
    let loading = NO_LONG_TASK;
    for (let i = 0; i < repeats; i++) {
      k.push(await timeKubectl(t.kubectl, kubectlArgs, t.env, KUBECTL_MAX_RSS_MIB));
      if (LISTS_TRACE && i === 0) {
        // SCALE_LISTS_TRACE=1: what the longest tasks after the first row were made of.
        t.log(
          await traceLongTasks(t.browser, page, async () => {
            e.push(await timeExplorer(page, url({ load: 'all' }), t.objects));
            return page.evaluate(() => (window as unknown as { __lists: { first: number } }).__lists.first - performance.timeOrigin);
          }),
        );
      } else e.push(await timeExplorer(page, url({ load: 'all' }), t.objects));
      // From the first row on: the chunks' work, not the boot's evaluation of the bundle.
      loading = longer(loading, await longTasks(page, 'window.__lists.first - performance.timeOrigin'));
      const f = await tableFloor(t, '/k8s/local-admin/api/v1/pods', 'Metadata', CHUNK);
      if (f.rows !== t.objects) throw new Error(`the data floor read ${f.rows} rows, not ${t.objects}`);
      floors.push(f.ms);
    }
    const killed = k.find((x) => x.killed)?.killed;
    if (killed) t.log(`lists: kubectl ${kubectlArgs.join(' ')} stopped after ${killed.ms} ms at ${killed.rssMiB.toFixed(0)} MiB resident, before its first line (the cap: ${KUBECTL_MAX_RSS_MIB} MiB); the ratios against it are bounds (its time is at least that)`);
    // A kubectl stopped at the memory cap would have taken at least that long.
    const kFirst = median(k.map((x) => (x.killed ? x.killed.ms : x.first)));
    const kDone = median(k.map((x) => (x.killed ? x.killed.ms : x.done)));
    const eFirst = median(e.map((x) => x.first));
    const eDone = median(e.map((x) => x.done));
    const floor = median(floors);
    const heapAll = await heapAfterGc(context, page);
    const perThousand = (heapAll - heapEmpty) / 1024 / (t.objects / 1000);
    const frames = await scrollFrames(page);
    // Sort by a column, then find in the rows, each on every row loaded: the longest task meanwhile.
    const shown = page.getByLabel('Rows shown');
    let from = await page.evaluate(() => performance.now());
    await page.getByRole('button', { name: 'Name', exact: true }).click();
    await shown.filter({ hasText: `${t.objects.toLocaleString('en-US')} of ${t.objects.toLocaleString('en-US')} rows, sorted by Name` }).waitFor({ timeout: 300_000 });
    const sortMs = (await page.evaluate(() => performance.now())) - from;
    const sortTask = await longTasks(page, String(from));
    from = await page.evaluate(() => performance.now());
    await page.getByRole('searchbox', { name: 'Find in rows' }).fill('pod-00001');
    await shown.filter({ hasText: 'contain' }).filter({ hasNotText: 'updating' }).waitFor({ timeout: 300_000 });
    const findMs = (await page.evaluate(() => performance.now())) - from;
    const findTask = await longTasks(page, String(from));
    t.log(`lists: sort by Name over every row ${sortMs.toFixed(0)} ms, longest task ${sortTask.longest.toFixed(0)} ms; find "pod-00001" ${findMs.toFixed(0)} ms ("${await shown.textContent()}"), longest task ${findTask.longest.toFixed(0)} ms`);
    t.log(`lists: the longest task sorting, ${sortTask.frame}; finding, ${findTask.frame}`);
    t.log(`lists: ${t.objects.toLocaleString('en-US')} Pods, all namespaces, chunks of ${CHUNK} (median of ${repeats}): kubectl ${kubectlArgs.join(' ')} first line ${kFirst} ms, done ${kDone} ms; explorer first row ${eFirst} ms, all rows ${eDone} ms; data floor (Table chunks, includeObject=Metadata, through the proxy, JSON.parse, no page) ${floor.toFixed(0)} ms`);
    t.log(`lists: the longest task while loading, ${loading.frame}`);
    t.log(`lists: longest main-thread task while loading ${loading.longest.toFixed(0)} ms; heap after GC ${(heapEmpty / 1048576).toFixed(1)} MiB empty, ${(heapAll / 1048576).toFixed(1)} MiB with every row: ${perThousand.toFixed(1)} KiB per 1,000 rows; scrolling in 120 jumps, time to the second frame after each: p50 ${frames.p50.toFixed(1)} ms, p95 ${frames.p95.toFixed(1)} ms, max ${frames.max.toFixed(1)} ms; the same page with no jump, two frames: p50 ${frames.idle.p50.toFixed(1)} ms, p95 ${frames.idle.p95.toFixed(1)} ms, max ${frames.idle.max.toFixed(1)} ms`);
    return {
      [`lists: first row / kubectl first line (goal <= 1)${killed ? ' (at most: kubectl stopped at its memory cap)' : ''}`]: eFirst / kFirst,
      [`lists: all rows / kubectl done (goal <= 1)${killed ? ' (at most: kubectl stopped at its memory cap)' : ''}`]: eDone / kDone,
      'lists: all rows / data floor': eDone / floor,
      'lists: heap KiB per 1,000 rows / 100 KiB (goal <= 1)': perThousand / 100,
      'lists: scroll p95 to the second frame / 33.3 ms (two frames at 60 Hz; goal <= 1)': frames.p95 / (2000 / 60),
      // Two frames as this machine gives them in the same page and minute: vsync jitter on two
      // busy cores puts even an idle page's p95 above the nominal 33.3 ms.
      'lists: scroll p95 to the second frame / the same page\'s p95 of two frames with no jump (goal <= 1)': frames.p95 / frames.idle.p95,
      'lists: longest main-thread task while loading / 50 ms (goal <= 1)': loading.longest / 50,
      'lists: longest main-thread task sorting and finding / 50 ms (goal <= 1)': Math.max(sortTask.longest, findTask.longest) / 50,
    };
  } finally {
    await context.close();
  }
}

/**
 * Date.now() when an element matching `selector` first appears, and performance.now() when the
 * view's frame (`shell`) did: tasks after that are the view's work on the data, before it the
 * boot's (evaluating the bundle), which every view pays alike.
 */
const APPEARS = (shell: string, selector: string) => `
  window.__appeared = undefined;
  window.__shell = undefined;
  new MutationObserver((_, o) => {
    if (window.__shell === undefined && document.querySelector(${JSON.stringify(shell)})) window.__shell = performance.now();
    if (document.querySelector(${JSON.stringify(selector)})) { window.__appeared = Date.now(); o.disconnect(); }
  }).observe(document, { subtree: true, childList: true });
`;

/** With `trace`, the page is traced and what its longest tasks from the view's frame on were made of is logged under that name. */
export async function timeToAppear(t: ScaleTarget, url: string, selector: string, trace?: string): Promise<{ ms: number; longest: number; boot: number; view: LongTasks; withBoot: LongTasks }> {
  const context = await t.browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(APPEARS('section[aria-label="Discovery"]', selector) + LONG_TASKS);
  const page = await context.newPage();
  try {
    await throttle(page);
    const start = Date.now();
    let at = 0;
    const load = async () => {
      await page.goto(url);
      await page.waitForFunction(() => (window as unknown as { __appeared?: number }).__appeared !== undefined, undefined, { timeout: 120_000, polling: 20 });
      at = await page.evaluate(() => (window as unknown as { __appeared: number }).__appeared);
      // Whatever the view still does once it shows (rendering the rest, a schema's second document).
      await page.waitForTimeout(1000);
      return page.evaluate(() => (window as unknown as { __shell?: number }).__shell ?? 0);
    };
    if (trace) t.log(`${trace}:\n${await traceLongTasks(t.browser, page, load, 4)}`);
    else await load();
    const all = await longTasks(page);
    const after = await longTasks(page, 'window.__shell ?? 0');
    return { ms: at - start, longest: after.longest, boot: all.longest, view: after, withBoot: all };
  } finally {
    await context.close();
  }
}

/**
 * The editor's schema load: the Edit view of a new Pod reached by an in-page navigation from a
 * CRD's editor (so Monaco, its workers and the page are already up, and what is timed is the Pod's
 * document, the largest, read, parsed and turned into the editor's JSON schema), until the notice
 * says the editor is schema-aware. Longest main-thread task from the navigation on, 1 s settled.
 */
export async function editorSchemaLoad(t: ScaleTarget, group: string, resource: string): Promise<{ ms: number; longest: number; task: LongTasks }> {
  const context = await t.browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.addInitScript(LONG_TASKS);
  const page = await context.newPage();
  const edit = (extra: Record<string, string>) => `?${new URLSearchParams({ context: 'local-admin', view: 'edit', namespace: 'default', version: 'v1', ...extra })}`;
  const notice = page.getByRole('status', { name: 'Schema notice' });
  try {
    await throttle(page);
    await page.goto(`${t.url}${edit({ group, resource })}`);
    await notice.filter({ hasText: 'Schema-aware' }).waitFor({ timeout: 120_000 });
    await page.locator('.view-lines').first().waitFor({ timeout: 120_000 });
    await page.waitForTimeout(1000);
    const from = await page.evaluate((to) => {
      const at = performance.now();
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
      return at;
    }, edit({ group: '', resource: 'pods' }));
    await notice.filter({ hasText: '/openapi/v3/api/v1' }).waitFor({ timeout: 120_000 });
    const ms = (await page.evaluate(() => performance.now())) - from;
    await page.waitForTimeout(1000);
    const task = await longTasks(page, String(from));
    return { ms, longest: task.longest, task };
  } finally {
    await context.close();
  }
}

/**
 * Discovery with many CRDs: the Discovery view until the last seeded group shows, against
 * `kubectl api-resources` (which reads discovery afresh each time); then a CRD's schema and the
 * Pod schema (the largest document) in the schema browser. Longest main-thread task over all.
 */
export async function scaleDiscovery(t: ScaleTarget, lastGroup: string, crdResource: string): Promise<Record<string, number>> {
  const k: number[] = [];
  const e: number[] = [];
  let longest = 0;
  let boot = 0;
  let viewTask = NO_LONG_TASK;
  let bootTask = NO_LONG_TASK;
  await timeKubectl(t.kubectl, ['api-resources'], t.env);
  const view = (extra: Record<string, string>) => `${t.url}?${new URLSearchParams({ context: 'local-admin', view: 'discovery', ...extra })}`;
  for (let i = 0; i < 3; i++) {
    k.push((await timeKubectl(t.kubectl, ['api-resources'], t.env)).done);
    const d = await timeToAppear(t, view({}), `[aria-label="${lastGroup}/v1"]`);
    e.push(d.ms);
    longest = Math.max(longest, d.longest);
    boot = Math.max(boot, d.boot);
    viewTask = longer(viewTask, d.view);
    bootTask = longer(bootTask, d.withBoot);
  }
  const crd = await timeToAppear(t, view({ group: lastGroup, version: 'v1', resource: crdResource }), 'table[aria-label="Fields"]');
  const pods = await timeToAppear(t, view({ group: '', version: 'v1', resource: 'pods' }), 'table[aria-label="Fields"]');
  const editor = await editorSchemaLoad(t, lastGroup, crdResource);
  t.log(`discovery: kubectl api-resources ${median(k)} ms; the Discovery view until the last group shows ${median(e)} ms (median of 3), longest task once the view's frame is up ${longest.toFixed(0)} ms (with the boot: ${boot.toFixed(0)} ms); schema of ${crdResource}.${lastGroup} shown in ${crd.ms} ms (longest task ${crd.longest.toFixed(0)} ms), of pods in ${pods.ms} ms (longest task ${pods.longest.toFixed(0)} ms); the editor's Pod schema loaded in ${editor.ms.toFixed(0)} ms (longest task ${editor.longest.toFixed(0)} ms)`);
  t.log(`discovery: the longest task of the view, ${viewTask.frame}`);
  t.log(`discovery: with the boot, ${bootTask.frame}`);
  t.log(`discovery: of the CRD's schema, ${crd.view.frame}`);
  t.log(`discovery: of the Pod schema, ${pods.view.frame}`);
  t.log(`discovery: of the editor's Pod schema load, ${editor.task.frame}`);
  return {
    'discovery: all groups on screen / kubectl api-resources (goal <= 1)': median(e) / median(k),
    'discovery: longest main-thread task, view and schemas / 50 ms (goal <= 1)': Math.max(longest, crd.longest, pods.longest) / 50,
    "discovery: longest main-thread task, the editor's Pod schema load / 50 ms (goal <= 1)": editor.longest / 50,
  };
}

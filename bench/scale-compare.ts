// Side by side with another build of the SPA, in one run on one cluster (scale.ts starts a second
// explorer server serving it): SCALE_LISTS_COMPARE=<dir> and SCALE_DISCOVERY_COMPARE=<dir> (the
// output of `vite build --outDir <dir>`). A change is judged against the build before it under the
// same machine load, never against an older number (docs/benchmarks.md, Method). The builds take
// turns, starting with a different one each round, so that a drift of the load weighs on both.
import type { CDPSession, Page } from '@playwright/test';
import { MARKS, scrollFrames, timeExplorer } from './lists';
import { traceLongTasks } from './longTaskTrace';
import { type CpuProfile, summariseProfile } from './profile';
import { editorSchemaLoad, LONG_TASKS, longer, longTasks, type LongTasks, NO_LONG_TASK, type ScaleTarget, timeToAppear } from './scale-browser';

const ROUNDS = Number(process.env.SCALE_COMPARE_ROUNDS ?? 3);
/** Runs of the scroll jumps per build and round, the builds' pages taking turns. */
const SCROLLS = Number(process.env.SCALE_COMPARE_SCROLLS ?? 4);
/** SCALE_COMPARE_TRACE=1: in the first round, each build's scroll jumps and discovery pages (but the editor's) traced, their longest tasks' work summarised. */
const TRACE = process.env.SCALE_COMPARE_TRACE === '1';
/** SCALE_COMPARE_TRACE_LOADS=1: every load traced (slower), its longest tasks from the first row on summarised. */
const TRACE_LOADS = process.env.SCALE_COMPARE_TRACE_LOADS === '1';
/** SCALE_COMPARE_PROFILE=1: a CPU profile of each build's first run of scroll jumps, self time by function (`vite build --minify false` for names). */
const PROFILE = process.env.SCALE_COMPARE_PROFILE === '1';

interface Work {
  task: number;
  script: number;
  style: number;
  layout: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `median ${median(xs).toFixed(1)} (${xs.map((x) => x.toFixed(0)).join(', ')})`;

/**
 * Every Pod listed in each build (load=all, chunks of 500), each in a page of its own: per round,
 * both pages load the list in turn (the longest main-thread task from the first row on, all rows'
 * time), then the two pages take turns at runs of the 120 scroll jumps (p95 to the second frame,
 * and the main thread's time per jump).
 */
export async function compareLists(t: ScaleTarget, dir: string): Promise<Record<string, number>> {
  if (!t.compareUrl) throw new Error('no explorer server for the build to compare');
  const url = (base: string) => `${base}?${new URLSearchParams({ context: 'local-admin', view: 'lists', group: '', version: 'v1', resource: 'pods', limit: '500', load: 'all' })}`;
  const open = async (name: string, base: string) => {
    const context = await t.browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript(MARKS + LONG_TASKS);
    const page = await context.newPage();
    // The main thread's time per jump by kind (Chromium's own counters over CDP): a sum over 121
    // jumps, steadier than a p95 on a shared machine, and it says which kind of work a change cut.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    return { name, url: url(base), context, page, cdp, loads: [] as number[], longest: [] as number[], top: NO_LONG_TASK, p95: [] as number[], p50: [] as number[], work: [] as Work[] };
  };
  const builds = [await open('dist', t.url), await open(dir, t.compareUrl)] as const;
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 0 ? builds : ([builds[1], builds[0]] as const);
      for (const b of order) {
        let e = { first: 0, done: 0 };
        const load = async () => {
          e = await timeExplorer(b.page, b.url, t.objects);
          return b.page.evaluate(() => (window as unknown as { __lists: { first: number } }).__lists.first - performance.timeOrigin);
        };
        if (TRACE_LOADS) t.log(`lists compare [${b.name}]: load ${r + 1}, the longest tasks from the first row on\n${await traceLongTasks(t.browser, b.page, load, 3)}`);
        else await load();
        b.loads.push(e.done);
        const lt = await longTasks(b.page, 'window.__lists.first - performance.timeOrigin');
        b.longest.push(lt.longest);
        b.top = longer(b.top, lt);
      }
      for (let s = 0; s < SCROLLS; s++) for (const b of s % 2 === 0 ? order : [order[1], order[0]]) await scrollRun(t, b, r === 0 && s === 0);
    }
    for (const b of builds) {
      t.log(`lists compare [${b.name}]: all rows ms ${fmt(b.loads)}; longest task while loading ms ${fmt(b.longest)}; scroll p95 ms ${fmt(b.p95)}; p50 ms ${fmt(b.p50)}`);
      t.log(`lists compare [${b.name}]: the longest task while loading, ${b.top.frame}`);
      const w = (k: keyof Work) => `${k} ${median(b.work.map((x) => x[k])).toFixed(2)}`;
      t.log(`lists compare [${b.name}]: main thread per jump, medians (ms): ${w('task')}, ${w('script')}, ${w('style')}, ${w('layout')} (tasks: ${b.work.map((x) => x.task.toFixed(1)).join(', ')})`);
    }
    const [a, c] = builds;
    return {
      [`lists compare: scroll p95 dist / ${dir}`]: median(a.p95) / median(c.p95),
      [`lists compare: main-thread task time per jump dist / ${dir}`]: median(a.work.map((x) => x.task)) / median(c.work.map((x) => x.task)),
      [`lists compare: longest loading task dist / ${dir} (max over ${ROUNDS})`]: Math.max(...a.longest) / Math.max(1, ...c.longest),
    };
  } finally {
    for (const b of builds) await b.context.close();
  }
}

interface Build {
  name: string;
  page: Page;
  cdp: CDPSession;
  p95: number[];
  p50: number[];
  work: Work[];
}

/** One run of the 120 scroll jumps in a build's page; the first may be traced or profiled (SCALE_COMPARE_TRACE, SCALE_COMPARE_PROFILE). */
async function scrollRun(t: ScaleTarget, b: Build, first: boolean): Promise<void> {
  const counters = async () => Object.fromEntries(((await b.cdp.send('Performance.getMetrics')) as { metrics: { name: string; value: number }[] }).metrics.map((m) => [m.name, m.value]));
  const before = await counters();
  const profiled = PROFILE && first;
  if (profiled) {
    await b.cdp.send('Profiler.enable');
    await b.cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await b.cdp.send('Profiler.start');
  }
  const f = TRACE && first ? await tracedScroll(t, b.page, b.name) : await scrollFrames(b.page);
  const after = await counters();
  if (profiled) t.log(summariseProfile((await b.cdp.send('Profiler.stop')).profile as CpuProfile, `lists compare [${b.name}]: the scroll jumps' main thread`));
  const per = (k: string) => ((after[k]! - before[k]!) * 1000) / 121;
  b.work.push({ task: per('TaskDuration'), script: per('ScriptDuration'), style: per('RecalcStyleDuration'), layout: per('LayoutDuration') });
  b.p95.push(f.p95);
  b.p50.push(f.p50);
}

async function tracedScroll(t: ScaleTarget, page: Page, name: string): Promise<{ p50: number; p95: number; max: number }> {
  let f = { p50: 0, p95: 0, max: 0 };
  const summary = await traceLongTasks(
    t.browser,
    page,
    async () => {
      f = await scrollFrames(page);
      return null;
    },
    4,
  );
  t.log(`lists compare [${name}]: the scroll jumps' longest tasks\n${summary}`);
  return f;
}

/**
 * The Discovery view and the schemas in each build, fresh pages in turn: the view until the last
 * seeded group shows, a CRD's schema and the Pod schema in the schema browser, the editor's Pod
 * schema load; for each, the longest task from the view's frame on (the boot's evaluation of the
 * bundle apart), how many pages had one over 50 ms, and what each of those was (longFrames.ts).
 */
export async function compareDiscovery(t: ScaleTarget, dir: string, lastGroup: string, crdResource: string): Promise<Record<string, number>> {
  const compareUrl = t.compareUrl;
  if (!compareUrl) throw new Error('no explorer server for the build to compare');
  const view = (base: string, extra: Record<string, string>) => `${base}?${new URLSearchParams({ context: 'local-admin', view: 'discovery', ...extra })}`;
  const fields = 'table[aria-label="Fields"]';
  const parts: { name: string; run: (base: string, trace?: string) => Promise<LongTasks> }[] = [
    { name: 'the Discovery view', run: async (base, trace) => (await timeToAppear(t, view(base, {}), `[aria-label="${lastGroup}/v1"]`, trace)).view },
    { name: "a CRD's schema", run: async (base, trace) => (await timeToAppear(t, view(base, { group: lastGroup, version: 'v1', resource: crdResource }), fields, trace)).view },
    { name: 'the Pod schema', run: async (base, trace) => (await timeToAppear(t, view(base, { group: '', version: 'v1', resource: 'pods' }), fields, trace)).view },
    { name: "the editor's Pod schema load", run: async (base) => (await editorSchemaLoad({ ...t, url: base }, lastGroup, crdResource)).task },
  ];
  const builds = [
    { name: 'dist', url: t.url, tasks: parts.map(() => [] as LongTasks[]) },
    { name: dir, url: compareUrl, tasks: parts.map(() => [] as LongTasks[]) },
  ];
  for (let r = 0; r < ROUNDS * 2; r++) {
    for (const b of r % 2 === 0 ? builds : [...builds].reverse()) {
      for (const [i, p] of parts.entries()) b.tasks[i]!.push(await p.run(b.url, TRACE && r === 0 ? `discovery compare [${b.name}]: ${p.name}, the longest tasks` : undefined));
    }
  }
  const ratios: Record<string, number> = {};
  for (const [i, p] of parts.entries()) {
    for (const b of builds) {
      const ts = b.tasks[i]!;
      const long = ts.filter((x) => x.longest > 50);
      t.log(`discovery compare [${b.name}], ${p.name}: longest task ms ${fmt(ts.map((x) => x.longest))}; over 50 ms in ${long.length} of ${ts.length} pages${long.map((x) => `\n  ${x.longest.toFixed(0)} ms, ${x.frame}`).join('')}`);
    }
    const max = (b: (typeof builds)[0]) => Math.max(1, ...b.tasks[i]!.map((x) => x.longest));
    ratios[`discovery compare: ${p.name}, longest task dist / ${dir} (max over ${ROUNDS * 2})`] = max(builds[0]!) / max(builds[1]!);
  }
  return ratios;
}

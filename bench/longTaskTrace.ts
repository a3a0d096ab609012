// What the longest main-thread tasks of a page were made of, from a Chrome trace: for each of the
// longest top-level tasks (RunTask) on the page's main thread after a given moment, the kinds of
// work inside it (script by entry point, style, layout, paint, GC) and the V8 samples' self time
// by function within it. For the long tasks the Long Tasks API reports without saying why.
import type { Browser, Page } from '@playwright/test';
import { sampledSelfTime, type TraceEvent } from './watch';

export const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'v8.execute', 'v8', 'blink', 'blink.user_timing', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'disabled-by-default-v8.gc'];

/**
 * Traces `run` on `page`; returns the trace's summary of the `count` longest main-thread tasks after
 * `fromMs` (the page's performance.now()), or, when `run` returns null (a trace with no navigation
 * in it), of the whole trace, with the main thread's busy time summed by kind of work over it.
 */
export async function traceLongTasks(browser: Browser, page: Page, run: () => Promise<number | null>, count = 3): Promise<string> {
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  const fromMs = await run();
  const buf = await browser.stopTracing();
  return summariseLongTasks(buf, fromMs, count);
}

function summariseLongTasks(buf: Buffer, fromMs: number | null, count: number): string {
  const events = (JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const isTask = (e: TraceEvent) => e.ph === 'X' && e.name === 'RunTask' && e.dur !== undefined;
  let main: string | undefined;
  let from = 0;
  let origin = 0;
  if (fromMs !== null) {
    // The page's performance.now() counts from its navigationStart: the last one of a main frame.
    const nav = events.filter((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args.data.documentLoaderURL?.startsWith('http')).at(-1);
    // The main thread of that page's renderer: a browser traces all its renderers (other pages').
    main = [...names.entries()].find(([k, n]) => n === 'CrRendererMain' && k.startsWith(`${nav?.pid}:`))?.[0];
    if (!main || !nav) return 'trace: no renderer main thread or navigationStart in the trace';
    origin = nav.ts;
    from = nav.ts + fromMs * 1000;
  } else {
    // No navigation: the busiest renderer main thread is the page's.
    const busy = new Map<string, number>();
    for (const e of events) if (isTask(e) && names.get(`${e.pid}:${e.tid}`) === 'CrRendererMain') busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + e.dur!);
    main = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (!main) return 'trace: no renderer main thread in the trace';
  }
  const all = events.filter((e) => isTask(e) && `${e.pid}:${e.tid}` === main && e.ts >= from);
  if (fromMs === null) origin = all.reduce((m, e) => Math.min(m, e.ts), Infinity);
  const tasks = [...all].sort((a, b) => b.dur! - a.dur!).slice(0, count);
  const lines: string[] = [];
  if (fromMs === null) lines.push(`trace: main thread ${all.length} tasks, busy ${(all.reduce((n, e) => n + e.dur!, 0) / 1000).toFixed(0)} ms: ${byKind(events, main, all)}`);
  lines.push(`trace: the ${tasks.length} longest main-thread tasks after ${(fromMs ?? 0).toFixed(0)} ms`);
  for (const t of tasks) {
    const end = t.ts + t.dur!;
    const inside = new Map<string, number>();
    for (const e of events) {
      if (e.ph !== 'X' || e === t || `${e.pid}:${e.tid}` !== main || e.ts < t.ts || e.ts >= end || e.dur === undefined) continue;
      const name = e.name === 'FunctionCall' ? `FunctionCall ${e.args?.data?.functionName || '(anonymous)'} ${e.args?.data?.url?.split('/').pop() ?? ''}` : e.name;
      inside.set(name, (inside.get(name) ?? 0) + e.dur);
    }
    const top = [...inside.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12);
    // The thread's CPU time in it: a task much longer than its CPU time waited for a core.
    const cpu = t.tdur !== undefined ? ` (CPU ${(t.tdur / 1000).toFixed(0)} ms)` : '';
    lines.push(`  ${(t.dur! / 1000).toFixed(0)} ms${cpu} at ${((t.ts - origin) / 1000).toFixed(0)} ms: ${top.map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`).join(', ')} (ms, nested events overlap)`);
    const self = sampledSelfTime(events, t.ts, end).get(main);
    if (self) lines.push(`    samples: ${[...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')} (ms, self time)`);
  }
  return lines.join('\n');
}

/** The main thread's time inside `tasks` by kind of work (trace event name, nested ones overlap), the largest first. */
function byKind(events: TraceEvent[], main: string, tasks: TraceEvent[]): string {
  const spans = tasks.map((t) => [t.ts, t.ts + t.dur!] as const).sort((a, b) => a[0] - b[0]);
  const inTask = (ts: number) => {
    let lo = 0;
    let hi = spans.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid]![1] <= ts) lo = mid + 1;
      else if (spans[mid]![0] > ts) hi = mid - 1;
      else return true;
    }
    return false;
  };
  const sums = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || e.name === 'RunTask' || e.dur === undefined || `${e.pid}:${e.tid}` !== main || !inTask(e.ts)) continue;
    sums.set(e.name, (sums.get(e.name) ?? 0) + e.dur);
  }
  return [...sums.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`).join(', ') + ' (ms, nested events overlap)';
}

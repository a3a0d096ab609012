// What the longest main-thread tasks of a page were made of, from a Chrome trace: for each of the
// longest top-level tasks (RunTask) on the page's main thread after a given moment, the kinds of
// work inside it (script by entry point, style, layout, paint, GC) and the V8 samples' self time
// by function within it. For the long tasks the Long Tasks API reports without saying why.
import type { Browser, Page } from '@playwright/test';
import { sampledSelfTime, type TraceEvent } from './watch';

export const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'v8.execute', 'v8', 'blink', 'blink.user_timing', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'disabled-by-default-v8.gc'];

/** Traces `run` on `page`; returns the trace's summary of the `count` longest main-thread tasks after `fromMs` (the page's performance.now()). */
export async function traceLongTasks(browser: Browser, page: Page, run: () => Promise<number>, count = 3): Promise<string> {
  await browser.startTracing(page, { categories: TRACE_CATEGORIES });
  const fromMs = await run();
  const buf = await browser.stopTracing();
  return summariseLongTasks(buf, fromMs, count);
}

function summariseLongTasks(buf: Buffer, fromMs: number, count: number): string {
  const events = (JSON.parse(buf.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  // The page's performance.now() counts from its navigationStart: the last one of a main frame.
  const nav = events.filter((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args.data.documentLoaderURL?.startsWith('http')).at(-1);
  // The main thread of that page's renderer: a browser traces all its renderers (other pages').
  const main = [...names.entries()].find(([k, n]) => n === 'CrRendererMain' && k.startsWith(`${nav?.pid}:`))?.[0];
  if (!main || !nav) return 'trace: no renderer main thread or navigationStart in the trace';
  const from = nav.ts + fromMs * 1000;
  const tasks = events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.dur !== undefined && `${e.pid}:${e.tid}` === main && e.ts >= from)
    .sort((a, b) => b.dur! - a.dur!)
    .slice(0, count);
  const lines = [`trace: the ${tasks.length} longest main-thread tasks after ${fromMs.toFixed(0)} ms`];
  for (const t of tasks) {
    const end = t.ts + t.dur!;
    const inside = new Map<string, number>();
    for (const e of events) {
      if (e.ph !== 'X' || e === t || `${e.pid}:${e.tid}` !== main || e.ts < t.ts || e.ts >= end || e.dur === undefined) continue;
      const name = e.name === 'FunctionCall' ? `FunctionCall ${e.args?.data?.functionName || '(anonymous)'} ${e.args?.data?.url?.split('/').pop() ?? ''}` : e.name;
      inside.set(name, (inside.get(name) ?? 0) + e.dur);
    }
    const top = [...inside.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12);
    lines.push(`  ${(t.dur! / 1000).toFixed(0)} ms at ${((t.ts - nav.ts) / 1000).toFixed(0)} ms: ${top.map(([n, d]) => `${n} ${(d / 1000).toFixed(1)}`).join(', ')} (ms, nested events overlap)`);
    const self = sampledSelfTime(events, t.ts, end).get(main);
    if (self) lines.push(`    samples: ${[...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')} (ms, self time)`);
  }
  return lines.join('\n');
}

// A page's dedicated workers (the watch worker) seen from a bench: CPU profiles of the page's main
// thread and of each worker, and a worker's heap after a GC. Playwright's CDP sessions reach pages
// only: a worker is reached through the page's session with Target.setAutoAttach (not flattened)
// and messages sent to it.
import type { CDPSession, Page } from '@playwright/test';
import { type CpuProfile, summariseProfile } from './profile';

export interface PageWorkers {
  /** Stops every profile and returns their summaries (with `profile`). */
  stopProfiles(): Promise<string>;
  /** Each worker's used heap after a forced GC, in bytes, by script name. */
  heapAfterGc(): Promise<Map<string, number>>;
  detach(): Promise<void>;
}

/** Attaches to the page's workers as they start (call before goto); `profile` also starts CPU profiles. */
export async function attachWorkers(page: Page, opts: { profile: boolean; intervalUs?: number }): Promise<PageWorkers> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const workers = new Map<string, { url: string; ready: Promise<unknown> }>();
  const pending = new Map<number, (r: unknown) => void>();
  let nextId = 1;
  const toWorker = (sessionId: string, method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    });
  cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const m = JSON.parse(e.message) as { id?: number; result?: unknown };
    if (m.id !== undefined) pending.get(m.id)?.(m.result);
  });
  const interval = opts.intervalUs ?? 200;
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string; url: string } }) => {
    if (e.targetInfo.type !== 'worker') return;
    const ready = opts.profile
      ? toWorker(e.sessionId, 'Profiler.enable')
          .then(() => toWorker(e.sessionId, 'Profiler.setSamplingInterval', { interval }))
          .then(() => toWorker(e.sessionId, 'Profiler.start'))
      : Promise.resolve();
    workers.set(e.sessionId, { url: e.targetInfo.url, ready });
  });
  if (opts.profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval });
    await cdp.send('Profiler.start');
  }
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const name = (url: string) => url.split('/').pop() ?? url;
  return {
    async stopProfiles() {
      const out = [summariseProfile((await cdp.send('Profiler.stop')).profile as CpuProfile, 'page main thread')];
      for (const [sid, w] of workers) {
        await w.ready;
        const r = (await toWorker(sid, 'Profiler.stop')) as { profile?: CpuProfile } | undefined;
        if (r?.profile) out.push(summariseProfile(r.profile, `worker ${name(w.url)}`));
      }
      return out.join('\n');
    },
    async heapAfterGc() {
      const out = new Map<string, number>();
      for (const [sid, w] of workers) {
        await toWorker(sid, 'HeapProfiler.collectGarbage');
        const r = (await toWorker(sid, 'Runtime.getHeapUsage')) as { usedSize?: number } | undefined;
        if (r?.usedSize !== undefined) out.set(name(w.url), r.usedSize);
      }
      return out;
    },
    detach: () => cdp.detach(),
  };
}

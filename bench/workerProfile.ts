// CPU profiles of a page's main thread and of its dedicated workers (the watch worker), for the
// benches' profiling options. Playwright's CDP sessions reach pages only: a worker is reached
// through the page's session with Target.setAutoAttach (not flattened) and messages sent to it.
import type { CDPSession, Page } from '@playwright/test';
import { type CpuProfile, summariseProfile } from './profile';

export interface Profiling {
  /** Stops every profile and returns their summaries. */
  stop(): Promise<string>;
}

/** Starts profiling the page's main thread now and each worker as it attaches (call before goto). */
export async function profilePageAndWorkers(page: Page, intervalUs = 200): Promise<Profiling> {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  const workers = new Map<string, string>();
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
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string; url: string } }) => {
    if (e.targetInfo.type !== 'worker') return;
    workers.set(e.sessionId, e.targetInfo.url);
    void toWorker(e.sessionId, 'Profiler.enable')
      .then(() => toWorker(e.sessionId, 'Profiler.setSamplingInterval', { interval: intervalUs }))
      .then(() => toWorker(e.sessionId, 'Profiler.start'));
  });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: intervalUs });
  await cdp.send('Profiler.start');
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  return {
    async stop() {
      const out = [summariseProfile((await cdp.send('Profiler.stop')).profile as CpuProfile, 'page main thread')];
      for (const [sid, url] of workers) {
        const r = (await toWorker(sid, 'Profiler.stop')) as { profile?: CpuProfile } | undefined;
        if (r?.profile) out.push(summariseProfile(r.profile, `worker ${url.split('/').pop()}`));
      }
      await cdp.detach();
      return out.join('\n');
    },
  };
}

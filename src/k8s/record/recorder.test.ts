import { describe, expect, it } from 'vitest';
import { duringLessonStep, observeResponse, Recorder, recorder } from './recorder';

const enc = (s: string) => new TextEncoder().encode(s);

/** A response whose body has a first chunk and then waits (as a slow or long body does). */
function slowResponse(): Response {
  let n = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      n += 1;
      if (n === 1) controller.enqueue(enc('{"kind":'));
      else return new Promise(() => undefined);
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
}

describe('observeResponse', () => {
  it('records a body read to its end as ended, whole', async () => {
    const r = new Recorder();
    r.start();
    const tap = r.begin({ context: 'c', method: 'GET', path: '/apis', via: 'http' })!;
    expect(await observeResponse(new Response('{"kind":"APIGroupList"}'), tap).text()).toBe('{"kind":"APIGroupList"}');
    const [x] = r.contents().exchanges;
    expect(x!.endedAt).toBeDefined();
    expect(x!.closedByReader).toBeUndefined();
  });

  it('records a body its reader cancelled (an aborted query) as closed by the page, not as a whole answer', async () => {
    const r = new Recorder();
    r.start();
    const tap = r.begin({ context: 'c', method: 'GET', path: '/apis', via: 'http' })!;
    const res = observeResponse(slowResponse(), tap);
    const reader = res.body!.getReader();
    await reader.read();
    await reader.cancel();
    const [x] = r.contents().exchanges;
    expect(x!.endedAt).toBeDefined();
    expect(x!.closedByReader).toBe(true);
  });
});

describe('the journal (a rolling recorder)', () => {
  const keep = (r: Recorder, path: string, body: string) => {
    const tap = r.begin({ context: 'c', method: 'GET', path, via: 'http' })!;
    tap.head(200, 'OK', []);
    tap.chunk(enc(body));
    tap.end();
  };

  it('forgets the oldest exchanges at its limit and goes on keeping the newest', async () => {
    const r = new Recorder();
    r.start({ limitBytes: 100, rolling: true });
    for (let i = 0; i < 10; i += 1) keep(r, `/x/${i}`, 'y'.repeat(20));
    const paths = r.contents().exchanges.map((x) => x.request.path);
    expect(paths).toEqual(['/x/5', '/x/6', '/x/7', '/x/8', '/x/9']);
    await Promise.resolve(); // the snapshot follows once per task
    expect(r.snapshot().state).toBe('recording');
    expect(r.snapshot().bytes).toBe(100);
  });

  it('does not keep half of a body too large for it, nor count bytes of an exchange it forgot', async () => {
    const r = new Recorder();
    r.start({ limitBytes: 100, rolling: true });
    const big = r.begin({ context: 'c', method: 'GET', path: '/big', via: 'http' })!;
    big.head(200, 'OK', []);
    big.chunk(enc('z'.repeat(20)));
    big.chunk(enc('z'.repeat(20)));
    big.end();
    expect(r.contents().exchanges[0]!.chunks).toEqual([]);
    await Promise.resolve();
    expect(r.snapshot().bytes).toBe(0);
    // A watch that keeps running after the journal forgot it.
    const watch = r.begin({ context: 'c', method: 'GET', path: '/w?watch=1', via: 'mux' })!;
    watch.head(200, 'OK', []);
    watch.chunk(enc('a'.repeat(20)));
    for (let i = 0; i < 5; i += 1) keep(r, `/x/${i}`, 'y'.repeat(20));
    expect(r.contents().exchanges.map((x) => x.request.path)).not.toContain('/w?watch=1');
    watch.chunk(enc('a'.repeat(20)));
    await Promise.resolve();
    expect(r.snapshot().bytes).toBe(100);
  });
});

describe('duringLessonStep', () => {
  it('marks the step in the recording and tags what leaves while it runs, and nothing after', async () => {
    recorder.start();
    try {
      await duringLessonStep({ id: 'watch-basics', step: 'list' }, async () => {
        recorder.begin({ context: 'c', method: 'GET', path: '/in-step', via: 'http' });
      });
      recorder.begin({ context: 'c', method: 'GET', path: '/after', via: 'http' });
      const { exchanges, marks } = recorder.contents();
      expect(exchanges.map((x) => [x.request.path, x.lesson])).toEqual([
        ['/in-step', { id: 'watch-basics', step: 'list' }],
        ['/after', undefined],
      ]);
      expect(marks.map((m) => m.label)).toEqual(['lesson watch-basics, step list']);
    } finally {
      recorder.clear();
    }
  });
});

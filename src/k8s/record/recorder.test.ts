import { describe, expect, it } from 'vitest';
import { observeResponse, Recorder } from './recorder';

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

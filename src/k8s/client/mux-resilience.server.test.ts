// The mux client's resilience against the real explorer server and API server: flow control from
// the page, pings, a refused token picked up anew. (`ws` stands in for the browser's WebSocket.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { MuxClient, MuxStreamError, MuxUnauthorizedError, type WebSocketConstructor } from './mux';

const WS = WebSocket as unknown as WebSocketConstructor;
let url: string;
let token: string;
const clients: MuxClient[] = [];
const client = (opts: ConstructorParameters<typeof MuxClient>[0]) => {
  const c = new MuxClient({ url, WebSocket: WS, ...opts });
  clients.push(c);
  return c;
};

beforeAll(() => {
  const explorer = useRealProxy();
  url = new URL('/proxy/mux', explorer.url.replace(/^http/, 'ws')).toString();
  token = explorer.token;
});
afterAll(() => {
  for (const c of clients) c.close();
});

async function drain(body: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const c of body) n += c.length;
  return n;
}

describe('MuxClient flow control', () => {
  it('a reader that does not read holds the proxy to its window; reading grants more until the body is complete', async () => {
    // The OpenAPI v2 document: megabytes in one response, sent as fast as the proxy may.
    const whole = await drain((await client({ token: () => token, windowBytes: 0 }).open({ context: TEST_CONTEXT, path: '/openapi/v2', headers: { Accept: 'application/json' } })).body);
    expect(whole).toBeGreaterThan(1024 * 1024);
    const window = 64 * 1024;
    const s = await client({ token: () => token, windowBytes: window }).open({ context: TEST_CONTEXT, path: '/openapi/v2', headers: { Accept: 'application/json' } });
    expect(s.status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));
    // The proxy stops once the window is spent: what waits in the page is the window plus at most
    // the upstream chunk that overdrew it.
    expect(s.queued()).toBeGreaterThan(0);
    expect(s.queued()).toBeLessThanOrEqual(window + 128 * 1024);
    expect(s.queued()).toBeLessThan(whole);
    expect(await drain(s.body)).toBe(whole);
  });
});

describe('MuxClient liveness and token', () => {
  it('answers pings: the round trip is measured', async () => {
    const c = client({ token: () => token, pingIntervalMs: 100, pongTimeoutMs: 5000 });
    const s = await c.open({ context: TEST_CONTEXT, path: '/version' });
    await drain(s.body);
    await expect.poll(() => c.lastRttMs, { timeout: 10_000 }).toBeGreaterThanOrEqual(0);
  });

  it('after a 4401, picks up the token refreshToken gives and carries on', async () => {
    let current = 'token-of-an-earlier-launch';
    const c = client({ token: () => current, refreshToken: async () => token });
    await expect(c.open({ context: TEST_CONTEXT, path: '/version' })).rejects.toBeInstanceOf(MuxStreamError);
    await expect
      .poll(async () => {
        try {
          const s = await c.open({ context: TEST_CONTEXT, path: '/version' });
          await drain(s.body);
          return s.status;
        } catch {
          return 0;
        }
      }, { timeout: 10_000 })
      .toBe(200);
    current = 'still wrong';
  });

  it('when no other token can be had, fails at once with MuxUnauthorizedError instead of retrying forever', async () => {
    const c = client({ token: () => 'wrong', refreshToken: async () => 'wrong' });
    await expect(c.open({ context: TEST_CONTEXT, path: '/version' })).rejects.toBeInstanceOf(MuxStreamError);
    await expect.poll(() => c.open({ context: TEST_CONTEXT, path: '/version' }).then(() => 'opened', (e: unknown) => (e as Error).name), { timeout: 10_000 }).toBe('MuxUnauthorizedError');
    await expect(c.open({ context: TEST_CONTEXT, path: '/version' })).rejects.toBeInstanceOf(MuxUnauthorizedError);
  });
});

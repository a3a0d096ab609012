// A peer that accepts the WebSocket and then says nothing (a frozen proxy, a half-open connection):
// the client must notice from its pings and fail the streams, not wait forever. A real socket on
// loopback, not a fake of any API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { MuxClient, MuxStreamError, type WebSocketConstructor } from './mux';

let wss: WebSocketServer;
let url: string;
beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const addr = wss.address();
  url = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/proxy/mux`;
});
afterAll(() => new Promise<void>((r) => wss.close(() => r())));

describe('MuxClient against a silent peer', () => {
  it('fails an open stream once the socket answered no ping within the timeout, and reports why', async () => {
    const c = new MuxClient({ url, token: () => 't', WebSocket: WebSocket as unknown as WebSocketConstructor, pingIntervalMs: 100, pongTimeoutMs: 400 });
    const started = Date.now();
    const err = await c.open({ context: 'x', path: '/version' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MuxStreamError);
    expect(String((err as Error).message)).toMatch(/did not answer/);
    expect(Date.now() - started).toBeLessThan(10_000);
    c.close();
  });
});

// A peer that accepts the TCP connection and never answers the WebSocket upgrade (a frozen
// explorer server, a relay that forwards nothing): the mux client must give up after its connect
// timeout and fail the open, not wait forever. A real socket on loopback, not a fake of any API.
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { MuxClient, MuxStreamError, type WebSocketConstructor } from './mux';

let server: Server;
let url: string;
const sockets: Socket[] = [];
beforeAll(async () => {
  // Reads the upgrade request and says nothing.
  server = createServer((s) => {
    sockets.push(s);
    s.on('data', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  url = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/proxy/mux`;
});
afterAll(() => {
  for (const s of sockets) s.destroy();
  return new Promise<void>((r) => server.close(() => r()));
});

describe('MuxClient against a peer that never answers the upgrade', () => {
  it('fails the open after the connect timeout, says why, and connects anew on the next open', async () => {
    const c = new MuxClient({ url, token: () => 't', WebSocket: WebSocket as unknown as WebSocketConstructor, connectTimeoutMs: 300 });
    const err = await c.open({ context: 'x', path: '/version' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MuxStreamError);
    expect(String((err as Error).message)).toMatch(/no answer in/);
    // The socket given up is forgotten: the next open tries a new connection (and fails the same way).
    const before = sockets.length;
    await expect(c.open({ context: 'x', path: '/version' })).rejects.toThrow(/no answer in/);
    expect(sockets.length).toBeGreaterThan(before);
    c.close();
  });
});

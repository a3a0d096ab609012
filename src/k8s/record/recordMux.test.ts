// What the recorder keeps of a watch the page stops reading through the mux (a pane closed, a view
// left, a pause): a stream closed by the page, which a replay leaves open and quiet, never one the
// server ended, which a replay ends, and after which the pane would watch again ("watch opened"
// entries the live session never had). A real socket on loopback speaking the mux protocol.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { MuxClient, type WebSocketConstructor } from '../client/mux';
import { setTransportHooks } from '../client/transportHooks';
import { Recorder } from './recorder';

let wss: WebSocketServer;
let url: string;
beforeAll(async () => {
  wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  // A peer that answers each stream with its headers and one frame, then stays quiet (a watch).
  wss.on('connection', (ws) => {
    ws.on('message', (data, binary) => {
      if (binary) return;
      const m = JSON.parse(String(data)) as { type: string; id?: number };
      if (m.type !== 'open' || m.id === undefined) return;
      ws.send(JSON.stringify({ type: 'response', id: m.id, status: 200, headers: { 'content-type': 'application/json' } }));
      const frame = Buffer.alloc(4 + 3);
      frame.writeUInt32BE(m.id, 0);
      frame.write('{}\n', 4);
      ws.send(frame);
    });
  });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const addr = wss.address();
  url = `ws://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/proxy/mux`;
});
afterAll(() => new Promise<void>((r) => wss.close(() => r())));
afterEach(() => setTransportHooks({}));

describe('recording a mux stream the page stops reading', () => {
  it.each(['abort', 'close'] as const)('keeps a watch the page ended (%s) while waiting for its next frame as closed by the page', async (how) => {
    const rec = new Recorder();
    rec.start();
    setTransportHooks({ begin: (req) => rec.begin(req) });
    const c = new MuxClient({ url, token: () => 't', WebSocket: WebSocket as unknown as WebSocketConstructor });
    try {
      const ac = new AbortController();
      const s = await c.open({ context: 'x', path: '/api/v1/configmaps?watch=1', signal: ac.signal });
      const it = s.body[Symbol.asyncIterator]();
      expect((await it.next()).done).toBe(false);
      const next = it.next();
      if (how === 'abort') ac.abort();
      else s.close();
      expect((await next).done).toBe(true);
      const [x] = rec.contents().exchanges;
      expect(x!.endedAt).toBeDefined();
      expect(x!.closedByReader).toBe(true);
    } finally {
      c.close();
    }
  });
});

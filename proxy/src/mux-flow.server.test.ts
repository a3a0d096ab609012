// The mux's flow control and pings at the wire level, against the real explorer server and API
// server (the page side is tested in src/k8s/client/mux-resilience.server.test.ts).
import { describe, expect, inject, it } from 'vitest';
import type { MuxEnd, MuxPong } from '../../protocol/mux';
import { MuxClient, waitUntil } from './test-support';

const port = () => Number(new URL(inject('explorer').url).port);
const token = () => inject('explorer').token;

async function connected(): Promise<MuxClient> {
  const mux = MuxClient.connect(port());
  await mux.opened;
  mux.send({ type: 'auth', token: token() });
  return mux;
}

describe('/proxy/mux flow control and pings', () => {
  it('answers a ping with a pong carrying the same seq', async () => {
    const mux = await connected();
    try {
      mux.send({ type: 'ping', seq: 42 });
      await waitUntil('the pong', () => mux.messages.some((m) => m.type === 'pong'));
      expect(mux.messages.find((m): m is MuxPong => m.type === 'pong')).toEqual({ type: 'pong', seq: 42 });
    } finally {
      mux.ws.close();
    }
  });

  it('sends no more than the window (plus the chunk that overdrew it) until credit comes, then the rest', async () => {
    const mux = await connected();
    try {
      mux.send({ type: 'open', id: 1, context: 'local-admin', path: '/openapi/v2', headers: { Accept: 'application/json' }, window: 4096 });
      await waitUntil('the first bytes', () => mux.body(1).length > 0);
      await new Promise((r) => setTimeout(r, 1000));
      const held = mux.body(1).length;
      expect(held).toBeLessThanOrEqual(4096 + 128 * 1024);
      expect(mux.messages.some((m) => m.type === 'end')).toBe(false);
      mux.send({ type: 'credit', id: 1, bytes: 256 * 1024 * 1024 });
      await waitUntil('the end', () => mux.messages.some((m) => m.type === 'end'), 30_000);
      expect(mux.messages.find((m): m is MuxEnd => m.type === 'end')).toEqual({ type: 'end', id: 1 });
      expect(mux.body(1).length).toBeGreaterThan(held);
      expect(() => JSON.parse(mux.body(1).toString())).not.toThrow();
    } finally {
      mux.ws.close();
    }
  });

  it('closes with 4400 on a window that is not a positive integer', async () => {
    const mux = await connected();
    mux.send({ type: 'open', id: 1, context: 'local-admin', path: '/version', window: -5 });
    expect(await mux.closed).toBe(4400);
  });
});

// The mux's flow control and pings at the wire level, against the real explorer server and API
// server (the page side is tested in src/k8s/client/mux-resilience.server.test.ts).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { MuxEnd, MuxPong } from '../../protocol/mux';
import { testCluster } from '../cluster/cluster.testkit';
import { MUX_COALESCE_BYTES } from './mux';
import { MuxClient, createNamespace, deleteNamespace, waitUntil } from './explorer.testkit';

const port = () => Number(new URL(inject('explorer').url).port);
const token = () => inject('explorer').token;

async function connected(): Promise<MuxClient> {
  const mux = MuxClient.connect(port());
  await mux.opened;
  mux.send({ type: 'auth', token: token() });
  return mux;
}

const cluster = testCluster(inject('controlPlane'));

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

  describe('frames', () => {
    const OBJECTS = 400;
    let ns = '';
    beforeAll(async () => {
      ns = await createNamespace(cluster, 'mux-frames');
      for (let i = 0; i < OBJECTS; i += 20) {
        await Promise.all(
          Array.from({ length: 20 }, (_, j) =>
            cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i + j}`, labels: { 'mux-frames': 'yes' } }, data: { i: String(i + j) } }),
          ),
        );
      }
    }, 120_000);
    afterAll(() => deleteNamespace(cluster, ns));

    it('sends the chunks of a burst read in one turn as a few frames, every byte in order', async () => {
      const mux = await connected();
      try {
        // A streaming list: kube-apiserver writes the 400 initial events one by one (a TLS record
        // each), then the initial-events-end bookmark. A window of 1 KiB holds the upstream paused
        // after the first chunk, so the rest waits in the socket buffers; credit then lets the
        // proxy read it in bursts of many records per turn of its event loop, whatever the load.
        const q = new URLSearchParams({ labelSelector: 'mux-frames=yes', watch: '1', sendInitialEvents: 'true', allowWatchBookmarks: 'true', resourceVersionMatch: 'NotOlderThan', resourceVersion: '' });
        mux.send({ type: 'open', id: 7, context: 'local-admin', path: `/api/v1/namespaces/${ns}/configmaps?${q.toString()}`, headers: { Accept: 'application/json' }, window: 1024 });
        await waitUntil('the first bytes', () => mux.body(7).length > 0);
        await new Promise((r) => setTimeout(r, 1000));
        const before = mux.frames.filter((f) => f.id === 7).length;
        mux.send({ type: 'credit', id: 7, bytes: 64 * 1024 * 1024 });
        await waitUntil('the initial-events-end bookmark', () => mux.body(7).includes('"k8s.io/initial-events-end":"true"'), 30_000);
        const lines = mux.body(7).toString().trimEnd().split('\n');
        const events = lines.map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
        // (The label leaves out kube-root-ca.crt, which kube-controller-manager adds.) Every line whole
        // (no frame boundary inside one survived as a broken line), in the server's order.
        expect(events.filter((e) => e.type === 'ADDED')).toHaveLength(OBJECTS);
        expect(events.at(-1)!.type).toBe('BOOKMARK');
        const frames = mux.frames.filter((f) => f.id === 7);
        // Relayed one upstream chunk per frame, the buffered events came as one frame per TLS
        // record (hundreds); coalesced, a frame carries everything read in one turn, up to 64 KiB.
        expect(frames.length - before).toBeLessThan(OBJECTS / 20);
        for (const f of frames) expect(f.data.length).toBeLessThanOrEqual(MUX_COALESCE_BYTES + 16 * 1024);
        mux.send({ type: 'close', id: 7 });
      } finally {
        mux.ws.close();
      }
    });

    it('sends every frame of a finished response before its end', async () => {
      const mux = await connected();
      const order: string[] = [];
      mux.ws.on('message', (data: Buffer, isBinary) => order.push(isBinary ? 'frame' : (JSON.parse(data.toString()) as { type: string }).type));
      try {
        mux.send({ type: 'open', id: 8, context: 'local-admin', path: `/api/v1/namespaces/${ns}/configmaps?labelSelector=mux-frames%3Dyes`, headers: { Accept: 'application/json' } });
        await waitUntil('the end', () => order.includes('end'), 30_000);
        expect(order.at(-1)).toBe('end');
        expect(order.indexOf('response')).toBe(0);
        expect((JSON.parse(mux.body(8).toString()) as { items: unknown[] }).items).toHaveLength(OBJECTS);
      } finally {
        mux.ws.close();
      }
    });
  });
});

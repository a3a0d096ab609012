// WatchSession's idle timer and Retry-After, against the real local control plane.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { testCluster } from '../../../proxy/cluster/cluster.testkit';
import { MuxClient, type WebSocketConstructor } from '../client/mux';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { type NoteEntry, type SessionSnapshot, WatchSession } from './session';
import { untilSnapshot } from './untilSnapshot.testkit';

const cluster = () => testCluster(inject('controlPlane'));
let mux: MuxClient;
let ns: string;

beforeAll(async () => {
  const explorer = useRealProxy();
  mux = new MuxClient({ url: new URL('/proxy/mux', explorer.url.replace(/^http/, 'ws')).toString(), token: () => explorer.token, WebSocket: WebSocket as unknown as WebSocketConstructor });
  ns = `idle-${randomBytes(3).toString('hex')}`;
  expect((await cluster().request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
});
afterAll(async () => {
  mux.close();
  await cluster().request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

const until = untilSnapshot;
const notes = (snap: SessionSnapshot) => snap.entries.toArray().filter((e): e is NoteEntry => e.kind === 'note');

/** A started list-then-watch session on this file's namespace; stopped after `body`, whatever happens. */
async function withSession(labelSelector: string, bookmarks: boolean, idleTimeoutMs: number, body: (s: WatchSession) => Promise<void>): Promise<void> {
  const s = new WatchSession(
    { context: TEST_CONTEXT, group: '', version: 'v1', resource: 'configmaps', namespace: ns, labelSelector, mode: 'list-watch', bookmarks, asTable: false },
    // A connect timeout longer than the test's: the idle clock must not wait for it (it did: the
    // connect timer stayed armed after the headers, and an idle stream was caught only when it fired).
    { mux, idleTimeoutMs, connectTimeoutMs: 120_000, schedule: (f) => setTimeout(f, 0) },
  );
  s.start();
  try {
    await body(s);
  } finally {
    s.stop();
  }
}

describe('WatchSession resilience', () => {
  it('a watch with bookmarks that hears nothing for the idle timeout is taken for dead and watched again from its resourceVersion, losing nothing', async () => {
    await withSession('idle=yes', true, 1500, async (s) => {
      const first = await until(s, (x) => x.state === 'watching' && notes(x).some((n) => n.note === 'open'));
      const rv = first.lastResourceVersion;
      expect(first.lastHeardAt).toBeGreaterThan(0);
      const idle = await until(s, (x) => notes(x).some((n) => n.note === 'idle'));
      expect(notes(idle).find((n) => n.note === 'idle')!.message).toMatch(/nothing received .* for 2 s|taken for dead/);
      const again = await until(s, (x) => notes(x).filter((n) => n.note === 'open').length >= 2);
      expect(notes(again).filter((n) => n.note === 'open').at(-1)!.message).toBe(`watch opened from resourceVersion "${rv}"`);
      // And it still works: an object created now arrives.
      expect((await cluster().request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'late', labels: { idle: 'yes' } } })).status).toBe(201);
      await until(s, (x) => x.objects.has(`${ns}/late`));
    });
  });

  it('a watch that hears events more often than its idle timeout is never taken for dead, however long it runs', async () => {
    await withSession('busy=yes', true, 1000, async (s) => {
      await until(s, (x) => x.state === 'watching' && notes(x).some((n) => n.note === 'open'));
      // Four idle timeouts long, an event every 300 ms: each one moves the deadline.
      for (let i = 0; i < 13; i++) {
        expect((await cluster().request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: `busy-${i}`, labels: { busy: 'yes' } } })).status).toBe(201);
        await new Promise((r) => setTimeout(r, 300));
      }
      const snap = await until(s, (x) => x.objects.has(`${ns}/busy-12`));
      expect(notes(snap).filter((n) => n.note === 'idle')).toEqual([]);
      expect(notes(snap).filter((n) => n.note === 'open')).toHaveLength(1);
    });
  });

  it('a watch without bookmarks has no idle timer: silence is all a quiet collection sends', async () => {
    await withSession('quiet=yes', false, 500, async (s) => {
      await until(s, (x) => x.state === 'watching' && notes(x).some((n) => n.note === 'open'));
      await new Promise((r) => setTimeout(r, 2000));
      const snap = s.getSnapshot();
      expect(snap.idleTimeoutMs).toBeUndefined();
      expect(notes(snap).filter((n) => n.note === 'idle')).toEqual([]);
      expect(snap.state).toBe('watching');
    });
  });
});

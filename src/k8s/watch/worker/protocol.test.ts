// The worker protocol, without a server: batches built from a session's snapshots bring the page's
// mirror to the same state (timeline kept, counts, objects), and a whole session hosted over a real
// MessageChannel (host.ts on one end, the page's WorkerConnection on the other) turns a watch body
// captured from kube-apiserver (codecs/fixtures/watch-configmaps.json) into the mirror's state.
import { readFileSync } from 'node:fs';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KubeApiError, MuxStreamError, MuxUnauthorizedError, type MuxRequest, type MuxStream } from '../../client';
import { hostWatchSessions, type Port } from './host';
import { BatchBuilder, fromWire, isPartial, type SessionBatch, SessionMirror, toWire, updatedOrder } from './protocol';
import { entryBytes, ObjectSummary, type PaneSnapshot, type SessionSnapshot, stateVersion, type TimelineEntry, type WatchSpec } from '../session';
import { summarize } from '../objects';
import { Ring } from '../timeline';
import type { KubeObject } from '../types';
import { type Endpoint, RENDER_GAP_MAX_MS, RENDER_GAP_MS, RENDER_SHARE, WorkerConnection, WorkerWatchSession } from './client';
import { untilSnapshot } from '../untilSnapshot.testkit';

const fixture = readFileSync(new URL('../../../codecs/fixtures/watch-configmaps.json', import.meta.url));
const lines = fixture.toString('utf8').trim().split('\n');
const events = lines.map((l) => JSON.parse(l) as { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KubeObject });

const cm = (name: string, rv: string): KubeObject => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'ns', resourceVersion: rv, managedFields: [] }, data: { big: 'x'.repeat(100) } });

/** A session-like source: a ring and a map changed by hand, snapshotted as WatchSession does. */
class Source {
  ring: Ring<TimelineEntry>;
  objects = new Map<string, ObjectSummary>();
  changes: Map<string, ObjectSummary | undefined> | 'all' = new Map();
  clears = 0;
  seq = 0;
  constructor(cap: number, maxBytes = Infinity) {
    this.ring = new Ring(cap, { maxBytes, sizeOf: entryBytes });
  }
  event(type: 'ADDED' | 'MODIFIED' | 'DELETED', o: KubeObject): void {
    const key = `ns/${o.metadata!.name}`;
    const previous = this.objects.get(key);
    const row = summarize(o, type);
    if (type === 'DELETED') this.objects.delete(key);
    else this.objects.set(key, row);
    if (this.changes !== 'all') this.changes.set(key, type === 'DELETED' ? undefined : row);
    this.ring.push({ kind: 'event', seq: ++this.seq, type, object: o, key, resourceVersion: o.metadata!.resourceVersion, receivedAt: 1, size: 300, origin: 'live', raw: JSON.stringify({ type, object: o }), previousResourceVersion: previous?.resourceVersion });
  }
  snapshot(): SessionSnapshot {
    return { version: this.seq, state: 'watching', entries: this.ring.view(), dropped: this.ring.dropped, bytes: this.ring.bytes, counts: { ADDED: 0, MODIFIED: 0, DELETED: 0, BOOKMARK: 0, ERROR: 0 }, objects: this.objects, bodies: { kept: 0, bytes: 0, maxBytes: 0, evicted: 0 }, initialEventsDone: true };
  }
  drain() {
    const changes = this.changes;
    this.changes = new Map();
    return { changes, clears: this.clears };
  }
}

const seqs = (s: SessionSnapshot | PaneSnapshot) => [...s.entries].map((e) => e.seq);
const rvs = (m: ReadonlyMap<string, KubeObject | ObjectSummary>) => Object.fromEntries([...m].map(([k, o]) => [k, stateVersion(o)]));

describe('batches from the worker to the page', () => {
  it('bring the mirror to the same kept timeline and objects, also when more arrive between two batches than the timeline keeps', () => {
    const src = new Source(5);
    const b = new BatchBuilder();
    const mirror = new SessionMirror();
    src.event('ADDED', cm('a', '1'));
    src.event('ADDED', cm('b', '2'));
    mirror.apply(b.build(src.snapshot(), src.drain()));
    expect(seqs(mirror.snapshot)).toEqual([1, 2]);
    for (let i = 0; i < 12; i++) src.event('MODIFIED', cm(i % 2 ? 'a' : 'b', String(3 + i)));
    src.event('DELETED', cm('b', '15'));
    const batch = b.build(src.snapshot(), src.drain());
    // Only what the session still keeps crosses over (5 entries, not 13).
    expect(batch.entries.map((e) => (Array.isArray(e) ? e[0] : e.seq))).toEqual([11, 12, 13, 14, 15]);
    mirror.apply(batch);
    expect(seqs(mirror.snapshot)).toEqual(seqs(src.snapshot()));
    expect(rvs(mirror.snapshot.objects)).toEqual(rvs(src.objects));
    expect(mirror.snapshot.dropped).toBe(src.ring.dropped);
  });

  it('carry rows: what a timeline row and the state table draw; the full objects stay in the worker', () => {
    const src = new Source(10);
    const b = new BatchBuilder();
    const mirror = new SessionMirror();
    src.event('ADDED', cm('a', '1'));
    src.event('MODIFIED', cm('a', '2'));
    const batch = b.build(src.snapshot(), src.drain());
    expect(batch.entries[1]).toEqual([2, 'MODIFIED', 'ns/a', '2', 1, 300, 'live', 0]);
    expect(batch.objects.set).toEqual([['ns/a', '2', 'MODIFIED']]);
    mirror.apply(batch);
    const e = mirror.snapshot.entries.at(1)!;
    expect(e).toEqual({ kind: 'event', seq: 2, type: 'MODIFIED', key: 'ns/a', resourceVersion: '2', receivedAt: 1, size: 300, origin: 'live', partial: true });
    expect(mirror.snapshot.objects.get('ns/a')).toEqual(new ObjectSummary('2', undefined, 'MODIFIED'));
    // as=Table: the row's cells, the resourceVersion read from the row object.
    const table = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: {}, rows: [{ cells: ['t', 3], object: { kind: 'PartialObjectMetadata', metadata: { name: 't', namespace: 'ns', resourceVersion: '7', managedFields: [] } } }] };
    src.objects.set('ns/t', summarize(table, 'ADDED'));
    src.changes = new Map([['ns/t', summarize(table, 'ADDED')]]);
    const tb = b.build(src.snapshot(), src.drain());
    expect(tb.objects.set).toEqual([['ns/t', '7', 'ADDED', ['t', 3]]]);
    mirror.apply(tb);
    expect(mirror.snapshot.objects.get('ns/t')).toEqual(new ObjectSummary('7', ['t', 3], 'ADDED'));
  });

  it('follow a clear, a smaller timeline and a relist that replaces every object', () => {
    const src = new Source(10, 1000);
    const b = new BatchBuilder();
    const mirror = new SessionMirror();
    for (let i = 0; i < 3; i++) src.event('ADDED', cm(`o${i}`, String(i + 1)));
    mirror.apply(b.build(src.snapshot(), src.drain()));
    src.ring.clear();
    src.clears++;
    src.event('MODIFIED', cm('o1', '9'));
    mirror.apply(b.build(src.snapshot(), src.drain()));
    expect(seqs(mirror.snapshot)).toEqual([4]);
    // The byte budget (1000 bytes, 300 an event) keeps three.
    for (let i = 0; i < 4; i++) src.event('MODIFIED', cm('o2', String(10 + i)));
    mirror.apply(b.build(src.snapshot(), src.drain()));
    expect(seqs(mirror.snapshot)).toEqual([6, 7, 8]);
    src.ring.resize(1);
    src.objects = new Map([['ns/z', summarize(cm('z', '20'), 'ADDED')]]);
    src.changes = 'all';
    mirror.apply(b.build(src.snapshot(), src.drain()));
    expect(seqs(mirror.snapshot)).toEqual([8]);
    expect(rvs(mirror.snapshot.objects)).toEqual({ 'ns/z': '20' });
  });

  it('keep the objects\' keys in order as objects come and go, a new array only when a key came or went', () => {
    const src = new Source(100);
    const b = new BatchBuilder();
    const mirror = new SessionMirror();
    const sorted = () => [...mirror.snapshot.objects.keys()].sort();
    // A pseudo-random stream of adds, changes and deletes over 60 names, in batches of varied size.
    let seed = 11;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    let rv = 1;
    for (let batch = 0; batch < 40; batch++) {
      for (let i = rnd(12); i >= 0; i--) {
        const name = `o${rnd(60)}`;
        const known = src.objects.has(`ns/${name}`);
        src.event(known && rnd(3) === 0 ? 'DELETED' : known ? 'MODIFIED' : 'ADDED', cm(name, String(rv++)));
      }
      const before = mirror.snapshot.order;
      const membership = [...(before ?? [])].join();
      mirror.apply(b.build(src.snapshot(), src.drain()));
      expect(mirror.snapshot.order).toEqual(sorted());
      // Only changed objects (no key came or went): the same array, so the state table keeps its rows.
      if (mirror.snapshot.order!.join() === membership) expect(mirror.snapshot.order).toBe(before);
    }
    const name = [...src.objects.keys()][0]!.slice(3);
    const before = mirror.snapshot.order;
    src.event('MODIFIED', cm(name, String(rv)));
    mirror.apply(b.build(src.snapshot(), src.drain()));
    expect(mirror.snapshot.order).toBe(before);
    // A relist replaces every object: the order starts again from the new state.
    src.objects = new Map([['ns/b', summarize(cm('b', '1'), 'ADDED')], ['ns/a', summarize(cm('a', '2'), 'ADDED')]]);
    src.changes = 'all';
    mirror.apply(b.build(src.snapshot(), src.drain()));
    expect(mirror.snapshot.order).toEqual(['ns/a', 'ns/b']);
    // Code-unit order, as the page sorted before: upper case before lower, shorter prefix first.
    expect(updatedOrder(['a', 'c'], ['B', 'ab', 'd'], ['c'])).toEqual(['B', 'a', 'ab', 'd']);
  });

  it('errors cross as the same classes, with the Status and Retry-After', () => {
    const status = { kind: 'Status' as const, apiVersion: 'v1', code: 429, reason: 'TooManyRequests', message: 'slow down' };
    const back = fromWire(toWire(new KubeApiError(status, 429, false, 3)));
    expect(back).toBeInstanceOf(KubeApiError);
    expect((back as KubeApiError).retryAfterSeconds).toBe(3);
    expect((back as KubeApiError).status).toEqual(status);
    expect(fromWire(toWire(new MuxUnauthorizedError('reload')))).toBeInstanceOf(MuxUnauthorizedError);
    expect(fromWire(toWire(new MuxStreamError('lost')))).toBeInstanceOf(MuxStreamError);
    expect(fromWire(toWire(new DOMException('aborted', 'AbortError'))).name).toBe('AbortError');
  });
});

describe('a session hosted over a MessageChannel', () => {
  const closers: (() => void)[] = [];
  afterEach(() => closers.splice(0).forEach((c) => c()));

  /** The captured body, in chunks that cut lines (and UTF-8) anywhere. */
  function capturedMux(chunk: number, opened: MuxRequest[]): Pick<import('../../client').MuxClient, 'open'> {
    return {
      open: async (req: MuxRequest): Promise<MuxStream> => {
        opened.push(req);
        const parts: Uint8Array[] = [];
        for (let o = 0; o < fixture.length; o += chunk) parts.push(new Uint8Array(fixture.subarray(o, o + chunk)));
        let closed = false;
        return {
          status: 200,
          headers: { 'content-type': 'application/json' },
          fromProxy: false,
          body: (async function* () {
            for (const p of parts) if (!closed) yield p;
            // Then the stream stays open, as a watch does.
            await new Promise<void>(() => {});
          })(),
          close: () => void (closed = true),
          queued: () => 0,
        };
      },
    };
  }

  function connect(chunk: number, opened: MuxRequest[] = []) {
    const ch = new MessageChannel();
    closers.push(() => {
      ch.port1.close();
      ch.port2.close();
    });
    hostWatchSessions(ch.port1 as unknown as Port);
    return new WorkerConnection(ch.port2 as unknown as Endpoint, capturedMux(chunk, opened));
  }

  const spec: WatchSpec = { context: 'c', group: '', version: 'v1', resource: 'configmaps', namespace: 'wire', mode: 'watch-exact', resourceVersion: '294', bookmarks: false, asTable: false };

  const until = untilSnapshot;

  it('shows the captured events in order with their resourceVersions, the state they leave, and the full objects on request', async () => {
    const opened: MuxRequest[] = [];
    const s = new WorkerWatchSession(spec, connect(97, opened), { maxEntries: 100 }, (f) => setTimeout(f, 0));
    s.start();
    const snap = await until(s, (x) => x.counts.DELETED === 1);
    expect(opened[0]!.path).toBe('/api/v1/namespaces/wire/configmaps?watch=1&resourceVersion=294');
    const got = [...snap.entries].flatMap((e) => (e.kind === 'event' ? [`${e.type} ${e.key} ${e.resourceVersion}`] : []));
    expect(got).toEqual(events.map((e) => `${e.type} wire/${e.object.metadata!.name} ${e.object.metadata!.resourceVersion}`));
    // watched was deleted; settings holds its last version.
    expect(rvs(snap.objects)).toEqual({ 'wire/settings': '297' });
    expect(snap.lastResourceVersion).toBe('298');
    expect(snap.state).toBe('watching');
    // The page holds summaries; the worker answers with the full event, byte-exact line included.
    const modified = [...snap.entries].find((e) => e.kind === 'event' && e.type === 'MODIFIED' && e.key === 'wire/watched')!;
    expect(isPartial(modified)).toBe(true);
    const full = await s.entryDetail(modified.seq);
    expect(full?.raw).toBe(lines[1]);
    expect(full?.object).toEqual(events[1]!.object);
    expect(full?.previous).toEqual(events[0]!.object);
    expect(full?.size).toBe(Buffer.byteLength(lines[1]!));
    expect(await s.exportNdjson()).toBe(lines.map((l) => `${l}\n`).join(''));
    s.stop();
  });

  it('clears the timeline on the page when the session clears it, keeping the objects', async () => {
    const s = new WorkerWatchSession(spec, connect(4096), { maxEntries: 100 }, (f) => setTimeout(f, 0));
    s.start();
    await until(s, (x) => x.counts.DELETED === 1);
    s.clear();
    const snap = await until(s, (x) => x.entries.length === 0);
    expect(snap.counts.MODIFIED).toBe(0);
    expect(rvs(snap.objects)).toEqual({ 'wire/settings': '297' });
    s.stop();
  });
});

describe('rendering a pane fed by the worker', () => {
  const spec: WatchSpec = { context: 'c', group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', mode: 'stream', bookmarks: true, asTable: false };
  const batch = (version: number): SessionBatch => ({
    head: { version, state: 'watching', dropped: 0, bytes: 0, bodies: { kept: 0, bytes: 0, maxBytes: 0, evicted: 0 }, counts: { ADDED: version, MODIFIED: 0, DELETED: 0, BOOKMARK: 0, ERROR: 0 }, initialEventsDone: false },
    clears: 0,
    entries: [],
    kept: 0,
    objects: { reset: false, set: [], deleted: [] },
  });

  it('during a burst, waits RENDER_SHARE times the last render before the next (at least RENDER_GAP_MS, at most RENDER_GAP_MAX_MS)', async () => {
    const endpoint: Endpoint = { postMessage: () => undefined, addEventListener: () => undefined };
    const conn = new WorkerConnection(endpoint, { open: () => Promise.reject(new Error('no network here')) });
    const s = new WorkerWatchSession(spec, conn, {}, (f) => setTimeout(f, 0));
    const renders: number[] = [];
    const RENDER_MS = 40;
    s.subscribe(() => {
      renders.push(performance.now());
      // A render that keeps the thread for 40 ms (React, style, layout, paint).
      const end = performance.now() + RENDER_MS;
      while (performance.now() < end);
    });
    // Batches every 5 ms for 1.5 s, as a worker posts them during a catch-up.
    for (let v = 1; v <= 300; v++) {
      s.applyBatch(batch(v));
      await new Promise((r) => setTimeout(r, 5));
    }
    const gaps = renders.slice(2).map((t, i) => t - renders[i + 1]!);
    expect(gaps.length).toBeGreaterThan(2);
    // Rendering every RENDER_GAP_MS (50 ms) would give gaps of ~50–60 ms here.
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(Math.min(RENDER_GAP_MAX_MS, RENDER_SHARE * RENDER_MS) - 2);
    // The last batch is on screen: the snapshot followed it.
    await new Promise((r) => setTimeout(r, RENDER_GAP_MAX_MS + 50));
    expect(s.getSnapshot().counts.ADDED).toBe(300);
  });

  it('shows the batch that completes a streaming list at once, not after the render gap', async () => {
    const endpoint: Endpoint = { postMessage: () => undefined, addEventListener: () => undefined };
    const conn = new WorkerConnection(endpoint, { open: () => Promise.reject(new Error('no network here')) });
    const s = new WorkerWatchSession(spec, conn, {}, (f) => setTimeout(f, 0));
    const RENDER_MS = 60;
    let heavy = true;
    s.subscribe(() => {
      const end = performance.now() + (heavy ? RENDER_MS : 0);
      while (performance.now() < end);
    });
    // A burst with costly renders: the gap grows to RENDER_GAP_MAX_MS.
    for (let v = 1; v <= 60; v++) {
      s.applyBatch(batch(v));
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, RENDER_GAP_MAX_MS + 100));
    // Right after a render, the initial-events-end bookmark's batch.
    s.applyBatch(batch(61));
    await new Promise((r) => setTimeout(r, 20));
    // The next render is cheap, so that what is timed below is the wait before it, not its cost.
    heavy = false;
    const t0 = performance.now();
    s.applyBatch({ ...batch(62), head: { ...batch(62).head, initialEventsDone: true } });
    await new Promise<void>((resolve) => {
      const check = () => (s.getSnapshot().initialEventsDone ? resolve() : setTimeout(check, 1));
      check();
    });
    // Held back by the gap it would take about RENDER_GAP_MAX_MS.
    expect(performance.now() - t0).toBeLessThan(RENDER_GAP_MAX_MS / 2);
    expect(s.getSnapshot().counts.ADDED).toBe(62);
  });

  it('renders every RENDER_GAP_MS when renders are cheap', async () => {
    const endpoint: Endpoint = { postMessage: () => undefined, addEventListener: () => undefined };
    const conn = new WorkerConnection(endpoint, { open: () => Promise.reject(new Error('no network here')) });
    const s = new WorkerWatchSession(spec, conn, {}, (f) => setTimeout(f, 0));
    const renders: number[] = [];
    s.subscribe(() => renders.push(performance.now()));
    for (let v = 1; v <= 100; v++) {
      s.applyBatch(batch(v));
      await new Promise((r) => setTimeout(r, 5));
    }
    const gaps = renders.slice(1).map((t, i) => t - renders[i]!);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(RENDER_GAP_MS - 2);
    // Not held back to the burst gap: at least a few renders in the half second or more this took.
    expect(renders.length).toBeGreaterThanOrEqual(4);
  });

  it('renders in a task of its own when the tab is visible, and by the slow timer when it is hidden', async () => {
    const endpoint: Endpoint = { postMessage: () => undefined, addEventListener: () => undefined };
    const conn = new WorkerConnection(endpoint, { open: () => Promise.reject(new Error('no network here')) });
    const burst = async (visibilityState: 'visible' | 'hidden') => {
      // The default schedule (no fourth argument), as the page uses it; no requestAnimationFrame
      // here, as in a hidden tab, where it never fires.
      vi.stubGlobal('document', { visibilityState });
      try {
        const s = new WorkerWatchSession(spec, conn, {});
        const renders: number[] = [];
        s.subscribe(() => renders.push(performance.now()));
        for (let v = 1; v <= 120; v++) {
          s.applyBatch(batch(v));
          await new Promise((r) => setTimeout(r, 5));
        }
        await new Promise((r) => setTimeout(r, 250));
        expect(s.getSnapshot().counts.ADDED).toBe(120);
        s.stop();
        return renders.slice(1).map((t, i) => t - renders[i]!);
      } finally {
        vi.unstubAllGlobals();
      }
    };
    // Visible: every RENDER_GAP_MS during the burst.
    const visible = await burst('visible');
    expect(Math.min(...visible)).toBeGreaterThanOrEqual(RENDER_GAP_MS - 2);
    expect(visible.filter((g) => g < 90).length).toBeGreaterThanOrEqual(3);
    // Hidden: only the fallback timer (100 ms; a browser slows it further in a background tab).
    const hidden = await burst('hidden');
    expect(hidden.length).toBeGreaterThanOrEqual(2);
    expect(Math.min(...hidden)).toBeGreaterThanOrEqual(98);
  });
});

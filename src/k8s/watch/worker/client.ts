// The page's side of watch sessions that run in a Web Worker (host.ts): a mirror of each session
// brought up to date by batches, and the network the worker borrows (the page's one mux
// connection and kubeFetch). Where Workers are unavailable (Node, vitest) createWatchSession gives
// an in-page WatchSession instead: the same engine, the same snapshot.
import { errorFromResponse, kubeFetch, type MuxClient, type MuxStream } from '../../client';
import { type FromWorker, type RemoteSessionOptions, SessionMirror, type SessionBatch, toWire, type ToWorker } from './protocol';
import { defaultSchedule, type EventEntry, nextTask, type ObjectDetail, type PaneSnapshot, type WatchSpec, WatchSession } from '../session';
import { Listeners } from '../../../lib/listeners';

/** What a watch pane uses of a session, wherever it runs. */
export interface WatchSessionHandle {
  readonly spec: WatchSpec;
  /** Where the engine (framing, parsing, reducing) runs. */
  readonly engine: 'worker' | 'page';
  subscribe(cb: () => void): () => void;
  getSnapshot(): PaneSnapshot;
  start(): void;
  pause(): void;
  resume(): void;
  stop(): void;
  clear(): void;
  setMaxEntries(n: number): void;
  /** The budget for whole objects, in wire bytes (every object keeps its row whatever it is). */
  setObjectBudget(bytes: number): void;
  /** The object view of one object of the state: kept as delivered, or read from the server now. */
  objectDetail(key: string): Promise<ObjectDetail | undefined>;
  exportNdjson(): string | Promise<string>;
  /** The timeline's Protobuf events, their frames as the server sent them (a `;stream=watch` body). */
  exportFrames(): Uint8Array | Promise<Uint8Array>;
  /** An event entry with its full object, previous version and line (the page's entries may be summaries). */
  entryDetail(seq: number): Promise<EventEntry | undefined>;
}

/** A Worker, or one end of a MessageChannel (tests). */
export interface Endpoint {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  start?(): void;
}

/**
 * Stream bytes handed to the worker and not yet consumed by it, above which the page stops reading
 * from the mux: the mux then stops granting credit, and the proxy pauses the upstream.
 */
export const WORKER_INFLIGHT_BYTES = 512 * 1024;
/** Least time between two renders of a pane fed by the worker (a burst posts a batch per ~16 ms). */
export const RENDER_GAP_MS = 50;
/**
 * During a burst a pane renders again only after RENDER_SHARE times what its last render took
 * (React's render, and the frame's style, layout and paint after it: see notify), at most
 * RENDER_GAP_MAX_MS apart: so rendering takes at most about a fifth of the main thread, and the
 * rest is left to receiving the stream. On 2 cores shared with kube-apiserver and the proxy, a
 * render that costs 10 ms of CPU took 40–90 ms of wall time in the catch-up bench's traces, and
 * rendering every 50 ms kept the main thread waiting for a core most of the time.
 */
export const RENDER_SHARE = 4;
export const RENDER_GAP_MAX_MS = 250;
/** Most bytes per message to the worker, and longest a frame waits for others to go with it. */
const WORKER_CHUNK_BYTES = 128 * 1024;
const FLUSH_MS = 8;

interface Pumped {
  ac: AbortController;
  it?: AsyncIterator<Uint8Array>;
  stream?: MuxStream;
  inflight: number;
  /** Frames read from the mux and not yet handed to the worker. */
  parts: Uint8Array[];
  size: number;
  timer?: ReturnType<typeof setTimeout>;
  pumping: boolean;
  closed: boolean;
}

/** One worker and the sessions it runs for this page. */
export class WorkerConnection {
  private nextSid = 1;
  private nextReq = 1;
  private readonly sessions = new Map<number, WorkerWatchSession>();
  private readonly replies = new Map<number, (v: unknown) => void>();
  private readonly streams = new Map<number, Pumped>();
  private readonly fetches = new Map<number, AbortController>();

  constructor(
    private readonly endpoint: Endpoint,
    private readonly mux: Pick<MuxClient, 'open'>,
  ) {
    endpoint.addEventListener('message', (ev) => this.onMessage(ev.data as FromWorker));
    endpoint.start?.();
  }

  post(m: ToWorker, transfer?: Transferable[]): void {
    this.endpoint.postMessage(m, transfer ?? []);
  }

  /** A request the worker answers with a `reply`. */
  ask<T>(make: (req: number) => ToWorker): Promise<T> {
    const req = this.nextReq++;
    return new Promise<T>((resolve) => {
      this.replies.set(req, resolve as (v: unknown) => void);
      this.post(make(req));
    });
  }

  add(s: WorkerWatchSession): number {
    const sid = this.nextSid++;
    this.sessions.set(sid, s);
    return sid;
  }

  remove(sid: number): void {
    this.sessions.delete(sid);
  }

  private onMessage(m: FromWorker): void {
    switch (m.t) {
      case 'batch':
        this.sessions.get(m.sid)?.applyBatch(JSON.parse(m.json) as SessionBatch);
        return;
      case 'reply': {
        const r = this.replies.get(m.req);
        this.replies.delete(m.req);
        r?.(m.value);
        return;
      }
      case 'mux-open':
        void this.openStream(m.rid, m.context, m.path, m.headers);
        return;
      case 'mux-ack': {
        const st = this.streams.get(m.rid);
        if (!st) return;
        st.inflight -= m.bytes;
        void this.pump(m.rid, st);
        return;
      }
      case 'mux-close': {
        const st = this.streams.get(m.rid);
        if (!st) return;
        st.closed = true;
        clearTimeout(st.timer);
        this.streams.delete(m.rid);
        st.ac.abort();
        st.stream?.close();
        return;
      }
      case 'fetch':
        void this.fetch(m.rid, m.context, m.path, m.headers);
        return;
      case 'fetch-abort':
        this.fetches.get(m.rid)?.abort();
        this.fetches.delete(m.rid);
        return;
    }
  }

  private async openStream(rid: number, context: string, path: string, headers?: Record<string, string>): Promise<void> {
    const st: Pumped = { ac: new AbortController(), inflight: 0, parts: [], size: 0, pumping: false, closed: false };
    this.streams.set(rid, st);
    try {
      const stream = await this.mux.open({ context, path, headers, signal: st.ac.signal });
      if (st.closed) return stream.close();
      st.stream = stream;
      st.it = stream.body[Symbol.asyncIterator]();
      this.post({ t: 'mux-response', rid, status: stream.status, headers: stream.headers, fromProxy: stream.fromProxy });
      await this.pump(rid, st);
    } catch (e) {
      if (st.closed) return;
      this.streams.delete(rid);
      this.post({ t: 'mux-end', rid, error: toWire(e) });
    }
  }

  /**
   * Reads from the mux while the worker has consumed enough of what it was given. Frames are
   * gathered for up to FLUSH_MS (or CHUNK bytes) and handed over in one message: the API server
   * flushes a watch event by event when it is not busy, and a message per 400-byte event would cost
   * the page more than the bytes.
   */
  private async pump(rid: number, st: Pumped): Promise<void> {
    if (st.pumping || !st.it) return;
    st.pumping = true;
    try {
      while (!st.closed && st.inflight + st.size < WORKER_INFLIGHT_BYTES) {
        const r = await st.it.next();
        if (st.closed) return;
        if (r.done) {
          this.flush(rid, st);
          this.streams.delete(rid);
          this.post({ t: 'mux-end', rid });
          return;
        }
        st.parts.push(r.value);
        st.size += r.value.byteLength;
        if (st.size >= WORKER_CHUNK_BYTES) this.flush(rid, st);
        else st.timer ??= setTimeout(() => this.flush(rid, st), FLUSH_MS);
      }
    } catch (e) {
      if (st.closed) return;
      this.flush(rid, st);
      this.streams.delete(rid);
      this.post({ t: 'mux-end', rid, error: toWire(e) });
    } finally {
      st.pumping = false;
    }
  }

  private flush(rid: number, st: Pumped): void {
    clearTimeout(st.timer);
    st.timer = undefined;
    if (st.size === 0 || st.closed) return;
    const one = st.parts[0]!;
    let buf: ArrayBuffer;
    let off = 0;
    if (st.parts.length === 1 && one.buffer instanceof ArrayBuffer && one.buffer.byteLength - one.byteLength <= 64) {
      // The frame's own buffer, handed over without a copy.
      buf = one.buffer;
      off = one.byteOffset;
    } else {
      const all = new Uint8Array(st.size);
      let o = 0;
      for (const p of st.parts) {
        all.set(p, o);
        o += p.length;
      }
      buf = all.buffer;
    }
    const len = st.size;
    st.inflight += len;
    st.parts = [];
    st.size = 0;
    this.post({ t: 'mux-chunk', rid, buf, off, len }, [buf]);
  }

  private async fetch(rid: number, context: string, path: string, headers?: Record<string, string>): Promise<void> {
    const ac = new AbortController();
    this.fetches.set(rid, ac);
    try {
      const res = await kubeFetch({ context, path, headers: { Accept: 'application/json', ...headers }, signal: ac.signal });
      if (!res.ok) throw await errorFromResponse(res);
      const buf = await res.arrayBuffer();
      if (!this.fetches.delete(rid)) return;
      this.post({ t: 'fetch-done', rid, buf }, [buf]);
    } catch (e) {
      if (!this.fetches.delete(rid)) return;
      this.post({ t: 'fetch-done', rid, error: toWire(e) });
    }
  }
}

/**
 * When a pane renders: in a task of its own (see notify), or, in a hidden tab, as the in-page
 * session does (the next frame, which does not come, or a timer, which the browser slows down):
 * a task would render a tab nobody sees as often as the render gap allows.
 */
function renderSchedule(flush: () => void): void {
  if (typeof document !== 'undefined' && document.visibilityState === 'hidden') defaultSchedule(flush);
  else nextTask(flush);
}

/** The page's handle on a session in the worker: commands go there, batches come back. */
export class WorkerWatchSession implements WatchSessionHandle {
  readonly engine = 'worker' as const;
  private readonly mirror = new SessionMirror();
  private snapshot: PaneSnapshot;
  private readonly listeners = new Listeners();
  private scheduled = false;
  private readonly sid: number;
  private stopped = false;
  private notifiedAt = -Infinity;
  /** Wall time of the last render, from notifying to the next task (see RENDER_SHARE). */
  private renderMs = 0;
  /** The timer of a notice held back by the render gap. */
  private waiting: ReturnType<typeof setTimeout> | undefined;
  /** A frame's time is being measured (see notify). */
  private measuring = false;

  constructor(
    readonly spec: WatchSpec,
    private readonly conn: WorkerConnection,
    opts: RemoteSessionOptions = {},
    private readonly schedule: (flush: () => void) => void = renderSchedule,
  ) {
    this.snapshot = this.mirror.snapshot;
    this.sid = conn.add(this);
    conn.post({ t: 'create', sid: this.sid, spec, opts });
  }

  subscribe = (cb: () => void): (() => void) => {
    return this.listeners.subscribe(cb);
  };
  getSnapshot = (): PaneSnapshot => this.snapshot;

  /**
   * Applied at once (cheap: what changed); listeners hear of it in the next task, and during a
   * burst no more often than every RENDER_GAP_MS, so that rendering leaves the main thread room.
   */
  applyBatch(b: SessionBatch): void {
    const wasComplete = this.mirror.snapshot.initialEventsDone;
    this.mirror.apply(b);
    // The batch that completes a streaming list (its initial-events-end bookmark) shows at once,
    // not after the burst's render gap: the state is whole now, and the gap (up to
    // RENDER_GAP_MAX_MS) would only keep the user from seeing it.
    const complete = !wasComplete && this.mirror.snapshot.initialEventsDone;
    if (this.scheduled) {
      if (complete && this.waiting !== undefined) {
        clearTimeout(this.waiting);
        this.notify();
      }
      return;
    }
    this.scheduled = true;
    const gap = Math.min(RENDER_GAP_MAX_MS, Math.max(RENDER_GAP_MS, RENDER_SHARE * this.renderMs));
    const wait = complete ? 0 : Math.max(0, this.notifiedAt + gap - performance.now());
    if (wait > 0) this.waiting = setTimeout(() => this.notify(), wait);
    else this.notify();
  }

  /**
   * Listeners hear of the mirror's state in a task of their own (`schedule`), and the render is
   * timed. Not in a requestAnimationFrame callback: that runs inside the frame's task, so React's
   * render and the frame's style, layout and paint were one task, 65–111 ms for the catch-up's
   * first rows in the bench's Chrome traces. Apart, each is a task of its own, and input can be
   * handled between them.
   */
  private notify(): void {
    this.waiting = undefined;
    this.schedule(() => {
      this.scheduled = false;
      const t0 = performance.now();
      this.notifiedAt = t0;
      this.snapshot = this.mirror.snapshot;
      this.listeners.emit();
      // React renders in a microtask after this; a task posted now runs after it. The frame that
      // lays out and paints what it committed comes later: its time counts too (from its first
      // callback to the task after it), but not the wait for it. One measurement at a time: in a
      // hidden tab no frame comes, and the callbacks would pile up.
      nextTask(() => {
        const rendered = performance.now() - t0;
        this.renderMs = rendered;
        if (typeof requestAnimationFrame !== 'function' || this.measuring) return;
        this.measuring = true;
        requestAnimationFrame(() => {
          const f0 = performance.now();
          nextTask(() => {
            this.measuring = false;
            this.renderMs = rendered + performance.now() - f0;
          });
        });
      });
    });
  }

  private cmd(cmd: 'start' | 'pause' | 'resume' | 'stop' | 'clear'): void {
    if (!this.stopped) this.conn.post({ t: 'cmd', sid: this.sid, cmd });
  }
  start(): void {
    this.cmd('start');
  }
  pause(): void {
    this.cmd('pause');
  }
  resume(): void {
    this.cmd('resume');
  }
  clear(): void {
    this.cmd('clear');
  }
  stop(): void {
    this.cmd('stop');
    this.stopped = true;
    this.conn.remove(this.sid);
  }
  setMaxEntries(n: number): void {
    if (!this.stopped) this.conn.post({ t: 'max', sid: this.sid, n });
  }
  setObjectBudget(bytes: number): void {
    if (!this.stopped) this.conn.post({ t: 'budget', sid: this.sid, bytes });
  }
  objectDetail(key: string): Promise<ObjectDetail | undefined> {
    if (this.stopped) return Promise.resolve(undefined);
    return this.conn.ask<ObjectDetail | undefined>((req) => ({ t: 'object', sid: this.sid, req, key }));
  }
  exportNdjson(): Promise<string> {
    return this.conn.ask<string>((req) => ({ t: 'export', sid: this.sid, req }));
  }
  exportFrames(): Promise<Uint8Array> {
    return this.conn.ask<Uint8Array>((req) => ({ t: 'export', sid: this.sid, req, frames: true }));
  }
  entryDetail(seq: number): Promise<EventEntry | undefined> {
    return this.conn.ask<EventEntry | undefined>((req) => ({ t: 'detail', sid: this.sid, req, seq }));
  }
}

let pageWorker: WorkerConnection | null | undefined;

/** The page's one watch worker, started on first use; null where Workers are unavailable. */
function watchWorker(mux: Pick<MuxClient, 'open'>): WorkerConnection | null {
  if (pageWorker !== undefined) return pageWorker;
  if (typeof Worker === 'undefined') return (pageWorker = null);
  try {
    const w = new Worker(new URL('./entry.ts', import.meta.url), { type: 'module', name: 'watch-sessions' });
    pageWorker = new WorkerConnection(w, mux);
  } catch {
    pageWorker = null;
  }
  return pageWorker;
}

/** A watch session: in the page's watch worker when there is one, else in the page itself. */
export function createWatchSession(spec: WatchSpec, opts: { mux: MuxClient; maxEntries?: number; maxObjectBytes?: number }): WatchSessionHandle {
  const conn = watchWorker(opts.mux);
  if (conn) return new WorkerWatchSession(spec, conn, { maxEntries: opts.maxEntries, maxObjectBytes: opts.maxObjectBytes });
  return new WatchSession(spec, { mux: opts.mux, maxEntries: opts.maxEntries, maxObjectBytes: opts.maxObjectBytes });
}

// One watch pane's engine, without React: list-then-watch (or a streaming list, or a bare
// watch), an object map kept from the events, a bounded timeline, and recovery:
//  - when a stream ends or the connection drops, watch again from the last resourceVersion seen,
//    bookmarks included (API concepts: a watch "resumes" from any RV it was given), after a
//    jittered backoff;
//  - on 410 Gone (an ERROR event whose Status has code 410, or an HTTP 410), the history needed
//    to resume is gone: relist (or re-stream) with resourceVersion="" (a consistent read), replace
//    the state and record what appeared, changed or vanished in between (client-go reflector).
// resourceVersions are opaque: only compared for equality, never ordered.
import { isStatus, KubeApiError, kubeJson, type Status } from '../client';
import { TABLE_ACCEPT } from '../lists/listClient';
import { type MuxClient, MuxUnauthorizedError } from '../client/mux';
import type { KubeRequest } from '../client';
import { resourcePath } from '../paths';
import { applyWatchEventInPlace, diffStates, eventSubject, objectKey, resourceVersionOf, type StateDiff } from './reducer';
import { decodeWatchLine, openWatch, type ReceivedEvent } from './stream';
import { INITIAL_EVENTS_END, isTable, type KubeObject, type Table, type TableColumn, type WatchEventType, WATCH_EVENT_TYPES } from './types';
import { Ring, type RingView } from './timeline';

export type StartMode = 'list-watch' | 'stream' | 'watch-unset' | 'watch-0' | 'watch-exact';

/** Each way to start, named by the semantic the API concepts doc gives it. */
export const START_MODES: { mode: StartMode; label: string; semantic: string }[] = [
  { mode: 'list-watch', label: 'List, then watch', semantic: 'list (resourceVersion unset: most recent), then watch from the list’s resourceVersion' },
  { mode: 'stream', label: 'Streaming list', semantic: 'sendInitialEvents=true, resourceVersionMatch=NotOlderThan, resourceVersion="": initial ADDED events end with the k8s.io/initial-events-end bookmark' },
  { mode: 'watch-unset', label: 'Watch, resourceVersion unset', semantic: 'Get State and Start at Most Recent: synthetic ADDED events for every object, then changes (with bookmarks allowed, the initial-events-end bookmark marks where the synthetic events end)' },
  { mode: 'watch-0', label: 'Watch, resourceVersion="0"', semantic: 'Get State and Start at Any: synthetic ADDED events from any (possibly cached, older) state, then changes (marked like the unset case)' },
  { mode: 'watch-exact', label: 'Watch from a resourceVersion', semantic: 'Start at Exact: only changes after the given resourceVersion, no synthetic events' },
];

export interface WatchSpec {
  context: string;
  group: string;
  version: string;
  resource: string;
  /** Omit for all namespaces or a cluster-scoped resource. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** One object: adds fieldSelector metadata.name=<name>. */
  name?: string;
  mode: StartMode;
  /** For 'watch-exact'. */
  resourceVersion?: string;
  bookmarks: boolean;
  timeoutSeconds?: number;
  /** Ask for Table rows (as=Table) instead of objects. */
  asTable: boolean;
}

/** Where an event came from. */
export type EventOrigin = 'list' | 'initial' | 'live';

export interface EventEntry {
  kind: 'event';
  seq: number;
  type: WatchEventType;
  object: KubeObject;
  key: string;
  resourceVersion?: string;
  receivedAt: number;
  size: number;
  origin: EventOrigin;
  /** The line as the server sent it (for 'list' entries: one made from the list item). */
  raw: string;
  /** The stored version this event replaced, for the per-event diff. */
  previous?: KubeObject;
  status?: Status;
  initialEventsEnd?: boolean;
  /**
   * Set on the page's mirror of a session that runs in a worker: `object` and `previous` are
   * summaries (metadata, Table cells) and `raw` is empty; entryDetail(seq) gives the full ones.
   */
  partial?: boolean;
}

export type NoteKind = 'open' | 'end' | 'error' | 'reconnect' | 'list' | 'relist' | 'paused' | 'resumed' | 'idle';

export interface NoteEntry {
  kind: 'note';
  seq: number;
  note: NoteKind;
  receivedAt: number;
  message: string;
  path?: string;
  status?: Status;
  diff?: StateDiff;
}

export type TimelineEntry = EventEntry | NoteEntry;

export type SessionState = 'idle' | 'listing' | 'watching' | 'backoff' | 'paused' | 'stopped';

/** What a session needs of the mux: opening streams (the page's MuxClient, or a worker's proxy for it). */
export type MuxOpener = Pick<MuxClient, 'open'>;

/** A JSON GET through the one fetch choke point (kubeJson in the page; a worker asks the page). */
export type FetchJson = <T>(req: Pick<KubeRequest, 'context' | 'path' | 'headers' | 'signal'>) => Promise<T>;

export interface SessionOptions {
  mux: MuxOpener;
  /** How lists are fetched; default kubeJson. */
  fetchJson?: FetchJson;
  /**
   * Record which objects changed since the last drainObjectChanges() (a worker host sends only
   * those to the page). Off by default: an in-page session has nothing to send.
   */
  trackObjectChanges?: boolean;
  /** Timeline capacity (last N entries kept). */
  maxEntries?: number;
  /**
   * Timeline budget in bytes, as the entries' wire sizes count them (an event's line; a note's
   * text): the oldest entries go first when it is exceeded, whatever maxEntries allows.
   */
  maxBytes?: number;
  /** Backoff bounds for reconnects; the delay is jittered between half and all of the step. */
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  random?: () => number;
  /** Coalesces change notifications (requestAnimationFrame in the page). */
  schedule?: (flush: () => void) => void;
  /**
   * A watch with bookmarks that receives nothing (no event, no bookmark) for this long is taken
   * for dead and watched again from the last resourceVersion. kube-apiserver's watch cache sends
   * a bookmark roughly every minute to watchers that allow them (cacher.go, defaultBookmarkFrequency),
   * so a silent minute and a half means a frozen or half-open connection, not a quiet collection.
   * Watches without bookmarks have no idle timer: silence is all they can get. 0 turns it off.
   */
  idleTimeoutMs?: number;
}

/** Default idle timeout of watches with bookmarks (see SessionOptions.idleTimeoutMs). */
export const DEFAULT_IDLE_TIMEOUT_MS = 90_000;
/** Default timeline budget: the parsed objects behind it weigh a few times their wire size. */
export const DEFAULT_TIMELINE_BYTES = 16 * 1024 * 1024;

/** An entry's weight in the timeline's byte budget. */
export function entryBytes(e: TimelineEntry): number {
  return e.kind === 'event' ? e.size : e.message.length + (e.path?.length ?? 0) + 64;
}

export interface SessionSnapshot {
  version: number;
  state: SessionState;
  /** Timeline, oldest first (the last maxEntries, within maxBytes): an immutable view, read by index. */
  entries: RingView<TimelineEntry>;
  /** Entries no longer kept. */
  dropped: number;
  /** Bytes of the entries kept (wire sizes). */
  bytes: number;
  /** Every event received (including dropped ones), by type. */
  counts: Record<WatchEventType, number>;
  objects: ReadonlyMap<string, KubeObject>;
  /**
   * The keys of `objects` in code-unit order, when the snapshot keeps them so (the worker's
   * mirror, which updates the order by what changed); otherwise the state table sorts them.
   */
  order?: readonly string[];
  columns?: TableColumn[];
  lastResourceVersion?: string;
  /** Streaming list: whether the initial-events-end bookmark has arrived on the current stream. */
  initialEventsDone: boolean;
  /** Set while waiting to reconnect: when the next attempt starts. */
  retryAt?: number;
  /**
   * Set when the server refused the start mode and the pane fell back to another: the refusal
   * (its Status) and the mode taken instead. A server with WatchList off refuses a streaming list.
   */
  fallback?: { from: StartMode; to: StartMode; status: Status };
  /** Date.now() of the last sign of life of the stream: opened, an event, a bookmark. */
  lastHeardAt?: number;
  /** After how long without a sign of life the stream is taken for dead (undefined: never). */
  idleTimeoutMs?: number;
  /** Why the session gave up for good (the user must act), when it did. */
  fatal?: string;
}


type Phase = 'initial' | 'resume' | 'recover';

export function collectionPath(spec: WatchSpec): string {
  return resourcePath({ group: spec.group, version: spec.version, resource: spec.resource, namespace: spec.namespace || undefined });
}

function selectorParams(spec: WatchSpec): URLSearchParams {
  const p = new URLSearchParams();
  if (spec.labelSelector) p.set('labelSelector', spec.labelSelector);
  const fields = [spec.name ? `metadata.name=${spec.name}` : '', spec.fieldSelector ?? ''].filter(Boolean).join(',');
  if (fields) p.set('fieldSelector', fields);
  return p;
}

/** The watch request for a phase. `resourceVersion: null` leaves the parameter out (unset). */
export function watchPath(spec: WatchSpec, opts: { resourceVersion: string | null; streamingList?: boolean }): string {
  const p = selectorParams(spec);
  p.set('watch', '1');
  if (opts.streamingList) {
    // A streaming list: the server marks the end of the initial events with a bookmark. It accepts
    // sendInitialEvents without allowWatchBookmarks, but then sends no marker (checked against
    // kube-apiserver 1.37), so we always allow bookmarks. resourceVersion="" asks for a
    // consistent (most recent) starting point.
    p.set('sendInitialEvents', 'true');
    p.set('allowWatchBookmarks', 'true');
    p.set('resourceVersionMatch', 'NotOlderThan');
    p.set('resourceVersion', '');
  } else {
    if (spec.bookmarks) p.set('allowWatchBookmarks', 'true');
    if (opts.resourceVersion !== null) p.set('resourceVersion', opts.resourceVersion);
  }
  if (spec.timeoutSeconds !== undefined && spec.timeoutSeconds > 0) p.set('timeoutSeconds', String(spec.timeoutSeconds));
  return `${collectionPath(spec)}?${p.toString()}`;
}

export function listPath(spec: WatchSpec): string {
  const q = selectorParams(spec).toString();
  return q ? `${collectionPath(spec)}?${q}` : collectionPath(spec);
}

interface ListResponse {
  kind?: string;
  apiVersion?: string;
  metadata?: { resourceVersion?: string };
  items?: KubeObject[];
}

function emptyCounts(): Record<WatchEventType, number> {
  return Object.fromEntries(WATCH_EVENT_TYPES.map((t) => [t, 0])) as Record<WatchEventType, number>;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}

/** Longest stretch of event processing before the loop lets the page run (well under the 50 ms of a long task). */
const SLICE_MS = 12;

const now = (): number => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** Runs `f` in a new task: after the microtasks, and the rendering, already queued. */
export function nextTask(f: () => void): void {
  if (typeof MessageChannel === 'undefined') return void setTimeout(f, 0);
  const ch = new MessageChannel();
  ch.port1.onmessage = () => {
    ch.port1.close();
    f();
  };
  ch.port2.postMessage(null);
}

/** Lets queued tasks (input, rendering, timers) run: a macrotask, not a microtask. */
function yieldToPage(): Promise<void> {
  const sched = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (sched?.yield) return sched.yield();
  return new Promise((resolve) => nextTask(resolve));
}

export function defaultSchedule(flush: () => void): void {
  // requestAnimationFrame batches renders to the display rate; it does not fire in hidden tabs,
  // so a timer makes sure the state still moves on.
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    flush();
  };
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  setTimeout(run, 100);
}

export class WatchSession {
  /** Runs where it was made: in the page (the fallback without Workers), in tests, or inside the watch worker. */
  readonly engine = 'page' as const;
  private objects = new Map<string, KubeObject>();
  private timeline: Ring<TimelineEntry>;
  private counts = emptyCounts();
  private columns: TableColumn[] | undefined;
  private lastRV: string | undefined;
  private state: SessionState = 'idle';
  private initialEventsDone = false;
  private retryAt: number | undefined;
  private fallback: SessionSnapshot['fallback'];
  private lastHeardAt: number | undefined;
  private fatal: string | undefined;
  private seq = 0;
  private version = 0;
  /** How many times clear() emptied the timeline (a mirror of it must empty its own as well). */
  private clears = 0;
  /** With trackObjectChanges: keys set (to their object) or deleted (undefined) since the last drain, or 'all'. */
  private objectChanges: Map<string, KubeObject | undefined> | 'all' = new Map();
  private abort: AbortController | undefined;
  private scheduled = false;
  private snapshot: SessionSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly opts: Required<SessionOptions>;

  constructor(
    readonly spec: WatchSpec,
    opts: SessionOptions,
  ) {
    this.opts = {
      maxEntries: 5000,
      backoffInitialMs: 500,
      backoffMaxMs: 10_000,
      random: Math.random,
      schedule: defaultSchedule,
      idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
      maxBytes: DEFAULT_TIMELINE_BYTES,
      fetchJson: kubeJson,
      trackObjectChanges: false,
      ...opts,
    };
    this.timeline = new Ring(this.opts.maxEntries, { maxBytes: this.opts.maxBytes, sizeOf: entryBytes });
    this.snapshot = this.makeSnapshot();
  }

  // --- for React (useSyncExternalStore) and tests ---
  subscribe = (cb: () => void): (() => void) => {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  };
  getSnapshot = (): SessionSnapshot => this.snapshot;

  start(): void {
    if (this.abort) return;
    const ac = new AbortController();
    this.abort = ac;
    void this.run(ac.signal);
  }

  /** Closes the stream, keeping the state and the last resourceVersion to resume from. */
  pause(): void {
    if (!this.abort) return;
    this.abort.abort();
    this.abort = undefined;
    this.setState('paused');
    this.note('paused', this.lastRV ? `paused; will resume from resourceVersion ${this.lastRV}` : 'paused');
  }

  resume(): void {
    if (this.abort) return;
    this.note('resumed', this.lastRV ? `resuming from resourceVersion ${this.lastRV}` : 'starting again');
    this.start();
  }

  stop(): void {
    this.abort?.abort();
    this.abort = undefined;
    this.setState('stopped');
  }

  /** Empties the timeline and the counts; the object state is kept (it still mirrors the server). */
  clear(): void {
    this.timeline.clear();
    this.clears++;
    this.counts = emptyCounts();
    this.changed();
  }

  setMaxEntries(n: number): void {
    this.timeline.resize(Math.max(1, Math.floor(n)));
    this.changed();
  }

  /**
   * The timeline's events as newline-delimited JSON: watch events exactly as the server sent
   * them; items of a list response as `{"type":"ADDED","object":<item>}` lines made here.
   */
  exportNdjson(): string {
    return this.timeline
      .toArray()
      .filter((e): e is EventEntry => e.kind === 'event')
      .map((e) => `${e.raw}\n`)
      .join('');
  }

  /** The entry with this seq while the timeline keeps it (full objects: this session holds them). */
  entryDetail(seq: number): Promise<EventEntry | undefined> {
    const view = this.timeline.view();
    const first = view.at(0);
    const e = first ? view.at(seq - first.seq) : undefined;
    return Promise.resolve(e?.kind === 'event' && e.seq === seq ? e : undefined);
  }

  /**
   * For a host that mirrors this session elsewhere (a worker posting to the page): what changed in
   * the object state since the last call ('all' after a list or a relist replaced it), and how many
   * times the timeline was cleared. Only with trackObjectChanges.
   */
  drainObjectChanges(): { changes: ReadonlyMap<string, KubeObject | undefined> | 'all'; clears: number } {
    const changes = this.objectChanges;
    this.objectChanges = new Map();
    return { changes, clears: this.clears };
  }

  private objectsReplaced(): void {
    if (this.opts.trackObjectChanges) this.objectChanges = 'all';
  }

  // --- the loop ---
  /** What the next attempt does: start as configured, resume from lastRV, or relist/re-stream. Kept across pauses. */
  private phase: Phase = 'initial';

  private async run(signal: AbortSignal): Promise<void> {
    // After a refused streaming list, the rest of this session lists then watches.
    const spec = this.fallback ? { ...this.spec, mode: this.fallback.to } : this.spec;
    let attempt = 0;
    let retryAfterSeconds: number | undefined;
    let idle: IdleTimer | undefined;
    while (!signal.aborted) {
      const phase = this.phase;
      let cleanEnd = false;
      let openedAt = 0;
      idle?.stop();
      idle = undefined;
      try {
        let path: string;
        let streaming = false;
        let synthetic = false;
        if (phase !== 'resume' && (spec.mode === 'list-watch' || (phase === 'recover' && spec.mode !== 'stream'))) {
          await this.list(signal, phase === 'recover' || this.objects.size > 0);
          if (signal.aborted) break;
          // The list's resourceVersion is the point to watch, and later resume, from.
          this.phase = 'resume';
          path = watchPath(spec, { resourceVersion: this.lastRV ?? null });
        } else if (phase !== 'resume' && spec.mode === 'stream') {
          streaming = true;
          path = watchPath(spec, { resourceVersion: '', streamingList: true });
        } else if (phase === 'initial') {
          // Get-state watches (unset, "0") also end their synthetic ADDED events with the
          // initial-events-end bookmark when bookmarks are allowed (kube-apiserver 1.37, WatchList on).
          synthetic = spec.bookmarks === true && (spec.mode === 'watch-unset' || spec.mode === 'watch-0');
          const rv = spec.mode === 'watch-0' ? '0' : spec.mode === 'watch-exact' ? (spec.resourceVersion ?? '') : null;
          path = watchPath(spec, { resourceVersion: rv });
        } else {
          path = watchPath(spec, { resourceVersion: this.lastRV ?? null });
        }
        this.setState('watching');
        const headers = spec.asTable ? { Accept: TABLE_ACCEPT } : undefined;
        const attempt$ = new AbortController();
        const stopAttempt = () => attempt$.abort();
        signal.addEventListener('abort', stopAttempt, { once: true });
        idle = this.idleTimer(attempt$);
        const w = await openWatch({ mux: this.opts.mux, context: spec.context, path, headers, signal: attempt$.signal }).finally(() => signal.removeEventListener('abort', stopAttempt));
        openedAt = Date.now();
        idle.poke();
        attempt = 0;
        this.note('open', streaming ? 'streaming list opened' : `watch opened${phaseFrom(path)}`, { path });
        // A re-stream builds the new state aside and swaps it in at the initial-events-end
        // bookmark, so the pane never shows a half-listed state (and the diff is exact).
        const replacing = streaming && this.objects.size > 0 ? new Map<string, KubeObject>() : undefined;
        this.initialEventsDone = !streaming && !synthetic;
        // From here on a drop or a pause resumes from lastRV; a streaming list must first reach
        // its end marker (its state is incomplete before that), so it keeps its phase until then.
        if (!streaming) this.phase = 'resume';
        let gone = false;
        let sliceStart = now();
        let n = 0;
        // A chunk's lines at a time (one step of the async iteration per chunk, not per event: in
        // a catch-up of 20,000 events those steps were much of the worker's time), each decoded
        // as it comes, so a malformed line fails after the events before it were applied.
        stream: for await (const batch of w.lines) {
          // Anything received proves the stream alive: once per chunk is enough.
          idle.poke();
          for (const line of batch.lines) {
            if (signal.aborted) break stream;
            const ev = decodeWatchLine(line, batch.receivedAt);
            // A backlog arrives as many queued chunks, which the loop would otherwise work through
            // in one task: give the page (input, rendering) a turn every few milliseconds (the
            // clock read every 16 events: an event costs microseconds, a slice milliseconds).
            if ((++n & 15) === 0 && now() - sliceStart > SLICE_MS) {
              await yieldToPage();
              sliceStart = now();
              if (signal.aborted) break stream;
            }
            if (ev.type === 'ERROR') {
              const status = isStatus(ev.object) ? ev.object : undefined;
              this.pushEvent(ev, 'live', undefined, status);
              if (status?.code === 410) {
                gone = true;
                break stream;
              }
              throw new KubeApiError(status ?? { kind: 'Status', apiVersion: 'v1', message: 'ERROR event' }, 200, false);
            }
            const origin: EventOrigin = (streaming || synthetic) && !this.initialEventsDone ? 'initial' : 'live';
            if (ev.type === 'BOOKMARK') {
              if (spec.asTable && isTable(ev.object) && ev.object.columnDefinitions?.length) this.columns = ev.object.columnDefinitions;
              const rv = resourceVersionOf(ev.object);
              if (rv !== undefined) this.lastRV = rv;
              const end = ev.object.metadata?.annotations?.[INITIAL_EVENTS_END] === 'true';
              this.pushEvent(ev, origin, undefined, undefined, end);
              if (end && synthetic) this.initialEventsDone = true;
              if (end && streaming) {
                this.initialEventsDone = true;
                this.phase = 'resume';
                if (replacing) this.replaceState(replacing, 'streaming list');
              }
              continue;
            }
            if (spec.asTable && isTable(ev.object) && ev.object.columnDefinitions?.length) this.columns = ev.object.columnDefinitions;
            const rv = resourceVersionOf(ev.object);
            if (rv !== undefined) this.lastRV = rv;
            if (replacing && origin === 'initial') {
              applyWatchEventInPlace(replacing, ev);
              this.pushEvent(ev, origin, this.objects.get(objectKey(eventSubject(ev.object))));
              continue;
            }
            this.applyLive(ev, origin);
          }
        }
        if (signal.aborted) break;
        if (idle.fired) {
          this.note('idle', `nothing received (no event, no bookmark) for ${Math.round(this.opts.idleTimeoutMs / 1000)} s although the server sends a bookmark about every minute: the connection is taken for dead`);
          this.phase = streaming && !this.initialEventsDone ? phase : 'resume';
        } else if (gone) {
          this.phase = 'recover';
          this.note('error', 'the server no longer has the history to resume from (410 Gone): relisting');
        } else {
          cleanEnd = true;
          this.note('end', 'the server ended the stream');
          // A streaming list cut short before its end marker has no complete state to resume from.
          this.phase = streaming && !this.initialEventsDone ? phase : 'resume';
        }
      } catch (e) {
        if (signal.aborted) break;
        if (spec.mode === 'stream' && phase !== 'resume' && e instanceof KubeApiError && !e.fromProxy && (e.httpStatus === 422 || e.httpStatus === 400)) {
          // The server refused the streaming list's parameters: with the WatchList feature gate off
          // (v1.33's default), kube-apiserver answers 422 Invalid ("sendInitialEvents is forbidden
          // for watch unless the WatchList feature gate is enabled"). Retrying cannot help; what
          // client-go's reflector does instead is list, then watch.
          this.fallback = { from: 'stream', to: 'list-watch', status: e.status };
          this.phase = 'initial';
          this.note('error', `the server refused the streaming list (${e.httpStatus} ${e.status.reason ?? ''}: ${e.message}); falling back to List, then watch`, { status: e.status });
          this.changed();
          idle?.stop();
          this.abort = undefined;
          this.start();
          return;
        }
        if (e instanceof MuxUnauthorizedError) {
          // Retrying with a token the server refuses would go on forever: say what to do instead.
          this.fatal = e.message;
          this.note('error', e.message);
          this.abort = undefined;
          this.setState('stopped');
          break;
        }
        if (idle?.fired) {
          this.note('idle', `no answer for ${Math.round(this.opts.idleTimeoutMs / 1000)} s: the connection is taken for dead`);
        } else if (e instanceof KubeApiError && e.code === 410) {
          this.phase = 'recover';
          this.note('error', `410 Gone: ${e.message}; relisting`, { status: e.status });
        } else {
          const status = e instanceof KubeApiError ? e.status : undefined;
          retryAfterSeconds = e instanceof KubeApiError ? e.retryAfterSeconds : undefined;
          const asked = retryAfterSeconds !== undefined ? ` (the server asked to wait ${retryAfterSeconds} s before trying again: Retry-After)` : '';
          this.note('error', `${e instanceof Error ? e.message : String(e)}${asked}`, { status });
          if (this.phase === 'resume' && this.lastRV === undefined) this.phase = 'initial';
        }
      }
      idle?.stop();
      // Back off: immediately after a stream that ran and ended cleanly (timeoutSeconds, the
      // server's own watch timeout), otherwise exponentially with jitter so that many panes do
      // not reconnect in lockstep after an outage.
      const ranLong = cleanEnd && Date.now() - openedAt >= 1000;
      const step = Math.min(this.opts.backoffMaxMs, this.opts.backoffInitialMs * 2 ** attempt);
      // A Status may say how long to wait (e.g. 504 "Too large resource version" while the watch
      // cache catches up carries details.retryAfterSeconds); never retry sooner than that.
      const floor = (retryAfterSeconds ?? 0) * 1000;
      retryAfterSeconds = undefined;
      const delay = ranLong ? 0 : Math.max(floor, Math.round(step / 2 + (this.opts.random() * step) / 2));
      if (!ranLong) attempt++;
      this.retryAt = Date.now() + delay;
      this.setState('backoff');
      this.note(
        'reconnect',
        this.phase === 'recover'
          ? `reconnecting in ${delay} ms with a ${spec.mode === 'stream' ? 're-stream' : 'relist'}`
          : this.phase === 'resume' && this.lastRV !== undefined
            ? `reconnecting in ${delay} ms from resourceVersion ${this.lastRV}`
            : `reconnecting in ${delay} ms`,
      );
      await sleep(delay, signal);
      this.retryAt = undefined;
    }
    idle?.stop();
  }

  /** Aborts the attempt when nothing arrives for idleTimeoutMs (watches with bookmarks only). */
  private idleTimer(ac: AbortController): IdleTimer {
    const ms = this.spec.bookmarks || this.spec.mode === 'stream' ? this.opts.idleTimeoutMs : 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = Date.now();
    // One timer, re-armed for what is left when it fires early, not cleared and set again on every
    // poke: in a catch-up of 20,000 events, setTimeout and clearTimeout per event were 1.06 s of
    // the worker's 2.3 s in a CPU profile, more than JSON.parse of the events.
    const check = () => {
      const quiet = Date.now() - last;
      if (quiet < ms) {
        timer = setTimeout(check, ms - quiet);
        return;
      }
      t.fired = true;
      ac.abort();
    };
    const t: IdleTimer = {
      fired: false,
      poke: () => {
        last = Date.now();
        this.lastHeardAt = last;
      },
      stop: () => {
        clearTimeout(timer);
        timer = undefined;
      },
    };
    t.poke();
    if (ms) timer = setTimeout(check, ms);
    return t;
  }

  private async list(signal: AbortSignal, isRelist: boolean): Promise<void> {
    this.setState('listing');
    const spec = this.spec;
    const path = listPath(spec);
    const body = await this.opts.fetchJson<ListResponse>({ context: spec.context, path, headers: spec.asTable ? { Accept: TABLE_ACCEPT } : undefined, signal });
    const receivedAt = Date.now();
    const next = new Map<string, KubeObject>();
    let items: KubeObject[];
    if (isTable(body as KubeObject)) {
      const table = body as Table;
      if (table.columnDefinitions?.length) this.columns = table.columnDefinitions;
      // Stored as a Table of one row, the shape each as=Table watch event has.
      items = (table.rows ?? []).map((row) => ({ kind: 'Table', apiVersion: table.apiVersion, metadata: {}, rows: [row] }));
    } else {
      // Items of a typed list carry no kind/apiVersion; the list's own tell them.
      const kind = body.kind?.replace(/List$/, '');
      items = (body.items ?? []).map((o) => ({ kind, apiVersion: body.apiVersion, ...o }));
    }
    for (const o of items) next.set(objectKey(eventSubject(o)), o);
    const rv = body.metadata?.resourceVersion;
    if (isRelist) {
      this.replaceState(next, `relist at resourceVersion ${rv ?? '?'}`, path);
    } else {
      this.objects = next;
      this.objectsReplaced();
      // The pane's first list is a list, not a relist: nothing is replaced.
      this.note('list', `listed ${next.size} objects at resourceVersion ${rv ?? '?'}`, { path });
    }
    if (!isRelist) {
      for (const o of items) {
        const raw = JSON.stringify({ type: 'ADDED', object: o });
        this.pushEvent({ type: 'ADDED', object: o, raw, size: raw.length, receivedAt }, 'list');
      }
    }
    if (rv !== undefined) this.lastRV = rv;
  }

  /** Replaces the object state wholesale (relist, re-stream) and records what differed. */
  private replaceState(next: Map<string, KubeObject>, what: string, path?: string): void {
    const diff = diffStates(this.objects, next);
    this.objects = next;
    this.objectsReplaced();
    this.note('relist', `${what}: ${diff.appeared.length} appeared, ${diff.changed.length} changed, ${diff.vanished.length} vanished`, { diff, path });
  }

  private applyLive(ev: ReceivedEvent, origin: EventOrigin): void {
    const prev = this.objects.get(objectKey(eventSubject(ev.object)));
    const effect = applyWatchEventInPlace(this.objects, ev);
    if (this.opts.trackObjectChanges && this.objectChanges !== 'all' && effect.op !== 'none') this.objectChanges.set(effect.key, effect.op === 'set' ? effect.object : undefined);
    this.pushEvent(ev, origin, prev);
  }

  private pushEvent(ev: ReceivedEvent, origin: EventOrigin, previous?: KubeObject, status?: Status, initialEventsEnd?: boolean): void {
    this.counts[ev.type] = (this.counts[ev.type] ?? 0) + 1;
    const subject = ev.type === 'ERROR' ? ev.object : eventSubject(ev.object);
    this.timeline.push({
      kind: 'event',
      seq: ++this.seq,
      type: ev.type,
      object: ev.object,
      key: ev.type === 'ERROR' || ev.type === 'BOOKMARK' ? '' : objectKey(subject),
      resourceVersion: ev.type === 'ERROR' ? undefined : resourceVersionOf(ev.object),
      receivedAt: ev.receivedAt,
      size: ev.size,
      origin,
      raw: ev.raw,
      previous,
      status,
      initialEventsEnd,
    });
    this.changed();
  }

  private note(note: NoteKind, message: string, extra: { path?: string; status?: Status; diff?: StateDiff } = {}): void {
    this.timeline.push({ kind: 'note', seq: ++this.seq, note, receivedAt: Date.now(), message, ...extra });
    this.changed();
  }

  private setState(s: SessionState): void {
    if (this.state === s) return;
    this.state = s;
    this.changed();
  }

  private changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.opts.schedule(() => {
      this.scheduled = false;
      this.version++;
      this.snapshot = this.makeSnapshot();
      for (const l of this.listeners) l();
    });
  }

  private makeSnapshot(): SessionSnapshot {
    return {
      version: this.version,
      state: this.state,
      entries: this.timeline.view(),
      dropped: this.timeline.dropped,
      bytes: this.timeline.bytes,
      counts: { ...this.counts },
      // The live map; `version` tells when it changed (copying it per frame would be O(N)).
      objects: this.objects,
      columns: this.columns,
      lastResourceVersion: this.lastRV,
      initialEventsDone: this.initialEventsDone,
      retryAt: this.retryAt,
      fallback: this.fallback,
      lastHeardAt: this.lastHeardAt,
      idleTimeoutMs: this.spec.bookmarks || this.spec.mode === 'stream' ? this.opts.idleTimeoutMs || undefined : undefined,
      fatal: this.fatal,
    };
  }
}

interface IdleTimer {
  fired: boolean;
  /** A sign of life: restart the countdown. */
  poke(): void;
  stop(): void;
}

function phaseFrom(path: string): string {
  const rv = new URLSearchParams(path.split('?')[1] ?? '').get('resourceVersion');
  return rv === null ? ' (resourceVersion unset)' : ` from resourceVersion "${rv}"`;
}

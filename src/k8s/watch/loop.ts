// The I/O loop of a list-watch (client-go's reflector: ListAndWatch): ask plan.ts for the next
// request, list or open the watch, feed the stream's events to the subclass, classify how it
// ended, back off, again. What to keep of the events (an object map, a timeline) is the
// subclass's: WatchSession (a watch pane) and Informer (an object map for other views) extend it.
//
// Honest states: 'connecting' from the request until the server's response headers arrive,
// 'watching' only after them, and the idle clock starts at those headers, not before.
import { isStatus, KubeApiError, kubeJson, type KubeRequest, type MuxClient, type Status } from '../client';
import { REPLAYED_HEADER } from '../client/transportHooks';
import { TABLE_ACCEPT } from '../lists/listClient';
import { backoff, classifyEnding, type Ending, nextRequest, type NoteKind, type Outcome, type Phase, reconnectMessage, type StartMode, type WatchSpec } from './plan';
import { resourceVersionOf } from './reducer';
import { openWatch, type OpenWatch, type ReceivedEvent } from './stream';
import { INITIAL_EVENTS_END, isTable, type KubeObject, type Table, type TableColumn } from './types';
import { sleep } from '../../lib/sleep';

/**
 * 'connecting': the watch request is sent and the server's response headers have not arrived;
 * 'watching': they have (HTTP 200), and the stream is open. Never 'watching' before that: a
 * frozen server or a relay that forwards nothing accepts the connection and answers nothing.
 */
export type SessionState = 'idle' | 'listing' | 'connecting' | 'watching' | 'backoff' | 'paused' | 'stopped';

/** Where an event came from. */
export type EventOrigin = 'list' | 'initial' | 'live';

/** What a list-watch needs of the mux: opening streams (the page's MuxClient, or a worker's proxy for it). */
export type MuxOpener = Pick<MuxClient, 'open'>;

/** A JSON GET through the one fetch choke point (kubeJson in the page; a worker asks the page). */
export type FetchJson = <T>(req: Pick<KubeRequest, 'context' | 'path' | 'headers' | 'signal'>) => Promise<T>;

export interface LoopOptions {
  mux: MuxOpener;
  /** How lists are fetched; default kubeJson. */
  fetchJson?: FetchJson;
  /** Backoff bounds for reconnects; the delay is jittered between half and all of the step. */
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  random?: () => number;
  /**
   * A watch with bookmarks that receives nothing (no event, no bookmark) for this long after its
   * response headers is taken for dead and watched again from the last resourceVersion.
   * kube-apiserver's watch cache sends a bookmark roughly every minute to watchers that allow them
   * (cacher.go, defaultBookmarkFrequency), so a silent minute and a half means a frozen or
   * half-open connection, not a quiet collection. Watches without bookmarks have no idle timer:
   * silence is all they can get. 0 turns it off.
   */
  idleTimeoutMs?: number;
  /**
   * A watch whose response headers have not arrived after this long is given up and tried again.
   * kube-apiserver answers a watch's headers as soon as the watch is set up (a consistent
   * streaming list waits at most a few seconds for the watch cache first), so this much silence
   * means a frozen server or connection. 0 turns it off.
   */
  connectTimeoutMs?: number;
}

/** Default idle timeout of watches with bookmarks (see LoopOptions.idleTimeoutMs). */
export const DEFAULT_IDLE_TIMEOUT_MS = 90_000;
/** Default time allowed for a watch's response headers (see LoopOptions.connectTimeoutMs). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;

/** A list's items as the events a watch would carry, and where it stands. */
export interface Listed {
  items: KubeObject[];
  resourceVersion: string | undefined;
  /** as=Table: the list's column definitions. */
  columns?: TableColumn[];
  path: string;
  receivedAt: number;
}

/** The stream being read: what its request was, and whether its initial events are done. */
export interface StreamInfo {
  path: string;
  streaming: boolean;
  synthetic: boolean;
  /** The response's Content-Type: how the server encoded the stream, whatever was asked. */
  contentType?: string;
}

interface ListResponse {
  kind?: string;
  apiVersion?: string;
  metadata?: { resourceVersion?: string };
  items?: KubeObject[];
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

/** A list response's items, each as a watch event would carry it. */
export function listedItems(body: ListResponse | Table): { items: KubeObject[]; columns?: TableColumn[] } {
  if (isTable(body as KubeObject)) {
    const table = body as Table;
    // Stored as a Table of one row, the shape each as=Table watch event has.
    return { items: (table.rows ?? []).map((row) => ({ kind: 'Table', apiVersion: table.apiVersion, metadata: {}, rows: [row] })), columns: table.columnDefinitions?.length ? table.columnDefinitions : undefined };
  }
  const list = body as ListResponse;
  // Items of a typed list carry no kind/apiVersion; the list's own tell them.
  const kind = list.kind?.replace(/List$/, '');
  return { items: (list.items ?? []).map((o) => ({ kind, apiVersion: list.apiVersion, ...o })) };
}

export abstract class ListWatchLoop {
  protected state: SessionState = 'idle';
  /** What the next attempt does (plan.ts). Kept across pauses. */
  protected phase: Phase = 'initial';
  protected lastRV: string | undefined;
  /** Whether the current stream's initial events (streaming list, get-state watch) are done. */
  protected initialEventsDone = false;
  protected lastHeardAt: number | undefined;
  protected connectingSince: number | undefined;
  protected retryAt: number | undefined;
  /** Set when the server refused the start mode and the loop fell back to another. */
  protected fallback: { from: StartMode; to: StartMode; status: Status } | undefined;
  protected fatal: string | undefined;
  /** The Content-Type of the last stream the server answered (set at its response headers). */
  protected contentType: string | undefined;
  /**
   * The current stream comes from a recording (transportHooks, REPLAYED_HEADER): its silences are
   * the recording's (after its last frame, while the replay is paused), not a connection gone dead.
   */
  private replayed = false;
  private abort: AbortController | undefined;
  protected readonly loop: Required<LoopOptions>;

  constructor(
    readonly spec: WatchSpec,
    opts: LoopOptions,
  ) {
    this.loop = { fetchJson: kubeJson, backoffInitialMs: 500, backoffMaxMs: 10_000, random: Math.random, idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS, connectTimeoutMs: DEFAULT_CONNECT_TIMEOUT_MS, ...opts };
  }

  // --- what the subclass keeps ---
  protected abstract hasObjects(): boolean;
  /** A list's items: the first state, or (relist) the one that replaces it. */
  protected abstract listed(l: Listed, relist: boolean): void;
  /** The stream's response headers arrived. */
  protected abstract opened(s: StreamInfo): void;
  /** ADDED, MODIFIED or DELETED. */
  protected abstract received(ev: ReceivedEvent, origin: EventOrigin, s: StreamInfo): void;
  /** A BOOKMARK (lastRV already moved); `end`: the initial-events-end bookmark. */
  protected abstract bookmark(ev: ReceivedEvent, origin: EventOrigin, end: boolean, s: StreamInfo): void;
  /** An ERROR event (the loop then ends the stream). */
  protected abstract errorEvent(ev: ReceivedEvent, status: Status | undefined): void;
  protected abstract note(kind: NoteKind, message: string, extra?: { path?: string; status?: Status }): void;
  /** Something the subclass shows changed (state, timers, cursor). */
  protected abstract changed(): void;

  protected setState(s: SessionState): void {
    if (this.state === s) return;
    this.state = s;
    this.changed();
  }

  /** The mode in force: the configured one, or the one fallen back to. */
  protected get mode(): StartMode {
    return this.fallback?.to ?? this.spec.mode;
  }

  protected get running(): boolean {
    return this.abort !== undefined;
  }

  start(): void {
    if (this.abort) return;
    // Started again after it stopped for good: the reason no longer stands until met again.
    this.fatal = undefined;
    const ac = new AbortController();
    this.abort = ac;
    void this.run(ac.signal);
  }

  /** Ends the current attempt and the loop (start() begins again from the cursor). */
  protected halt(): void {
    this.abort?.abort();
    this.abort = undefined;
  }

  private async run(signal: AbortSignal): Promise<void> {
    let attempt = 0;
    while (!signal.aborted) {
      const ending = await this.attempt(signal);
      if (signal.aborted) return;
      if (ending === 'listed') continue;
      // A stream that opened and carried something starts the backoff over; one the server ends
      // at once and empty does not, or a server that does that to every watch would be asked
      // again every half second for ever.
      if (this.answered && !(ending.kind === 'end' && ending.empty)) attempt = 0;
      const emptyProtobufEnds = this.emptyProtobufEnds;
      this.emptyProtobufEnds = ending.kind === 'end' && ending.protobuf && ending.empty ? emptyProtobufEnds + 1 : 0;
      const o = classifyEnding(ending, { mode: this.mode, phase: this.phase, streamingIncomplete: this.streaming && !this.initialEventsDone, lastRV: this.lastRV, emptyProtobufEnds });
      this.phase = o.phase;
      if (o.action !== 'retry') return this.give(o);
      this.note(o.note.kind, o.note.message, o.note.status ? { status: o.note.status } : {});
      const b = backoff({ initialMs: this.loop.backoffInitialMs, maxMs: this.loop.backoffMaxMs }, attempt, o, this.loop.random());
      attempt = b.attempt;
      this.retryAt = Date.now() + b.delayMs;
      this.setState('backoff');
      this.note('reconnect', reconnectMessage(this.mode, { phase: this.phase, lastRV: this.lastRV }, b.delayMs));
      await sleep(b.delayMs, signal);
      this.retryAt = undefined;
    }
  }

  /** Falls back to another start mode at once, or stops for good. */
  private give(o: Outcome): void {
    this.note(o.note.kind, o.note.message, o.note.status ? { status: o.note.status } : {});
    this.abort = undefined;
    if (o.action === 'fallback') {
      this.fallback = { from: this.spec.mode, to: 'list-watch', status: o.note.status! };
      this.changed();
      this.start();
    } else {
      this.fatal = o.note.message;
      this.setState('stopped');
    }
  }

  /** Whether the last attempt's stream answered (its response headers arrived). */
  private answered = false;
  /** Protobuf streams ended at once and empty, in a row (plan.ts, emptyProtobufEnd). */
  private emptyProtobufEnds = 0;
  /** What the watchdog has heard so far (events, bookmarks, the opening): an attempt's share tells an empty stream. */
  private heardCount = 0;
  /** Whether the current stream is a streaming list. */
  private streaming = false;

  /** One request: a list, or a watch read to its end. */
  private async attempt(signal: AbortSignal): Promise<Ending | 'listed'> {
    const spec = this.mode === this.spec.mode ? this.spec : { ...this.spec, mode: this.mode };
    const req = nextRequest(spec, { phase: this.phase, lastRV: this.lastRV, hasObjects: this.hasObjects() });
    this.answered = false;
    this.streaming = false;
    if (req.kind === 'list') {
      try {
        await this.list(req.path, req.relist, signal);
      } catch (e) {
        return { kind: 'error', error: e };
      }
      // The list's resourceVersion is the point to watch, and later resume, from.
      this.phase = 'resume';
      return 'listed';
    }
    const s: StreamInfo = { path: req.path, streaming: req.streaming, synthetic: req.synthetic };
    this.streaming = req.streaming;
    const attempt$ = new AbortController();
    const stopAttempt = () => attempt$.abort();
    signal.addEventListener('abort', stopAttempt, { once: true });
    // Until the response headers arrive the loop is connecting, and only the connect timeout runs:
    // nothing has been heard, so there is no idle clock to start yet.
    this.connectingSince = Date.now();
    this.setState('connecting');
    const dog = this.watchdog(attempt$);

    try {
      // A Protobuf watch has no Table form (the server serves Tables as JSON only): the spec never asks both.
      const protobuf = spec.encoding === 'protobuf' && !spec.asTable;
      const w = await openWatch({ mux: this.loop.mux, context: spec.context, path: req.path, headers: spec.asTable ? { Accept: TABLE_ACCEPT } : undefined, encoding: protobuf ? 'protobuf' : 'json', signal: attempt$.signal });
      const openedAt = Date.now();
      s.contentType = w.headers['content-type'];
      this.contentType = s.contentType;
      this.replayed = w.headers[REPLAYED_HEADER] !== undefined;
      this.connectingSince = undefined;
      // The headers are the server's first word on this stream: the idle clock starts here.
      dog.opened();
      this.answered = true;
      this.initialEventsDone = !req.streaming && !req.synthetic;
      // From here on a drop or a pause resumes from lastRV; a streaming list must first reach its
      // end marker (its state is incomplete before that), so it keeps its phase until then.
      if (!req.streaming) this.phase = 'resume';
      this.setState('watching');
      this.announce(s);
      const heardBefore = this.heardCount;
      const gone = await this.read(w, s, dog, signal);
      if (dog.fired === 'idle') return { kind: 'idle', ms: this.loop.idleTimeoutMs };
      const empty = this.heardCount === heardBefore;
      return gone ? { kind: 'gone' } : { kind: 'end', ranMs: Date.now() - openedAt, empty, protobuf: s.contentType?.startsWith('application/vnd.kubernetes.protobuf') === true };
    } catch (e) {
      if (dog.fired === 'connect') return { kind: 'connect-timeout', ms: this.loop.connectTimeoutMs };
      if (dog.fired === 'idle') return { kind: 'idle', ms: this.loop.idleTimeoutMs };
      return { kind: 'error', error: e };
    } finally {
      dog.stop();
      this.connectingSince = undefined;
      signal.removeEventListener('abort', stopAttempt);
    }
  }

  private announce(s: StreamInfo): void {
    const asked = this.spec.encoding === 'protobuf' && !this.spec.asTable;
    // What the server confirmed, not what was asked: a type with no Protobuf form answers JSON.
    const how = asked ? `; the server answered ${s.contentType ?? 'no Content-Type'}` : '';
    this.note('open', `${s.streaming ? 'streaming list opened' : `watch opened${phaseFrom(s.path)}`}${how}`, { path: s.path });
    this.opened(s);
  }

  private async list(path: string, relist: boolean, signal: AbortSignal): Promise<void> {
    this.setState('listing');
    const spec = this.spec;
    const body = await this.loop.fetchJson<ListResponse | Table>({ context: spec.context, path, headers: spec.asTable ? { Accept: TABLE_ACCEPT } : undefined, signal });
    const { items, columns } = listedItems(body);
    const rv = (body as ListResponse).metadata?.resourceVersion;
    this.listed({ items, resourceVersion: rv, columns, path, receivedAt: Date.now() }, relist);
    if (rv !== undefined) this.lastRV = rv;
  }

  /**
   * Reads the stream to its end, a chunk's lines at a time (one step of the async iteration per
   * chunk, not per event: in a catch-up of 20,000 events those steps were much of the worker's
   * time), each decoded as it comes, so a malformed line fails after the events before it were
   * applied. Returns true when an ERROR event said 410 Gone; throws on any other ERROR event.
   */
  private async read(w: OpenWatch, s: StreamInfo, dog: Watchdog, signal: AbortSignal): Promise<boolean> {
    let sliceStart = now();
    let n = 0;
    for await (const batch of w.batches) {
      // Anything received proves the stream alive: once per chunk is enough.
      dog.poke();
      for (let i = 0; i < batch.count; i++) {
        if (signal.aborted) return false;
        const ev = batch.event(i);
        // A backlog arrives as many queued chunks, which the loop would otherwise work through in
        // one task: give the page (input, rendering) a turn every few milliseconds (the clock read
        // every 16 events: an event costs microseconds, a slice milliseconds).
        if ((++n & 15) === 0 && now() - sliceStart > SLICE_MS) {
          await yieldToPage();
          sliceStart = now();
          if (signal.aborted) return false;
        }
        if (ev.type === 'ERROR') {
          const status = isStatus(ev.object) ? ev.object : undefined;
          this.errorEvent(ev, status);
          if (status?.code === 410) return true;
          throw new KubeApiError(status ?? { kind: 'Status', apiVersion: 'v1', message: 'ERROR event' }, 200, false);
        }
        const origin: EventOrigin = (s.streaming || s.synthetic) && !this.initialEventsDone ? 'initial' : 'live';
        const rv = resourceVersionOf(ev.object);
        if (rv !== undefined) this.lastRV = rv;
        if (ev.type !== 'BOOKMARK') {
          this.received(ev, origin, s);
          continue;
        }
        const end = ev.object.metadata?.annotations?.[INITIAL_EVENTS_END] === 'true';
        if (end && (s.synthetic || s.streaming)) this.initialEventsDone = true;
        if (end && s.streaming) this.phase = 'resume';
        this.bookmark(ev, origin, end, s);
      }
    }
    return false;
  }

  /**
   * Aborts the attempt when the response headers do not arrive within connectTimeoutMs, or, once
   * they have, when nothing arrives for idleTimeoutMs (watches with bookmarks only).
   */
  private watchdog(ac: AbortController): Watchdog {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let limit = this.loop.connectTimeoutMs;
    let last = Date.now();
    // One timer, re-armed for what is left when it fires early, not cleared and set again on every
    // poke: in a catch-up of 20,000 events, setTimeout and clearTimeout per event were 1.06 s of
    // the worker's 2.3 s in a CPU profile, more than JSON.parse of the events.
    const check = () => {
      timer = undefined;
      if (!limit) return;
      const quiet = Date.now() - last;
      if (quiet < limit) {
        timer = setTimeout(check, limit - quiet);
        return;
      }
      dog.fired = dog.open ? 'idle' : 'connect';
      ac.abort();
    };
    const dog: Watchdog = {
      fired: undefined,
      open: false,
      opened: () => {
        dog.open = true;
        // Read at the headers: only they tell a replayed stream, which gets no idle clock.
        limit = this.idleTimeoutMs();
        dog.poke();
        // The connect timer is still armed here: re-arm for the idle limit, which may be the
        // shorter one (it was kept, and an idle stream was caught only at the connect timeout).
        clearTimeout(timer);
        timer = limit ? setTimeout(check, limit) : undefined;
      },
      poke: () => {
        last = Date.now();
        this.lastHeardAt = last;
        this.heardCount++;
      },
      stop: () => {
        clearTimeout(timer);
        timer = undefined;
      },
    };
    if (limit) timer = setTimeout(check, limit);
    return dog;
  }

  /**
   * The idle timeout of this watch: only watches with bookmarks (and streaming lists) have one,
   * and not while reading a replayed stream: a replay left quiet past it (the live stream had the
   * server's bookmarks in real time, the replay has none past its last frame) would otherwise be
   * taken for dead and opened again, a "watch opened" the live session never had.
   */
  protected idleTimeoutMs(): number {
    if (this.replayed) return 0;
    return this.spec.bookmarks || this.spec.mode === 'stream' ? this.loop.idleTimeoutMs : 0;
  }
}

interface Watchdog {
  /** Why it aborted the attempt: no response headers in time, or silence after them. */
  fired: 'connect' | 'idle' | undefined;
  /** The response headers arrived. */
  open: boolean;
  /** The headers arrived: from now on the idle clock runs (watches with bookmarks). */
  opened(): void;
  /** A sign of life: restart the idle countdown. */
  poke(): void;
  stop(): void;
}

function phaseFrom(path: string): string {
  const rv = new URLSearchParams(path.split('?')[1] ?? '').get('resourceVersion');
  return rv === null ? ' (resourceVersion unset)' : ` from resourceVersion "${rv}"`;
}

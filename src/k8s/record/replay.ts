// Replay: a recording opened without a cluster. While a replay is active, the two network choke
// points (kubeFetch and the mux client) answer from the recording instead of the network, so
// every view (console, lists, watch panes, ownership, the object views) shows the recorded
// exchanges through its own code, and nothing is sent to any cluster: a write is refused here,
// before anything leaves the page, and a read the recording does not hold gets a Status that
// says so.
//
// A replay has a clock (recording time): a watch stream releases each recorded frame when the
// clock passes the frame's arrival time, so play, pause, speed and seeking forward drive the
// watch panes. Seeking back cannot take events back out of a pane: it bumps `epoch`, and the
// shell then mounts the view anew (its watches open again and get the frames up to the clock).
import type { ContextList } from '../../../protocol/contexts';
import { joinChunks, type RecordedExchange } from './recorder';
import type { RecordingContents } from './har';
import type { MuxStream } from '../client/muxStream';
import { REPLAYED_HEADER, type ReplayRequest } from '../client/transportHooks';
import { Listeners } from '../../lib/listeners';

export type { ReplayRequest } from '../client/transportHooks';

export interface ReplaySnapshot {
  /** Where the recording came from: `server` (--replay), a URL, or `file`. */
  source: string;
  start: number;
  end: number;
  position: number;
  playing: boolean;
  speed: number;
  epoch: number;
  /** Arrival times of every watch frame, for the scrubber's marks. */
  frameTimes: number[];
  /** The recording's marks (lesson steps), to jump to. */
  marks: { at: number; label: string }[];
}

/** The Accept a request carried ('' without one), compared as sent. */
function acceptOf(headers: readonly (readonly [string, string])[]): string {
  return headers.find(([k]) => k.toLowerCase() === 'accept')?.[1].trim() ?? '';
}

const PROXY_ERROR = { 'content-type': 'application/json', 'x-explorer-proxy-error': '1' };

function statusBody(code: number, reason: string, message: string): string {
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message });
}

function isWatchPath(path: string): boolean {
  return /[?&]watch=(1|true)(&|$)/.test(path);
}

/** A path's query as sorted pairs without `timeoutSeconds` (a watch's own deadline, not what it asks for). */
export function normalizedPath(path: string): string {
  const [p, q = ''] = path.split('?');
  const params = [...new URLSearchParams(q)].filter(([k]) => k !== 'timeoutSeconds').sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1));
  return `${p}?${new URLSearchParams(params).toString()}`;
}

export class ReplaySession {
  readonly start: number;
  readonly end: number;
  private position: number;
  private playing = false;
  private speed = 1;
  private epoch = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private lastTick = 0;
  private readonly listeners = new Listeners();
  private readonly waiters = new Set<() => void>();
  private snap: ReplaySnapshot;
  private readonly byKey = new Map<string, RecordedExchange[]>();
  private readonly frameTimes: number[];

  constructor(
    readonly recording: RecordingContents,
    readonly source: string,
  ) {
    const xs = recording.exchanges;
    const times = xs.flatMap((x) => [Date.parse(x.startedAt), ...(x.endedAt !== undefined ? [x.endedAt] : []), ...x.chunks.map((c) => c.at)]).filter((t) => Number.isFinite(t));
    this.start = Math.min(recording.startedAt, ...times);
    this.end = Math.max(recording.stoppedAt ?? 0, ...times, this.start);
    this.position = this.end;
    for (const x of xs) {
      const key = `${x.context} ${x.request.method} ${normalizedPath(x.request.path)}`;
      const list = this.byKey.get(key) ?? [];
      list.push(x);
      this.byKey.set(key, list);
    }
    this.frameTimes = xs.filter((x) => x.watch).flatMap((x) => x.chunks.map((c) => c.at));
    this.snap = this.makeSnapshot();
  }

  contexts(): ContextList {
    const names = [...new Set(this.recording.exchanges.map((x) => x.context))];
    return {
      current: names[0] ?? '',
      contexts: names.map((name, i) => ({ name, cluster: name, server: this.recording.servers[name] ?? '', user: '(recorded)', namespace: 'default', current: i === 0 })),
    };
  }

  snapshot(): ReplaySnapshot {
    return this.snap;
  }

  subscribe(fn: () => void): () => void {
    return this.listeners.subscribe(fn);
  }

  private makeSnapshot(): ReplaySnapshot {
    return { source: this.source, start: this.start, end: this.end, position: this.position, playing: this.playing, speed: this.speed, epoch: this.epoch, frameTimes: this.frameTimes, marks: this.recording.marks };
  }

  private changed(): void {
    this.snap = this.makeSnapshot();
    for (const w of [...this.waiters]) w();
    this.listeners.emit();
  }

  /** Moves the clock; back in time, the views start again (`epoch`). */
  seek(at: number): void {
    const next = Math.min(this.end, Math.max(this.start, at));
    if (next < this.position) this.epoch += 1;
    this.position = next;
    if (this.position >= this.end) this.stopTimer();
    this.changed();
  }

  play(): void {
    if (this.playing) return;
    if (this.position >= this.end) this.seek(this.start);
    this.playing = true;
    this.lastTick = Date.now();
    this.timer = setInterval(() => {
      const now = Date.now();
      const next = Math.min(this.end, this.position + (now - this.lastTick) * this.speed);
      this.lastTick = now;
      this.position = next;
      if (next >= this.end) this.stopTimer();
      this.changed();
    }, 50);
    this.changed();
  }

  pause(): void {
    this.stopTimer();
    this.changed();
  }

  setSpeed(speed: number): void {
    this.speed = speed;
    this.changed();
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.playing = false;
  }

  dispose(): void {
    this.stopTimer();
    for (const w of [...this.waiters]) w();
  }

  /** Resolves when the clock reaches `at` (or the signal aborts: then false). */
  private until(at: number, signal: AbortSignal): Promise<boolean> {
    if (this.position >= at) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (signal.aborted) {
          this.waiters.delete(check);
          resolve(false);
        } else if (this.position >= at) {
          this.waiters.delete(check);
          resolve(true);
        }
      };
      this.waiters.add(check);
      signal.addEventListener('abort', check, { once: true });
    });
  }

  /**
   * The recorded exchange for a request: same context, method and path (query order and
   * timeoutSeconds aside) and, where the recording holds the same read in several encodings (the
   * Encodings view, a console GET as JSON then as Protobuf), the same Accept; of several, the
   * last one started at or before the clock, else the first.
   */
  find(req: ReplayRequest): RecordedExchange | undefined {
    const list = this.byKey.get(`${req.context} ${req.method ?? 'GET'} ${normalizedPath(req.path)}`);
    if (!list?.length) return undefined;
    // A body the page stopped reading (a probe that only wanted the status) is not an answer to replay.
    const whole = list.filter((x) => x.watch || (x.endedAt !== undefined && !x.closedByReader));
    const candidates = whole.length ? whole : list;
    // Only a recording without this Accept (another tool's HAR, say) answers with another one.
    const accept = (req.accept ?? '').trim();
    const sameAccept = candidates.filter((x) => acceptOf(x.request.headers) === accept);
    const from = sameAccept.length ? sameAccept : candidates;
    let pick = from[0];
    for (const x of from) if (Date.parse(x.startedAt) <= this.position) pick = x;
    return pick;
  }

  /** The recorded body, chunk by chunk: a watch's frames as the clock reaches them. */
  private async *chunks(x: RecordedExchange, signal: AbortSignal): AsyncGenerator<Uint8Array> {
    if (!x.watch) {
      if (x.chunks.length) yield joinChunks(x.chunks);
      return;
    }
    for (const c of x.chunks) {
      if (!(await this.until(c.at, signal))) return;
      yield c.bytes;
    }
    // The server ended the stream: end it at the same moment. A stream the page closed (or one
    // still open when the recording stopped) stays open and silent, as the server left it.
    if (x.endedAt !== undefined && !x.closedByReader && (await this.until(x.endedAt, signal))) return;
    await this.until(Number.POSITIVE_INFINITY, signal);
  }

  /** A body that yields nothing and ends when the reader closes it. */
  private async *silence(signal: AbortSignal): AsyncGenerator<Uint8Array> {
    await this.until(Number.POSITIVE_INFINITY, signal);
    yield* [];
  }

  /**
   * A stream (the mux's shape) from the recording. A watch's carries REPLAYED_HEADER: its reader
   * (the watch loop) then runs no idle clock on it, or a replay left quiet for that long (the live
   * stream got the server's bookmarks in real time, the replay has none past its last frame)
   * would be taken for dead and opened again: a "watch opened" the live session never had.
   */
  open(req: ReplayRequest): MuxStream {
    const s = this.serve(req);
    return isWatchPath(req.path) && s.status === 200 ? { ...s, headers: { ...s.headers, [REPLAYED_HEADER]: '1' } } : s;
  }

  /** The recorded answer to a request, headers as recorded. */
  private serve(req: ReplayRequest): MuxStream {
    const ac = new AbortController();
    req.signal?.addEventListener('abort', () => ac.abort(), { once: true });
    const x = this.find({ ...req, method: 'GET' });
    const close = () => ac.abort();
    if (!x?.response) {
      if (isWatchPath(req.path)) {
        // A watch the recording has no stream for (the session asked to resume where the
        // recording ended): it stays open and silent, instead of failing and retrying forever.
        return { status: 200, headers: { 'content-type': 'application/json' }, fromProxy: false, body: this.silence(ac.signal), close, queued: () => 0 };
      }
      const body = new TextEncoder().encode(statusBody(404, 'NotFound', `not in the recording: GET ${req.path} (a replay sends nothing to any cluster)`));
      return { status: 404, headers: PROXY_ERROR, fromProxy: true, body: (async function* () { yield body; })(), close, queued: () => 0 };
    }
    const headers = Object.fromEntries(x.response.headers.map(([k, v]) => [k.toLowerCase(), v]));
    return { status: x.response.status, headers, fromProxy: headers['x-explorer-proxy-error'] !== undefined, body: this.chunks(x, ac.signal), close, queued: () => 0 };
  }

  /** A fetch Response from the recording; writes are refused (a replay is read-only). */
  fetch(req: ReplayRequest): Response {
    const method = (req.method ?? 'GET').toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') {
      return new Response(statusBody(405, 'MethodNotAllowed', `a replay is read-only: ${method} was not sent (nothing is sent to any cluster)`), { status: 405, headers: PROXY_ERROR });
    }
    const x = this.find(req);
    // The recorded headers only: a fetch's reader sees them as the live session did.
    const s = this.serve(req);
    if (s.status === 204 || s.status === 304) return new Response(null, { status: s.status, headers: s.headers });
    // A whole body is handed over at once; only a watch's body is a stream that follows the clock.
    if (!x?.watch || !x.response) {
      if (x?.response && (x.closedByReader || x.endedAt === undefined || x.cut)) {
        // Only part of this body was recorded (the page read only the status, or stopped reading):
        // the status and headers are the server's, the body is not served. A reader gets an error
        // that says so, never the first bytes as if they were the whole (a JSON parse of nothing).
        const cut = new Error(`the recording holds only the start of this answer (GET ${req.path}): the page stopped reading it while recording, so its body is not replayed`);
        return new Response(new ReadableStream({ start: (c) => c.error(cut) }), { status: s.status, statusText: x.response.statusText, headers: s.headers });
      }
      const bytes = x?.response ? joinChunks(x.chunks) : undefined;
      if (bytes) return new Response(bytes as Uint8Array<ArrayBuffer>, { status: s.status, statusText: x?.response?.statusText ?? '', headers: s.headers });
      return new Response(statusBody(404, 'NotFound', `not in the recording: GET ${req.path} (a replay sends nothing to any cluster)`), { status: 404, headers: PROXY_ERROR });
    }
    const it = s.body[Symbol.asyncIterator]();
    let done = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const r = await it.next();
        if (done) return;
        if (r.done) {
          done = true;
          controller.close();
        } else controller.enqueue(r.value);
      },
      cancel: () => {
        done = true;
        s.close();
      },
    });
    return new Response(body, { status: s.status, statusText: x.response.statusText, headers: s.headers });
  }
}

let active: ReplaySession | undefined;
const activeListeners = new Listeners();

/** The replay in progress, if any. */
export function activeReplay(): ReplaySession | undefined {
  return active;
}

export function subscribeReplay(fn: () => void): () => void {
  return activeListeners.subscribe(fn);
}

/** Starts replaying a recording: from now on the choke points answer from it. */
export function startReplay(recording: RecordingContents, source: string): ReplaySession {
  active?.dispose();
  active = new ReplaySession(recording, source);
  activeListeners.emit();
  return active;
}

export function stopReplay(): void {
  active?.dispose();
  active = undefined;
  activeListeners.emit();
}

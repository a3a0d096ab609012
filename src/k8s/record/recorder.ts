// The recorder: while the user has it on, every exchange the page has with the cluster is kept
// as it happened, through the two network choke points (kubeFetch for HTTP, the mux client for
// streams and list chunks), so that a session can be saved to one file and replayed without the
// cluster. Watch streams keep each chunk with its arrival time; other bodies are kept whole.
// Nothing is redacted here: the recording stays in this tab's memory until the user saves it, and
// redaction (redact.ts) is applied to the file's contents, before any byte is written.
//
// This module imports nothing from k8s/client (which imports it), only types.
import type { Exchange, HeaderList } from '../client/exchange';
import { isWatchRequest } from '../../../protocol/watch';
import { observeResponse, type Tap, type TapRequest } from '../client/transportHooks';
import { Listeners } from '../../lib/listeners';
import type { LessonStepRef, RecordingVia } from '../../../protocol/recording';

/** One chunk of a streamed (watch) body, with the time the page received it. */
export interface RecordedChunk {
  /** Date.now() at arrival. */
  at: number;
  bytes: Uint8Array;
}

export interface RecordedExchange extends Exchange {
  /** How the request reached the proxy: plain HTTP (kubeFetch) or the mux WebSocket; `xray`: another client, read from an X-ray recording. */
  via: RecordingVia;
  /**
   * The body, chunk by chunk with arrival times (`response.body` stays empty while recording:
   * a reader that stops early must not leave a body half assembled).
   */
  chunks: RecordedChunk[];
  /** Date.now() when the body ended (undefined: still open when the recording stopped). */
  endedAt?: number;
  /** The body was cut: the recording's size limit was reached. */
  cut?: boolean;
  /** The page stopped reading (closed the watch) before the server ended it. */
  closedByReader?: boolean;
  /** The lesson step that was running when the request left (see `duringLessonStep`). */
  lesson?: LessonStepRef;
}

export type { LessonStepRef } from '../../../protocol/recording';

/** A labelled moment (a lesson step, a note). */
export interface RecordingMark {
  at: number;
  label: string;
}

export interface RecorderOptions {
  /** Bytes of bodies the recording may hold; past it, bodies are cut and the recorder stops. */
  limitBytes: number;
  /** Context name → API server URL, so that the file's URLs are the cluster's own. */
  servers: Record<string, string>;
  /**
   * At the limit, forget the oldest exchanges instead of stopping (the tab's journal, which
   * time travel reads live); one body larger than a quarter of the limit is not kept at all.
   */
  rolling?: boolean;
}

export interface RecorderSnapshot {
  state: 'off' | 'recording' | 'stopped';
  bytes: number;
  limitBytes: number;
  exchanges: number;
  /** The size limit stopped the recording. */
  full: boolean;
  startedAt?: number;
  stoppedAt?: number;
}

export const DEFAULT_LIMIT_BYTES = 64 * 1024 * 1024;

function bodyOf(body: unknown): { body?: string; bodyBytes?: Uint8Array } {
  if (body === undefined || body === null) return {};
  if (typeof body === 'string') return { body };
  if (body instanceof Uint8Array) return { bodyBytes: body, body: '' };
  if (body instanceof ArrayBuffer) return { bodyBytes: new Uint8Array(body), body: '' };
  // A streamed or form body cannot be read without consuming it; say so rather than guess.
  return { body: '(a streamed request body: not recorded)' };
}

function headerList(h: TapRequest['headers']): HeaderList {
  if (!h) return [];
  return Array.isArray(h) ? h : Object.entries(h);
}

export class Recorder {
  private entries: RecordedExchange[] = [];
  private marks: RecordingMark[] = [];
  private bytes = 0;
  private state: RecorderSnapshot['state'] = 'off';
  private full = false;
  private startedAt?: number;
  private stoppedAt?: number;
  private opts: RecorderOptions = { limitBytes: DEFAULT_LIMIT_BYTES, servers: {} };
  private readonly listeners = new Listeners();
  private snap: RecorderSnapshot = this.makeSnapshot();
  private seq = 0;
  private lesson: LessonStepRef | undefined;
  /** Bytes each kept exchange holds (rolling: what forgetting it frees). */
  private sizes = new WeakMap<RecordedExchange, number>();
  private notifyPending = false;

  get recording(): boolean {
    return this.state === 'recording';
  }

  start(opts: Partial<RecorderOptions> = {}): void {
    this.entries = [];
    this.marks = [];
    this.bytes = 0;
    this.full = false;
    this.opts = { limitBytes: opts.limitBytes ?? DEFAULT_LIMIT_BYTES, servers: opts.servers ?? {}, rolling: opts.rolling ?? false };
    this.sizes = new WeakMap();
    this.startedAt = Date.now();
    this.stoppedAt = undefined;
    this.state = 'recording';
    this.notify();
  }

  stop(): void {
    if (this.state !== 'recording') return;
    this.state = 'stopped';
    this.stoppedAt = Date.now();
    this.notify();
  }

  /** Forgets the recording. */
  clear(): void {
    this.stop();
    this.entries = [];
    this.marks = [];
    this.bytes = 0;
    this.state = 'off';
    this.notify();
  }

  mark(label: string): void {
    if (this.recording) this.marks.push({ at: Date.now(), label });
  }

  /** A lesson step starts (marked, and its exchanges carry it) or ends (undefined). */
  lessonStep(ref: LessonStepRef | undefined): void {
    this.lesson = ref;
    if (ref) this.mark(`lesson ${ref.id}, step ${ref.step}`);
  }

  /** The recorded exchanges, marks and options (the recording goes on: a snapshot of the lists). */
  contents(): { exchanges: RecordedExchange[]; marks: RecordingMark[]; servers: Record<string, string>; startedAt: number; stoppedAt?: number; full: boolean } {
    return { exchanges: [...this.entries], marks: [...this.marks], servers: this.opts.servers, startedAt: this.startedAt ?? Date.now(), stoppedAt: this.stoppedAt, full: this.full };
  }

  snapshot(): RecorderSnapshot {
    return this.snap;
  }

  subscribe(fn: () => void): () => void {
    return this.listeners.subscribe(fn);
  }

  private makeSnapshot(): RecorderSnapshot {
    return { state: this.state, bytes: this.bytes, limitBytes: this.opts.limitBytes, exchanges: this.entries.length, full: this.full, startedAt: this.startedAt, stoppedAt: this.stoppedAt };
  }

  /** Listeners hear at most once per task: a watch burst must not render the counter per chunk. */
  private notify(): void {
    if (this.notifyPending) return;
    this.notifyPending = true;
    queueMicrotask(() => {
      this.notifyPending = false;
      this.snap = this.makeSnapshot();
      this.listeners.emit();
    });
  }

  /**
   * Counts bytes of `x` against the limit. Past it, a recording stops (false from then on); a
   * rolling journal forgets its oldest exchanges instead, and refuses (false) only a body too
   * large to keep.
   */
  private take(n: number, x: RecordedExchange): boolean {
    const held = this.sizes.get(x);
    if (held === undefined) return false; // forgotten already (an old watch still running)
    if (this.opts.rolling) {
      if (held + n > this.opts.limitBytes / 4) {
        // Too large for the journal: forget what it held of this body (half a body is no version).
        this.bytes -= held;
        this.sizes.set(x, 0);
        x.chunks.length = 0;
        return false;
      }
      while (this.bytes + n > this.opts.limitBytes && this.entries.length > 0 && this.entries[0] !== x) {
        const old = this.entries.shift()!;
        this.bytes -= this.sizes.get(old) ?? 0;
        this.sizes.delete(old);
      }
    } else if (this.bytes + n > this.opts.limitBytes) {
      this.full = true;
      this.stop();
      return false;
    }
    this.bytes += n;
    this.sizes.set(x, held + n);
    this.notify();
    return true;
  }

  /** Called by a choke point as a request leaves; undefined when nothing is being recorded. */
  begin(req: TapRequest): Tap | undefined {
    if (!this.recording) return undefined;
    this.seq += 1;
    const watch = isWatchRequest(req.path, req.method);
    const x: RecordedExchange = {
      id: `rec-${this.seq}`,
      context: req.context,
      startedAt: new Date().toISOString(),
      request: { method: req.method, path: req.path, headers: headerList(req.headers), ...bodyOf(req.body) },
      timings: {},
      watch,
      source: 'live',
      via: req.via,
      chunks: [],
      ...(this.lesson ? { lesson: this.lesson } : {}),
    };
    const t0 = Date.now();
    this.entries.push(x);
    this.sizes.set(x, 0);
    this.take((x.request.body?.length ?? 0) + (x.request.bodyBytes?.length ?? 0), x);
    this.notify();
    let cut = false;
    return {
      head: (status, statusText, headers) => {
        x.response = { status, statusText, headers, body: new Uint8Array() };
      },
      chunk: (bytes) => {
        if (cut) return;
        // Chunks that arrive after the recording stopped still belong to an exchange it holds,
        // but the size limit is the user's promise: past it nothing more is kept.
        if (!this.recording && this.full) {
          cut = x.cut = true;
          return;
        }
        if (!this.take(bytes.length, x)) {
          cut = x.cut = true;
          return;
        }
        x.chunks.push({ at: Date.now(), bytes: bytes.slice() });
      },
      end: (error, closedByReader) => {
        if (x.endedAt !== undefined) return;
        x.endedAt = Date.now();
        if (closedByReader) x.closedByReader = true;
        x.timings.totalMs = x.endedAt - t0;
        if (error) x.error = error;
        this.notify();
      },
    };
  }
}

/** All chunks of a recorded body, joined. */
export function joinChunks(chunks: RecordedChunk[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.bytes.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c.bytes, o);
    o += c.bytes.length;
  }
  return out;
}

/** The page's one recorder (the user's ● Record). */
export const recorder = new Recorder();

export const JOURNAL_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * The tab's journal: always on, the last 16 MB of exchanges, so that time travel lists the
 * versions of an object the explorer has seen during this tab's life without a recording.
 */
export const journal = new Recorder();
journal.start({ limitBytes: JOURNAL_LIMIT_BYTES, rolling: true });

/**
 * Runs a lesson step with the recording told so: a mark at its start, and every exchange that
 * leaves while it runs carries the lesson and step (in the file: `_lesson` and the entry's
 * comment). Steps run one at a time; a request another view sends meanwhile is tagged too.
 */
export async function duringLessonStep<T>(ref: LessonStepRef, run: () => Promise<T>): Promise<T> {
  recorder.lessonStep(ref);
  try {
    return await run();
  } finally {
    recorder.lessonStep(undefined);
  }
}

/** What a choke point reports to: the user's recording (when on) and the journal. */
export function beginExchange(req: TapRequest): Tap | undefined {
  const taps = [recorder.begin(req), journal.begin(req)].filter((t): t is Tap => t !== undefined);
  if (taps.length <= 1) return taps[0];
  return {
    head: (status, statusText, headers) => taps.forEach((t) => t.head(status, statusText, headers)),
    chunk: (bytes) => taps.forEach((t) => t.chunk(bytes)),
    end: (error, closedByReader) => taps.forEach((t) => t.end(error, closedByReader)),
  };
}

// The transport's wrappers, for code and tests that observe a body by hand.
export { observeResponse, type Tap, type TapRequest };

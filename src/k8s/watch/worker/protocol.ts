// The protocol between a watch session running in a Web Worker and its mirror in the page, and
// the pure halves of it: what a batch holds, how the worker side builds one from a session, and
// how the page applies one. No I/O here (host.ts and workerSession.ts carry the messages).
//
// Why a worker: during a catch-up (a streaming list of 20,000 objects, a backlog replayed after a
// pause) framing, JSON.parse and reducing every event on the main thread leaves input and
// rendering waiting. The worker owns the full objects (the session's map and timeline); the page
// gets, per batch (one per ~16 ms at most), only what it draws: the new timeline entries and the
// changed objects as rows (key, resourceVersion, Table cells), and asks for a full object when one
// is opened (entryDetail) or the timeline exported.
import { KubeApiError, MuxStreamError, MuxUnauthorizedError, type Status } from '../../client';
import { type EventEntry, type EventOrigin, type NoteEntry, ObjectSummary, type PaneEntry, type PaneSnapshot, type PartialEvent, type SessionSnapshot, type WatchSpec } from '../session';
import { DEFAULT_OBJECT_BYTES } from '../objects';
import { Ring } from '../timeline';
import type { WatchEventType } from '../types';

// --- messages ---

/** Session settings that cross to the worker (functions cannot). */
export interface RemoteSessionOptions {
  maxEntries?: number;
  maxBytes?: number;
  maxObjectBytes?: number;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
}

/** An error as it crosses the boundary; rebuilt as the same class on the other side. */
export interface WireError {
  name: string;
  message: string;
  status?: Status;
  httpStatus?: number;
  fromProxy?: boolean;
  retryAfterSeconds?: number;
}

/** Page → worker. */
export type ToWorker =
  | { t: 'create'; sid: number; spec: WatchSpec; opts: RemoteSessionOptions }
  | { t: 'cmd'; sid: number; cmd: 'start' | 'pause' | 'resume' | 'stop' | 'clear' }
  | { t: 'max'; sid: number; n: number }
  | { t: 'budget'; sid: number; bytes: number }
  | { t: 'object'; sid: number; req: number; key: string }
  | { t: 'export'; sid: number; req: number; frames?: boolean }
  | { t: 'detail'; sid: number; req: number; seq: number }
  // Answers to the worker's requests for the network (the page holds the one mux and kubeFetch):
  | { t: 'mux-response'; rid: number; status: number; headers: Record<string, string>; fromProxy: boolean }
  | { t: 'mux-chunk'; rid: number; buf: ArrayBuffer; off: number; len: number }
  | { t: 'mux-end'; rid: number; error?: WireError }
  | { t: 'fetch-done'; rid: number; buf?: ArrayBuffer; error?: WireError };

/** Worker → page. */
export type FromWorker =
  /**
   * A SessionBatch as JSON text: the page's JSON.parse of many small objects costs a fraction of
   * what deserialising the same structured clone does (measured in the bench's profile).
   */
  | { t: 'batch'; sid: number; json: string }
  | { t: 'reply'; req: number; value: unknown }
  | { t: 'mux-open'; rid: number; context: string; path: string; headers?: Record<string, string> }
  /** Flow control: the worker consumed these bytes of the stream; the page may read more from the mux. */
  | { t: 'mux-ack'; rid: number; bytes: number }
  | { t: 'mux-close'; rid: number }
  | { t: 'fetch'; rid: number; context: string; path: string; headers?: Record<string, string> }
  | { t: 'fetch-abort'; rid: number };

/**
 * A timeline event as the page needs it to draw its row: [seq, type, key, resourceVersion (null:
 * none), receivedAt, size, origin, 1 when it is the initial-events-end bookmark]. Arrays of
 * primitives: the page parses them several times faster than objects with the same fields.
 */
export type EventRow = [number, WatchEventType, string, string | null, number, number, EventOrigin, 0 | 1];
/** An object of the state as the page shows it: [key, resourceVersion (null: none), last event type, Table cells]. */
export type ObjectRow = [string, string | null, WatchEventType | null] | [string, string | null, WatchEventType | null, unknown[]];

/** Everything the page needs to bring its mirror to the worker session's state at one moment. */
export interface SessionBatch {
  /** The session's scalar fields, as in its snapshot. */
  head: Omit<SessionSnapshot, 'entries' | 'objects'>;
  /** clear() calls so far: when it grew, the mirror empties its timeline before adding `entries`. */
  clears: number;
  /**
   * Timeline entries pushed since the previous batch and still kept, oldest first: events as rows
   * (the full ones stay in the worker), notes and ERROR events whole.
   */
  entries: (EventRow | NoteEntry | PartialEvent)[];
  /** How many entries the session keeps now: the mirror keeps as many of its newest. */
  kept: number;
  /** Object changes: the whole state (after a list or relist), or the keys set and deleted. */
  objects: { reset: boolean; set: ObjectRow[]; deleted: string[] };
}

// --- errors across the boundary ---

export function toWire(e: unknown): WireError {
  if (e instanceof KubeApiError) return { name: e.name, message: e.message, status: e.status, httpStatus: e.httpStatus, fromProxy: e.fromProxy, retryAfterSeconds: e.retryAfterSeconds };
  if (e instanceof Error || (typeof DOMException !== 'undefined' && e instanceof DOMException)) return { name: (e as Error).name, message: (e as Error).message };
  return { name: 'Error', message: String(e) };
}

export function fromWire(w: WireError): Error {
  if (w.status && w.httpStatus !== undefined) return new KubeApiError(w.status, w.httpStatus, w.fromProxy ?? false, w.retryAfterSeconds);
  if (w.name === 'MuxUnauthorizedError') return new MuxUnauthorizedError(w.message);
  if (w.name === 'MuxStreamError') return new MuxStreamError(w.message);
  if (w.name === 'AbortError') return new DOMException(w.message, 'AbortError');
  const err = new Error(w.message);
  err.name = w.name;
  return err;
}

// --- worker side: rows and batches ---

export function objectRow(key: string, o: ObjectSummary): ObjectRow {
  const rv = o.resourceVersion ?? null;
  const type = o.type ?? null;
  return o.cells ? [key, rv, type, o.cells] : [key, rv, type];
}

/** An ERROR event crosses with its Status (the pane shows it), not its line. */
function errorSummary(e: EventEntry): PartialEvent {
  const { object: _object, raw: _raw, previous: _previous, wire: _wire, previousWire: _previousWire, ...summary } = e;
  return { ...summary, partial: true };
}

export function eventRow(e: EventEntry): EventRow {
  return [e.seq, e.type, e.key, e.resourceVersion ?? null, e.receivedAt, e.size, e.origin, e.initialEventsEnd ? 1 : 0];
}

/**
 * Builds batches from a session's snapshots. Entries are found newest first by seq (consecutive),
 * so a batch costs what is new, not the timeline's length.
 */
export class BatchBuilder {
  private lastSeq = 0;

  build(snap: SessionSnapshot, drained: { changes: ReadonlyMap<string, ObjectSummary | undefined> | 'all'; clears: number }): SessionBatch {
    const fresh: (EventRow | NoteEntry | PartialEvent)[] = [];
    const view = snap.entries;
    for (let i = view.length - 1; i >= 0; i--) {
      const e = view.at(i)!;
      if (e.seq <= this.lastSeq) break;
      fresh.push(e.kind === 'note' ? e : e.type === 'ERROR' ? errorSummary(e) : eventRow(e));
    }
    fresh.reverse();
    const last = view.at(view.length - 1);
    if (last) this.lastSeq = last.seq;
    const set: ObjectRow[] = [];
    const deleted: string[] = [];
    if (drained.changes === 'all') for (const [k, o] of snap.objects) set.push(objectRow(k, o));
    else
      for (const [k, o] of drained.changes) {
        if (o) set.push(objectRow(k, o));
        else deleted.push(k);
      }
    const { entries: _entries, objects: _objects, ...head } = snap;
    return { head, clears: drained.clears, entries: fresh, kept: view.length, objects: { reset: drained.changes === 'all', set, deleted } };
  }
}

// --- page side: the mirror ---

/** The page's copy of a worker session, brought up to date one batch at a time. */
/**
 * `order` (sorted) with `added` (keys not in it) merged in and `deleted` (keys in it) taken out,
 * as a new array: the new keys are sorted and merged in one pass, so a batch costs its own keys'
 * sort and a copy, where sorting the whole state on every render cost a comparison sort of every
 * object (20,000 during the catch-up bench) per frame.
 */
export function updatedOrder(order: readonly string[], added: string[], deleted: readonly string[]): string[] {
  const gone = deleted.length ? new Set(deleted) : undefined;
  added.sort();
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < order.length || j < added.length) {
    if (j >= added.length || (i < order.length && order[i]! < added[j]!)) {
      const k = order[i++]!;
      if (!gone?.has(k)) out.push(k);
    } else {
      const k = added[j++]!;
      if (!gone?.has(k)) out.push(k);
    }
  }
  return out;
}

export class SessionMirror {
  // Capacity and byte budget are the worker's business: the mirror keeps as many as `kept` says.
  private timeline = new Ring<PaneEntry>(Number.MAX_SAFE_INTEGER);
  private objects = new Map<string, ObjectSummary>();
  /** The keys of `objects`, sorted: a new array when a key came or went, the same one otherwise. */
  private order: readonly string[] = [];
  private clears = 0;
  snapshot: PaneSnapshot;

  constructor() {
    this.snapshot = this.make({ version: 0, state: 'idle', dropped: 0, bytes: 0, bodies: { kept: 0, bytes: 0, maxBytes: DEFAULT_OBJECT_BYTES, evicted: 0 }, counts: { ADDED: 0, MODIFIED: 0, DELETED: 0, BOOKMARK: 0, ERROR: 0 }, initialEventsDone: false });
  }

  apply(b: SessionBatch): PaneSnapshot {
    if (b.clears !== this.clears) {
      this.clears = b.clears;
      this.timeline.clear();
    }
    for (const e of b.entries) this.timeline.push(Array.isArray(e) ? fromEventRow(e) : e);
    this.timeline.keepNewest(b.kept);
    if (b.objects.reset) this.objects = new Map();
    const added: string[] = [];
    for (const r of b.objects.set) {
      if (!b.objects.reset && !this.objects.has(r[0])) added.push(r[0]);
      this.objects.set(r[0], fromObjectRow(r));
    }
    // Only keys the mirror had leave the order.
    const deleted: string[] = [];
    for (const k of b.objects.deleted) if (this.objects.delete(k)) deleted.push(k);
    if (b.objects.reset) this.order = [...this.objects.keys()].sort();
    else if (added.length || deleted.length) this.order = updatedOrder(this.order, added, deleted);
    this.snapshot = this.make(b.head);
    return this.snapshot;
  }

  private make(head: SessionBatch['head']): PaneSnapshot {
    // Like the session's own snapshot: an immutable timeline view, the live map (version says when
    // it changed), and the keys in order.
    return { ...head, entries: this.timeline.view(), objects: this.objects, order: this.order };
  }
}

function fromEventRow(r: EventRow): PartialEvent {
  const e: PartialEvent = { kind: 'event', seq: r[0], type: r[1], key: r[2], receivedAt: r[4], size: r[5], origin: r[6], partial: true };
  if (r[3] !== null) e.resourceVersion = r[3];
  if (r[7]) e.initialEventsEnd = true;
  return e;
}

function fromObjectRow(r: ObjectRow): ObjectSummary {
  return new ObjectSummary(r[1] ?? undefined, r.length === 4 ? r[3] : undefined, r[2] ?? undefined);
}

/** True when an entry on the page lacks its full objects (ask the session's entryDetail). */
export function isPartial(e: PaneEntry): e is PartialEvent {
  return e.kind === 'event' && 'partial' in e;
}

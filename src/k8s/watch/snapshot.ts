// What a watch session shows, and what a pane draws of it: timeline entries (events and notes),
// the snapshot, an object's detail; shared by the session (session.ts), the worker's mirror
// (worker/protocol.ts) and the panes. Types and the small readers of them.
import type { Status } from '../client';
import type { EventOrigin, LoopOptions, SessionState } from './loop';
import type { NoteKind, StartMode } from './plan';
import { resourceVersionOf, type StateDiff } from './reducer';
import { type BodyStats, ObjectSummary } from './objects';
import { isTable, type KubeObject, type TableColumn, type WatchEventType } from './types';
import type { RingView } from './timeline';

/** What a pane draws of an event in its timeline row: identity, version, size and origin. */
export interface EventSummary {
  kind: 'event';
  seq: number;
  type: WatchEventType;
  key: string;
  resourceVersion?: string;
  receivedAt: number;
  size: number;
  origin: EventOrigin;
  status?: Status;
  initialEventsEnd?: boolean;
}

/** An event with its objects, as the session that received it keeps it. */
export interface EventEntry extends EventSummary {
  object: KubeObject;
  /** The line as the server sent it (for 'list' entries: one made from the list item). */
  raw: string;
  /** The stored version this event replaced, for the per-event diff, when the object budget still kept it. */
  previous?: KubeObject;
  /**
   * A Protobuf event's frame as the server sent it (4-byte length, WatchEvent): `object` is then
   * only what the pane read of it (kind, apiVersion, ObjectMeta head) and `raw` is empty; the
   * page decodes the whole object from these bytes with the schema when it is opened.
   */
  wire?: Uint8Array;
  /** The frame of the version this event replaced (a Protobuf `previous`), when still kept. */
  previousWire?: Uint8Array;
  /**
   * The resourceVersion of the version this event replaced, whether or not its body was kept:
   * set with no `previous`, the earlier version was let go to stay within the object budget.
   */
  previousResourceVersion?: string;
}

/**
 * An event on the page's mirror of a session that runs in a worker: the summary only (the objects
 * stay in the worker); the session's entryDetail(seq) gives the full entry.
 */
export interface PartialEvent extends EventSummary {
  partial: true;
}

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
/** A timeline entry as a pane gets it: full where the session runs in the page, a summary from a worker. */
export type PaneEntry = TimelineEntry | PartialEvent;

/**
 * What the object view shows of one object of the state: the body the watch delivered while the
 * object budget keeps it; otherwise the server's current version read now with a GET (never the
 * watch's version: that one was let go), or why it could not be read.
 */
export interface ObjectDetail {
  key: string;
  /** The last version the watch delivered (the row's), and the type of its event. */
  resourceVersion?: string;
  type?: WatchEventType;
  /** kept: the body the watch delivered; read: not kept, read from the server now; gone: the pane has no such object. */
  source: 'kept' | 'read' | 'gone';
  object?: KubeObject;
  /** kept, from a Protobuf event: its frame (`object` is then only its head: decode this for the rest). */
  wire?: Uint8Array;
  /** kept: when the watch delivered it; read: when the server answered. */
  at: number;
  /** read: the GET's path. */
  path?: string;
  error?: { message: string; status?: Status };
  budget: BodyStats;
}

/** The resourceVersion of an object of a pane's state, full or summary. */
export function stateVersion(o: KubeObject | ObjectSummary): string | undefined {
  return o instanceof ObjectSummary ? o.resourceVersion : resourceVersionOf(o);
}

/** The Table cells of an object of a pane's state (as=Table), full or summary. */
export function stateCells(o: KubeObject | ObjectSummary): unknown[] {
  if (o instanceof ObjectSummary) return o.cells ?? [];
  return isTable(o) ? (o.rows?.[0]?.cells ?? []) : [];
}


export interface SessionOptions extends LoopOptions {
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
  /**
   * Budget for whole objects (the object view, the diff against the previous version), in wire
   * bytes: the least recently changed let go first. Every object keeps its row whatever it is.
   */
  maxObjectBytes?: number;
  /** Coalesces change notifications (requestAnimationFrame in the page). */
  schedule?: (flush: () => void) => void;
}

/** What a pane renders: the session's own snapshot, or the page's mirror of a worker session. */
export type PaneSnapshot = SessionSnapshot<PaneEntry>;

/** Default timeline budget: the parsed objects behind it weigh a few times their wire size. */
export const DEFAULT_TIMELINE_BYTES = 16 * 1024 * 1024;

/** An entry's weight in the timeline's byte budget. */
export function entryBytes(e: TimelineEntry): number {
  return e.kind === 'event' ? e.size : e.message.length + (e.path?.length ?? 0) + 64;
}

/**
 * A session's state at one moment. The session's own snapshot holds its full entries and objects;
 * a pane's (PaneSnapshot) may hold summaries of them, typed as such.
 */
export interface SessionSnapshot<E = TimelineEntry> {
  version: number;
  state: SessionState;
  /** Timeline, oldest first (the last maxEntries, within maxBytes): an immutable view, read by index. */
  entries: RingView<E>;
  /** Entries no longer kept. */
  dropped: number;
  /** Bytes of the entries kept (wire sizes). */
  bytes: number;
  /** Every event received (including dropped ones), by type. */
  counts: Record<WatchEventType, number>;
  /** A row per object of the collection (whole objects are kept within `bodies`' budget only). */
  objects: ReadonlyMap<string, ObjectSummary>;
  /** What the object budget keeps now. */
  bodies: BodyStats;
  /**
   * The keys of `objects` in code-unit order, when the snapshot keeps them so (the worker's
   * mirror, which updates the order by what changed); otherwise the state table sorts them.
   */
  order?: readonly string[];
  columns?: TableColumn[];
  /** The Content-Type the server answered the current (or last) stream with: how it encoded it. */
  contentType?: string;
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
  /**
   * Date.now() of the last sign of life of the current stream: its response headers, an event,
   * a bookmark. Unset until the first stream opened.
   */
  lastHeardAt?: number;
  /** While 'connecting': Date.now() when the request was sent. */
  connectingSince?: number;
  /** After how long without a sign of life the stream is taken for dead (undefined: never). */
  idleTimeoutMs?: number;
  /** Why the session gave up for good (the user must act), when it did. */
  fatal?: string;
}

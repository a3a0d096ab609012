// A watch pane's object state with bounded memory. Every object of the collection keeps a
// compact row (what the state table draws: its key, resourceVersion, the type of the last event
// about it, and, with as=Table, the row's cells), while whole objects (for the object view and the
// diff between versions) are kept only for the most recently changed, within a byte budget
// counted in wire bytes like the timeline's. A streaming list of 150,000 Pods kept every parsed
// Pod in the watch worker: 12 MiB per 1,000 Pods in the renderer (docs/benchmarks.md).
//
// The reducer's rules are reducer.ts's (watchEffect): resourceVersions compared for equality
// only, an event applied in the order the server sent it.
import { eventSubject, objectKey, resourceVersionOf } from './reducer';
import { isTable, type KubeObject, type WatchEvent, type WatchEventType } from './types';

/**
 * An object of a pane's state as the state table draws it. A class, so that it is told from a
 * server object by instanceof, not by a field name a custom resource could also have.
 */
export class ObjectSummary {
  constructor(
    readonly resourceVersion: string | undefined,
    /** as=Table: the row's cells. */
    readonly cells?: unknown[],
    /** The type of the last event that set it (ADDED for a list's items). */
    readonly type?: WatchEventType,
  ) {}
}

/** A whole object as the watch delivered it, while the budget keeps it. */
export interface KeptBody {
  object: KubeObject;
  /** Its weight in the budget: the bytes of its event's line (or of the list item). */
  bytes: number;
  receivedAt: number;
  /** A Protobuf event's frame as sent: `object` then holds only its head, the frame the rest. */
  wire?: Uint8Array;
}

/** Default budget for whole objects, in wire bytes: the parsed objects weigh a few times more. */
export const DEFAULT_OBJECT_BYTES = 16 * 1024 * 1024;

/** The summary of an object as an event or a list delivered it. */
export function summarize(o: KubeObject, type: WatchEventType, cellsOf?: (o: KubeObject) => unknown[]): ObjectSummary {
  return new ObjectSummary(resourceVersionOf(o), isTable(o) ? (o.rows?.[0]?.cells ?? []) : cellsOf?.(o), type);
}

/** An event as the state applies it: a Protobuf event's frame comes along, kept with its head. */
export type StateEvent = WatchEvent & { wire?: Uint8Array };

export type StateEffect =
  | { op: 'set'; key: string; row: ObjectSummary; previous: ObjectSummary | undefined; previousBody: KeptBody | undefined }
  | { op: 'delete'; key: string; previous: ObjectSummary; previousBody: KeptBody | undefined }
  | { op: 'none' };

/** Bodies kept and let go, for the pane to say what its budget holds. */
export interface BodyStats {
  /** Whole objects kept now, and their wire bytes. */
  kept: number;
  bytes: number;
  maxBytes: number;
  /** Bodies let go to stay within the budget, since the state began. */
  evicted: number;
}

interface Queued extends KeptBody {
  key: string;
}

export class ObjectState {
  /** A row per object: every object of the collection, whatever the budget. */
  readonly rows = new Map<string, ObjectSummary>();
  private readonly bodies = new Map<string, Queued>();
  /**
   * The bodies in the order they were set, least recently changed first, with entries for bodies
   * since replaced or deleted (told by identity, skipped when met): eviction pops from the head in
   * O(1). Deleting from the front of the Map itself and iterating it again would walk the holes
   * V8 leaves in it until it rehashes, thousands per event during a streaming list.
   */
  private queue: Queued[] = [];
  private head = 0;
  private bodyBytes = 0;
  private evicted = 0;

  constructor(
    private maxBytes: number = DEFAULT_OBJECT_BYTES,
    /** The row's cells for an object that is not a Table (a Protobuf pane computes its own). */
    private readonly cellsOf?: (o: KubeObject) => unknown[],
  ) {}

  get size(): number {
    return this.rows.size;
  }
  stats(): BodyStats {
    return { kept: this.bodies.size, bytes: this.bodyBytes, maxBytes: this.maxBytes, evicted: this.evicted };
  }
  row(key: string): ObjectSummary | undefined {
    return this.rows.get(key);
  }
  /** The whole object last delivered for key, while the budget keeps it. */
  body(key: string): KeptBody | undefined {
    return this.bodies.get(key);
  }

  /** Sets an object as delivered (a list item, an event), keeping its body as the newest. */
  set(key: string, object: KubeObject, type: WatchEventType, bytes: number, receivedAt: number, wire?: Uint8Array): ObjectSummary {
    const row = summarize(object, type, this.cellsOf);
    this.rows.set(key, row);
    this.dropBody(key);
    const q: Queued = wire ? { key, object, bytes, receivedAt, wire } : { key, object, bytes, receivedAt };
    this.bodies.set(key, q);
    this.queue.push(q);
    this.bodyBytes += bytes;
    this.trim();
    return row;
  }

  delete(key: string): void {
    this.rows.delete(key);
    this.dropBody(key);
  }

  /**
   * What one event does (reducer.ts's watchEffect on rows): ADDED and MODIFIED set the object
   * unless the row has the very same resourceVersion (a replay after a resume), DELETED removes
   * it, BOOKMARK and ERROR change nothing. `previousBody` is the body the event replaced, when
   * the budget still kept it.
   */
  apply(event: StateEvent, bytes: number, receivedAt: number): StateEffect {
    if (event.type === 'BOOKMARK' || event.type === 'ERROR') return { op: 'none' };
    const key = objectKey(eventSubject(event.object));
    const previous = this.rows.get(key);
    const previousBody = this.bodies.get(key);
    if (event.type === 'DELETED') {
      if (!previous) return { op: 'none' };
      this.delete(key);
      return { op: 'delete', key, previous, previousBody };
    }
    if (previous?.resourceVersion !== undefined && previous.resourceVersion === resourceVersionOf(event.object)) return { op: 'none' };
    const row = this.set(key, event.object, event.type, bytes, receivedAt, event.wire);
    return { op: 'set', key, row, previous, previousBody };
  }

  /** Changes the budget, letting the least recently changed bodies go until it holds. */
  setMaxBytes(n: number): void {
    this.maxBytes = Math.max(0, n);
    this.trim();
  }

  private dropBody(key: string): void {
    const b = this.bodies.get(key);
    if (!b) return;
    this.bodies.delete(key);
    this.bodyBytes -= b.bytes;
  }

  /** Least recently changed first; the rows stay. Unlike the timeline, a budget of 0 keeps none. */
  private trim(): void {
    while (this.bodyBytes > this.maxBytes && this.head < this.queue.length) {
      const q = this.queue[this.head++]!;
      if (this.bodies.get(q.key) !== q) continue;
      this.bodies.delete(q.key);
      this.bodyBytes -= q.bytes;
      this.evicted++;
    }
    // Compacted once stale entries outnumber the live ones: a collection changed often within
    // its budget never evicts, and its queue would otherwise grow with every event.
    if (this.queue.length - this.head > 2 * this.bodies.size + 1024) {
      this.queue = this.queue.slice(this.head).filter((q) => this.bodies.get(q.key) === q);
      this.head = 0;
    } else if (this.head > 1024 && this.head > this.queue.length / 2) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}

/** The namespace and name of a state key (`namespace/name`, or `name`: names hold no '/'). */
export function splitKey(key: string): { namespace?: string; name: string } {
  const i = key.indexOf('/');
  return i < 0 ? { name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

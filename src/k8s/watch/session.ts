// One watch pane's engine, without React: list-then-watch (or a streaming list, or a bare
// watch), an object map kept from the events, a bounded timeline, and recovery:
//  - when a stream ends or the connection drops, watch again from the last resourceVersion seen,
//    bookmarks included (API concepts: a watch "resumes" from any RV it was given), after a
//    jittered backoff;
//  - on 410 Gone (an ERROR event whose Status has code 410, or an HTTP 410), the history needed
//    to resume is gone: relist (or re-stream) with resourceVersion="" (a consistent read), replace
//    the state and record what appeared, changed or vanished in between (client-go reflector).
// resourceVersions are opaque: only compared for equality, never ordered.
import type { Status } from '../client';
import { type EventOrigin, type Listed, ListWatchLoop, type StreamInfo } from './loop';
import type { NoteKind, WatchSpec } from './plan';
import { collectionPath } from './plan';
import { diffBy, eventSubject, objectKey, resourceVersionOf, type StateDiff } from './reducer';
import { DEFAULT_OBJECT_BYTES, type KeptBody, ObjectState, ObjectSummary, splitKey } from './objects';
import type { ReceivedEvent } from './stream';
import { isTable, type KubeObject, type TableColumn, type WatchEventType, WATCH_EVENT_TYPES } from './types';
import { KubeApiError } from '../client';
import { Ring } from './timeline';
import { Listeners } from '../../lib/listeners';
import { DEFAULT_TIMELINE_BYTES, entryBytes, type EventEntry, type ObjectDetail, type SessionOptions, type SessionSnapshot, type TimelineEntry } from './snapshot';

export { type NoteKind, type WatchSpec } from './plan';
export { DEFAULT_OBJECT_BYTES, ObjectSummary } from './objects';
export { type EventOrigin, type FetchJson, type MuxOpener, nextTask } from './loop';

export * from './snapshot';

/**
 * The columns a Protobuf pane shows of its own: the server serves Tables (its columns) as JSON
 * only, so a pane that reads Protobuf events has what it reads of each object's ObjectMeta: its
 * namespace/name and resourceVersion (the row's own columns) and its creation time.
 */
export const PROTOBUF_COLUMNS: TableColumn[] = [{ name: 'Created', type: 'string', format: 'date-time', description: 'metadata.creationTimestamp, read by the pane from the ObjectMeta of the Protobuf event (the server serves no Protobuf Table)', priority: 0 }];

function protobufCells(o: KubeObject): unknown[] {
  return [o.metadata?.creationTimestamp ?? ''];
}

function emptyCounts(): Record<WatchEventType, number> {
  return Object.fromEntries(WATCH_EVENT_TYPES.map((t) => [t, 0])) as Record<WatchEventType, number>;
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

/**
 * A watch pane's session: the list-watch loop (loop.ts) with what a pane shows of it, a bounded
 * timeline of events and notes, counts, the object state and change notifications.
 */
export class WatchSession extends ListWatchLoop {
  /** Runs where it was made: in the page (the fallback without Workers), in tests, or inside the watch worker. */
  readonly engine = 'page' as const;
  private objects: ObjectState;
  /** A re-stream builds the new state here and swaps it in at the initial-events-end bookmark. */
  private replacing: ObjectState | undefined;
  private timeline: Ring<TimelineEntry>;
  private counts = emptyCounts();
  private columns: TableColumn[] | undefined;
  private seq = 0;
  private version = 0;
  /** How many times clear() emptied the timeline (a mirror of it must empty its own as well). */
  private clears = 0;
  /** With trackObjectChanges: keys set (to their object) or deleted (undefined) since the last drain, or 'all'. */
  private objectChanges: Map<string, ObjectSummary | undefined> | 'all' = new Map();
  private scheduled = false;
  private snapshot: SessionSnapshot;
  private readonly listeners = new Listeners();
  private readonly opts: Required<Pick<SessionOptions, 'maxEntries' | 'maxBytes' | 'schedule' | 'trackObjectChanges' | 'maxObjectBytes'>>;

  constructor(spec: WatchSpec, opts: SessionOptions) {
    super(spec, opts);
    this.opts = { maxEntries: opts.maxEntries ?? 5000, maxBytes: opts.maxBytes ?? DEFAULT_TIMELINE_BYTES, schedule: opts.schedule ?? defaultSchedule, trackObjectChanges: opts.trackObjectChanges ?? false, maxObjectBytes: opts.maxObjectBytes ?? DEFAULT_OBJECT_BYTES };
    if (spec.encoding === 'protobuf' && !spec.asTable) this.columns = PROTOBUF_COLUMNS;
    this.objects = this.newState();
    this.timeline = new Ring(this.opts.maxEntries, { maxBytes: this.opts.maxBytes, sizeOf: entryBytes });
    this.snapshot = this.makeSnapshot();
  }

  // --- for React (useSyncExternalStore) and tests ---
  subscribe = (cb: () => void): (() => void) => {
    return this.listeners.subscribe(cb);
  };
  getSnapshot = (): SessionSnapshot => this.snapshot;

  /** Closes the stream, keeping the state and the last resourceVersion to resume from. */
  pause(): void {
    if (!this.running) return;
    this.halt();
    this.setState('paused');
    this.note('paused', this.lastRV ? `paused; will resume from resourceVersion ${this.lastRV}` : 'paused');
  }

  resume(): void {
    if (this.running) return;
    this.note('resumed', this.lastRV ? `resuming from resourceVersion ${this.lastRV}` : 'starting again');
    this.start();
  }

  stop(): void {
    this.halt();
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

  /** Changes the budget for whole objects (bytes); the least recently changed go first. */
  setObjectBudget(bytes: number): void {
    this.opts.maxObjectBytes = Math.max(0, Math.floor(bytes));
    this.objects.setMaxBytes(this.opts.maxObjectBytes);
    this.replacing?.setMaxBytes(this.opts.maxObjectBytes);
    this.changed();
  }

  /**
   * The object view's content for one object of the state: the body the watch delivered while the
   * budget keeps it, else the server's current version, read now through the same client as
   * every request (a GET the user sees like any other), and said to be that.
   */
  async objectDetail(key: string): Promise<ObjectDetail> {
    const row = this.objects.row(key);
    const budget = this.objects.stats();
    if (!row) return { key, source: 'gone', at: Date.now(), budget };
    const base = { key, resourceVersion: row.resourceVersion, type: row.type, budget };
    const kept = this.objects.body(key);
    if (kept) return { ...base, source: 'kept', object: kept.object, at: kept.receivedAt, ...(kept.wire ? { wire: kept.wire } : {}) };
    const { namespace, name } = splitKey(key);
    const path = `${collectionPath({ ...this.spec, namespace })}/${encodeURIComponent(name)}`;
    try {
      const object = await this.loop.fetchJson<KubeObject>({ context: this.spec.context, path });
      return { ...base, source: 'read', object, at: Date.now(), path };
    } catch (e) {
      const status = e instanceof KubeApiError ? e.status : undefined;
      return { ...base, source: 'read', at: Date.now(), path, error: { message: e instanceof Error ? e.message : String(e), status } };
    }
  }

  /**
   * The timeline's events as newline-delimited JSON: watch events exactly as the server sent
   * them; items of a list response as `{"type":"ADDED","object":<item>}` lines made here.
   */
  exportNdjson(): string {
    return this.timeline
      .toArray()
      .filter((e): e is EventEntry => e.kind === 'event' && !e.wire)
      .map((e) => `${e.raw}\n`)
      .join('');
  }

  /**
   * The timeline's Protobuf events as one `application/vnd.kubernetes.protobuf;stream=watch` body:
   * their frames exactly as the server sent them, one after the other.
   */
  exportFrames(): Uint8Array {
    const frames = this.timeline.toArray().flatMap((e) => (e.kind === 'event' && e.wire ? [e.wire] : []));
    const out = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
    let o = 0;
    for (const f of frames) {
      out.set(f, o);
      o += f.length;
    }
    return out;
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
  drainObjectChanges(): { changes: ReadonlyMap<string, ObjectSummary | undefined> | 'all'; clears: number } {
    const changes = this.objectChanges;
    this.objectChanges = new Map();
    return { changes, clears: this.clears };
  }

  // --- what the loop hands over ---
  protected hasObjects(): boolean {
    return this.objects.size > 0;
  }

  protected listed(l: Listed, relist: boolean): void {
    if (l.columns) this.columns = l.columns;
    const next = this.newState();
    // Each item's line is made, weighed and let go one at a time: 150,000 lines at once would be
    // a gigabyte of strings (the timeline keeps only its newest).
    if (relist) {
      for (const o of l.items) next.set(objectKey(eventSubject(o)), o, 'ADDED', JSON.stringify({ type: 'ADDED', object: o }).length, l.receivedAt);
      this.replaceState(next, `relist at resourceVersion ${l.resourceVersion ?? '?'}`, l.path);
      return;
    }
    this.objects = next;
    this.objectsReplaced();
    // The pane's first list is a list, not a relist: nothing is replaced. A list's items have
    // distinct namespace/name keys (an object's identity in its collection).
    this.note('list', `listed ${l.items.length} objects at resourceVersion ${l.resourceVersion ?? '?'}`, { path: l.path });
    for (const o of l.items) {
      const raw = JSON.stringify({ type: 'ADDED', object: o });
      next.set(objectKey(eventSubject(o)), o, 'ADDED', raw.length, l.receivedAt);
      this.pushEvent({ type: 'ADDED', object: o, raw, size: raw.length, receivedAt: l.receivedAt }, 'list');
    }
  }

  protected opened(s: StreamInfo): void {
    // A re-stream builds the new state aside and swaps it in at the initial-events-end bookmark,
    // so the pane never shows a half-listed state (and the diff is exact).
    this.replacing = s.streaming && this.objects.size > 0 ? this.newState() : undefined;
  }

  private newState(): ObjectState {
    return new ObjectState(this.opts.maxObjectBytes, this.spec.encoding === 'protobuf' && !this.spec.asTable ? protobufCells : undefined);
  }

  protected received(ev: ReceivedEvent, origin: EventOrigin): void {
    if (this.spec.asTable && isTable(ev.object) && ev.object.columnDefinitions?.length) this.columns = ev.object.columnDefinitions;
    if (this.replacing && origin === 'initial') {
      // The diff of an initial event is against the version the pane shows until the swap.
      const key = objectKey(eventSubject(ev.object));
      const row = this.objects.row(key);
      this.replacing.apply(ev, ev.size, ev.receivedAt);
      this.pushEvent(ev, origin, { previous: row, previousBody: this.objects.body(key) });
      return;
    }
    const key = objectKey(eventSubject(ev.object));
    const replaced = { previous: this.objects.row(key), previousBody: this.objects.body(key) };
    const effect = this.objects.apply(ev, ev.size, ev.receivedAt);
    if (this.opts.trackObjectChanges && this.objectChanges !== 'all' && effect.op !== 'none') this.objectChanges.set(effect.key, effect.op === 'set' ? effect.row : undefined);
    this.pushEvent(ev, origin, replaced);
  }

  protected bookmark(ev: ReceivedEvent, origin: EventOrigin, end: boolean, s: StreamInfo): void {
    if (this.spec.asTable && isTable(ev.object) && ev.object.columnDefinitions?.length) this.columns = ev.object.columnDefinitions;
    this.pushEvent(ev, origin, undefined, undefined, end);
    if (end && s.streaming && this.replacing) {
      this.replaceState(this.replacing, 'streaming list');
      this.replacing = undefined;
    }
  }

  protected errorEvent(ev: ReceivedEvent, status: Status | undefined): void {
    this.pushEvent(ev, 'live', undefined, status);
  }

  private objectsReplaced(): void {
    if (this.opts.trackObjectChanges) this.objectChanges = 'all';
  }

  /** Replaces the object state wholesale (relist, re-stream) and records what differed. */
  private replaceState(next: ObjectState, what: string, path?: string): void {
    const diff = diffBy(this.objects.rows, next.rows, (r) => r.resourceVersion);
    this.objects = next;
    this.objectsReplaced();
    this.note('relist', `${what}: ${diff.appeared.length} appeared, ${diff.changed.length} changed, ${diff.vanished.length} vanished`, { diff, path });
  }

  private pushEvent(ev: ReceivedEvent, origin: EventOrigin, replaced?: { previous?: ObjectSummary; previousBody?: KeptBody }, status?: Status, initialEventsEnd?: boolean): void {
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
      previous: replaced?.previousBody?.object,
      previousResourceVersion: replaced?.previous?.resourceVersion,
      status,
      initialEventsEnd,
      ...(ev.wire ? { wire: ev.wire } : {}),
      ...(replaced?.previousBody?.wire ? { previousWire: replaced.previousBody.wire } : {}),
    });
    this.changed();
  }

  protected note(note: NoteKind, message: string, extra: { path?: string; status?: Status; diff?: StateDiff } = {}): void {
    this.timeline.push({ kind: 'note', seq: ++this.seq, note, receivedAt: Date.now(), message, ...extra });
    this.changed();
  }

  protected changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.opts.schedule(() => {
      this.scheduled = false;
      this.version++;
      this.snapshot = this.makeSnapshot();
      this.listeners.emit();
    });
  }

  private makeSnapshot(): SessionSnapshot {
    const idle = this.idleTimeoutMs();
    return {
      version: this.version,
      state: this.state,
      entries: this.timeline.view(),
      dropped: this.timeline.dropped,
      bytes: this.timeline.bytes,
      counts: { ...this.counts },
      // The live map; `version` tells when it changed (copying it per frame would be O(N)).
      objects: this.objects.rows,
      bodies: this.objects.stats(),
      columns: this.columns,
      contentType: this.contentType,
      lastResourceVersion: this.lastRV,
      initialEventsDone: this.initialEventsDone,
      retryAt: this.retryAt,
      fallback: this.fallback,
      lastHeardAt: this.lastHeardAt,
      connectingSince: this.state === 'connecting' ? this.connectingSince : undefined,
      idleTimeoutMs: idle || undefined,
      fatal: this.fatal,
    };
  }
}

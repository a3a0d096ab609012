import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { sharedMux } from '../../k8s/client/mux';
import { collectionPath, type EventEntry, type EventSummary, isPartial, type PaneEntry, type PaneSnapshot, START_MODES, type TimelineEntry } from '../../k8s/watch';
import { createWatchSession, type WatchSessionHandle } from '../../k8s/watch';
import { WATCH_EVENT_TYPES, type WatchEventType } from '../../k8s/watch';
import { StatusView } from '../../ui/ErrorBox';
import { entryBySeq, FilteredTimeline, type IndexedList } from './filtered';
import { focusRow, nextRowIndex, rowIndexOf, tailRange } from '../../ui/rowKeys';
import { changedManagers } from './managers';
import { DEFAULT_OBJECT_MIB, objectBudgetBytes, type PaneConfig, sessionKey, specOf } from './panes';
import { ObjectView } from './ObjectView';
import { decodeFrame, ProtobufEvent } from './ProtobufEvent';
import { StateTable } from './StateTable';
import { useK8sSchema } from '../../ui/useK8sSchema';
import { downloadBlob } from '../../lib/download';

// Monaco's diff editor is large: loaded when an event's diff is first opened.
const ObjectDiff = lazy(() => import('./ObjectDiff').then((m) => ({ default: m.ObjectDiff })));

declare global {
  interface Window {
    /**
     * Optional hook for the benchmark (bench/watch.ts): called after React committed a render
     * with the events that render added, and the time it committed. Not set in normal use.
     */
    __explorerWatchRendered?: (paneId: string, events: EventSummary[], renderedAt: number, counts: Record<WatchEventType, number>) => void;
  }
}

const ROW = 24;

export function WatchPane({ context, pane, onChange, onClose }: { context: string; pane: PaneConfig; onChange: (p: PaneConfig) => void; onClose: () => void }) {
  const key = sessionKey(context, pane);
  const [session, setSession] = useState<WatchSessionHandle | null>(null);
  useEffect(() => {
    // Framing, parsing and reducing run in the watch worker (a burst never blocks input); the
    // pane renders the batches it posts.
    const s = createWatchSession(specOf(context, pane), { mux: sharedMux(), maxEntries: pane.max, maxObjectBytes: objectBudgetBytes(pane) });
    setSession(s);
    s.start();
    return () => s.stop();
    // The session restarts only when what it asks the server changes (sessionKey), not when the
    // pane's display settings do.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  useEffect(() => session?.setMaxEntries(pane.max), [session, pane.max]);
  useEffect(() => session?.setObjectBudget(objectBudgetBytes(pane)), [session, pane.objectMiB]); // eslint-disable-line react-hooks/exhaustive-deps
  if (!session) return null;
  return <PaneBody session={session} pane={pane} onChange={onChange} onClose={onClose} />;
}

function title(p: PaneConfig): string {
  const res = p.group ? `${p.resource}.${p.group}` : p.resource;
  const where = p.namespace ? `in ${p.namespace}` : 'in all namespaces';
  const sel = [p.labelSelector, p.fieldSelector].filter(Boolean).join(', ');
  return `${res}${p.name ? `/${p.name}` : ''} ${where}${sel ? ` (${sel})` : ''}`;
}

function PaneBody({ session, pane, onChange, onClose }: { session: WatchSessionHandle; pane: PaneConfig; onChange: (p: PaneConfig) => void; onClose: () => void }) {
  const snap = useSyncExternalStore(session.subscribe, session.getSnapshot, session.getSnapshot);
  const [selected, setSelected] = useState<number | null>(null);
  const [view, setView] = useState<'timeline' | 'state'>('timeline');
  const [opened, setOpened] = useState<string | null>(null);

  // Tell the bench which events this commit put on screen.
  const lastSeq = useRef(0);
  useEffect(() => {
    const hook = window.__explorerWatchRendered;
    const entries = snap.entries;
    if (hook) {
      const fresh: EventSummary[] = [];
      for (let i = entries.length - 1; i >= 0; i--) {
        const e = entries.at(i)!;
        if (e.seq <= lastSeq.current) break;
        if (e.kind === 'event') fresh.push(e);
      }
      // More events than the ring keeps may arrive between two commits: `counts` has them all.
      if (fresh.length) hook(pane.id, fresh.reverse(), Date.now(), snap.counts);
    }
    lastSeq.current = entries.at(entries.length - 1)?.seq ?? lastSeq.current;
  }, [snap, pane.id]);

  const types = pane.types ?? WATCH_EVENT_TYPES;
  const q = (pane.q ?? '').toLowerCase();
  const filterOn = pane.types !== undefined || q !== '';
  const typesKey = types.join();
  const filter = useMemo(() => {
    // The type filter hides events only: the stream's own entries (opened, ended, reconnecting,
    // relisted) stay, so hiding ADDED/MODIFIED leaves the story of the connection. A name filter
    // hides them, as they name no object.
    const shownTypes = typesKey.split(',');
    return new FilteredTimeline((e) => (e.kind === 'note' ? !q : shownTypes.includes(e.type) && (!q || e.key.toLowerCase().includes(q))));
  }, [typesKey, q]);
  // Unfiltered, the ring's own view; filtered, only new entries are looked at per render.
  const shown = useMemo(() => (filterOn ? filter.update(snap.entries) : snap.entries), [filterOn, filter, snap.entries]);
  const selectedEntry = selected === null ? undefined : entryBySeq(snap.entries, selected);
  const paused = snap.state === 'paused';
  const mode = START_MODES.find((m) => m.mode === pane.mode)!;

  const protobuf = pane.encoding === 'protobuf';
  const exportEvents = async () => {
    // A Protobuf pane exports its events' frames as sent (a `;stream=watch` body), not JSON made up here.
    const blob = protobuf ? new Blob([(await session.exportFrames()) as Uint8Array<ArrayBuffer>], { type: 'application/vnd.kubernetes.protobuf;stream=watch' }) : new Blob([await session.exportNdjson()], { type: 'application/x-ndjson' });
    downloadBlob(`watch-${pane.resource}${pane.namespace ? `-${pane.namespace}` : ''}.${protobuf ? 'pb' : 'ndjson'}`, blob);
  };

  return (
    <article className="watch-pane" aria-label={`Watch ${title(pane)}`} data-engine={session.engine}>
      <header className="watch-pane-head">
        <h3>{title(pane)}</h3>
        <span className="badge" title={mode.semantic}>
          {mode.label}
          {pane.mode === 'watch-exact' ? ` ${pane.resourceVersion ?? ''}` : ''}
        </span>
        {protobuf && (
          <span className="badge" title="The watch asks for Protobuf events; the pane reads each event's metadata only and decodes an event whole when it is opened. The server serves Tables as JSON only: no server columns.">
            Protobuf
          </span>
        )}
        <StateBadge snap={snap} />
        <span className="spacer" />
        {/* Stopped for good (a request the server refuses as it stands): the user may start it again. */}
        <button type="button" onClick={() => (paused || snap.fatal ? session.resume() : session.pause())}>
          {paused ? 'Resume' : snap.fatal ? 'Start again' : 'Pause'}
        </button>
        <button type="button" onClick={() => session.clear()}>
          Clear
        </button>
        <button type="button" onClick={() => void exportEvents()}>
          {protobuf ? 'Export frames (.pb)' : 'Export NDJSON'}
        </button>
        <button type="button" aria-label={`Close watch ${title(pane)}`} onClick={onClose}>
          ×
        </button>
      </header>
      <p className="watch-path small">
        <code>{collectionPath(specOf('', pane))}</code>
        {pane.labelSelector && <code> labelSelector={pane.labelSelector}</code>}
        {pane.fieldSelector && <code> fieldSelector={pane.fieldSelector}</code>}
        {pane.name && <code> fieldSelector=metadata.name={pane.name}</code>}
        {snap.contentType !== undefined && (
          <span aria-label="Stream encoding" title="The Content-Type the server answered this watch with: how the events on screen were encoded.">
            {' '}
            · server sent <code>{snap.contentType}</code>
            {protobuf && !snap.contentType.startsWith('application/vnd.kubernetes.protobuf') ? ' (no Protobuf form for this resource: read as JSON)' : ''}
          </span>
        )}
      </p>
      <p className="watch-counts small" aria-label="Event counts">
        {WATCH_EVENT_TYPES.map((t) => (
          <span key={t} className={`ev-${t}`}>
            {t} {snap.counts[t]}
          </span>
        ))}
        <span>
          · {snap.entries.length} kept ({size(snap.bytes)}){snap.dropped ? `, ${snap.dropped} older not kept` : ''}
        </span>
        <span>· {snap.objects.size} objects</span>
        <span title="Whole objects (for the object view and the diff) are kept for the most recently changed only, within this budget of event bytes; every object keeps its row.">
          · {snap.bodies.kept} whole ({size(snap.bodies.bytes)} of {size(snap.bodies.maxBytes)})
        </span>
        {snap.lastResourceVersion !== undefined && <span>· last resourceVersion {snap.lastResourceVersion}</span>}
        {pane.mode === 'stream' && !snap.fallback && <span>· {snap.initialEventsDone ? 'initial events done' : 'receiving initial events'}</span>}
      </p>
      {snap.fallback && (
        <div className="fallback small" role="status" aria-label="Fallback">
          <p>
            The server refused the {START_MODES.find((m) => m.mode === snap.fallback!.from)?.label.toLowerCase()} ({snap.fallback.status.code} {snap.fallback.status.reason}); this pane fell back to{' '}
            <strong>{START_MODES.find((m) => m.mode === snap.fallback!.to)?.label}</strong>.
          </p>
          <StatusView status={snap.fallback.status} />
        </div>
      )}
      <div className="watch-filters">
        <fieldset>
          <legend className="small">Show</legend>
          {WATCH_EVENT_TYPES.map((t) => (
            <label key={t} className="check small">
              <input
                type="checkbox"
                checked={types.includes(t)}
                onChange={(e) => {
                  const next = e.target.checked ? [...types, t] : types.filter((x) => x !== t);
                  onChange({ ...pane, types: next.length === WATCH_EVENT_TYPES.length ? undefined : next });
                }}
              />
              {t}
            </label>
          ))}
        </fieldset>
        <label className="small">
          <span>Name</span> <input aria-label="Filter by name" value={pane.q ?? ''} onChange={(e) => onChange({ ...pane, q: e.target.value || undefined })} />
        </label>
        <label className="small" title="Whole objects are kept for the most recently changed only, within this many MiB of event bytes; the others are read from the server when opened.">
          <span>Keep whole objects (MiB)</span>{' '}
          <input
            type="number"
            min={0}
            step="any"
            aria-label="Keep whole objects (MiB)"
            className="num"
            defaultValue={pane.objectMiB ?? DEFAULT_OBJECT_MIB}
            onBlur={(e) => {
              const n = Number(e.target.value);
              if (e.target.value !== '' && Number.isFinite(n) && n >= 0) onChange({ ...pane, objectMiB: n === DEFAULT_OBJECT_MIB ? undefined : n });
            }}
          />
        </label>
        <div role="tablist" aria-label="Pane view" className="watch-tabs">
          <button type="button" role="tab" aria-selected={view === 'timeline'} onClick={() => setView('timeline')}>
            Timeline
          </button>
          <button type="button" role="tab" aria-selected={view === 'state'} onClick={() => setView('state')}>
            Current state
          </button>
        </div>
      </div>
      {view === 'timeline' ? <Timeline entries={shown} selected={selected} onSelect={setSelected} /> : <StateTable snap={snap} opened={opened} onOpen={setOpened} />}
      {selectedEntry && view === 'timeline' && <EntryDetail key={selectedEntry.seq} session={session} entry={selectedEntry} onClose={() => setSelected(null)} />}
      {opened !== null && view === 'state' && <ObjectView key={opened} session={session} objectKey={opened} row={snap.objects.get(opened)} onClose={() => setOpened(null)} />}
    </article>
  );
}

/** Re-renders its caller every `ms` (for texts like "12 s ago"). */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

/** Silence after which a watch with bookmarks no longer counts as live: a bookmark is overdue. */
const BOOKMARK_OVERDUE_MS = 70_000;

/**
 * The state the badge shows. "connecting" until the server's response headers arrive, "watching"
 * only after them, and "silent" once a watch with bookmarks has heard nothing (no event, no
 * bookmark) past the interval its bookmarks should come at, counted from when the stream opened.
 */
export function badgeState(snap: Pick<PaneSnapshot, 'state' | 'lastHeardAt' | 'idleTimeoutMs'>, now: number): { text: string; className: string } {
  if (snap.state === 'watching' && snap.idleTimeoutMs !== undefined && snap.lastHeardAt !== undefined && now - snap.lastHeardAt > Math.min(BOOKMARK_OVERDUE_MS, snap.idleTimeoutMs)) {
    return { text: 'silent', className: 'state-silent' };
  }
  const text = snap.state === 'backoff' ? 'reconnecting' : snap.state === 'idle' ? 'starting' : snap.state;
  return { text, className: `state-${snap.state}` };
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}

function StateBadge({ snap }: { snap: PaneSnapshot }) {
  const now = useNow(1000);
  const { text, className } = badgeState(snap, now);
  const staleness =
    snap.state === 'backoff' && snap.retryAt !== undefined
      ? `next attempt in ${Math.max(0, Math.ceil((snap.retryAt - now) / 1000))} s`
      : snap.state === 'connecting' && snap.connectingSince !== undefined
        ? `waiting for the server’s answer for ${Math.max(0, Math.round((now - snap.connectingSince) / 1000))} s`
        : snap.state === 'watching' && snap.lastHeardAt !== undefined
          ? `last event or bookmark ${ago(now - snap.lastHeardAt)}`
          : snap.fatal
            ? snap.fatal
            : '';
  return (
    <>
      <span role="status" aria-label="Watch state" className={`badge ${className}`}>
        {text}
      </span>
      {staleness && (
        <span className={`small staleness ${className}`} aria-label="Staleness" title={snap.idleTimeoutMs ? `With bookmarks the server sends something about every minute; after ${Math.round(snap.idleTimeoutMs / 1000)} s of silence the pane watches again.` : 'Without bookmarks a quiet collection sends nothing: silence is not a fault.'}>
          {staleness}
        </span>
      )}
    </>
  );
}

function time(ms: number): string {
  const d = new Date(ms);
  return `${d.toTimeString().slice(0, 8)}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

function size(n: number): string {
  return n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} kB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

function Timeline({ entries, selected, onSelect }: { entries: IndexedList<PaneEntry>; selected: number | null; onSelect: (seq: number) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const lastTop = useRef(0);
  // While following, the rows at the end are rendered whatever the scroll offset still says: the
  // offset moves only in the next frame (below), and rendering the rows of the old offset first
  // mounted each batch's rows twice, the second time in the frame that scrolled, in one long task.
  const rangeExtractor = useCallback((r: Range) => (follow.current ? tailRange(r) : defaultRangeExtractor(r)), []);
  const v = useVirtualizer({ count: entries.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 12, rangeExtractor });
  // Follow the newest event unless the reader scrolled up. Set directly (the browser clamps it to the
  // end): the virtualizer's scrollToIndex re-reads the layout on every frame until it settles,
  // which during a burst was the main thread's largest cost (bench/watch.ts profile). Set in the
  // next frame's callback, not here: setting scrollTop lays the page out at once, and here that
  // made the render's task and the layout one task (26–37 ms of style and layout in the catch-up's
  // traces); in the frame, it is the layout the frame does anyway.
  useEffect(() => {
    if (!follow.current || !entries.length) return;
    const id = requestAnimationFrame(() => {
      const el = scroller.current;
      if (follow.current && el) el.scrollTop = v.getTotalSize();
    });
    return () => cancelAnimationFrame(id);
  }, [entries.length, v]);
  return (
    <div
      className="watch-timeline"
      ref={scroller}
      // Capture phase: this runs before the virtualizer's own scroll listener, which reads
      // `follow` (rangeExtractor) for the same scroll. At the end (or clamped there, after Clear)
      // the pane follows; it stops when the reader scrolls up, not because rows were added since
      // the frame that scrolled to the end (its scroll event comes a frame later, and a render
      // may have grown the list in between).
      onScrollCapture={(e) => {
        const el = e.currentTarget;
        const top = el.scrollTop;
        if (el.scrollHeight - top - el.clientHeight < ROW * 2) follow.current = true;
        else if (top < lastTop.current - 1) follow.current = false;
        lastTop.current = top;
      }}
    >
      <div
        role="list"
        aria-label="Events"
        style={{ height: v.getTotalSize(), position: 'relative' }}
        onKeyDown={(ev) => {
          // Arrows move between events (only those in view exist in the DOM); Enter/Space select.
          const from = rowIndexOf(ev.target);
          if (from < 0 || ev.altKey || ev.ctrlKey || ev.metaKey) return;
          const to = nextRowIndex(ev.key, from, entries.length, Math.floor((scroller.current?.clientHeight ?? ROW * 10) / ROW) - 1);
          if (to === null) return;
          ev.preventDefault();
          follow.current = to === entries.length - 1;
          v.scrollToIndex(to, { align: 'auto' });
          focusRow(scroller.current, to, 'button');
        }}
      >
        {v.getVirtualItems().map((item) => {
          const e = entries.at(item.index)!;
          return (
            <div key={e.seq} role="listitem" data-row-index={item.index} className={`tl-row ${e.kind === 'note' ? `note note-${e.note}` : `ev-${e.type}`}${selected === e.seq ? ' selected' : ''}`} style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${item.start}px)` }}>
              <button type="button" className="tl-btn" aria-pressed={selected === e.seq} onClick={() => onSelect(e.seq)}>
                <span className="tl-time">{time(e.receivedAt)}</span>
                {e.kind === 'note' ? (
                  <>
                    <span className="tl-type">{e.note}</span>
                    <span className="tl-msg">{e.message}</span>
                  </>
                ) : (
                  <>
                    <span className="tl-type">{e.type}</span>
                    <span className="tl-key">{e.type === 'ERROR' ? `${e.status?.code ?? ''} ${e.status?.reason ?? ''}` : e.type === 'BOOKMARK' ? (e.initialEventsEnd ? 'k8s.io/initial-events-end' : 'bookmark') : e.key}</span>
                    <span className="tl-rv">{e.resourceVersion !== undefined ? `rv ${e.resourceVersion}` : ''}</span>
                    <span className="tl-size">{size(e.size)}</span>
                    {e.origin !== 'live' && <span className={`tl-origin origin-${e.origin}`}>{e.origin === 'list' ? 'from list' : 'initial'}</span>}
                  </>
                )}
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}

/** The entry with its full objects: as is in the page, fetched from the worker when the page has summaries. */
function useFullEntry(session: WatchSessionHandle, entry: PaneEntry): TimelineEntry | undefined {
  const partial = isPartial(entry);
  const [full, setFull] = useState<EventEntry | undefined>(undefined);
  useEffect(() => {
    if (!partial) return;
    let live = true;
    void session.entryDetail(entry.seq).then((e) => {
      if (live) setFull(e);
    });
    return () => {
      live = false;
    };
  }, [session, entry.seq, partial]);
  return isPartial(entry) ? full : entry;
}

function EntryDetail({ session, entry: shown, onClose }: { session: WatchSessionHandle; entry: PaneEntry; onClose: () => void }) {
  const full = useFullEntry(session, shown);
  return (
    <section className="watch-detail" aria-label="Event detail">
      <header>
        <strong>{shown.kind === 'note' ? shown.note : shown.type}</strong> <span className="muted small">{time(shown.receivedAt)}</span>
        <span className="spacer" />
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {/* The page holds a summary (identity, resourceVersion); the full event is in the worker. */}
      {full ? full.kind === 'event' && full.wire ? <ProtobufEntry entry={full} /> : <EntryBody entry={full} /> : <p className="muted small">Loading the event from the watch worker…</p>}
    </section>
  );
}

/**
 * A Protobuf event: the worker kept its frame and read only its head; here it is decoded whole
 * (and the version it replaced, for the diff and the managers), and its bytes are shown.
 */
function ProtobufEntry({ entry }: { entry: EventEntry }) {
  const { schema, error } = useK8sSchema();
  const decoded = useMemo(() => {
    if (!schema || entry.type === 'ERROR') return undefined;
    const object = decodeFrame(schema, entry.wire!).object;
    const previous = entry.previousWire ? decodeFrame(schema, entry.previousWire).object : undefined;
    return { ...entry, object: object ?? entry.object, ...(previous ? { previous } : {}) };
  }, [schema, entry]);
  return (
    <>
      {entry.type === 'ERROR' ? <EntryBody entry={entry} /> : decoded ? <EntryBody entry={decoded} hideObject /> : <p className="muted small">{error ? `The Protobuf schema did not load: ${error}` : 'Loading the Protobuf schema…'}</p>}
      <ProtobufEvent frame={entry.wire!} />
    </>
  );
}

function EntryBody({ entry, hideObject }: { entry: TimelineEntry; hideObject?: boolean }) {
  const [showDiff, setShowDiff] = useState(false);
  if (entry.kind === 'note') {
    return (
      <>
        <p>{entry.message}</p>
        {entry.path && (
          <p className="small">
            <code>{entry.path}</code>
          </p>
        )}
        {entry.status && <StatusView status={entry.status} />}
        {entry.diff && (
          <dl className="kv small relist-diff">
            <dt>appeared</dt>
            <dd>{entry.diff.appeared.join(', ') || '—'}</dd>
            <dt>changed</dt>
            <dd>{entry.diff.changed.join(', ') || '—'}</dd>
            <dt>vanished</dt>
            <dd>{entry.diff.vanished.join(', ') || '—'}</dd>
          </dl>
        )}
      </>
    );
  }
  if (entry.type === 'ERROR') return entry.status ? <StatusView status={entry.status} /> : <pre tabIndex={0} aria-label="Event as received">{entry.raw}</pre>;
  return (
    <>
      <dl className="kv small">
        <dt>object</dt>
        <dd>{entry.key || '—'}</dd>
        <dt>resourceVersion</dt>
        <dd>{entry.resourceVersion ?? '—'}</dd>
        <dt>size</dt>
        <dd>{size(entry.size)}</dd>
        <dt>origin</dt>
        <dd>{entry.origin === 'list' ? 'an item of the list response' : entry.origin === 'initial' ? 'synthetic initial event (before k8s.io/initial-events-end)' : 'live event'}</dd>
        {entry.type !== 'BOOKMARK' && (
          <>
            <dt>previous resourceVersion</dt>
            <dd>{entry.previous?.metadata?.resourceVersion ?? (entry.previousResourceVersion !== undefined ? `${entry.previousResourceVersion} (its body was not kept: the pane's budget for whole objects let it go)` : 'none (first version seen)')}</dd>
            <dt>managers changed</dt>
            <dd>
              {entry.previous || entry.previousResourceVersion === undefined ? <Managers entry={entry} /> : 'not known (the previous version was not kept)'}
            </dd>
          </>
        )}
      </dl>
      {entry.type !== 'BOOKMARK' && (entry.previous || entry.previousResourceVersion === undefined) && (
        <button type="button" onClick={() => setShowDiff((x) => !x)}>
          {showDiff ? 'Hide diff' : 'Diff against previous version'}
        </button>
      )}
      {showDiff ? (
        <Suspense fallback={<p className="muted small">Loading the diff editor…</p>}>
          <ObjectDiff previous={entry.previous} next={entry.type === 'DELETED' ? undefined : entry.object} />
        </Suspense>
      ) : hideObject ? null : (
        <pre className="watch-json" tabIndex={0} aria-label="Event object">{JSON.stringify(entry.object, null, 2)}</pre>
      )}
    </>
  );
}

function Managers({ entry }: { entry: EventEntry }) {
  const changes = changedManagers(entry.previous, entry.type === 'DELETED' ? entry.previous : entry.object);
  if (changes.length === 0) return <>none</>;
  return (
    <ul className="managers">
      {changes.map((c) => (
        <li key={`${c.manager}/${c.operation}/${c.subresource}`}>
          <code>{c.manager}</code> ({c.operation}
          {c.subresource ? `, ${c.subresource}` : ''}) {c.change}
        </li>
      ))}
    </ul>
  );
}


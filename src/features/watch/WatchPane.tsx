// A watch pane: its session (run in the watch worker), and the pane's head, path, counts,
// fallback, filters and the timeline or current state. The pane's own state (what is selected,
// the filter, export) is usePaneView; the timeline, badge and event detail are files of their own.
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { sharedMux } from '../../k8s/client/mux';
import { collectionPath, type EventSummary, type PaneSnapshot, START_MODES } from '../../k8s/watch';
import { createWatchSession, type WatchSessionHandle } from '../../k8s/watch';
import { WATCH_EVENT_TYPES, type WatchEventType } from '../../k8s/watch';
import { StatusView } from '../../ui/ErrorBox';
import { EntryDetail } from './EntryDetail';
import { entryBySeq, FilteredTimeline } from './filtered';
import { DEFAULT_OBJECT_MIB, objectBudgetBytes, type PaneConfig, sessionKey, specOf } from './panes';
import { size } from './paneFormat';
import { ObjectView } from './ObjectView';
import { StateBadge } from './StateBadge';
import { StateTable } from './StateTable';
import { Timeline } from './Timeline';
import { downloadBlob } from '../../lib/download';

declare global {
  interface Window {
    /**
     * Optional hook for the benchmark (bench/watch.ts): called after React committed a render
     * with the events that render added, and the time it committed. Not set in normal use.
     */
    __explorerWatchRendered?: (paneId: string, events: EventSummary[], renderedAt: number, counts: Record<WatchEventType, number>) => void;
  }
}

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

/** The pane's state: the session's snapshot, what is selected or opened, the filter, export. */
function usePaneView(session: WatchSessionHandle, pane: PaneConfig) {
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
  return { snap, selected, setSelected, view, setView, opened, setOpened, types, shown, selectedEntry, paused, mode, protobuf, exportEvents };
}

type PaneProps = { session: WatchSessionHandle; pane: PaneConfig; onChange: (p: PaneConfig) => void; onClose: () => void };

function PaneBody({ session, pane, onChange, onClose }: PaneProps) {
  const p = usePaneView(session, pane);
  const { snap, selected, setSelected, view, opened, setOpened, shown, selectedEntry } = p;
  return (
    <article className="watch-pane" aria-label={`Watch ${title(pane)}`} data-engine={session.engine}>
      <PaneHead session={session} pane={pane} onClose={onClose} p={p} />
      <PanePath pane={pane} snap={snap} protobuf={p.protobuf} />
      <PaneCounts pane={pane} snap={snap} />
      {snap.fallback && <FallbackNote fallback={snap.fallback} />}
      <PaneFilters pane={pane} onChange={onChange} types={p.types} view={view} setView={p.setView} />
      {view === 'timeline' ? <Timeline entries={shown} selected={selected} onSelect={setSelected} /> : <StateTable snap={snap} opened={opened} onOpen={setOpened} />}
      {selectedEntry && view === 'timeline' && <EntryDetail key={selectedEntry.seq} session={session} entry={selectedEntry} onClose={() => setSelected(null)} />}
      {opened !== null && view === 'state' && <ObjectView key={opened} session={session} objectKey={opened} row={snap.objects.get(opened)} onClose={() => setOpened(null)} />}
    </article>
  );
}

function PaneHead({ session, pane, onClose, p }: Omit<PaneProps, 'onChange'> & { p: ReturnType<typeof usePaneView> }) {
  const { snap, paused, mode, protobuf, exportEvents } = p;
  return (
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
  );
}

function PanePath({ pane, snap, protobuf }: { pane: PaneConfig; snap: PaneSnapshot; protobuf: boolean }) {
  return (
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
  );
}

function PaneCounts({ pane, snap }: { pane: PaneConfig; snap: PaneSnapshot }) {
  return (
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
  );
}

function FallbackNote({ fallback }: { fallback: NonNullable<PaneSnapshot['fallback']> }) {
  return (
    <div className="fallback small" role="status" aria-label="Fallback">
      <p>
        The server refused the {START_MODES.find((m) => m.mode === fallback.from)?.label.toLowerCase()} ({fallback.status.code} {fallback.status.reason}); this pane fell back to{' '}
        <strong>{START_MODES.find((m) => m.mode === fallback.to)?.label}</strong>.
      </p>
      <StatusView status={fallback.status} />
    </div>
  );
}

function PaneFilters({ pane, onChange, types, view, setView }: { pane: PaneConfig; onChange: (p: PaneConfig) => void; types: readonly WatchEventType[]; view: 'timeline' | 'state'; setView: (v: 'timeline' | 'state') => void }) {
  return (
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
  );
}

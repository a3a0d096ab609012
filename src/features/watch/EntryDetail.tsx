// One timeline entry opened: the note, or the event with its object, the previous version, the
// managers that changed and the diff (a Protobuf event decoded whole here).
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { type EventEntry, isPartial, type PaneEntry, type TimelineEntry, type WatchSessionHandle } from '../../k8s/watch';
import { StatusView } from '../../ui/ErrorBox';
import { useK8sSchema } from '../../ui/useK8sSchema';
import { changedManagers } from './managers';
import { size, time } from './paneFormat';
import { decodeFrame, ProtobufEvent } from './ProtobufEvent';

// Monaco's diff editor is large: loaded when an event's diff is first opened.
const ObjectDiff = lazy(() => import('./ObjectDiff').then((m) => ({ default: m.ObjectDiff })));

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

export function EntryDetail({ session, entry: shown, onClose }: { session: WatchSessionHandle; entry: PaneEntry; onClose: () => void }) {
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
  if (entry.type === 'ERROR')
    return entry.status ? (
      <StatusView status={entry.status} />
    ) : (
      <pre tabIndex={0} aria-label="Event as received">
        {entry.raw}
      </pre>
    );
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
            <dd>
              {entry.previous?.metadata?.resourceVersion ?? (entry.previousResourceVersion !== undefined ? `${entry.previousResourceVersion} (its body was not kept: the pane's budget for whole objects let it go)` : 'none (first version seen)')}
            </dd>
            <dt>managers changed</dt>
            <dd>{entry.previous || entry.previousResourceVersion === undefined ? <Managers entry={entry} /> : 'not known (the previous version was not kept)'}</dd>
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
        <pre className="watch-json" tabIndex={0} aria-label="Event object">
          {JSON.stringify(entry.object, null, 2)}
        </pre>
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

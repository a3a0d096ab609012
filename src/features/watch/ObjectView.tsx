// The object view of a pane's state table: one object as the watch delivered it, while the pane's
// budget for whole objects keeps it; otherwise the server's current version, read now with a GET
// (the same client as every request: it shows in the recorder like any other), said plainly to be
// that and not the version the watch delivered. A body the pane let go is never shown as current.
import { useEffect, useState } from 'react';
import type { ObjectDetail, ObjectSummary, WatchSessionHandle } from '../../k8s/watch';
import { StatusView } from '../../ui/ErrorBox';
import { ProtobufEvent } from './ProtobufEvent';

function mib(n: number): string {
  return n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

function clock(ms: number): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

export function ObjectView({ session, objectKey, row, onClose }: { session: WatchSessionHandle; objectKey: string; row: ObjectSummary | undefined; onClose: () => void }) {
  const [detail, setDetail] = useState<ObjectDetail | undefined>(undefined);
  const rv = row?.resourceVersion;
  useEffect(() => {
    // Asked again whenever the watch delivers another version of it: a view of an older one would
    // be stale.
    let live = true;
    setDetail(undefined);
    void session.objectDetail(objectKey).then((d) => {
      if (live) setDetail(d);
    });
    return () => {
      live = false;
    };
  }, [session, objectKey, rv]);
  return (
    <section className="watch-detail" aria-label="Object">
      <header>
        <strong>{objectKey}</strong>
        <span className="spacer" />
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      {!detail ? <p className="muted small">Loading the object from the watch worker…</p> : <ObjectBody d={detail} />}
    </section>
  );
}

function ObjectBody({ d }: { d: ObjectDetail }) {
  if (d.source === 'gone') return <p>This object is no longer in the pane’s state (the watch delivered its deletion).</p>;
  const delivered = d.resourceVersion ?? '—';
  if (d.source === 'kept') {
    return (
      <>
        <p className="small" role="note" aria-label="Version shown">
          The version the watch delivered at {clock(d.at)} ({d.type ?? 'ADDED'}, resourceVersion {delivered}).
        </p>
        {d.wire ? <ProtobufEvent frame={d.wire} /> : <pre className="watch-json" tabIndex={0} aria-label="Object as received">{JSON.stringify(d.object, null, 2)}</pre>}
      </>
    );
  }
  const readRv = d.object?.metadata?.resourceVersion;
  return (
    <>
      <div className="fallback small" role="note" aria-label="Read now">
        <p>
          <strong>Read from the server now</strong> (GET <code>{d.path}</code> at {clock(d.at)}): this is the server’s current version, not the version the watch delivered (resourceVersion {delivered}).
        </p>
        <p>
          The pane keeps whole objects only for the most recently changed, within {mib(d.budget.maxBytes)} of event bytes ({d.budget.kept} kept now, {d.budget.evicted} let go so far); this object’s body and its earlier versions were let go to stay within that
          budget. Its row in the state table is kept. Raise “Keep whole objects” above the timeline to keep more.
        </p>
        {readRv !== undefined && readRv !== d.resourceVersion && (
          <p>
            The server’s version (resourceVersion {readRv}) is not the last one this watch delivered ({delivered}): the object changed since, and the watch has not delivered that change yet, or it was deleted and created again.
          </p>
        )}
      </div>
      {d.error ? (
        d.error.status ? (
          <StatusView status={d.error.status} />
        ) : (
          <p role="alert">{d.error.message}</p>
        )
      ) : (
        <pre className="watch-json" tabIndex={0} aria-label="Object as received">{JSON.stringify(d.object, null, 2)}</pre>
      )}
    </>
  );
}

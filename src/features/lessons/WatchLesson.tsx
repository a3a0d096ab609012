// Lesson 3: list, then watch from the list's resourceVersion, then cause changes and see each one
// arrive. The watch goes through the shared stream helper (openWatch over the proxy's mux), as
// the Watch view's panes do.
import { useEffect, useRef, useState } from 'react';
import { hrefFor } from '../../routing';
import { sharedMux } from '../../k8s/client';
import { openWatch, type OpenWatch } from '../../k8s/watch';
import { ErrorBox } from '../../ui/ErrorBox';
import { serializePanes } from '../watch';
import { LESSON_LABEL, type LessonExchange, pickString, send } from './exchange';
import { NeedsScratch, StepCard, useRunner } from './parts';

const NAME = 'watched';

interface Seen {
  n: number;
  type: string;
  name?: string;
  resourceVersion?: string;
  raw: string;
}

export function WatchLesson({ context, scratch }: { context: string; scratch: string | undefined }) {
  const [bookmarks, setBookmarks] = useState(true);
  const [list, setList] = useState<LessonExchange | null>(null);
  const [watchPath, setWatchPath] = useState<string | null>(null);
  const [events, setEvents] = useState<Seen[]>([]);
  const [ended, setEnded] = useState<string | null>(null);
  const [lastWrite, setLastWrite] = useState<LessonExchange | null>(null);
  const watch = useRef<OpenWatch | null>(null);
  const { busy, error, run } = useRunner();

  // Leaving the lesson (or the namespace going away) ends the watch.
  useEffect(
    () => () => {
      watch.current?.close();
      watch.current = null;
    },
    [scratch],
  );
  if (!scratch) return <NeedsScratch />;
  const base = `/api/v1/namespaces/${encodeURIComponent(scratch)}/configmaps`;

  const start = () =>
    run(async () => {
      watch.current?.close();
      setEvents([]);
      setEnded(null);
      const l = await send(context, 'GET', base);
      setList(l);
      const rv = pickString(l.response, 'metadata', 'resourceVersion');
      if (l.status !== 200 || !rv) return;
      // From the list's version: the watch then delivers exactly the changes after that list.
      const path = `${base}?${new URLSearchParams({ watch: '1', resourceVersion: rv, allowWatchBookmarks: String(bookmarks) }).toString()}`;
      setWatchPath(path);
      const w = await openWatch({ mux: sharedMux(), context, path });
      watch.current = w;
      void (async () => {
        let n = 0;
        try {
          for await (const e of w.events) {
            n++;
            const seen: Seen = { n, type: e.type, name: e.object.metadata?.name, resourceVersion: e.object.metadata?.resourceVersion, raw: e.raw };
            setEvents((prev) => [...prev, seen]);
          }
          if (watch.current === w) setEnded('The server ended the watch (a watch has a server-side timeout); start again to continue.');
        } catch (e) {
          if (watch.current === w) setEnded(`The watch broke: ${String(e)}`);
        }
      })();
    });

  const stop = () => {
    watch.current?.close();
    watch.current = null;
    setEnded('Stopped.');
  };

  const write = (kind: 'create' | 'update' | 'delete') =>
    run(async () => {
      const one = `${base}/${NAME}`;
      const x =
        kind === 'create'
          ? await send(context, 'POST', base, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: NAME, labels: { [LESSON_LABEL]: 'watch' } }, data: { clicks: '0' } } })
          : kind === 'update'
            ? await send(context, 'PATCH', one, { body: { data: { clicks: String(Date.now()) } }, contentType: 'application/merge-patch+json' })
            : await send(context, 'DELETE', one);
      setLastWrite(x);
    });

  const paneHref = hrefFor({
    view: 'watch',
    extra: { panes: serializePanes([{ id: 'lesson', group: '', version: 'v1', resource: 'configmaps', namespace: scratch, mode: 'list-watch', bookmarks, asTable: false, max: 2000 }]) },
  });

  return (
    <div className="lesson-body">
      <h3>1. List, then watch from the list's version</h3>
      <div className="row">
        <label>
          <input type="checkbox" checked={bookmarks} onChange={(e) => setBookmarks(e.target.checked)} /> allowWatchBookmarks
        </label>
        <button type="button" disabled={busy} onClick={() => void start()}>
          {watchPath ? 'Start again' : 'Start watching'}
        </button>
        <button type="button" disabled={!watch.current} onClick={stop}>
          Stop
        </button>
        <a className="small" href={paneHref}>
          open a full watch pane on this namespace
        </a>
      </div>
      <p className="small">
        Bookmarks are events that carry nothing but a newer resourceVersion, so that a client who reconnects can resume from a recent version even when its objects did
        not change. When they come is the server's choice: a client may rely on no interval, and not even on getting one (kube-apiserver tends to send one shortly before
        it ends a watch). Expect them to be rare here: switch them on and wait, or see the bookmarks lesson.
      </p>
      {list && <StepCard title="The list" x={list} show={(b) => ({ metadata: { resourceVersion: pickString(b, 'metadata', 'resourceVersion') }, items: ((b as { items?: unknown[] }).items ?? []).length })} />}
      {watchPath && (
        <p className="small">
          Watch request: <code className="lesson-wrap">GET {watchPath}</code>
        </p>
      )}

      <h3>2. Change things</h3>
      <div className="row">
        <button type="button" disabled={busy || !watchPath} onClick={() => void write('create')}>
          Create {NAME}
        </button>
        <button type="button" disabled={busy || !watchPath} onClick={() => void write('update')}>
          Update {NAME}
        </button>
        <button type="button" disabled={busy || !watchPath} onClick={() => void write('delete')}>
          Delete {NAME}
        </button>
      </div>
      {lastWrite && <StepCard title="Last change" x={lastWrite} show={(b) => ({ kind: pickString(b, 'kind'), metadata: { resourceVersion: pickString(b, 'metadata', 'resourceVersion') }, reason: pickString(b, 'reason') })} />}

      <table className="lesson-table" aria-label="Events received">
        <thead>
          <tr>
            <th>#</th>
            <th>type</th>
            <th>name</th>
            <th>resourceVersion</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.n} title={e.raw}>
              <td>{e.n}</td>
              <td>{e.type}</td>
              <td>{e.name ?? ''}</td>
              <td>
                <code>{e.resourceVersion ?? ''}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {events.length === 0 && watchPath && !ended && <p className="small muted">Watching; nothing has changed yet.</p>}
      {ended && <p className="small muted">{ended}</p>}
      <p className="small">
        A delete arrives as a DELETED event with the object's last state, at a version of its own. Had the watch started from a version etcd no longer keeps, the server
        would have answered 410 Gone and the client would list again.
      </p>
      {error != null && <ErrorBox error={error} />}
    </div>
  );
}

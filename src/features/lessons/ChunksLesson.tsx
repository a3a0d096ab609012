// Lesson 2: a list in chunks (limit/continue), read with the Lists view's own ListPager so the
// lesson shows exactly what that view does, page by page.
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { hrefFor } from '../../routing';
import { ListPager } from '../../k8s/lists';
import { ErrorBox } from '../../ui/ErrorBox';
import { LESSON_LABEL, type LessonExchange, send } from './exchange';
import { NeedsScratch, StepCard, useRunner } from './parts';

const COUNT = 25;
const LIMIT = 10;

export function ChunksLesson({ context, scratch }: { context: string; scratch: string | undefined }) {
  const [created, setCreated] = useState(0);
  const [lastCreate, setLastCreate] = useState<LessonExchange | null>(null);
  const { busy, error, run } = useRunner();
  if (!scratch) return <NeedsScratch />;
  const base = `/api/v1/namespaces/${encodeURIComponent(scratch)}/configmaps`;

  const createAll = () =>
    run(async () => {
      for (let i = created; i < COUNT; i++) {
        const name = `chunk-${String(i + 1).padStart(2, '0')}`;
        const x = await send(context, 'POST', base, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { [LESSON_LABEL]: 'chunks' } }, data: { n: String(i + 1) } } });
        setLastCreate(x);
        // 409 AlreadyExists: created by an earlier run of this lesson in the same namespace.
        if (x.status >= 300 && x.status !== 409) return;
        setCreated(i + 1);
      }
    });

  return (
    <div className="lesson-body">
      <h3>1. Fill the namespace</h3>
      <div className="row">
        <button type="button" disabled={busy || created >= COUNT} onClick={() => void createAll()}>
          Create {COUNT} ConfigMaps
        </button>
        <span className="small" data-testid="created-count">
          {created} of {COUNT} created
        </span>
      </div>
      {lastCreate && <StepCard title={`Last create (of ${created})`} x={lastCreate} show={(b) => ({ metadata: { name: (b as { metadata?: { name?: string } }).metadata?.name } })} />}
      <p className="small">
        The namespace also holds <code>kube-root-ca.crt</code>, which the controller manager puts into every new namespace, so an unfiltered list finds one object more than
        this lesson made.
      </p>

      <h3>2. List it {LIMIT} at a time</h3>
      <Pages context={context} scratch={scratch} title="Without a selector" label="pages" />
      <p className="small">
        The same list narrowed with a label selector to the lesson's own objects. The server then cannot know how many objects are left without reading them all, so it
        leaves <code>remainingItemCount</code> out:
      </p>
      <Pages context={context} scratch={scratch} labelSelector={`${LESSON_LABEL}=chunks`} title="With labelSelector" label="pages with selector" />

      <h3>3. When a continue token expires</h3>
      <p className="small">
        Each chunk is read at the first chunk's resourceVersion, so the pages fit together as one snapshot. That only works while etcd still keeps that revision. Once
        compaction (every five minutes by default) removes it, the next page request is refused with <code>410 Gone</code> (reason <code>Expired</code>). The Status that
        comes with it carries a fresh continue token of its own: with it the client reads the rest at a newer version, accepting that the pages no longer form one snapshot,
        or else it starts over without a token.
      </p>
      <p className="small">
        <a href={hrefFor({ view: 'lists', namespace: scratch, group: '', version: 'v1', resource: 'configmaps', extra: { limit: String(LIMIT) } })}>Open this list in the Lists view</a>{' '}
        with <code>limit={LIMIT}</code>: load one page, wait past a compaction, then ask for the next, and it shows the 410 and offers the inconsistent continuation.
      </p>
      {error != null && <ErrorBox error={error} />}
    </div>
  );
}

function Pages({ context, scratch, labelSelector, title, label }: { context: string; scratch: string; labelSelector?: string; title: string; label: string }) {
  const pager = useMemo(
    () => new ListPager({ context, ref: { group: '', version: 'v1', resource: 'configmaps', namespace: scratch }, mode: 'metadata', limit: LIMIT, labelSelector }),
    [context, scratch, labelSelector],
  );
  useEffect(() => () => pager.dispose(), [pager]);
  const snap = useSyncExternalStore(pager.subscribe, pager.getSnapshot);
  const started = snap.pages.length > 0;

  return (
    <section className="panel lesson-step" aria-label={title}>
      <h4>{title}</h4>
      <div className="row">
        <button type="button" disabled={snap.loading} onClick={() => void pager.start()}>
          {started ? 'Start again' : 'First page'}
        </button>
        <button type="button" disabled={snap.loading || !started || snap.done || !!snap.expired} onClick={() => void pager.next()}>
          Next page
        </button>
        {snap.done && <span className="small muted">no continue token: that was the last page</span>}
      </div>
      {snap.accept && <p className="small muted">Accept: {snap.accept}</p>}
      {started && (
        <table className="lesson-table" aria-label={label}>
          <thead>
            <tr>
              <th>page</th>
              <th>request</th>
              <th>items</th>
              <th>metadata.resourceVersion</th>
              <th>remainingItemCount</th>
              <th>continue</th>
            </tr>
          </thead>
          <tbody>
            {snap.pages.map((p) => (
              <tr key={p.index}>
                <td>{p.index}</td>
                <td>
                  <code className="lesson-wrap">GET {p.path}</code>
                </td>
                <td>{p.items}</td>
                <td>
                  <code>{p.resourceVersion ?? ''}</code>
                </td>
                <td>{p.remainingItemCount === undefined ? <span className="muted">absent</span> : p.remainingItemCount}</td>
                <td>
                  {p.continue ? (
                    <code className="lesson-wrap" title={p.decoded ? `decoded (an implementation detail): rv ${p.decoded.rv}, start after ${p.decoded.start}` : undefined}>
                      {p.continue.length > 24 ? `${p.continue.slice(0, 24)}…` : p.continue}
                    </code>
                  ) : (
                    <span className="muted">absent</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {snap.expired && <ErrorBox error={snap.expired.error} title="The continue token expired" />}
      {snap.error != null && <ErrorBox error={snap.error} />}
    </section>
  );
}

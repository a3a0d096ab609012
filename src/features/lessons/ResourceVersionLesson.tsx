// Lesson 1: what a resourceVersion is and what the read parameters do with it, against the real
// server. The versions are shown exactly as returned and only ever compared with ===.
import { useState } from 'react';
import { ErrorBox } from '../../ui/ErrorBox';
import { LESSON_LABEL, type LessonExchange, pick, pickString, send } from './exchange';
import { NeedsScratch, StepCard, useRunner } from './parts';

const NAME = 'rv-demo';

interface Reads {
  zero: LessonExchange;
  unset: LessonExchange;
  getOld: LessonExchange;
  exact: LessonExchange;
  notOlder: LessonExchange;
}

/** The object's version and data: what each read is about. */
const objectPart = (b: unknown) => ({ metadata: { resourceVersion: pick(b, 'metadata', 'resourceVersion') }, data: pick(b, 'data') });
/** For a list: the list's own version, then each item's version and data. */
const listPart = (b: unknown) => ({
  metadata: { resourceVersion: pick(b, 'metadata', 'resourceVersion') },
  items: ((pick(b, 'items') as unknown[] | undefined) ?? []).map(objectPart),
});
const statusPart = (b: unknown) => (pick(b, 'kind') === 'Status' ? { code: pick(b, 'code'), reason: pick(b, 'reason'), message: pick(b, 'message') } : undefined);

export function ResourceVersionLesson({ context, scratch }: { context: string; scratch: string | undefined }) {
  const [writes, setWrites] = useState<LessonExchange[]>([]);
  const [reads, setReads] = useState<Reads | null>(null);
  const { busy, error, run } = useRunner();
  if (!scratch) return <NeedsScratch />;
  const base = `/api/v1/namespaces/${encodeURIComponent(scratch)}/configmaps`;
  const rvs = writes.map((w) => pickString(w.response, 'metadata', 'resourceVersion'));
  const first = rvs[0];

  const create = () =>
    run(async () => {
      const x = await send(context, 'POST', base, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: NAME, labels: { [LESSON_LABEL]: 'rv' } }, data: { step: 'created' } } });
      setWrites([x]);
      setReads(null);
    });

  const updateTwice = () =>
    run(async () => {
      const out = [...writes];
      for (const step of ['updated once', 'updated twice']) {
        // PUT the object as last returned, resourceVersion included: the server only accepts it
        // if nobody wrote in between (optimistic concurrency), which is what the field is for.
        const prev = out.at(-1)!.response as { metadata: Record<string, unknown>; data?: Record<string, string> };
        const x = await send(context, 'PUT', `${base}/${NAME}`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: NAME, resourceVersion: prev.metadata.resourceVersion, labels: prev.metadata.labels }, data: { step } } });
        out.push(x);
        setWrites([...out]);
        if (x.status >= 300) break;
      }
    });

  const readFourWays = () =>
    run(async () => {
      if (!first) return;
      const one = `${base}/${NAME}`;
      const list = (match: string) => `${base}?${new URLSearchParams({ fieldSelector: `metadata.name=${NAME}`, resourceVersion: first, resourceVersionMatch: match }).toString()}`;
      setReads({
        zero: await send(context, 'GET', `${one}?resourceVersion=0`),
        unset: await send(context, 'GET', one),
        getOld: await send(context, 'GET', `${one}?resourceVersion=${encodeURIComponent(first)}`),
        exact: await send(context, 'GET', list('Exact')),
        notOlder: await send(context, 'GET', list('NotOlderThan')),
      });
    });

  return (
    <div className="lesson-body">
      <h3>1. Write, and watch the version change</h3>
      <div className="row">
        <button type="button" disabled={busy} onClick={() => void create()}>
          Create ConfigMap {NAME}
        </button>
        <button type="button" disabled={busy || writes.length !== 1 || writes[0]!.status !== 201} onClick={() => void updateTwice()}>
          Update it twice
        </button>
      </div>
      {writes.map((w, i) => (
        <StepCard key={i} title={i === 0 ? 'Create' : `Update ${i}`} x={w} show={(b) => statusPart(b) ?? objectPart(b)} />
      ))}
      {rvs.length > 0 && (
        <table className="lesson-table" aria-label="resourceVersions returned">
          <thead>
            <tr>
              <th>after</th>
              <th>metadata.resourceVersion</th>
              <th>same as the one before?</th>
            </tr>
          </thead>
          <tbody>
            {rvs.map((rv, i) => (
              <tr key={i}>
                <td>{i === 0 ? 'create' : `update ${i}`}</td>
                <td>
                  <code data-testid={`rv-${i + 1}`}>{rv ?? '(none)'}</code>
                </td>
                <td>{i === 0 ? '' : rv === rvs[i - 1] ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="small">
        Every successful write gave the object a new <code>resourceVersion</code>. The explorer only ever asks whether two of them are the same string. They may look like
        growing numbers (on this server they come from etcd's revision counter, which every write anywhere in the cluster bumps), but the API makes no promise about their
        form: another storage backend or an aggregated API server can hand out anything. Sorting them, subtracting them or expecting them to grow by one is relying on an
        accident of today's implementation.
      </p>

      <h3>2. Read it back at different versions</h3>
      <div className="row">
        <button type="button" disabled={busy || rvs.length < 3} onClick={() => void readFourWays()}>
          Read it back
        </button>
        {first && <span className="small muted">the old version used below is the first one, <code>{first}</code></span>}
      </div>
      {reads && (
        <>
          <StepCard title='GET with resourceVersion="0"' label="read rv 0" x={reads.zero} show={(b) => statusPart(b) ?? objectPart(b)}>
            <p className="small">"0" means any version will do: the server may answer from its watch cache, which can lag behind what was just written. Cheap, but maybe stale.</p>
          </StepCard>
          <StepCard title="GET with resourceVersion unset" label="read rv unset" x={reads.unset} show={(b) => statusPart(b) ?? objectPart(b)}>
            <p className="small">No resourceVersion asks for the most recent state, as consistent as a quorum read from etcd would be. This is the one to use when you must see your own last write.</p>
          </StepCard>
          <StepCard title="GET of the object with the old resourceVersion" label="read get old" x={reads.getOld} show={(b) => statusPart(b) ?? objectPart(b)}>
            <p className="small">For a single object a non-zero resourceVersion means "at least this new", so the server is free to answer with the current object, not the one you named.</p>
          </StepCard>
          <StepCard title="list with resourceVersion=old, resourceVersionMatch=Exact" label="read exact" x={reads.exact} show={(b) => statusPart(b) ?? listPart(b)}>
            <p className="small">
              Exact only exists for lists (hence the fieldSelector on the name). It asks for the collection exactly as it was at that version: the data from before the two
              updates, for as long as etcd has not compacted that history away (then 410 Gone).
            </p>
          </StepCard>
          <StepCard title="list with resourceVersion=old, resourceVersionMatch=NotOlderThan" label="read not older" x={reads.notOlder} show={(b) => statusPart(b) ?? listPart(b)}>
            <p className="small">NotOlderThan takes the version as a lower bound: anything at least that new is fine, which normally means the current state, served from the cache.</p>
          </StepCard>
        </>
      )}
      {error != null && <ErrorBox error={error} />}
    </div>
  );
}

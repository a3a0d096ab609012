// One exchange of another client: what it means (with the lessons that explain it), the request as
// the client sent it with its body decoded, the console's inspector for the answer, a watch's
// frames one by one and where the client went on, and what the journal did not keep.
import { useMemo } from 'react';
import { hrefFor } from '../../routing';
import { formatBytes } from '../../ui/format';
import { headerValue } from '../../k8s/client';
import { AuditPanel } from '../audit';
import { DecodedBody, ExchangeView } from '../console';
import { consoleTarget } from './consoleLink';
import { meaningOf } from './meaning';
import { type FrameFact, lastResourceVersion, requestBodyText, responseBody, resumptionAfter, serverNotes, watchFrames, type XrayExchange } from './model';

/** At most this many frames are drawn (the newest); the counts cover all. */
const SHOWN_FRAMES = 300;

export function ExchangePanel({ x, all }: { x: XrayExchange; all: readonly XrayExchange[] }) {
  const meaning = useMemo(() => meaningOf(x.request), [x.request]);
  const target = consoleTarget(x);
  // The inspector reads a whole body; a watch's is its chunks joined, once per change of the exchange.
  const whole = useMemo(() => (x.response ? { ...x, chunks: x.chunks, response: { ...x.response, body: responseBody(x), truncated: x.cut } } : x), [x]);
  const notes = serverNotes(x);
  return (
    <section className="stack" aria-label="Client exchange">
      <p aria-label="What it means">
        <strong>{meaning.sentence}.</strong>{' '}
        {meaning.lessons.map((id) => (
          <a key={id} className="badge" href={hrefFor({ view: 'lessons', extra: { lesson: id } })}>
            lesson: {id}
          </a>
        ))}
      </p>
      <p className="row">
        <a className="button" href={hrefFor(target.to)}>
          Open in console
        </a>
        {target.caveat && <span className="muted small">{target.caveat}</span>}
        {x.refused && <span className="badge warn">answered by the explorer’s endpoint, not the API server</span>}
      </p>
      {(notes.flowSchema || notes.priorityLevel) && (
        <p className="small" aria-label="API Priority and Fairness">
          API Priority and Fairness classified it: FlowSchema UID <code>{notes.flowSchema ?? '?'}</code>, PriorityLevel UID <code>{notes.priorityLevel ?? '?'}</code>.
        </p>
      )}
      {/* The server's own record of this client's request, matched by the Audit-Id it answered with (issue 46). */}
      {x.response && !x.refused && <AuditPanel key={x.id} context={x.context} headers={x.response.headers} />}
      <RequestBody x={x} />
      <Cut x={x} />
      {x.upgrade && (
        <p aria-label="Upgraded stream">
          An upgraded stream (exec, attach or port-forward): {formatBytes(x.upgrade.sentBytes)} sent, {formatBytes(x.upgrade.receivedBytes)} received
          {x.timings.totalMs !== undefined && ` over ${Math.round(x.timings.totalMs)} ms`}.
        </p>
      )}
      {x.watch && x.response?.status === 200 && <WatchFrames x={x} all={all} />}
      <ExchangeView exchange={whole} streaming={x.endedAt === undefined && x.watch} />
    </section>
  );
}

function RequestBody({ x }: { x: XrayExchange }) {
  const type = headerValue(x.request.headers, 'Content-Type') ?? '';
  const text = requestBodyText(x);
  if (!text && !x.request.bodyBytes?.length) return null;
  return (
    <details open aria-label="Request body">
      <summary>
        Request body as sent <code>{type}</code> ({formatBytes(x.requestCut?.size ?? x.request.bodyBytes?.length ?? new TextEncoder().encode(text ?? '').length)})
      </summary>
      {x.requestCut && <p className="muted small">Only the first part was kept: the body is larger than the journal keeps for one exchange.</p>}
      {text !== undefined ? <pre aria-label="Request body text">{text}</pre> : <DecodedBody body={x.request.bodyBytes!} contentType={type} watch={false} />}
    </details>
  );
}

function Cut({ x }: { x: XrayExchange }) {
  if (!x.cut || !x.totals) return null;
  const kept = x.chunks.reduce((n, c) => n + c.bytes.length, 0);
  return (
    <p className="warning-list" aria-label="Body not kept">
      The body was {formatBytes(x.totals.bytes)} in {x.totals.chunks} {x.watch ? 'frames' : 'pieces'}: over the journal’s budget, so only the first {formatBytes(kept)} ({x.chunks.length} of them) were kept. The client got all of it; what is shown below is the
      part kept.
    </p>
  );
}

function frameLabel(f: FrameFact): string {
  if (f.initialEventsEnd) return 'BOOKMARK (initial-events-end: the streaming list’s state is complete)';
  if (f.type === 'ERROR') return `ERROR ${f.code ?? ''} ${f.reason ?? ''}${f.code === 410 ? ': the resourceVersion it watched from was compacted, the client must relist' : ''}`;
  return f.type ?? 'binary frame';
}

function WatchFrames({ x, all }: { x: XrayExchange; all: readonly XrayExchange[] }) {
  const frames = useMemo(() => watchFrames(x), [x]);
  const next = useMemo(() => (x.endedAt !== undefined ? resumptionAfter(all, x) : undefined), [all, x]);
  const last = lastResourceVersion(frames);
  const counts = new Map<string, number>();
  for (const f of frames) counts.set(f.type ?? 'binary', (counts.get(f.type ?? 'binary') ?? 0) + 1);
  const shown = frames.slice(-SHOWN_FRAMES);
  const t0 = Date.parse(x.startedAt);
  return (
    <details open aria-label="Watch frames">
      <summary>
        Watch stream: {frames.length} frames ({[...counts].map(([k, n]) => `${n} ${k}`).join(', ')}){last && `, last resourceVersion ${last}`}
      </summary>
      {frames.length > shown.length && <p className="muted small">Showing the newest {shown.length}.</p>}
      <table className="grid small" aria-label="Frames">
        <thead>
          <tr>
            <th>+ms</th>
            <th>event</th>
            <th>object</th>
            <th>resourceVersion</th>
            <th>bytes</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((f, i) => (
            <tr key={frames.length - shown.length + i} className={f.type === 'ERROR' ? 'warn' : undefined}>
              <td>{f.at - t0}</td>
              <td>{frameLabel(f)}</td>
              <td>{f.name ?? ''}</td>
              <td>{f.resourceVersion ?? ''}</td>
              <td>{f.size}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p aria-label="Where the client went on">
        {x.endedAt === undefined
          ? 'The stream is still open.'
          : next
            ? next.kind === 'resumed'
              ? `The client resumed: its next watch asked for resourceVersion ${next.resourceVersion}${next.resourceVersion === last ? ', the last one this stream delivered' : ''}.`
              : next.kind === 'streaming-list'
                ? 'The client started a new streaming list (sendInitialEvents=true): it asked for the whole state again.'
                : `The client relisted: its next request was a list${next.resourceVersion !== undefined ? ` at resourceVersion "${next.resourceVersion}"` : ''}, not a resume.`
            : `The stream ended (${x.closedBy === 'client' ? 'the client closed it' : x.closedBy === 'error' ? `an error: ${x.error ?? 'unknown'}` : 'the server ended it'}); the client did not watch this collection again in this run.`}
      </p>
    </details>
  );
}

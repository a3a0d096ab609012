// Pieces every lesson uses: the scratch namespace bar, and a step card showing the exact request
// and the part of the response the lesson is about. Everything from the server is shown as text.
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { hrefFor, navigate } from '../../routing';
import { isStatus } from '../../k8s/client';
import { ErrorBox, StatusView } from '../../ui/ErrorBox';
import { consoleExtra, LESSON_LABEL, type LessonExchange, scratchName, send } from './exchange';
import { AuditPanel } from '../audit';

/** The lesson's scratch namespace lives in the URL (`scratch`), so a reload keeps the experiment. */
export function ScratchBar({ context, topic, scratch }: { context: string; topic: string; scratch: string | undefined }) {
  // The namespace's writes are mutations: their failures (a network error, the proxy gone) are shown.
  const create = useMutation({
    mutationFn: async () => {
      const name = scratchName(topic);
      const x = await send(context, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { [LESSON_LABEL]: topic } } } });
      if (x.status === 201) navigate({ extra: { scratch: name } }, { replace: true });
      return x;
    },
  });
  const remove = useMutation({
    mutationFn: async (ns: string) => {
      const x = await send(context, 'DELETE', `/api/v1/namespaces/${encodeURIComponent(ns)}`);
      if (x.status < 300 || x.status === 404) navigate({ extra: { scratch: '' } }, { replace: true });
      return x;
    },
  });
  const busy = create.isPending || remove.isPending;
  // What the last write answered, or why it failed.
  const latest = create.submittedAt > remove.submittedAt ? create : remove;
  const last = latest.data ?? (latest === create ? remove : create).data;
  const error = busy ? null : latest.error;

  return (
    <div className="lesson-scratch panel" role="region" aria-label="Scratch namespace">
      <div className="row">
        <strong>Scratch namespace:</strong>
        {scratch ? (
          <>
            <code data-testid="scratch-namespace">{scratch}</code>
            <button type="button" disabled={busy} onClick={() => scratch && remove.mutate(scratch)}>
              Delete scratch namespace
            </button>
          </>
        ) : (
          <>
            <span className="muted">none yet: the experiment needs one of its own</span>
            <button type="button" data-main-action disabled={busy} onClick={() => create.mutate()}>
              Create scratch namespace
            </button>
          </>
        )}
      </div>
      {last && <ExchangeLine x={last} />}
      {error != null && <ErrorBox error={error} />}
    </div>
  );
}

function ExchangeLine({ x }: { x: LessonExchange }) {
  const phase = typeof x.response === 'object' && x.response !== null ? (x.response as { status?: { phase?: string } }).status?.phase : undefined;
  return (
    <p className="small muted" data-testid="scratch-last">
      <code>
        {x.method} {x.path}
      </code>{' '}
      → HTTP {x.status}
      {phase ? ` (status.phase ${phase})` : ''}
    </p>
  );
}

/**
 * One request of the experiment. `show` picks the part of the response the lesson is about; the
 * whole body stays one click away.
 */
export function StepCard({ title, x, show, children, label }: { title: string; x: LessonExchange; show?: (body: unknown) => unknown; children?: ReactNode; label?: string }) {
  const shown = show ? show(x.response) : x.response;
  return (
    <section className="lesson-step panel" aria-label={label ?? title}>
      <h4>{title}</h4>
      <div className="lesson-exchange">
        <div>
          <div className="muted small">Request</div>
          {/* Scrollable, so reachable by keyboard (tabIndex) and named for it. */}
          <pre className="lesson-pre" data-testid="request" tabIndex={0} role="region" aria-label={`${label ?? title}: request`}>
            {`${x.method} ${x.path}`}
            {Object.entries(x.headers)
              .map(([k, v]) => `\n${k}: ${v}`)
              .join('')}
            {x.body ? `\n\n${x.body}` : ''}
          </pre>
          <a className="small" href={hrefFor({ view: 'console', extra: consoleExtra(x) })}>
            open this request in the console
          </a>
        </div>
        <div>
          <div className="muted small">
            Response: <span className={x.status < 300 ? 'lesson-ok' : 'lesson-bad'}>HTTP {x.status}</span>
            {show ? ' (the part that matters here)' : ''}
          </div>
          <pre className="lesson-pre" data-testid="response" tabIndex={0} role="region" aria-label={`${label ?? title}: response`}>
            {typeof shown === 'string' ? shown : JSON.stringify(shown, null, 2)}
          </pre>
          {/* A refusal read the way the explorer shows every Status: reason, message, causes. */}
          {/* A failure without a Status body (a plain "404 page not found" from the server's mux) is read the same way. */}
          {x.status >= 300 && <StatusView status={isStatus(x.response) ? x.response : { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: x.status, message: typeof x.response === 'string' ? x.response.slice(0, 300) : undefined }} />}
          {show && (
            <details className="small">
              <summary>whole response body</summary>
              <pre className="lesson-pre" tabIndex={0} role="region" aria-label={`${label ?? title}: whole response body`}>
                {typeof x.response === 'string' ? x.response : JSON.stringify(x.response, null, 2)}
              </pre>
            </details>
          )}
        </div>
      </div>
      {x.context && x.responseHeaders && <AuditPanel context={x.context} headers={Object.entries(x.responseHeaders)} />}
      {children}
    </section>
  );
}

export function NeedsScratch() {
  return <p className="muted">Create the scratch namespace first: every object of this experiment goes there.</p>;
}

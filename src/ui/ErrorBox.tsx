import { explainStatus, lessonHref, type StatusShape } from './statusExplain';

/** Renders a Kubernetes Status (or any error) as what it is: code, reason, message, details, causes. */
export function StatusView({ status, fromProxy }: { status: StatusShape; fromProxy?: boolean }) {
  const why = explainStatus(status);
  return (
    <div className="status-view" role="alert">
      <div>
        <strong>
          {status.code ?? ''} {status.reason ?? status.status ?? 'Failure'}
        </strong>
        {fromProxy && <span className="badge warn">from the explorer's proxy, not the API server</span>}
      </div>
      {status.message && <p className="status-message">{status.message}</p>}
      <p className="status-explain small" data-testid="status-explain">
        {why.sentence}
        {why.lesson && (
          <>
            {' '}
            <a href={lessonHref(why.lesson)}>Lesson: why this happens</a>
          </>
        )}
      </p>
      {status.details && (
        <dl className="kv small">
          {status.details.kind && (
            <>
              <dt>kind</dt>
              <dd>{status.details.group ? `${status.details.kind}.${status.details.group}` : status.details.kind}</dd>
            </>
          )}
          {status.details.name && (
            <>
              <dt>name</dt>
              <dd>{status.details.name}</dd>
            </>
          )}
          {status.details.retryAfterSeconds !== undefined && (
            <>
              <dt>retryAfterSeconds</dt>
              <dd>{status.details.retryAfterSeconds}</dd>
            </>
          )}
        </dl>
      )}
      {status.details?.causes && status.details.causes.length > 0 && (
        <ul className="causes small">
          {status.details.causes.map((c, i) => (
            <li key={i}>
              {c.reason && <code>{c.reason}</code>} {c.field && <code>{c.field}</code>} {c.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * The Status an error carries, told by its shape: k8s/client's KubeApiError holds the server's (or
 * the proxy's) Status and whether the proxy made it. ui/ does not import the client, so this does
 * not ask `instanceof`.
 */
function carriedStatus(error: unknown): { status: StatusShape; fromProxy: boolean } | undefined {
  if (!(error instanceof Error)) return undefined;
  const { status, fromProxy } = error as Error & { status?: unknown; fromProxy?: unknown };
  if (typeof status !== 'object' || status === null || (status as { kind?: unknown }).kind !== 'Status') return undefined;
  return { status: status as StatusShape, fromProxy: fromProxy === true };
}

export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  const carried = carriedStatus(error);
  return (
    <div className="error-box">
      {title && <h3>{title}</h3>}
      {carried ? (
        <StatusView status={carried.status} fromProxy={carried.fromProxy} />
      ) : (
        <p role="alert">{error instanceof Error ? error.message : String(error)}</p>
      )}
    </div>
  );
}

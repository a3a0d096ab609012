// The first screen: what this cluster is (version, readiness), what you may do in the namespace
// (SelfSubjectRulesReview), how much is in it, and where to start. Every request here is a read
// or a review; each panel names the request it shows.
import { useQuery } from '@tanstack/react-query';
import { hrefFor, type Route, type View } from '../../routing';
import { COMMON_RESOURCES, collectionPath, countQuery, readyzQuery, type ReadyzReport, ruleLabel, rulesReviewQuery, RULES_REVIEW_PATH, serverVersionQuery } from '../../k8s/overview';
import { ErrorBox } from '../../ui/ErrorBox';
import { RecordingDrop } from '../record';
import './welcome.css';

/** One line per view, in the order of the tabs. */
export const VIEW_LINES: { view: View; label: string; line: string }[] = [
  { view: 'discovery', label: 'Discovery', line: 'every resource the server offers, its verbs, what RBAC lets you do, and its OpenAPI schema' },
  { view: 'console', label: 'Console', line: 'send any request and see the exact exchange, with bodies in JSON, YAML, Protobuf and CBOR' },
  { view: 'lists', label: 'Lists', line: 'server-side Table lists, page by page with limit and continue' },
  { view: 'watch', label: 'Watch', line: 'live watch panes: every event, bookmark and resourceVersion as it arrives' },
  { view: 'edit', label: 'Edit', line: 'create, update, patch (four kinds), apply and delete, with dry-run and field validation' },
  { view: 'ownership', label: 'Ownership', line: 'who owns which field: managedFields as a tree' },
  { view: 'lessons', label: 'Lessons', line: 'the API concepts, each tried live against this cluster' },
  { view: 'encodings', label: 'Encodings', line: 'one object as JSON, YAML, Protobuf and CBOR: sizes, equality, and where its bytes are' },
  { view: 'serving', label: 'Serving', line: 'what this server really serves, resource by resource: Table, Protobuf, CBOR, selectors, chunks, watch, streaming lists, and what would break informers' },
];

export function WelcomeView({ route, context }: { route: Route; context: string }) {
  const namespace = route.namespace;
  const version = useQuery(serverVersionQuery(context));
  // The connection indicator's query: one read of /readyz for both, one verdict.
  const ready = useQuery({ ...readyzQuery(context), staleTime: 10_000 });
  const rules = useQuery(rulesReviewQuery(context, namespace ?? 'default'));
  return (
    <div className="welcome">
      <section className="panel welcome-start" aria-labelledby="welcome-start">
        <h2 id="welcome-start">Where to start</h2>
        <p>
          New to the API? <a href={hrefFor({ view: 'lessons', context, namespace })}>Start with the lessons</a>: each explains one concept and tries it on this cluster
          in a scratch namespace of its own.
        </p>
        <ul className="welcome-views">
          {VIEW_LINES.map((v) => (
            <li key={v.view}>
              <a href={hrefFor({ view: v.view, context, namespace })}>{v.label}</a>: {v.line}
            </li>
          ))}
        </ul>
      </section>

      <RecordingDrop />

      <div className="welcome-grid">
        <section className="panel" aria-labelledby="welcome-cluster">
          <h2 id="welcome-cluster">Cluster</h2>
          {version.error ? (
            <ErrorBox error={version.error} title="GET /version failed" />
          ) : (
            <dl className="kv">
              <dt>Version</dt>
              <dd data-testid="server-version">{version.data ? version.data.gitVersion : 'loading…'}</dd>
              {version.data?.platform && (
                <>
                  <dt>Platform</dt>
                  <dd>{version.data.platform}</dd>
                </>
              )}
            </dl>
          )}
          <h3>
            Readiness <span className="muted small">GET /readyz?verbose</span>
          </h3>
          {!ready.data ? <p className="muted">loading…</p> : <Readiness report={ready.data} />}
        </section>

        <section className="panel" aria-labelledby="welcome-rules">
          <h2 id="welcome-rules">
            What you may do in <code>{namespace ?? 'default'}</code>
          </h2>
          <p className="muted small">POST {RULES_REVIEW_PATH} (a review: it answers and stores nothing)</p>
          {rules.error ? (
            <ErrorBox error={rules.error} title="SelfSubjectRulesReview failed" />
          ) : !rules.data ? (
            <p className="muted">loading…</p>
          ) : (
            <>
              {rules.data.incomplete && (
                <p className="muted">The list is incomplete: an authorizer could not enumerate its rules, so you may be allowed more than this says.</p>
              )}
              {rules.data.evaluationError && <p className="muted">Evaluation error: {rules.data.evaluationError}</p>}
              <ul className="welcome-rules" aria-label="Resource rules">
                {rules.data.resourceRules.map((r, i) => (
                  <li key={i}>{ruleLabel(r)}</li>
                ))}
              </ul>
              {rules.data.nonResourceRules.length > 0 && (
                <details>
                  <summary>{rules.data.nonResourceRules.length} rules for non-resource URLs</summary>
                  <ul>
                    {rules.data.nonResourceRules.map((r, i) => (
                      <li key={i}>
                        {r.verbs.join(', ')}: {(r.nonResourceURLs ?? []).join(', ')}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </>
          )}
        </section>

        <section className="panel" aria-labelledby="welcome-counts">
          <h2 id="welcome-counts">How much is here {namespace ? <>in <code>{namespace}</code></> : 'in all namespaces'}</h2>
          <table className="welcome-counts" aria-labelledby="welcome-counts">
            <tbody>
              {COMMON_RESOURCES.map((t) => (
                <CountRow key={`${t.group}/${t.resource}`} context={context} namespace={namespace} target={t} />
              ))}
            </tbody>
          </table>
          <p className="muted small">Each count is one GET with limit=1: the one item plus the list's metadata.remainingItemCount.</p>
        </section>
      </div>
    </div>
  );
}

function CountRow({ context, namespace, target }: { context: string; namespace?: string; target: (typeof COMMON_RESOURCES)[number] }) {
  const ns = target.namespaced ? namespace : undefined;
  const count = useQuery(countQuery(context, target, ns));
  return (
    <tr>
      <th scope="row">
        <a href={hrefFor({ view: 'lists', context, namespace, group: target.group, version: target.version, resource: target.resource })} title={`GET ${collectionPath(target, ns)}?limit=1`}>
          {target.resource}
        </a>
      </th>
      <td data-testid={`count-${target.resource}`}>
        {count.error ? <span className="muted">{(count.error as { code?: number }).code === 403 ? 'not allowed to list' : (count.error as Error).message}</span> : count.data ? `${count.data.count}${count.data.exact ? '' : '+'}` : '…'}
      </td>
    </tr>
  );
}

/** The verdict of /readyz?verbose, or why the answer gives none (refused, the proxy's own error, a replay without it). */
function Readiness({ report }: { report: ReadyzReport }) {
  if (report.ready === null || !report.checks) {
    return (
      <p className="warn" role="status" data-testid="readyz-summary">
        GET /readyz?verbose says nothing about readiness: {report.status ? `HTTP ${report.status}` : 'no answer'}
        {report.message ? ` (${report.message})` : ''}
      </p>
    );
  }
  const failed = report.checks.filter((c) => !c.ok);
  return (
    <>
      <p role="status" data-testid="readyz-summary">
        {report.ready ? '✓ ready' : '✗ not ready'}: {report.checks.length - failed.length} of {report.checks.length} checks passed
        {failed.length > 0 && <> (failing: {failed.map((c) => c.name).join(', ')})</>}
      </p>
      <details>
        <summary>The checks, as the server reported them (HTTP {report.status})</summary>
        <pre className="welcome-readyz">{report.text}</pre>
      </details>
    </>
  );
}

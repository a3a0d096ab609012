// Discovery: every group, version and resource the server serves (aggregated discovery, or the
// legacy documents on older servers), filterable; for the chosen resource its facts, what the
// current user may do with it, deprecation signals and its OpenAPI schema.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useRef } from 'react';
import { hrefFor, navigate, type Route } from '../../routing';
import { type ApiGroup, type ApiResource, discoveryQuery, findResource } from '../../k8s/discovery';
import { type RulesReview, rulesReviewQuery } from '../../k8s/overview';
import { openApiIndexQuery } from '../../k8s/openapi';
import { apiVersionOf, resourcePath } from '../../k8s/paths';
import { ErrorBox } from '../../ui/ErrorBox';
import { draftToExtra } from '../console';
import { AccessPanel } from './AccessPanel';
import { CapabilitiesPanel, RepresentationsPanel } from './CapabilitiesPanel';
import { DeprecationPanel } from './DeprecationPanel';
import { gvLabel, ResourceNav } from './ResourceNav';
import { SchemaPanel } from './SchemaPanel';
import { UnavailablePanel } from './UnavailablePanel';

/** Where the marks come from, and a filter to what the user may use. */
function RulesNote({ context, namespace, review, mine }: { context: string; namespace: string; review: { data?: RulesReview; error: Error | null }; mine: boolean }) {
  if (review.error) return <p className="muted small">Could not ask what you may do here (SelfSubjectRulesReview: {review.error.message}); resources are shown unmarked.</p>;
  if (!review.data) return null;
  return (
    <p className="muted small" data-testid="rules-note">
      Marked: what context {context} may do in namespace {namespace}, as a SelfSubjectRulesReview says
      {review.data.incomplete ? ' (the review says it is incomplete: an authorizer could not list its rules)' : ''}; for cluster-scoped resources only rules bound cluster-wide count.{' '}
      <label>
        <input type="checkbox" checked={mine} onChange={(e) => navigate({ extra: { mine: e.target.checked ? '1' : '' } }, { replace: true })} /> only what I may use
      </label>
    </p>
  );
}


/** The list's first render is empty, so that even discovery already in the cache renders deferred. */
const NO_GROUPS: ApiGroup[] = [];

export function DiscoveryView({ route, context }: { route: Route; context: string }) {
  const qc = useQueryClient();
  const d = useQuery(discoveryQuery(context));
  const filter = route.extra.filter ?? '';
  const filterRef = useRef<HTMLInputElement>(null);
  const selected = findResource(d.data, route.group, route.version, route.resource);
  // What the user may do, marked on every resource: one SelfSubjectRulesReview in the namespace
  // (a restricted user sees at a glance what it may read). Advisory: the server has the last word.
  const reviewNamespace = route.namespace || 'default';
  const rules = useQuery(rulesReviewQuery(context, reviewNamespace));
  const mine = route.extra.mine === '1';

  // "/" focuses the filter, as in many list UIs.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.key === '/' && !(t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable))) {
        e.preventDefault();
        filterRef.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The list of every resource renders from deferred inputs: with hundreds of CRDs it holds
  // thousands of links, and React renders a deferred update in slices that yield to the browser
  // (one synchronous render of 3,000 links was a main-thread task of 50-100 ms). The panel on the
  // right follows the route at once; the list's highlight follows a frame or two later.
  const nav = {
    groups: useDeferredValue(d.data?.groups, NO_GROUPS),
    filter: useDeferredValue(filter),
    mine: useDeferredValue(mine),
    rules: useDeferredValue(rules.data),
    selected: useDeferredValue(selected),
    name: useDeferredValue(route.name),
    namespace: useDeferredValue(route.namespace),
  };

  return (
    <section aria-label="Discovery">
      <div className="split">
        <div className="panel stack">
          <div className="row">
            <input
              ref={filterRef}
              type="search"
              aria-label="Filter resources"
              placeholder="Filter: name, short name, kind, category  (/)"
              value={filter}
              style={{ flex: 1 }}
              onChange={(e) => navigate({ extra: { filter: e.target.value } }, { replace: true })}
            />
            <button
              type="button"
              onClick={() => {
                void qc.invalidateQueries({ queryKey: discoveryQuery(context).queryKey });
                void qc.invalidateQueries({ queryKey: openApiIndexQuery(context).queryKey });
              }}
            >
              Refresh
            </button>
          </div>
          {d.data && (
            <p className="muted small">
              {d.data.source === 'aggregated' ? 'Aggregated discovery (apidiscovery.k8s.io/v2, two requests: /api and /apis)' : 'Legacy discovery (one request per group version)'}
              {d.isFetching && ' · refreshing…'}
            </p>
          )}
          <CapabilitiesPanel context={context} namespace={route.namespace} />
          <RulesNote context={context} namespace={reviewNamespace} review={rules} mine={mine} />
          <UnavailablePanel context={context} discovery={d.data} />
          {d.error && <ErrorBox error={d.error} title="Discovery failed" />}
          {d.isLoading && <p className="muted">Reading discovery…</p>}
          <ResourceNav context={context} {...nav} />
        </div>
        <div className="panel stack">
          {selected ? (
            <ResourceDetails context={context} resource={selected} route={route} />
          ) : route.resource && d.data ? (
            <p className="muted">
              The server does not serve {route.resource} in {gvLabel(route.group ?? '', route.version ?? '')} (any more?). Press Refresh if it was just created.
            </p>
          ) : (
            <p className="muted">Choose a resource to see its verbs, what you may do with it, and its schema.</p>
          )}
        </div>
      </div>
    </section>
  );
}

function ResourceDetails({ context, resource: r, route }: { context: string; resource: ApiResource; route: Route }) {
  const ns = r.namespaced ? route.namespace : undefined;
  const listPath = resourcePath({ group: r.group, version: r.version, resource: r.resource, namespace: ns });
  const consoleExtra = draftToExtra({ method: 'GET', path: listPath, params: [['limit', '20']], headers: [['Accept', 'application/json']], body: '' });
  return (
    <article aria-label={`Resource ${r.resource}`}>
      <h2>
        {r.resource} <span className="muted small">{apiVersionOf(r.group, r.version)}</span>
      </h2>
      <dl className="kv" aria-label="Resource facts">
        <dt>kind</dt>
        <dd>{r.kind}</dd>
        <dt>scope</dt>
        <dd>{r.namespaced ? 'Namespaced' : 'Cluster'}</dd>
        <dt>singular</dt>
        <dd>{r.singular || '—'}</dd>
        <dt>verbs</dt>
        <dd aria-label="Verbs">
          {r.verbs.map((v) => (
            <span className="badge" key={v}>
              {v}
            </span>
          ))}
        </dd>
        <dt>short names</dt>
        <dd>{r.shortNames.join(', ') || '—'}</dd>
        <dt>categories</dt>
        <dd>{r.categories.join(', ') || '—'}</dd>
        <dt>path</dt>
        <dd>
          <code>{listPath}</code>{' '}
          <a href={hrefFor({ view: 'console', extra: consoleExtra })} onClick={(e) => {
            if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
            e.preventDefault();
            navigate({ view: 'console', extra: consoleExtra }, { keepExtra: false });
          }}>
            Open in the console
          </a>
        </dd>
      </dl>
      {r.subresources.length > 0 && (
        <table className="grid small" aria-label="Subresources">
          <thead>
            <tr>
              <th>subresource</th>
              <th>kind</th>
              <th>verbs</th>
            </tr>
          </thead>
          <tbody>
            {r.subresources.map((s) => (
              <tr key={s.name}>
                <td>
                  <code>{s.name}</code>
                </td>
                <td>{s.kind}</td>
                <td>{s.verbs.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <DeprecationPanel context={context} resource={r} namespace={ns} />
      <AccessPanel context={context} resource={r} namespace={ns} name={route.name} />
      <RepresentationsPanel context={context} resource={r} namespace={ns} />
      <SchemaPanel context={context} resource={r} fieldPath={route.extra.field ?? ''} />
    </article>
  );
}

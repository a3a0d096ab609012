// What the current context's user may do with a resource, asked of the server up front
// (SelfSubjectAccessReview per verb), so that a refused action is explained before it is tried.
import { useQuery } from '@tanstack/react-query';
import { hrefFor, navigate } from '../../routing';
import { accessQuery } from '../../k8s/access';
import type { ApiResource } from '../../k8s/discovery';
import { apiVersionOf, resourcePath } from '../../k8s/paths';
import { ErrorBox } from '../../ui/ErrorBox';
import { draftToExtra } from '../console';

const ORDER = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];

/** The placeholder name a "try anyway" request carries when no object is chosen. */
export const PLACEHOLDER_NAME = 'example';

/** Verbs that act on one object, so their request needs a name. */
const NAMED_VERBS = ['get', 'update', 'patch', 'delete'];

/**
 * A console request that tries the verb, for "try anyway". Verbs on one object use `name`, or
 * PLACEHOLDER_NAME: authorization comes before the object is looked up, so a denied verb gets its
 * 403 whether or not the object exists. Writes carry dryRun=All: should the verb be allowed after
 * all, nothing is stored.
 */
export function tryRequest(r: ApiResource, verb: string, namespace: string | undefined, name?: string): Record<string, string> | undefined {
  const ns = r.namespaced ? namespace : undefined;
  const collection = resourcePath({ group: r.group, version: r.version, resource: r.resource, namespace: ns });
  const headers: [string, string][] = [['Accept', 'application/json']];
  const object = `${collection}/${encodeURIComponent(name || PLACEHOLDER_NAME)}`;
  switch (verb) {
    case 'get':
      return draftToExtra({ method: 'GET', path: object, params: [], headers, body: '' });
    case 'delete':
      return draftToExtra({ method: 'DELETE', path: object, params: [['dryRun', 'All']], headers, body: '' });
    case 'patch':
      return draftToExtra({ method: 'PATCH', path: object, params: [['dryRun', 'All']], headers: [...headers, ['Content-Type', 'application/merge-patch+json']], body: '{}' });
    case 'update':
      return draftToExtra({
        method: 'PUT',
        path: object,
        params: [['dryRun', 'All']],
        headers: [...headers, ['Content-Type', 'application/json']],
        body: JSON.stringify({ apiVersion: apiVersionOf(r.group, r.version), kind: r.kind, metadata: { name: name || PLACEHOLDER_NAME } }, null, 2),
      });
    case 'list':
      return draftToExtra({ method: 'GET', path: collection, params: [['limit', '10']], headers, body: '' });
    case 'watch':
      return draftToExtra({ method: 'GET', path: collection, params: [['watch', 'true']], headers, body: '' });
    case 'create':
      return draftToExtra({
        method: 'POST',
        path: collection,
        params: [],
        headers: [...headers, ['Content-Type', 'application/json']],
        body: JSON.stringify({ apiVersion: apiVersionOf(r.group, r.version), kind: r.kind, metadata: { generateName: 'explorer-' } }, null, 2),
      });
    case 'deletecollection':
      return draftToExtra({ method: 'DELETE', path: collection, params: [['dryRun', 'All']], headers, body: '' });
    default:
      return undefined;
  }
}

export function AccessPanel({ context, resource, namespace, name }: { context: string; resource: ApiResource; namespace?: string; name?: string }) {
  const verbs = [...resource.verbs].sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99));
  const ns = resource.namespaced ? namespace : undefined;
  const q = useQuery(accessQuery(context, { group: resource.group, resource: resource.resource, namespace: ns }, verbs));
  const where = resource.namespaced ? (ns ? `in namespace ${ns}` : 'in all namespaces') : 'cluster-wide';
  return (
    <section aria-label="Access">
      <h3>
        What context <code>{context}</code> may do {where}
      </h3>
      <p className="muted small">Asked with one SelfSubjectAccessReview per verb before anything is tried.</p>
      {q.error && <ErrorBox error={q.error} title="Could not ask the server" />}
      {q.isLoading && <p className="muted">Asking the server…</p>}
      {q.data && (
        <table className="grid" aria-label="Access by verb">
          <thead>
            <tr>
              <th>verb</th>
              <th>allowed</th>
              <th>why</th>
            </tr>
          </thead>
          <tbody>
            {q.data.map((d) => {
              const extra = !d.allowed ? tryRequest(resource, d.verb, ns, name) : undefined;
              const placeholder = extra && NAMED_VERBS.includes(d.verb) && !name;
              return (
                <tr key={d.verb}>
                  <td>
                    <code>{d.verb}</code>
                  </td>
                  <td>{d.allowed ? <span className="badge ok">allowed</span> : <span className="badge danger">denied</span>}</td>
                  <td className="small">
                    {d.allowed
                      ? d.reason
                      : (d.reason || d.evaluationError || (d.denied ? 'explicitly denied by an authorizer' : 'no RBAC rule grants this verb to you')) + '; the server would answer 403 Forbidden.'}
                    {extra && (
                      <>
                        {' '}
                        <a
                          href={hrefFor({ view: 'console', extra })}
                          onClick={(e) => {
                            if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                            e.preventDefault();
                            navigate({ view: 'console', extra }, { keepExtra: false });
                          }}
                        >
                          Try {d.verb} anyway in the console
                        </a>
                        {placeholder && (
                          <span className="muted">
                            {' '}
                            ({d.verb} acts on one object: the request names <code>{PLACEHOLDER_NAME}</code>; the answer is 403 whether it exists or not, since access is checked first)
                          </span>
                        )}
                      </>
                    )}
                    {!d.allowed && !extra && <span className="muted"> (no console request for this verb: try it from the view that uses it)</span>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

// deletecollection: DELETE on a collection deletes every object the selectors match. It is
// counted here by first sending the same request with dryRun=All: the server answers with the
// list of objects it would delete. The button then deletes exactly those objects, one DELETE each
// with the uid of the count as a precondition: the collection request sent again would match
// anew, and delete objects created since the count ("Delete these 2" deleted 3). An object
// deleted or replaced since the count is not deleted (404, or 409 for another uid).
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorBox } from '../../ui/ErrorBox';
import { kubeFetch } from '../../k8s/client';
import type { ApiResource } from '../../k8s/discovery';
import { resourcePath } from '../../k8s/paths';

export interface Counted {
  name: string;
  namespace?: string;
  uid?: string;
}

export interface Answer {
  request: string;
  status: number;
  names: string[];
  items: Counted[];
  message?: string;
}

export async function deleteCollection(context: string, path: string, query: Record<string, string>): Promise<Answer> {
  const q = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
  const res = await kubeFetch({ context, path, method: 'DELETE', query: q, headers: { Accept: 'application/json' } });
  const body = (await res.json().catch(() => ({}))) as { kind?: string; message?: string; items?: { metadata?: { name?: string; namespace?: string; uid?: string } }[] };
  const items = (body.items ?? []).map((i) => ({ name: i.metadata?.name ?? '?', namespace: i.metadata?.namespace, uid: i.metadata?.uid }));
  return {
    request: `DELETE ${path}${Object.keys(q).length ? `?${new URLSearchParams(q).toString()}` : ''}`,
    status: res.status,
    names: items.map((i) => i.name),
    items,
    message: body.kind === 'Status' ? body.message : undefined,
  };
}

/** Deletes exactly the counted objects: one DELETE each, on the uid of the count. */
export async function deleteCounted(context: string, resource: ApiResource, items: Counted[], propagationPolicy: string): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const item of items) {
    const path = resourcePath({ group: resource.group, version: resource.version, resource: resource.resource, namespace: resource.namespaced ? item.namespace : undefined, name: item.name });
    const options = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy, ...(item.uid ? { preconditions: { uid: item.uid } } : {}) };
    const res = await kubeFetch({ context, path, method: 'DELETE', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify(options) });
    const body = (await res.json().catch(() => ({}))) as { kind?: string; message?: string };
    const ok = res.status >= 200 && res.status < 300;
    out.push({ request: `DELETE ${path} (preconditions.uid ${item.uid ?? '-'})`, status: res.status, names: ok ? [item.name] : [], items: ok ? [item] : [], message: body.kind === 'Status' ? body.message : undefined });
  }
  return out;
}

export function DeleteCollection({ context, resource, namespace }: { context: string; resource: ApiResource; namespace?: string }) {
  const path = resourcePath({ group: resource.group, version: resource.version, resource: resource.resource, namespace: resource.namespaced ? namespace : undefined });
  const [labelSelector, setLabelSelector] = useState('');
  const [fieldSelector, setFieldSelector] = useState('');
  const [propagationPolicy, setPropagationPolicy] = useState('Background');
  // The count (a dryRun=All deletecollection) and the deletion of what it counted: two mutations,
  // their errors on screen.
  const counting = useMutation({ mutationFn: (q: Record<string, string>) => deleteCollection(context, path, { ...q, dryRun: 'All' }) });
  const deleting = useMutation({ mutationFn: (v: { items: Counted[]; propagationPolicy: string }) => deleteCounted(context, resource, v.items, v.propagationPolicy), onSuccess: () => counting.reset() });
  const dry = counting.data;
  const done = deleting.data;
  const busy = counting.isPending || deleting.isPending;
  const query = { labelSelector, fieldSelector, propagationPolicy };
  const allowed = resource.verbs.includes('deletecollection');
  const count = () => {
    deleting.reset();
    counting.mutate(query);
  };
  const run = () => dry && deleting.mutate({ items: dry.items, propagationPolicy });

  return (
    <section aria-label="Delete a collection" className="stack">
      <h3>Delete a collection</h3>
      <p className="muted small">
        <code>DELETE {path}</code> with selectors deletes every matching {resource.resource} at once{namespace && resource.namespaced ? ` in ${namespace}` : ''}.
        {!allowed && <strong className="warn"> Discovery does not list deletecollection for {resource.resource}.</strong>} Without a selector it matches them all.
      </p>
      <div className="edit-options">
        <label>
          labelSelector
          <input aria-label="Collection labelSelector" value={labelSelector} onChange={(e) => { setLabelSelector(e.target.value); counting.reset(); }} placeholder="app=web" />
        </label>
        <label>
          fieldSelector
          <input aria-label="Collection fieldSelector" value={fieldSelector} onChange={(e) => { setFieldSelector(e.target.value); counting.reset(); }} placeholder="metadata.name=x" />
        </label>
        <label>
          propagationPolicy
          <select aria-label="Propagation policy for the collection" value={propagationPolicy} onChange={(e) => { setPropagationPolicy(e.target.value); counting.reset(); }}>
            <option>Background</option>
            <option>Foreground</option>
            <option>Orphan</option>
          </select>
        </label>
        <button type="button" disabled={busy} onClick={count}>
          Count with dryRun=All
        </button>
      </div>
      {counting.error && <ErrorBox error={counting.error} title="The count failed" />}
      {deleting.error && <ErrorBox error={deleting.error} title="The deletion failed" />}
      {dry && (
        <div role="region" aria-label="Collection dry run" className="small">
          <p>
            <code>{dry.request}</code> → HTTP {dry.status}: {dry.status === 200 ? `would delete ${dry.names.length} ${resource.resource}` : dry.message}
          </p>
          {dry.names.length > 0 && <p className="mono">{dry.names.join(', ')}</p>}
          {dry.status === 200 && (
            <button type="button" className="danger" disabled={busy || dry.names.length === 0} onClick={run}>
              Delete these {dry.names.length} {resource.resource}
            </button>
          )}
          <p className="muted">The button deletes exactly these, one DELETE each on the uid counted: a collection request sent again would match anew, and delete objects created since this count.</p>
        </div>
      )}
      {done && (
        <div role="region" aria-label="Collection deleted" className="small">
          <p>
            Deleted {done.filter((d) => d.names.length > 0).length} of the {done.length} counted {resource.resource}, one request each:
          </p>
          <ul className="mono">
            {done.map((d) => (
              <li key={d.request}>
                <code>{d.request}</code> → HTTP {d.status}
                {d.status === 404 ? ': gone since the count' : d.status === 409 ? ': another object by that name since the count (uid precondition)' : d.names.length === 0 ? `: ${d.message ?? ''}` : ''}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}

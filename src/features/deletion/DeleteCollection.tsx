// deletecollection: DELETE on a collection deletes every object the selectors match. It is
// confirmed here by first sending the same request with dryRun=All: the server answers with the
// list of objects it would delete, and that count is what the button offers to delete. The real
// request then answers with the list of objects it deleted (or marked for deletion).
import { useState } from 'react';
import { kubeFetch } from '../../k8s/client';
import type { ApiResource } from '../../k8s/discovery';
import { resourcePath } from '../../k8s/paths';

interface Answer {
  request: string;
  status: number;
  names: string[];
  message?: string;
}

async function deleteCollection(context: string, path: string, query: Record<string, string>): Promise<Answer> {
  const q = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
  const res = await kubeFetch({ context, path, method: 'DELETE', query: q, headers: { Accept: 'application/json' } });
  const body = (await res.json().catch(() => ({}))) as { kind?: string; message?: string; items?: { metadata?: { name?: string } }[] };
  return {
    request: `DELETE ${path}${Object.keys(q).length ? `?${new URLSearchParams(q).toString()}` : ''}`,
    status: res.status,
    names: (body.items ?? []).map((i) => i.metadata?.name ?? '?'),
    message: body.kind === 'Status' ? body.message : undefined,
  };
}

export function DeleteCollection({ context, resource, namespace }: { context: string; resource: ApiResource; namespace?: string }) {
  const path = resourcePath({ group: resource.group, version: resource.version, resource: resource.resource, namespace: resource.namespaced ? namespace : undefined });
  const [labelSelector, setLabelSelector] = useState('');
  const [fieldSelector, setFieldSelector] = useState('');
  const [propagationPolicy, setPropagationPolicy] = useState('Background');
  const [dry, setDry] = useState<Answer>();
  const [done, setDone] = useState<Answer>();
  const [busy, setBusy] = useState(false);
  const query = { labelSelector, fieldSelector, propagationPolicy };
  const allowed = resource.verbs.includes('deletecollection');

  const count = async () => {
    setBusy(true);
    setDone(undefined);
    try {
      setDry(await deleteCollection(context, path, { ...query, dryRun: 'All' }));
    } finally {
      setBusy(false);
    }
  };
  const run = async () => {
    setBusy(true);
    try {
      setDone(await deleteCollection(context, path, query));
      setDry(undefined);
    } finally {
      setBusy(false);
    }
  };

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
          <input aria-label="Collection labelSelector" value={labelSelector} onChange={(e) => { setLabelSelector(e.target.value); setDry(undefined); }} placeholder="app=web" />
        </label>
        <label>
          fieldSelector
          <input aria-label="Collection fieldSelector" value={fieldSelector} onChange={(e) => { setFieldSelector(e.target.value); setDry(undefined); }} placeholder="metadata.name=x" />
        </label>
        <label>
          propagationPolicy
          <select aria-label="Propagation policy for the collection" value={propagationPolicy} onChange={(e) => { setPropagationPolicy(e.target.value); setDry(undefined); }}>
            <option>Background</option>
            <option>Foreground</option>
            <option>Orphan</option>
          </select>
        </label>
        <button type="button" disabled={busy} onClick={() => void count()}>
          Count with dryRun=All
        </button>
      </div>
      {dry && (
        <div role="region" aria-label="Collection dry run" className="small">
          <p>
            <code>{dry.request}</code> → HTTP {dry.status}: {dry.status === 200 ? `would delete ${dry.names.length} ${resource.resource}` : dry.message}
          </p>
          {dry.names.length > 0 && <p className="mono">{dry.names.join(', ')}</p>}
          {dry.status === 200 && (
            <button type="button" className="danger" disabled={busy || dry.names.length === 0} onClick={() => void run()}>
              Delete these {dry.names.length} {resource.resource}
            </button>
          )}
          <p className="muted">The real request matches again when it runs: objects created or changed since this count are judged then.</p>
        </div>
      )}
      {done && (
        <div role="region" aria-label="Collection deleted" className="small">
          <p>
            <code>{done.request}</code> → HTTP {done.status}: {done.status === 200 ? `deleted ${done.names.length} ${resource.resource}` : done.message}
          </p>
          {done.names.length > 0 && <p className="mono">{done.names.join(', ')}</p>}
        </div>
      )}
    </section>
  );
}

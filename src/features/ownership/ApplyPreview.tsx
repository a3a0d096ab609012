// Apply preview: a YAML and a manager name, sent as a Server-Side Apply with dryRun=All. The
// server runs the whole apply (merging, ownership, conflict detection, admission) and stores
// nothing, so the answer shows the managedFields that would result, or the 409 conflicts naming
// each field and the manager that owns it. A re-read afterwards shows the object unchanged.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { isStatus, kubeFetch, kubeJson, type Status } from '../../k8s/client';
import { buildOwnershipTree, diffManagedFields, type EntryChange, type ManagedFieldsEntry } from '../../k8s/fields';
import { conflictManager } from '../../k8s/patch';
import { CodeEditor } from '../../ui/CodeEditor';
import { ErrorBox } from '../../ui/ErrorBox';
import { WRITE_MODE_TABLE } from '../edit';
import { applySkeleton } from './applySkeleton';

interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; managedFields?: ManagedFieldsEntry[] };
}

interface Preview {
  request: string;
  status: number;
  changes?: EntryChange[];
  owned?: string[];
  conflicts?: { field: string; manager?: string; message: string }[];
  failure?: Status;
  rvBefore?: string;
  rvAfter?: string;
}

export function ApplyPreview({ context, path, current }: { context: string; path: string; current: Obj }) {
  const [text, setText] = useState(() => applySkeleton(current));
  const [manager, setManager] = useState('preview-manager');
  const [force, setForce] = useState(false);
  // A dry-run write: a mutation, its failure (the object unreadable, the network) on screen.
  const previewing = useMutation({
    mutationFn: async (v: { text: string; manager: string; force: boolean }): Promise<Preview> => {
      const query = { dryRun: 'All', fieldManager: v.manager, ...(v.force ? { force: 'true' } : {}) };
      const before = await kubeJson<Obj>({ context, path });
      const res = await kubeFetch({ context, path, method: 'PATCH', query, headers: { 'Content-Type': WRITE_MODE_TABLE.apply.contentType, Accept: 'application/json' }, body: v.text });
      const body: unknown = await res.json().catch(() => undefined);
      const after = await kubeJson<Obj>({ context, path });
      const out: Preview = { request: `PATCH ${path}?${new URLSearchParams(query).toString()}`, status: res.status, rvBefore: before.metadata?.resourceVersion, rvAfter: after.metadata?.resourceVersion };
      if (res.ok && !isStatus(body)) {
        const result = body as Obj;
        out.changes = diffManagedFields(before.metadata?.managedFields ?? [], result.metadata?.managedFields ?? []).filter((c) => c.change !== 'unchanged');
        out.owned = buildOwnershipTree(result).entries.filter((e) => e.manager === v.manager && e.operation === 'Apply').flatMap((e) => e.paths);
      } else if (isStatus(body)) {
        out.failure = body;
        if (res.status === 409) out.conflicts = (body.details?.causes ?? []).filter((c) => c.reason === 'FieldManagerConflict').map((c) => ({ field: c.field ?? '', manager: conflictManager(c.message), message: c.message ?? '' }));
      }
      return out;
    },
  });
  const preview = previewing.data;
  const busy = previewing.isPending;
  const run = () => previewing.mutate({ text, manager: manager.trim(), force });

  return (
    <section aria-label="Apply preview" className="own-preview">
      <h3>Apply preview</h3>
      <p className="muted small">
        What would a Server-Side Apply of this YAML by this manager do to ownership? Sent with <code>dryRun=All</code>: the server computes everything and stores nothing.
      </p>
      <CodeEditor value={text} onChange={setText} language="yaml" ariaLabel="Apply preview YAML" height="200px" onSubmit={run} />
      <div className="own-toolbar">
        <label>
          <span>fieldManager</span>
          <input aria-label="Preview field manager" value={manager} onChange={(e) => setManager(e.target.value)} />
        </label>
        <label>
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> force
        </label>
        <button type="button" disabled={busy || !manager.trim()} onClick={run}>
          {busy ? 'Previewing…' : 'Preview (dryRun=All)'}
        </button>
      </div>
      {previewing.error && <ErrorBox error={previewing.error} title={`Could not preview the apply to ${path}`} />}
      {preview && (
        <div role="region" aria-label="Apply preview result" className="small">
          <p>
            <code>{preview.request}</code> → HTTP {preview.status || 'failed'}. Object resourceVersion before <code>{preview.rvBefore ?? '?'}</code>, re-read after <code>{preview.rvAfter ?? '?'}</code>
            {preview.rvBefore && preview.rvBefore === preview.rvAfter ? ': unchanged, nothing was stored.' : '.'}
          </p>
          {preview.conflicts && preview.conflicts.length > 0 && (
            <>
              <p>The apply would fail with 409 Conflict: these fields are owned by other managers and this YAML sets them to other values. Force would take them over; leaving them out of the YAML leaves them to their owners.</p>
              <table className="grid" aria-label="Preview conflicts">
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Owned by</th>
                    <th scope="col">Server's message</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.conflicts.map((c, i) => (
                    <tr key={i}>
                      <td className="mono">{c.field}</td>
                      <td>{c.manager ?? '?'}</td>
                      <td>{c.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
          {preview.failure && !preview.conflicts?.length && <p className="warn">{preview.failure.reason ? `${preview.failure.reason}: ` : ''}{preview.failure.message}</p>}
          {preview.changes && (
            <>
              <p>
                {preview.changes.length === 0 ? 'No managedFields entry would change.' : 'managedFields entries that would change:'}
              </p>
              {preview.changes.length > 0 && (
                <ul aria-label="Preview ownership changes">
                  {preview.changes.map((c) => (
                    <li key={c.key}>
                      <strong>{c.manager}</strong> ({c.operation}
                      {c.subresource ? `, ${c.subresource}` : ''}) {c.change}
                      {c.gained.length > 0 && <> · would take <code>{c.gained.join(', ')}</code></>}
                      {c.lost.length > 0 && <> · would give up <code>{c.lost.join(', ')}</code></>}
                    </li>
                  ))}
                </ul>
              )}
              {preview.owned && <p>{manager} would own {preview.owned.length} field{preview.owned.length === 1 ? '' : 's'}.</p>}
            </>
          )}
        </div>
      )}
    </section>
  );
}

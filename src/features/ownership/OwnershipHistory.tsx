// Ownership over time: follow the object with a watch (fieldSelector metadata.name) and keep, for
// every version the server sends, which managedFields entries appeared, changed or went, and which
// fields each manager gained or lost. A forced apply shows as one manager gaining what another
// lost in the same version.
import { useEffect, useState } from 'react';
import { diffManagedFields, type EntryChange, type ManagedFieldsEntry } from '../../k8s/fields';
import { sharedMux } from '../../k8s/client';
import type { ResourceRef } from '../../k8s/paths';
import { inform } from '../../k8s/watch';
import type { KubeObject } from '../../k8s/watch';

export interface HistoryEntry {
  resourceVersion: string;
  event: string;
  at: string;
  changes: EntryChange[];
}

export function OwnershipHistory({ context, target, initial, onObject }: { context: string; target: ResourceRef; initial?: KubeObject; onObject: (o: KubeObject) => void }) {
  const [following, setFollowing] = useState(false);
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  const [problem, setProblem] = useState<string>();
  const [listedAt, setListedAt] = useState<string>();

  useEffect(() => {
    if (!following) return;
    let prev: KubeObject | undefined = initial;
    const stop = inform({ context, group: target.group, version: target.version, resource: target.resource, namespace: target.namespace, name: target.name }, {
      mux: sharedMux(),
      onProblem: (message) => message !== undefined && setProblem(message),
      onChange: (objects, event) => {
        setProblem(undefined);
        const obj = event?.object ?? [...objects.values()][0];
        if (!obj) return;
        const rv = obj.metadata?.resourceVersion ?? '';
        if (!event) setListedAt(rv);
        if (prev && prev.metadata?.resourceVersion === rv && event?.type !== 'DELETED') return;
        const before = (prev?.metadata?.managedFields ?? []) as ManagedFieldsEntry[];
        const after = event?.type === 'DELETED' ? [] : ((obj.metadata?.managedFields ?? []) as ManagedFieldsEntry[]);
        const changes = prev ? diffManagedFields(before, after).filter((c) => c.change !== 'unchanged') : [];
        const entry: HistoryEntry = { resourceVersion: rv, event: event?.type ?? 'listed', at: new Date().toLocaleTimeString(), changes };
        prev = obj;
        setHistory((h) => [...h, entry].slice(-200));
        if (event?.type !== 'DELETED') onObject(obj);
      },
    });
    return stop;
    // Keyed on the target's identity; `initial` and `onObject` are read when following starts only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [following, context, target.group, target.version, target.resource, target.namespace, target.name]);

  return (
    <section aria-label="Ownership history" className="own-history">
      <h3>Ownership over time</h3>
      <p className="muted small">
        Follows the object with a watch and records, version by version, which manager took or gave up which fields. The tables above follow along.
      </p>
      <label>
        <input type="checkbox" checked={following} onChange={(e) => setFollowing(e.target.checked)} /> Follow this object (watch)
      </label>
      {following && listedAt && (
        <span className="muted small" role="status">
          {' '}
          watching from resourceVersion <code>{listedAt}</code>
        </span>
      )}
      {problem && <p className="warn small">Watch interrupted ({problem}); listing again…</p>}
      {history.length > 0 && (
        <table className="grid" aria-label="Ownership history entries">
          <thead>
            <tr>
              <th scope="col">resourceVersion</th>
              <th scope="col">Event</th>
              <th scope="col">Seen at</th>
              <th scope="col">Ownership changes</th>
            </tr>
          </thead>
          <tbody>
            {history.map((h, i) => (
              <tr key={i}>
                <td className="mono">{h.resourceVersion}</td>
                <td>{h.event}</td>
                <td className="mono small">{h.at}</td>
                <td className="small">
                  {h.event === 'listed' && i === 0 ? (
                    <span className="muted">starting point</span>
                  ) : h.changes.length === 0 ? (
                    <span className="muted">no managedFields entry changed</span>
                  ) : (
                    <ul className="own-paths">
                      {h.changes.map((c) => (
                        <li key={c.key}>
                          <strong>{c.manager || '(no name)'}</strong> ({c.operation}
                          {c.subresource ? `, ${c.subresource}` : ''}) {c.change}
                          {c.gained.length > 0 && (
                            <>
                              {' '}
                              · took <code>{c.gained.join(', ')}</code>
                            </>
                          )}
                          {c.lost.length > 0 && (
                            <>
                              {' '}
                              · gave up <code>{c.lost.join(', ')}</code>
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

// The Deletion view's rendering: what is watched, the dependent scan, the tree of the owner and
// its dependents with their state, and the log in order. Presentational (DeletionWatch.tsx feeds it).
import type { ApiResource } from '../../k8s/discovery';
import type { ResourceRef } from '../../k8s/paths';
import type { LogLine, Row } from './DeletionWatch';
import type { ScanResult } from '../../k8s/objects';

const typeName = (r: ApiResource) => (r.group ? `${r.resource}.${r.group}` : r.resource);

function scanText(scan: ScanResult | 'scanning' | { error: string } | undefined, foundRefs: ApiResource[]) {
  if (scan === 'scanning') return 'Looking for dependents in every resource type (metadata-only lists)…';
  if (scan && 'error' in scan) return `Could not look for dependents beyond the usual types: ${scan.error}`;
  if (!scan) return null;
  return `Looked in ${scan.listed} resource types for objects whose ownerReferences lead to the owner${foundRefs.length ? `; also watching ${foundRefs.map(typeName).join(', ')}` : ''}${scan.failed.length ? `; could not list ${scan.failed.join(', ')}` : ''}.`;
}

export function DeletionTree(p: { resource: ApiResource; owner: ResourceRef; watched: ApiResource[]; foundRefs: ApiResource[]; scan: ScanResult | 'scanning' | { error: string } | undefined; problem?: string; rows: Row[]; log: LogLine[] }) {
  const { resource, owner, watched, foundRefs, scan, problem, rows: list, log } = p;
  return (
    <section aria-label="Deletion as it happens" className="stack">
      <h3>Owner and dependents, live</h3>
      <p className="muted small">
        Watching <code>{resource.resource}</code> {owner.name} and {watched.map(typeName).join(', ') || 'no dependent resources'} in {owner.namespace ?? 'the cluster'}: dependents are objects whose <code>ownerReferences</code> lead to the owner. Send the delete above and watch kube-controller-manager's garbage collector act.
      </p>
      <p className="muted small" aria-label="Dependent scan">
        {scanText(scan, foundRefs)}
      </p>
      {problem && <p className="warn small">Watch interrupted ({problem}); listing again…</p>}
      <table className="grid" aria-label="Owner and dependents">
        <thead>
          <tr>
            <th scope="col">Object</th>
            <th scope="col">State</th>
            <th scope="col">deletionTimestamp</th>
            <th scope="col">finalizers</th>
            <th scope="col">ownerReferences</th>
          </tr>
        </thead>
        <tbody>
          {list.map((r) => (
            <tr key={r.uid} aria-label={`${r.kind} ${r.name}`}>
              <th scope="row" style={{ paddingLeft: `${r.depth * 16 + 6}px` }}>
                {r.kind} <span className="mono">{r.name}</span>
              </th>
              <td className={r.state === 'present' ? '' : 'warn'}>{r.state}</td>
              <td className="mono small">{r.deletionTimestamp ?? ''}</td>
              <td className="mono small">{r.finalizers.join(', ')}</td>
              <td className="mono small">{r.ownerReferences.map((o) => `${o.kind}/${o.name}${o.blockOwnerDeletion ? ' (blockOwnerDeletion)' : ''}`).join(', ') || (r.depth > 0 ? 'none' : '')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>What happened, in order</h4>
      <ol className="small mono" aria-label="Deletion events">
        {log.map((l, i) => (
          <li key={i}>
            {l.at} {l.kind} {l.name}: {l.what}
          </li>
        ))}
      </ol>
    </section>
  );
}

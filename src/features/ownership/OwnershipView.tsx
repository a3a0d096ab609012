// Who owns which field of one object, read from its metadata.managedFields: the object as a tree
// with each field's managers beside it, a per-manager summary (oldest entry first), and a re-read
// that shows which entries moved since the previous read.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { navigate, type Route } from '../../routing';
import { objectQuery } from '../../k8s/objects';
import { discoveryQuery, resolveResource } from '../../k8s/discovery';
import { buildOwnershipTree, diffManagedFields, type EntryChange, type ManagedFieldsEntry, type ManagerEntry, type OwnershipNode, sortEntriesByTime } from '../../k8s/fields';
import { parseResourcePath, type ResourceRef, resourcePath } from '../../k8s/paths';
import { ErrorBox } from '../../ui/ErrorBox';
import { ApplyPreview } from './ApplyPreview';
import { OwnershipHistory } from './OwnershipHistory';
import { TimeTravel } from '../record';
import './ownership.css';
import { toJson } from '../../codecs/json';

interface LiveObject {
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; managedFields?: ManagedFieldsEntry[] };
  [k: string]: unknown;
}

// The one object query, shared with the Lists and Edit views (a write there shows here).
export const ownershipObjectQuery = (context: string, ref: ResourceRef) => objectQuery<LiveObject>(context, ref);

export function OwnershipView({ route, context }: { route: Route; context: string }) {
  if (!route.resource || !route.version || !route.name) return <ObjectPicker route={route} context={context} />;
  const ref: ResourceRef = { group: route.group ?? '', version: route.version, resource: route.resource, namespace: route.namespace, name: route.name };
  return <ObjectOwnership key={resourcePath(ref)} route={route} context={context} target={ref} />;
}

function ObjectPicker({ route, context }: { route: Route; context: string }) {
  const discovery = useQuery(discoveryQuery(context));
  const [path, setPath] = useState('');
  const [resource, setResource] = useState(route.resource ?? '');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string>();

  const openPath = () => {
    const ref = parseResourcePath(path.trim());
    if (!ref?.name) return setProblem('Expected a path to one object, e.g. /api/v1/namespaces/default/configmaps/kube-root-ca.crt');
    setProblem(undefined);
    navigate({ group: ref.group, version: ref.version, resource: ref.resource, namespace: ref.namespace, name: ref.name });
  };
  const openByName = () => {
    const found = discovery.data ? resolveResource(discovery.data, resource) : [];
    const r = found[0];
    if (!r) return setProblem(discovery.data ? `No resource called "${resource}"` : 'Discovery has not answered yet');
    if (!name.trim()) return setProblem('Type the name of the object');
    if (r.namespaced && !route.namespace) return setProblem(`${r.resource} are namespaced: pick a namespace at the top first`);
    setProblem(undefined);
    navigate({ group: r.group, version: r.version, resource: r.resource, namespace: r.namespaced ? route.namespace : undefined, name: name.trim() });
  };

  return (
    <section className="ownership">
      <h2>Field ownership</h2>
      <p className="muted">Pick one object to see which field manager owns each of its fields.</p>
      <form
        className="own-picker"
        onSubmit={(e) => {
          e.preventDefault();
          openPath();
        }}
      >
        <label>
          <span>API path</span>
          <input aria-label="API path of the object" className="mono" placeholder="/apis/apps/v1/namespaces/default/deployments/web" value={path} onChange={(e) => setPath(e.target.value)} />
        </label>
        <button type="submit">Open</button>
      </form>
      <form
        className="own-picker"
        onSubmit={(e) => {
          e.preventDefault();
          openByName();
        }}
      >
        <label>
          <span>Resource</span>
          <input aria-label="Resource" placeholder="deploy, configmaps, pods…" value={resource} onChange={(e) => setResource(e.target.value)} />
        </label>
        <label>
          <span>Name</span>
          <input aria-label="Name" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <span className="muted small">namespace: {route.namespace ?? '(none)'}</span>
        <button type="submit">Open</button>
      </form>
      {problem && <p role="alert" className="warn">{problem}</p>}
      {discovery.error && <ErrorBox error={discovery.error} title="Discovery failed" />}
    </section>
  );
}

function ObjectOwnership({ route, context, target }: { route: Route; context: string; target: ResourceRef }) {
  const query = useQuery(ownershipObjectQuery(context, target));
  const queryClient = useQueryClient();
  const tree = useMemo(() => (query.data ? buildOwnershipTree(query.data) : undefined), [query.data]);
  const [comparison, setComparison] = useState<{ changes: EntryChange[]; fromRV?: string; toRV?: string }>();
  const [comparing, setComparing] = useState(false);
  const highlight = route.extra.manager ?? '';
  const only = route.extra.only === '1' && highlight !== '';

  const compare = async () => {
    const before = query.data;
    setComparing(true);
    try {
      const res = await query.refetch();
      if (res.data && before) {
        setComparison({ changes: diffManagedFields(before.metadata?.managedFields ?? [], res.data.metadata?.managedFields ?? []), fromRV: before.metadata?.resourceVersion, toRV: res.data.metadata?.resourceVersion });
      }
    } finally {
      setComparing(false);
    }
  };

  const title = `${target.resource}/${target.name}${target.namespace ? ` in ${target.namespace}` : ''}`;
  if (query.error) {
    // A replay that never read this object may still hold its versions (lists, watch events),
    // and live, an object deleted since is still worth its history.
    return (
      <section className="ownership">
        <ErrorBox error={query.error} title={`Could not read ${title}`} />
        <TimeTravel context={context} target={target} />
      </section>
    );
  }
  if (!tree || !query.data) return <p className="muted">Loading {title}…</p>;

  const managers = [...new Set(tree.entries.map((e) => e.manager))].sort();
  return (
    <section className="ownership">
      <h2>
        Field ownership of {query.data.kind ?? target.resource} <span className="mono">{target.name}</span>
        {target.namespace && <span className="muted small"> in {target.namespace}</span>}
      </h2>
      <p className="muted small">
        resourceVersion {query.data.metadata?.resourceVersion ?? '?'} · {tree.entries.length} managedFields {tree.entries.length === 1 ? 'entry' : 'entries'} ·{' '}
        <button type="button" className="link" onClick={() => navigate({ name: undefined, resource: undefined, version: undefined, group: undefined, extra: { manager: '', only: '' } })}>
          another object
        </button>
      </p>

      <div className="own-toolbar">
        <label>
          <span>Highlight manager</span>
          <select aria-label="Highlight manager" value={highlight} onChange={(e) => navigate({ extra: { manager: e.target.value, only: e.target.value ? (route.extra.only ?? '') : '' } }, { replace: true })}>
            <option value="">none</option>
            {managers.map((m) => (
              <option key={m} value={m}>
                {m || '(no name)'}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" disabled={!highlight} checked={only} onChange={(e) => navigate({ extra: { only: e.target.checked ? '1' : '' } }, { replace: true })} />
          <span>only its fields</span>
        </label>
      </div>

      <h3>Fields</h3>
      <FieldTable root={tree.root} highlight={highlight} only={only} />

      <h3>Managers</h3>
      <p className="muted small">One entry per manager, operation and subresource, oldest first.</p>
      <ManagerTable entries={sortEntriesByTime(tree.entries)} highlight={highlight} />

      <h3>Changes since the last read</h3>
      <p>
        <button type="button" onClick={() => void compare()} disabled={comparing}>
          {comparing ? 'Reading…' : 'Re-read and compare'}
        </button>
      </p>
      {comparison && <ChangeTable {...comparison} />}

      <TimeTravel context={context} target={target} />
      <OwnershipHistory context={context} target={target} initial={query.data} onObject={(o) => queryClient.setQueryData(ownershipObjectQuery(context, target).queryKey, o as LiveObject)} />
      <ApplyPreview context={context} path={resourcePath(target)} current={query.data} />
    </section>
  );
}

function visibleRows(root: OwnershipNode, collapsed: Set<string>, keep: ((n: OwnershipNode) => boolean) | null): OwnershipNode[] {
  const out: OwnershipNode[] = [];
  const walk = (n: OwnershipNode) => {
    if (keep && !keep(n)) return;
    out.push(n);
    if (!collapsed.has(n.path)) n.children.forEach(walk);
  };
  root.children.forEach(walk);
  return out;
}

function FieldTable({ root, highlight, only }: { root: OwnershipNode; highlight: string; only: boolean }) {
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  // With "only its fields", keep a node when the manager owns it or something under it.
  const relevant = useMemo(() => {
    if (!only) return null;
    const keep = new Set<OwnershipNode>();
    const mark = (n: OwnershipNode): boolean => {
      let any = [...n.owners, ...(n.ownedWith?.owners ?? [])].some((o) => o.manager === highlight);
      for (const c of n.children) any = mark(c) || any;
      if (any) keep.add(n);
      return any;
    };
    mark(root);
    return (n: OwnershipNode) => keep.has(n);
  }, [root, highlight, only]);
  const rows = visibleRows(root, collapsed, relevant);
  const toggle = (path: string) =>
    setCollapsed((prev) => {
      const next = new Set(prev);
      if (next.has(path)) next.delete(path);
      else next.add(path);
      return next;
    });

  return (
    <table className="grid own-fields">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">Value</th>
          <th scope="col">Managers</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((n) => {
          const mine = highlight !== '' && [...n.owners, ...(n.ownedWith?.owners ?? [])].some((o) => o.manager === highlight);
          const container = n.type !== 'scalar' && n.children.length > 0;
          return (
            <tr key={n.path} className={mine ? 'own-hit' : highlight ? 'own-dim' : undefined}>
              <th scope="row" aria-label={n.path} title={n.path} style={{ paddingLeft: `${(n.depth - 1) * 16 + 6}px` }}>
                {container ? (
                  <button type="button" className="own-toggle" aria-expanded={!collapsed.has(n.path)} aria-label={`${collapsed.has(n.path) ? 'Expand' : 'Collapse'} ${n.path}`} onClick={() => toggle(n.path)}>
                    {collapsed.has(n.path) ? '▸' : '▾'}
                  </button>
                ) : (
                  <span className="own-toggle-space" />
                )}
                <span className="mono">{n.label}</span>
              </th>
              <td className="mono own-value">
                <ValueText node={n} />
              </td>
              <td>
                <Owners node={n} highlight={highlight} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function ValueText({ node }: { node: OwnershipNode }) {
  if (node.type === 'object') return <span className="muted">{node.children.length ? `{${node.children.length}}` : '{}'}</span>;
  if (node.type === 'array') return <span className="muted">{node.children.length ? `[${node.children.length}]` : '[]'}</span>;
  // Plain text: object content is never rendered as markup.
  const text = typeof node.value === 'string' ? node.value : toJson(node.value);
  return <span title={text.length > 120 ? text : undefined}>{text.length > 120 ? `${text.slice(0, 120)}…` : text}</span>;
}

function Owners({ node, highlight }: { node: OwnershipNode; highlight: string }) {
  if (node.owners.length === 0 && node.ownedWith) {
    return (
      <span className="small" aria-label={`Managers of ${node.path}`}>
        {node.ownedWith.owners.map((o) => (
          <strong key={o.key} className={o.manager === highlight ? 'own-hit' : undefined}>
            {o.manager || '(no name)'}{' '}
          </strong>
        ))}
        <span className="muted">
          with <code>{node.ownedWith.path}</code>, owned whole (an atomic map or list: its contents belong to its owner)
        </span>
      </span>
    );
  }
  if (node.owners.length === 0) {
    return node.ownedBelow > 0 ? <span className="muted small">fields below are managed</span> : <span className="own-none">no manager</span>;
  }
  return (
    <ul className="own-owners" aria-label={`Managers of ${node.path}`}>
      {node.owners.map((o) => (
        <li key={o.key} className={o.manager === highlight ? 'own-hit' : undefined}>
          <OwnerText entry={o} />
        </li>
      ))}
      {node.owners.length > 1 && <li className="own-shared small">shared</li>}
    </ul>
  );
}

function OwnerText({ entry }: { entry: ManagerEntry }) {
  return (
    <>
      <strong>{entry.manager || '(no name)'}</strong> <span className={`badge own-op-${entry.operation === 'Apply' ? 'apply' : 'update'}`}>{entry.operation || '?'}</span>
      {entry.subresource && <span className="badge">{entry.subresource}</span>}{' '}
      <span className="muted small">
        {entry.time ?? 'no time'} · {entry.apiVersion ?? 'no apiVersion'}
      </span>
    </>
  );
}

function ManagerTable({ entries, highlight }: { entries: ManagerEntry[]; highlight: string }) {
  if (entries.length === 0) return <p className="muted">This object has no managedFields entries: nothing records who set its fields.</p>;
  return (
    <table className="grid own-managers">
      <thead>
        <tr>
          <th scope="col">Manager</th>
          <th scope="col">Operation</th>
          <th scope="col">Subresource</th>
          <th scope="col">apiVersion</th>
          <th scope="col">Time</th>
          <th scope="col">Fields</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.key} className={highlight && e.manager === highlight ? 'own-hit' : undefined}>
            <th scope="row">
              <button type="button" className="link" title="Highlight this manager's fields" onClick={() => navigate({ extra: { manager: e.manager === highlight ? '' : e.manager } }, { replace: true })}>
                {e.manager || '(no name)'}
              </button>
            </th>
            <td>{e.operation}</td>
            <td>{e.subresource ?? ''}</td>
            <td className="mono">{e.apiVersion ?? ''}</td>
            <td className="mono">{e.time ?? ''}</td>
            <td>
              <details>
                <summary>
                  {e.paths.length} {e.paths.length === 1 ? 'field' : 'fields'}
                  {e.unmatched.length > 0 && <span className="warn"> · {e.unmatched.length} not in the object</span>}
                  {e.problems.length > 0 && <span className="own-bad"> · {e.problems.length} unreadable</span>}
                </summary>
                <ul className="own-paths mono small">
                  {e.paths.map((p) => (
                    <li key={p}>{p}</li>
                  ))}
                  {e.unmatched.map((p) => (
                    <li key={`u${p}`} className="warn" title="Named in fieldsV1 but not present in the object">
                      {p} (not in the object)
                    </li>
                  ))}
                  {e.problems.map((p, i) => (
                    <li key={`p${i}`} className="own-bad">
                      at {p.atText}: key {JSON.stringify(p.key)}: {p.message}
                    </li>
                  ))}
                </ul>
              </details>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ChangeTable({ changes, fromRV, toRV }: { changes: EntryChange[]; fromRV?: string; toRV?: string }) {
  const moved = changes.filter((c) => c.change !== 'unchanged');
  return (
    <div aria-label="Changes since the last read" role="region">
      <p className="muted small">
        resourceVersion {fromRV ?? '?'} → {toRV ?? '?'}: {moved.length === 0 ? 'no managedFields entry changed.' : `${moved.length} of ${changes.length} entries changed.`}
      </p>
      {moved.length > 0 && (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">Manager</th>
              <th scope="col">Operation</th>
              <th scope="col">Change</th>
              <th scope="col">Time</th>
              <th scope="col">Fields gained</th>
              <th scope="col">Fields lost</th>
            </tr>
          </thead>
          <tbody>
            {moved.map((c) => (
              <tr key={c.key}>
                <th scope="row">{c.manager || '(no name)'}</th>
                <td>
                  {c.operation}
                  {c.subresource ? ` (${c.subresource})` : ''}
                </td>
                <td>{c.change}</td>
                <td className="mono small">
                  {c.timeBefore ?? '—'} → {c.timeAfter ?? '—'}
                </td>
                <td className="mono small">{c.gained.join(', ')}</td>
                <td className="mono small">{c.lost.join(', ')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

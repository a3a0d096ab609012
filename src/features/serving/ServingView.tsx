// "What this server really serves": one row per resource (of the cluster, or of one group), one
// column per check, each cell the server's own answer to one small request (k8s/serving). Reads
// only, unless the user opts into the dry-run writes; answers are kept for the session and can
// be downloaded as JSON or CSV. Above the matrix: the resources that would break informers.
import { useQueries, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { hrefFor, navigate, type Route } from '../../routing';
import { allResources, discoveryQuery } from '../../k8s/discovery';
import { type Cell, CHECK_LABELS, CHECKS, informerProblems, matrixCsv, matrixJson, type Row, servingQueryPrefix, servingRowQuery, type Target, targetLabel, WRITE_CHECKS, writeRequest } from '../../k8s/serving';
import { ErrorBox } from '../../ui/ErrorBox';
import { UnavailablePanel } from '../discovery';
import './serving.css';
import { downloadText } from '../../lib/download';

const MARK: Record<Cell['verdict'], string> = { yes: '✓', no: '✗', unknown: '?', skipped: '–' };

function CellView({ cell }: { cell: Cell }) {
  const req = cell.request ? `${cell.request.method} ${cell.request.path}${cell.request.accept !== 'application/json' ? ` (Accept: ${cell.request.accept})` : ''}` : '';
  return (
    <td className={`serving-cell ${cell.verdict}`} title={`${cell.detail}${req ? `\n${req}` : ''}`}>
      <span aria-hidden="true">{MARK[cell.verdict]}</span>
      <span className="visually-hidden">{cell.verdict}: {cell.detail}</span>
    </td>
  );
}

export function ServingView({ route, context }: { route: Route; context: string }) {
  const discovery = useQuery(discoveryQuery(context));
  const group = route.group;
  const namespace = route.namespace || 'default';
  const [writes, setWrites] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [opened, setOpened] = useState<string>();

  const groups = useMemo(() => (discovery.data ? [...new Set(discovery.data.groups.map((g) => g.name))] : []), [discovery.data]);
  const targets: Target[] = useMemo(
    () =>
      discovery.data
        ? allResources(discovery.data)
            .filter((r) => group === undefined || r.group === group)
            .map((r) => ({ group: r.group, version: r.version, resource: r.resource, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs }))
        : [],
    [discovery.data, group],
  );
  const results = useQueries({ queries: targets.map((t) => servingRowQuery(context, t, namespace, { writes })) });
  const rows = results.map((r) => r.data).filter((r): r is Row => !!r);
  const pending = results.filter((r) => r.isPending).length;
  const breaking = rows.map((r) => ({ row: r, problems: informerProblems(r) })).filter((x) => x.problems.length > 0);
  const sample = targets.find((t) => t.verbs.includes('create') && t.verbs.includes('patch'));
  const shown = opened ? rows.find((r) => targetLabel(r.target) === opened) : undefined;

  return (
    <section className="serving" aria-label="What this server serves">
      <h2>What this server really serves</h2>
      <p className="muted small">
        One small request per cell, sent by the page to each resource&apos;s collection in namespace <code>{namespace}</code> (for namespaced resources): <code>limit=1</code>,
        a label that matches nothing, or only the response&apos;s head. Answers are kept for this session. ✓ served · ✗ refused · ? could not tell (403, no objects to
        page through) · – not asked. Hover a cell for the request and the answer.
      </p>
      <ServingControls context={context} group={group} groups={groups} writes={writes} onWrites={(on) => (on ? setConfirming(true) : setWrites(false))} rows={rows} namespace={namespace}>
        {discovery.isLoading ? 'Reading discovery…' : pending ? `probing: ${rows.length} of ${targets.length} resources done` : `${rows.length} resources probed`}
      </ServingControls>
      {confirming && (
        <WritesConfirm
          sample={sample}
          namespace={namespace}
          onSend={() => {
            setWrites(true);
            setConfirming(false);
          }}
          onCancel={() => setConfirming(false)}
        />
      )}
      {discovery.error ? <ErrorBox error={discovery.error} title="Discovery failed" /> : null}
      {/* A group whose aggregated API server is down has no resources in discovery: its rows are
          missing, which an empty matrix does not say by itself. */}
      <UnavailablePanel context={context} discovery={discovery.data} />
      {discovery.data && targets.length === 0 && (
        <p className="small" role="note">
          Discovery lists no resources{group !== undefined ? <> in group <code>{group || 'core'}</code></> : null}: there is nothing to probe.
        </p>
      )}
      {rows.length > 0 && <InformersPanel breaking={breaking} pending={pending} />}
      <ServingMatrix targets={targets} results={results} opened={opened} onOpen={setOpened} />
      {shown && <RowDetail shown={shown} />}
    </section>
  );
}

function ServingControls(p: { context: string; group?: string; groups: string[]; writes: boolean; onWrites: (on: boolean) => void; rows: Row[]; namespace: string; children: ReactNode }) {
  const { context, group, groups, writes, onWrites, rows, namespace, children } = p;
  const qc = useQueryClient();
  return (
    <div className="row serving-controls">
      <label>
        Group{' '}
        <select aria-label="Group" value={group ?? '*'} onChange={(e) => navigate({ group: e.target.value === '*' ? undefined : e.target.value, version: undefined, resource: undefined }, { replace: true })}>
          <option value="*">all groups</option>
          {groups.map((g) => (
            <option key={g || 'core'} value={g}>
              {g || 'core'}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          checked={writes}
          onChange={(e) => onWrites(e.target.checked)}
        />{' '}
        Also send dry-run writes (create and server-side apply, dryRun=All)
      </label>
      <button type="button" onClick={() => void qc.removeQueries({ queryKey: servingQueryPrefix(context) })}>
        Ask again
      </button>
      <button type="button" disabled={!rows.length} onClick={() => downloadText(`serving-${context}.json`, matrixJson(rows, { context, namespace }), 'application/json')}>
        Download JSON
      </button>
      <button type="button" disabled={!rows.length} onClick={() => downloadText(`serving-${context}.csv`, matrixCsv(rows), 'text/csv')}>
        Download CSV
      </button>
      <span className="muted small" role="status">
        {children}
      </span>
    </div>
  );
}

function WritesConfirm({ sample, namespace, onSend, onCancel }: { sample?: Target; namespace: string; onSend: () => void; onCancel: () => void }) {
  return (
    <div className="serving-confirm" role="dialog" aria-label="Send dry-run writes?">
      <p>
        Each resource with the create and patch verbs gets two writes, both with <code>dryRun=All</code> (the server admits and validates them and stores nothing), for
        example:
      </p>
      {sample && (
        <pre className="small">
          {(['dryRun', 'apply'] as const)
            .map((c) => writeRequest(c, sample, namespace))
            .map((r) => `${r.method} ${r.path}\nContent-Type: ${r.contentType}\n${r.body}`)
            .join('\n\n')}
        </pre>
      )}
      <button type="button" onClick={onSend}>
        Send them
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

function InformersPanel({ breaking, pending }: { breaking: { row: Row; problems: string[] }[]; pending: number }) {
  return (
    <div className="serving-informers" role="region" aria-label="Would break informers">
      <h3>Would break informers</h3>
      {breaking.length === 0 ? (
        <p className="small">{pending ? 'None so far.' : 'None: every resource with list and watch answered both, and its streaming list ended with the bookmark (or was refused, which client-go falls back from).'}</p>
      ) : (
        <ul className="small">
          {breaking.map(({ row, problems }) => (
            <li key={targetLabel(row.target)}>
              <code>{targetLabel(row.target)}</code>: {problems.join('; ')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ServingMatrix({ targets, results, opened, onOpen }: { targets: Target[]; results: UseQueryResult<Row>[]; opened?: string; onOpen: (label: string | undefined) => void }) {
  return (
    <div className="serving-scroll">
      <table className="serving-matrix" aria-label="Serving matrix">
        <thead>
          <tr>
            <th scope="col">Resource</th>
            {CHECKS.map((c) => (
              <th key={c} scope="col" className={WRITE_CHECKS.includes(c) ? 'write' : undefined}>
                {CHECK_LABELS[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {targets.map((t, i) => {
            const row = results[i]?.data;
            const label = targetLabel(t);
            return (
              <tr key={label}>
                <th scope="row">
                  <button type="button" className="linklike" onClick={() => onOpen(opened === label ? undefined : label)} aria-expanded={opened === label}>
                    {label}
                  </button>
                </th>
                {row ? (
                  CHECKS.map((c) => <CellView key={c} cell={row.cells[c]} />)
                ) : results[i]?.error ? (
                  <td colSpan={CHECKS.length}>{String(results[i]?.error)}</td>
                ) : (
                  <td colSpan={CHECKS.length} className="muted small">
                    waiting
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function RowDetail({ shown }: { shown: Row }) {
  return (
    <div className="serving-detail" role="region" aria-label={`Answers for ${targetLabel(shown.target)}`}>
      <h3>
        {targetLabel(shown.target)}{' '}
        <a className="small" href={hrefFor({ view: 'discovery', group: shown.target.group, version: shown.target.version, resource: shown.target.resource })}>
          in Discovery
        </a>
      </h3>
      <dl className="kv small">
        {CHECKS.map((c) => (
          <div key={c}>
            <dt>{CHECK_LABELS[c]}</dt>
            <dd>
              {MARK[shown.cells[c].verdict]} {shown.cells[c].detail}
              {shown.cells[c].request && (
                <>
                  <br />
                  <code>
                    {shown.cells[c].request!.method} {shown.cells[c].request!.path}
                  </code>
                </>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

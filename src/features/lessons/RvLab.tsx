// The resourceVersion lab: a grid of reads (rvLab.ts), each cell one real request against the
// lab's own ConfigMaps, with the documented semantic beside what the server answered.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { compareResourceVersions } from '../../k8s/rv';
import { ErrorBox } from '../../ui/ErrorBox';
import { field, type KitExchange, kitSend, kitWatch, type WatchSeen } from './kit';
import { NeedsScratch, StepCard } from './parts';
import { allCells, cellId, cellQuery, type LabCell, LAB_MATCHES, LAB_RVS, LAB_VERBS, type LabValues, labValues, predict, relation, rvValue } from './rvLab';

interface Outcome {
  x: KitExchange;
  /** For a watch: the code of its ERROR event, if one came. */
  errorEvent?: number;
  answerRV?: string;
  itemRVs: string[];
  ok: boolean;
  differs: string[];
}

const OBJECT = 'lab-1';

export function judge(cell: LabCell, v: LabValues, x: KitExchange): Outcome {
  const p = predict(cell);
  const differs: string[] = [];
  const events = Array.isArray(x.response) ? (x.response as WatchSeen[]) : [];
  const err = events.find((e) => e.type === 'ERROR');
  const answerRV = cell.verb === 'watch' ? undefined : (field(x.response, 'metadata', 'resourceVersion') as string | undefined);
  const itemRVs =
    cell.verb === 'watch'
      ? events.filter((e) => e.type !== 'ERROR').map((e) => `${e.type} ${e.name ?? ''} ${e.resourceVersion ?? ''}`.trim())
      : ((field(x.response, 'items') as { metadata: { resourceVersion: string } }[] | undefined) ?? []).map((i) => i.metadata.resourceVersion);
  if (x.status !== p.status) differs.push(`HTTP ${x.status}, predicted ${p.status}`);
  if (p.errorEvent !== undefined && err?.code !== p.errorEvent) differs.push(`ERROR event ${err?.code ?? 'none'}, predicted ${p.errorEvent}`);
  if (p.errorEvent === undefined && err) differs.push(`unexpected ERROR event ${err.code}`);
  const asked = rvValue(cell.rv, v);
  // A get answers with the object, whose resourceVersion is that of its last write, not of the
  // read: only a list's own version says at which version the read was served.
  if (x.status === 200 && answerRV !== undefined && cell.verb !== 'get') {
    const c = asked && asked !== '0' ? compareResourceVersions(answerRV, asked) : undefined;
    if (p.semantic === 'Exact' && c !== 0) differs.push(`answered at ${answerRV}, not exactly ${asked}`);
    if (p.semantic === 'Not older than' && c !== undefined && c < 0) differs.push(`answered at ${answerRV}, older than ${asked}`);
    if (p.semantic === 'Most Recent' && (compareResourceVersions(answerRV, v.recent) ?? -1) < 0) differs.push(`answered at ${answerRV}, older than the lab's latest write ${v.recent}`);
  }
  if (cell.verb === 'watch' && x.status === 200 && p.semantic.startsWith('Get State') && !events.some((e) => e.type === 'ADDED')) differs.push('no synthetic ADDED events');
  // Start at Exact: only changes after the version asked, no synthetic events for what existed
  // then (a change made since, such as the kube-root-ca.crt ConfigMap arriving late, is fine).
  if (cell.verb === 'watch' && x.status === 200 && p.semantic === 'Start at Exact' && p.errorEvent === undefined && asked) {
    const stale = events.filter((e) => e.type !== 'ERROR' && (compareResourceVersions(e.resourceVersion ?? '', asked) ?? 1) <= 0);
    if (stale.length) differs.push(`events not newer than ${asked}: ${stale.map((e) => `${e.type} ${e.resourceVersion}`).join(', ')}`);
  }
  return { x, errorEvent: err?.code, answerRV, itemRVs, ok: differs.length === 0, differs };
}

export async function runCell(context: string, base: string, cell: LabCell, v: LabValues): Promise<KitExchange> {
  const q = cellQuery(cell, v, OBJECT);
  if (!q.watch) return kitSend(context, 'GET', `${base}${q.path}`);
  // Get-state watches end with the initial-events-end bookmark; others run until an ERROR or a few seconds.
  return kitWatch(context, `${base}${q.path}`, { until: (es) => es.some((e) => e.type === 'ERROR' || e.annotations?.['k8s.io/initial-events-end'] === 'true'), ms: 4000 });
}

export function RvLab({ context, scratch }: { context: string; scratch: string | undefined }) {
  if (!scratch) return <NeedsScratch />;
  return <Lab context={context} scratch={scratch} />;
}

/** The lab's state: the values the setup read, each cell's outcome, the cell selected; setting up and running cells are mutations. */
function useRvLab(context: string, scratch: string) {
  const [outcomes, setOutcomes] = useState<Record<string, Outcome>>({});
  const [selected, setSelected] = useState<string | null>(null);
  // Kept from the last setup that succeeded (a setup that fails leaves them as they were).
  const [values, setValues] = useState<LabValues | null>(null);
  const [setupXs, setSetupXs] = useState<KitExchange[]>([]);
  const base = `/api/v1/namespaces/${encodeURIComponent(scratch)}/configmaps`;
  const setup = useMutation({
    mutationFn: async () => {
      const xs: KitExchange[] = [];
      for (const n of [1, 2, 3]) xs.push(await kitSend(context, 'POST', base, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `lab-${n}`, labels: { 'explorer.lessons/lesson': 'rvlab' } }, data: { n: String(n) } } }));
      const list = await kitSend(context, 'GET', base);
      const page = await kitSend(context, 'GET', `${base}?limit=1`);
      xs.push(list, page);
      const rv = field(list.response, 'metadata', 'resourceVersion');
      const token = field(page.response, 'metadata', 'continue');
      setSetupXs(xs);
      if (typeof rv === 'string' && typeof token === 'string') setValues(labValues(rv, token));
    },
  });
  const run = useMutation({
    mutationFn: async (cells: LabCell[]) => {
      if (!values) return;
      for (const cell of cells) {
        const x = await runCell(context, base, cell, values);
        const o = judge(cell, values, x);
        setOutcomes((prev) => ({ ...prev, [cellId(cell)]: o }));
        setSelected(cellId(cell));
      }
    },
  });
  const busy = setup.isPending || run.isPending;
  // The last action's error: starting one clears what the other left.
  const error = setup.isPending ? null : run.isPending ? null : run.submittedAt > setup.submittedAt ? run.error : setup.error;
  return { values, setupXs, outcomes, selected, busy, error, prepare: () => setup.mutate(), run: (cells: LabCell[]) => run.mutate(cells) };
}

function Lab({ context, scratch }: { context: string; scratch: string }) {
  const { values, setupXs: setup, outcomes, selected, busy, error, prepare, run } = useRvLab(context, scratch);
  const sel = selected ? outcomes[selected] : undefined;
  const selCell = selected ? allCells().find((c) => cellId(c) === selected) : undefined;
  const done = Object.values(outcomes);

  return (
    <div className="lesson-body">
      <h3>1. Objects to read</h3>
      <div className="row">
        <button type="button" disabled={busy} onClick={prepare}>
          Set up the lab
        </button>
        <span className="small muted">creates lab-1, lab-2, lab-3, lists them, and takes a continue token from a first page of one</span>
      </div>
      {values && <LabValuesList values={values} />}
      {setup.length > 0 && !values && <p className="lesson-bad">The setup did not give a resourceVersion and a continue token; see the answers: {setup.map((x) => x.status).join(', ')}</p>}

      <h3>2. The grid</h3>
      <div className="row">
        <button type="button" disabled={busy || !values} onClick={() => run(allCells())}>
          Run every cell
        </button>
        {done.length > 0 && (
          <span className="small" data-testid="lab-summary">
            {done.filter((o) => o.ok).length} of {done.length} as documented
          </span>
        )}
      </div>
      <LabGrid outcomes={outcomes} disabled={busy || !values} run={run} />
      {sel && selCell && values && <SelectedCell sel={sel} selCell={selCell} values={values} />}

      <h3>3. Comparing versions (KEP-5504)</h3>
      <p className="small">
        Until 1.35 a client could only ask whether two resourceVersions were equal. Since then the API promises a form: a well-formed resourceVersion is a decimal integer without leading zeros, and of two of them the shorter is older, while two of
        equal length compare as text. "999" is older than "1000"; "1243" is newer than "1234". A client may use that to tell which of two copies of an object is newer, or whether a watch has caught up with a write. It may not conclude how many writes
        lie between two versions, that versions grow by one, that a version it has not seen yet will ever be handed out, or anything at all from a value that is not well formed (an aggregated API server may use any string): then only equality holds.
        The explorer compares with <code>compareResourceVersions</code> (src/k8s/rv), never with parseInt, which would round versions longer than 15 digits.
      </p>
      {error != null && <ErrorBox error={error} />}
    </div>
  );
}

function LabValuesList({ values }: { values: LabValues }) {
  return (
    <dl className="kv small" aria-label="lab values">
      <dt>recent</dt>
      <dd>
        <code data-testid="lab-recent">{values.recent}</code> (the list's resourceVersion after the writes)
      </dd>
      <dt>old</dt>
      <dd>
        <code>{values.old}</code> (etcd's first revision: compacted on any cluster that has run for more than about ten minutes, as kube-apiserver compacts every five)
      </dd>
      <dt>future</dt>
      <dd>
        <code>{values.future}</code> (recent with three more digits: by the comparison rule, newer than anything handed out)
      </dd>
      <dt>continue</dt>
      <dd className="lesson-wrap">
        <code>{values.token}</code>
      </dd>
    </dl>
  );
}

function LabGrid({ outcomes, disabled, run }: { outcomes: Record<string, Outcome>; disabled: boolean; run: (cells: LabCell[]) => void }) {
  return (
    <table className="lesson-table rv-lab" aria-label="resourceVersion lab">
      <thead>
        <tr>
          <th>verb</th>
          <th>resourceVersion</th>
          {LAB_MATCHES.map((m) => (
            <th key={m}>resourceVersionMatch {m}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {LAB_VERBS.flatMap((verb) =>
          LAB_RVS.map((rv) => (
            <tr key={`${verb}/${rv}`}>
              <td>{verb}</td>
              <td>{rv}</td>
              {LAB_MATCHES.map((match) => {
                const cell = { verb, rv, match };
                const id = cellId(cell);
                const p = predict(cell);
                const o = outcomes[id];
                return (
                  <td key={match} data-testid={`cell-${id}`} data-ok={o ? String(o.ok) : undefined}>
                    <button type="button" className="linkish" disabled={disabled} aria-label={`run ${id}`} onClick={() => run([cell])}>
                      {p.semantic} · {p.status}
                      {p.errorEvent ? ` + ERROR ${p.errorEvent}` : ''}
                    </button>
                    {o && (
                      <span className={o.ok ? 'lesson-ok' : 'lesson-bad'} data-testid="cell-got">
                        {' '}
                        → {o.x.status}
                        {o.errorEvent ? `+${o.errorEvent}` : ''} {o.ok ? '✓' : '✗'}
                      </span>
                    )}
                  </td>
                );
              })}
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}

function SelectedCell({ sel, selCell, values }: { sel: Outcome; selCell: LabCell; values: LabValues }) {
  return (
    <StepCard title={`${cellId(selCell)}: ${predict(selCell).semantic}`} label="selected cell" x={sel.x}>
      <dl className="kv small">
        <dt>documented</dt>
        <dd>
          {predict(selCell).semantic}, HTTP {predict(selCell).status}: {predict(selCell).why}
        </dd>
        <dt>answer's resourceVersion</dt>
        <dd>
          {sel.answerRV ?? '(none)'}: {relation(sel.answerRV, rvValue(selCell.rv, values))}
        </dd>
        <dt>{selCell.verb === 'watch' ? 'events' : "items' versions"}</dt>
        <dd>{sel.itemRVs.join(', ') || '(none)'}</dd>
        <dt>verdict</dt>
        <dd className={sel.ok ? 'lesson-ok' : 'lesson-bad'}>{sel.ok ? 'as documented' : sel.differs.join('; ')}</dd>
      </dl>
    </StepCard>
  );
}

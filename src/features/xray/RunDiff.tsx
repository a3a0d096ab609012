// Two runs side by side: their exchanges aligned on the path they name (diff.ts) and, for each
// pair, what differs on the wire.
import { useMemo } from 'react';
import { alignRuns, type AlignedRow } from './diff';
import type { XrayExchange } from './model';

export interface RunChoice {
  id: string;
  label: string;
  exchanges: readonly XrayExchange[];
}

const line = (x: XrayExchange | undefined) => (x ? `${x.request.method} ${x.request.path.split('?')[0]} → ${x.response?.status ?? '…'}` : '');

export function RunDiff({ runs, left, right, onPick }: { runs: RunChoice[]; left?: string; right?: string; onPick: (side: 'diffA' | 'diffB', id: string) => void }) {
  const a = runs.find((r) => r.id === left);
  const b = runs.find((r) => r.id === right);
  const rows = useMemo(() => (a && b ? alignRuns(a.exchanges, b.exchanges) : []), [a, b]);
  return (
    <section className="stack" aria-label="Diff two runs">
      <h2>Diff two runs</h2>
      <div className="row">
        {(['diffA', 'diffB'] as const).map((side) => (
          <label key={side}>
            {side === 'diffA' ? 'Left run ' : 'Right run '}
            <select value={(side === 'diffA' ? left : right) ?? ''} onChange={(e) => onPick(side, e.target.value)} aria-label={side === 'diffA' ? 'Left run' : 'Right run'}>
              <option value="">(choose)</option>
              {runs.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.label}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      {a && b && (
        <table className="grid small" aria-label="Aligned exchanges">
          <thead>
            <tr>
              <th>{a.label}</th>
              <th>{b.label}</th>
              <th>differences</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <Row key={i} row={r} />
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Row({ row }: { row: AlignedRow }) {
  const only = !row.left ? 'only in the right run' : !row.right ? 'only in the left run' : row.diffs.length === 0 ? 'the same request' : undefined;
  return (
    <tr>
      <td>
        <code>{line(row.left)}</code>
      </td>
      <td>
        <code>{line(row.right)}</code>
      </td>
      <td>
        {only && <span className="muted">{only}</span>}
        {row.diffs.map((d) => (
          <div key={d.what} aria-label={`differs: ${d.what}`}>
            <strong>{d.what}</strong>:{' '}
            {d.what === 'body' ? (
              <div className="row" style={{ alignItems: 'flex-start' }}>
                <pre className="panel">{d.left ?? '(none)'}</pre>
                <pre className="panel">{d.right ?? '(none)'}</pre>
              </div>
            ) : (
              <>
                <code>{d.left ?? '(absent)'}</code> ≠ <code>{d.right ?? '(absent)'}</code>
              </>
            )}
          </div>
        ))}
      </td>
    </tr>
  );
}

// The first chunk of the current list in all three representations, side by side, so that what
// metadata-only saves (or a Table costs) is a number rather than a claim.
import { useState } from 'react';
import { fetchListPage, type ListMode, type PagerRequest } from '../../k8s/lists';
import { ErrorBox } from '../../ui/ErrorBox';
import { formatBytes } from './format';

const ORDER: { mode: ListMode; label: string }[] = [
  { mode: 'table', label: 'Table (includeObject=None)' },
  { mode: 'metadata', label: 'Metadata only' },
  { mode: 'full', label: 'Full objects' },
];

interface Row {
  label: string;
  kind: string;
  items: number;
  bytes: number;
}

export function SizeCompare({ request }: { request: PagerRequest }) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const compare = async () => {
    setBusy(true);
    setError(null);
    try {
      const out: Row[] = [];
      // One after the other: each is a list of its own (its own resourceVersion), like the view's.
      for (const o of ORDER) {
        const p = await fetchListPage({ ...request, mode: o.mode, includeObject: o.mode === 'table' ? 'None' : undefined });
        out.push({ label: o.label, kind: p.kind, items: p.rows.length, bytes: p.bytes });
      }
      setRows(out);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="lists-compare">
      <button type="button" onClick={() => void compare()} disabled={busy}>
        {busy ? 'Comparing…' : 'Compare sizes of the first page'}
      </button>
      {error ? <ErrorBox error={error} title="Comparison failed" /> : null}
      {rows && (
        <table className="lists-meta" aria-label="Response size by representation">
          <thead>
            <tr>
              <th>Representation</th>
              <th>kind</th>
              <th>Items</th>
              <th>Size</th>
              <th>Per item</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.label}>
                <td>{r.label}</td>
                <td>{r.kind}</td>
                <td>{r.items}</td>
                <td>
                  {formatBytes(r.bytes)} <span className="muted small">({r.bytes.toLocaleString('en-US')} bytes)</span>
                </td>
                <td>{r.items ? formatBytes(Math.round(r.bytes / r.items)) : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

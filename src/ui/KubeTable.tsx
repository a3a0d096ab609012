// A meta.k8s.io/v1 Table as the server sent it: its column definitions and row cells, as text.
// Columns with priority > 0 are what `kubectl get -o wide` adds; they are shown, marked.

import { isTableBody } from '../codecs/mediaTypes';

/** The fields of a metav1.TableColumnDefinition this view draws (ui/ does not import the client). */
export interface TableColumn {
  name: string;
  description?: string;
  /** Greater than 0 only in the wide view (kubectl `-o wide`). */
  priority?: number;
}

export interface KubeTableValue {
  kind: 'Table';
  columnDefinitions?: TableColumn[];
  rows?: { cells: unknown[] }[];
}

export function isKubeTable(v: unknown): v is KubeTableValue {
  return isTableBody(v);
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

export function KubeTable({ table, label = 'Table' }: { table: KubeTableValue; label?: string }) {
  const cols = table.columnDefinitions ?? [];
  return (
    <table className="grid small" aria-label={label}>
      <thead>
        <tr>
          {cols.map((c) => (
            <th key={c.name} title={c.description} scope="col">
              {c.name}
              {(c.priority ?? 0) > 0 && <span className="muted"> (wide)</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {(table.rows ?? []).map((r, i) => (
          <tr key={i}>
            {r.cells.map((c, j) => (
              <td key={j}>{cell(c)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

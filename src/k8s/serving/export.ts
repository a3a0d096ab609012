// The matrix as a file: JSON (every cell with its request and status) and CSV (one row per
// resource, one column per check, verdicts only, plus what would break an informer).
import { CHECK_LABELS, CHECKS, informerProblems, type Row, targetLabel } from './matrix';

export function matrixJson(rows: Row[], meta: { context: string; namespace: string; server?: string }): string {
  return JSON.stringify(
    {
      ...meta,
      checks: CHECKS,
      resources: rows.map((r) => ({ ...r.target, collection: r.collection, cells: r.cells, informerProblems: informerProblems(r) })),
    },
    null,
    2,
  );
}

/** RFC 4180 quoting: fields with a comma, quote or newline are quoted, quotes doubled. */
function csvField(v: string): string {
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export function matrixCsv(rows: Row[]): string {
  const head = ['resource', 'group', 'version', 'kind', 'namespaced', ...CHECKS.map((c) => CHECK_LABELS[c]), 'breaks informers'];
  const lines = [head.map(csvField).join(',')];
  for (const r of rows) {
    const t = r.target;
    lines.push([targetLabel(t), t.group, t.version, t.kind, String(t.namespaced), ...CHECKS.map((c) => r.cells[c].verdict), informerProblems(r).join('; ')].map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

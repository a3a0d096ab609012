// Two runs side by side (say `kubectl apply` then `kubectl apply --server-side` of one manifest):
// their exchanges aligned on the path they name, and for each pair what differs on the wire, the
// method, the Content-Type, each query parameter (fieldManager, force, dryRun…) and the body.
import { headerValue } from '../../k8s/client';
import { requestBodyText, type XrayExchange } from './model';

export interface FieldDiff {
  what: string;
  left?: string;
  right?: string;
}

export interface AlignedRow {
  left?: XrayExchange;
  right?: XrayExchange;
  /** Empty for a pair that sent the same request. */
  diffs: FieldDiff[];
}

const WRITES = new Set(['POST', 'PUT', 'PATCH']);
const pathOnly = (x: XrayExchange) => x.request.path.split('?')[0]!;

/** Two exchanges are the same step of their runs when they name the same path, and both read or both write it. */
function sameStep(a: XrayExchange, b: XrayExchange): boolean {
  if (pathOnly(a) !== pathOnly(b)) return false;
  return a.request.method === b.request.method || (WRITES.has(a.request.method) && WRITES.has(b.request.method));
}

/** What differs between two requests of one step. */
export function requestDiffs(a: XrayExchange, b: XrayExchange): FieldDiff[] {
  const out: FieldDiff[] = [];
  if (a.request.method !== b.request.method) out.push({ what: 'method', left: a.request.method, right: b.request.method });
  const ta = headerValue(a.request.headers, 'Content-Type');
  const tb = headerValue(b.request.headers, 'Content-Type');
  if (ta !== tb) out.push({ what: 'Content-Type', ...(ta ? { left: ta } : {}), ...(tb ? { right: tb } : {}) });
  const qa = new URLSearchParams(a.request.path.split('?')[1] ?? '');
  const qb = new URLSearchParams(b.request.path.split('?')[1] ?? '');
  for (const name of [...new Set([...qa.keys(), ...qb.keys()])].sort()) {
    const va = qa.getAll(name).join(',');
    const vb = qb.getAll(name).join(',');
    if (va !== vb || qa.has(name) !== qb.has(name)) out.push({ what: `?${name}`, ...(qa.has(name) ? { left: va } : {}), ...(qb.has(name) ? { right: vb } : {}) });
  }
  const ba = requestBodyText(a);
  const bb = requestBodyText(b);
  if (ba !== bb || (a.request.bodyBytes?.length ?? 0) !== (b.request.bodyBytes?.length ?? 0)) out.push({ what: 'body', ...(ba !== undefined ? { left: ba } : {}), ...(bb !== undefined ? { right: bb } : {}) });
  if (a.response?.status !== b.response?.status) out.push({ what: 'status', ...(a.response ? { left: String(a.response.status) } : {}), ...(b.response ? { right: String(b.response.status) } : {}) });
  return out;
}

/**
 * The longest common subsequence of steps (O(n·m): runs of one command are tens of requests),
 * with the requests only one run sent in between, in order.
 */
export function alignRuns(left: readonly XrayExchange[], right: readonly XrayExchange[]): AlignedRow[] {
  const n = left.length;
  const m = right.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = sameStep(left[i]!, right[j]!) ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const rows: AlignedRow[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && sameStep(left[i]!, right[j]!)) {
      rows.push({ left: left[i], right: right[j], diffs: requestDiffs(left[i]!, right[j]!) });
      i++;
      j++;
    } else if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) rows.push({ left: left[i++], diffs: [] });
    else rows.push({ right: right[j++], diffs: [] });
  }
  return rows;
}

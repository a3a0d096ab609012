// Sorting and filtering the Lists view's rows on the page, without a long main-thread task at any
// size: the work is cut into slices (a filter pass, a key pass, a merge sort of runs, then merge
// passes), each slice runs for a few milliseconds and hands the thread back to the browser before
// the next one, so input and frames go on while 150,000 rows are sorted. A new request (another
// column, one more chunk) aborts the one in flight. Pure: no React, no DOM; the scheduler and the
// clock are passed in, so tests drive the slices by hand.

/** What the work reads: the row store (k8s/lists RowStore) by index, a cell by column. */
export interface CellSource {
  readonly length: number;
  /** The value of row i's cell c; c = -1 is the row's namespace. */
  cell(i: number, c: number): unknown;
}

export interface OrderRequest {
  /** The cell index to sort by (-1: namespace), or none. */
  sortCell?: number;
  /** The column's type (`integer`, `number`, `date`, `string`…): how its cells compare. */
  sortType?: string;
  descending?: boolean;
  /** Keep the rows where one of these cells contains `filter` (case-insensitive). */
  filter?: string;
  filterCells?: number[];
}

/** Rows to show, in order: indices into the source. */
export type RowOrder = Uint32Array;

/** Work between two checks of the clock (rows filtered or keyed, elements merged, runs sorted). */
const STEP = 512;
/** Rows sorted at once before the merge passes: a run's sort takes well under a millisecond. */
const RUN = 1024;

/**
 * Seconds in an age as kube-apiserver renders it (`5m`, `2d3h`, `45s`, `3y12d`; see
 * format.ts humanAge), or NaN: `date` columns carry no timestamp in a Table, only this text.
 */
export function ageSeconds(text: string): number {
  const units: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, y: 365 * 86400 };
  let total = 0;
  let matched = '';
  for (const m of text.matchAll(/(\d+)([smhdy])/g)) {
    total += Number(m[1]) * units[m[2]!]!;
    matched += m[0];
  }
  return matched && matched === text ? total : NaN;
}

const collator = new Intl.Collator(undefined, { numeric: true });

/** A sort key: numbers for numeric and age columns (text that is none sorts last), text otherwise. */
function keyOf(v: unknown, type: string | undefined): number | string {
  if (type === 'integer' || type === 'number') {
    const n = typeof v === 'number' ? v : Number(v);
    return Number.isFinite(n) ? n : Infinity;
  }
  if (type === 'date' && typeof v === 'string') {
    const s = ageSeconds(v);
    if (!Number.isNaN(s)) return s;
    const t = Date.parse(v);
    // A timestamp: older is larger, as ages are.
    return Number.isNaN(t) ? Infinity : -t;
  }
  if (v === null || v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function compareKeys(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number') return -1;
  if (typeof b === 'number') return 1;
  return collator.compare(a, b);
}

/**
 * The work as a generator: it yields every STEP units so that a driver can check the clock, and
 * returns the order. Stable: rows that compare equal keep the server's order (namespace/name).
 */
export function* orderRows(src: CellSource, req: OrderRequest): Generator<void, RowOrder> {
  const n = src.length;
  // 1. Filter.
  let idx = new Uint32Array(n);
  let kept = 0;
  const q = req.filter?.trim().toLowerCase();
  const cells = req.filterCells ?? [];
  for (let i = 0; i < n; i++) {
    if (i % STEP === STEP - 1) yield;
    if (q) {
      let hit = false;
      for (const c of cells) {
        const v = src.cell(i, c);
        if (v !== null && v !== undefined && String(typeof v === 'object' ? JSON.stringify(v) : v).toLowerCase().includes(q)) {
          hit = true;
          break;
        }
      }
      if (!hit) continue;
    }
    idx[kept++] = i;
  }
  idx = idx.slice(0, kept);
  if (req.sortCell === undefined) return idx;

  // 2. Keys, by position in idx.
  const keys = new Array<number | string>(kept);
  for (let k = 0; k < kept; k++) {
    if (k % STEP === STEP - 1) yield;
    keys[k] = keyOf(src.cell(idx[k]!, req.sortCell), req.sortType);
  }
  const sign = req.descending ? -1 : 1;
  // Ties by position: stable, whatever the direction.
  const cmp = (a: number, b: number) => sign * compareKeys(keys[a]!, keys[b]!) || a - b;

  // 3. Runs of RUN positions sorted each, then merge passes doubling the width.
  let from = new Uint32Array(kept);
  for (let k = 0; k < kept; k++) from[k] = k;
  for (let s = 0; s < kept; s += RUN) {
    from.subarray(s, Math.min(kept, s + RUN)).sort(cmp);
    yield;
  }
  let to = new Uint32Array(kept);
  for (let width = RUN; width < kept; width *= 2) {
    let steps = 0;
    for (let lo = 0; lo < kept; lo += 2 * width) {
      const mid = Math.min(kept, lo + width);
      const hi = Math.min(kept, lo + 2 * width);
      let a = lo;
      let b = mid;
      for (let o = lo; o < hi; o++) {
        if (a < mid && (b >= hi || cmp(from[a]!, from[b]!) <= 0)) to[o] = from[a++]!;
        else to[o] = from[b++]!;
        if (++steps % STEP === 0) yield;
      }
    }
    [from, to] = [to, from];
  }
  const out = new Uint32Array(kept);
  for (let k = 0; k < kept; k++) out[k] = idx[from[k]!]!;
  return out;
}

export interface SliceDriver {
  /** Milliseconds, monotonic (performance.now in the page). */
  now(): number;
  /** Resolves after the browser had the thread back (a task of its own). */
  yieldToBrowser(): Promise<void>;
}

/** Longest a slice runs before the thread goes back to the browser: well under a 50 ms long task. */
export const SLICE_MS = 8;

/** Runs the work slice by slice; rejects with the signal's reason once aborted. */
export async function runSliced<T>(work: Generator<void, T>, driver: SliceDriver, signal?: AbortSignal): Promise<T> {
  for (;;) {
    const start = driver.now();
    for (;;) {
      const r = work.next();
      if (r.done) return r.value;
      if (driver.now() - start >= SLICE_MS) break;
    }
    await driver.yieldToBrowser();
    signal?.throwIfAborted();
  }
}

/** The browser's scheduler: a MessageChannel message is a task of its own, unlike a microtask, and not clamped like setTimeout. */
export function browserDriver(): SliceDriver {
  const channel = new MessageChannel();
  const waiting: (() => void)[] = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return {
    now: () => performance.now(),
    yieldToBrowser: () =>
      new Promise((ok) => {
        waiting.push(ok);
        channel.port2.postMessage(null);
      }),
  };
}

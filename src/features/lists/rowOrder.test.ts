import { describe, expect, it } from 'vitest';
import { ageSeconds, type CellSource, orderRows, runSliced, type SliceDriver } from './rowOrder';

/** Rows as arrays of cells; cell -1 is the namespace (the last element). */
function source(rows: unknown[][]): CellSource {
  return { length: rows.length, cell: (i, c) => (c < 0 ? rows[i]!.at(-1) : rows[i]![c]) };
}

/** Runs the generator to its end in one go. */
function all<T>(g: Generator<void, T>): T {
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
  }
}

describe('ageSeconds', () => {
  it('reads the ages kube-apiserver renders, and nothing else', () => {
    expect(ageSeconds('45s')).toBe(45);
    expect(ageSeconds('5m')).toBe(300);
    expect(ageSeconds('2d3h')).toBe(2 * 86400 + 3 * 3600);
    expect(ageSeconds('3y12d')).toBe(3 * 365 * 86400 + 12 * 86400);
    expect(ageSeconds('<unknown>')).toBeNaN();
    expect(ageSeconds('5m and more')).toBeNaN();
  });
});

describe('orderRows', () => {
  const rows = [
    ['pod-10', 3, '5m', 'a'],
    ['pod-2', 10, '2d', 'b'],
    ['pod-1', 3, '45s', 'a'],
    ['web-1', '<none>', '1h', 'c'],
  ];
  it('sorts by a text column with numbers in names compared as numbers', () => {
    expect([...all(orderRows(source(rows), { sortCell: 0, sortType: 'string' }))]).toEqual([2, 1, 0, 3]);
    expect([...all(orderRows(source(rows), { sortCell: 0, sortType: 'string', descending: true }))]).toEqual([3, 0, 1, 2]);
  });
  it('sorts numbers as numbers, keeping ties in the server order in both directions, and non-numbers last', () => {
    expect([...all(orderRows(source(rows), { sortCell: 1, sortType: 'integer' }))]).toEqual([0, 2, 1, 3]);
    expect([...all(orderRows(source(rows), { sortCell: 1, sortType: 'integer', descending: true }))]).toEqual([3, 1, 0, 2]);
  });
  it('sorts a date column by the age it shows, youngest first', () => {
    expect([...all(orderRows(source(rows), { sortCell: 2, sortType: 'date' }))]).toEqual([2, 0, 3, 1]);
  });
  it('keeps the rows where a cell contains the text, case-insensitively, in the server order', () => {
    expect([...all(orderRows(source(rows), { filter: 'POD-1', filterCells: [0] }))]).toEqual([0, 2]);
    expect([...all(orderRows(source(rows), { filter: 'c', filterCells: [0, -1] }))]).toEqual([3]);
    expect([...all(orderRows(source(rows), { filter: 'a', filterCells: [-1], sortCell: 0, sortType: 'string' }))]).toEqual([2, 0]);
  });
  it('orders many rows as a plain stable sort does (runs and merge passes)', () => {
    const n = 5000;
    const big = Array.from({ length: n }, (_, i) => [`n-${(i * 7919) % 1000}`, (i * 104729) % 97, 'ns']);
    const got = [...all(orderRows(source(big), { sortCell: 1, sortType: 'integer' }))];
    const want = Array.from({ length: n }, (_, i) => i).sort((a, b) => (big[a]![1] as number) - (big[b]![1] as number) || a - b);
    expect(got).toEqual(want);
  });
});

describe('runSliced', () => {
  /** A clock that moves 1 ms each time it is read; counts the slices handed back to the browser. */
  function fakeDriver(): SliceDriver & { yields: number } {
    let t = 0;
    const d = { yields: 0, now: () => t++, yieldToBrowser: async () => void d.yields++ };
    return d;
  }
  const big = Array.from({ length: 20_000 }, (_, i) => [`pod-${(i * 7919) % 20_000}`, 'ns']);

  it('hands the thread back between slices and gives the same order as in one go', async () => {
    const d = fakeDriver();
    const sliced = await runSliced(orderRows(source(big), { sortCell: 0, sortType: 'string' }), d);
    expect(d.yields).toBeGreaterThan(10);
    expect([...sliced]).toEqual([...all(orderRows(source(big), { sortCell: 0, sortType: 'string' }))]);
  });
  it('stops at the next slice once aborted', async () => {
    const d = fakeDriver();
    const ac = new AbortController();
    const run = runSliced(orderRows(source(big), { sortCell: 0, sortType: 'string' }), { ...d, yieldToBrowser: async () => ac.abort() }, ac.signal);
    await expect(run).rejects.toThrow();
  });
});

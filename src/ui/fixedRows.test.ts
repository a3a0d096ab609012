import { describe, expect, it } from 'vitest';
import { scrollTopFor, visibleRows } from './fixedRows';

describe('visibleRows', () => {
  it('is the rows in view and the overscan on each side, positioned by index', () => {
    // 28 px rows, a 280 px viewport scrolled to row 100 exactly: rows 100–109 in view.
    const rows = visibleRows(100 * 28, 280, 150_000, 28, 2);
    expect(rows.map((r) => r.index)).toEqual([98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111]);
    expect(rows[0]!.start).toBe(98 * 28);
  });
  it('counts a row cut by the viewport edge as in view, and stops at the ends', () => {
    expect(visibleRows(10, 50, 1_000, 28, 0).map((r) => r.index)).toEqual([0, 1, 2]);
    expect(visibleRows(0, 280, 3, 28, 12).map((r) => r.index)).toEqual([0, 1, 2]);
    expect(visibleRows(149_990 * 28, 280, 150_000, 28, 1).map((r) => r.index).at(-1)).toBe(149_999);
    expect(visibleRows(0, 280, 0, 28, 12)).toEqual([]);
  });
  it('shows the last rows, not none, when the offset is past the end of a list that got shorter', () => {
    // Scrolled to row 100,000 of 150,000, then a find leaves 40 rows.
    expect(visibleRows(100_000 * 28, 280, 40, 28, 2).map((r) => r.index)).toEqual([28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39]);
    expect(visibleRows(100_000 * 28, 900, 5, 28, 2).map((r) => r.index)).toEqual([0, 1, 2, 3, 4]);
  });
  it('does the same work for 150,000 rows as for 150: only the window is built', () => {
    expect(visibleRows(5_000 * 28, 900, 150_000, 28, 12)).toHaveLength(visibleRows(50 * 28, 900, 150, 28, 12).length);
  });
});

describe('scrollTopFor', () => {
  it('moves as little as it can to bring a row into view, and not at all when it is in view', () => {
    expect(scrollTopFor(5, 0, 280, 28)).toBeUndefined();
    expect(scrollTopFor(10, 0, 280, 28)).toBe(11 * 28 - 280);
    expect(scrollTopFor(3, 10 * 28, 280, 28)).toBe(3 * 28);
    expect(scrollTopFor(9, 0, 280, 28)).toBeUndefined();
  });
});

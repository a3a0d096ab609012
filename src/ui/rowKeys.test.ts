import { describe, expect, it } from 'vitest';
import { nextRowIndex, tailRange } from './rowKeys';

describe('row keys', () => {
  it('moves one row with the arrows, a page with PageUp/PageDown, to the ends with Home/End, never past them', () => {
    expect(nextRowIndex('ArrowDown', 3, 10, 5)).toBe(4);
    expect(nextRowIndex('ArrowUp', 3, 10, 5)).toBe(2);
    expect(nextRowIndex('ArrowUp', 0, 10, 5)).toBe(0);
    expect(nextRowIndex('ArrowDown', 9, 10, 5)).toBe(9);
    expect(nextRowIndex('PageDown', 3, 10, 5)).toBe(8);
    expect(nextRowIndex('PageDown', 8, 10, 5)).toBe(9);
    expect(nextRowIndex('PageUp', 3, 10, 5)).toBe(0);
    expect(nextRowIndex('Home', 7, 10, 5)).toBe(0);
    expect(nextRowIndex('End', 0, 10, 5)).toBe(9);
  });
  it('ignores other keys and empty lists', () => {
    expect(nextRowIndex('Enter', 3, 10, 5)).toBeNull();
    expect(nextRowIndex('a', 3, 10, 5)).toBeNull();
    expect(nextRowIndex('ArrowDown', 0, 0, 5)).toBeNull();
  });

  it("renders the rows at the end while following: the viewport's worth and the overscan, whatever the offset", () => {
    // 13 rows in view at an old offset (rows 100–112) of a list that grew to 500: rows 475–499.
    expect(tailRange({ startIndex: 100, endIndex: 112, overscan: 12, count: 500 })).toEqual(Array.from({ length: 25 }, (_, i) => 475 + i));
    // Fewer rows than that: all of them.
    expect(tailRange({ startIndex: 0, endIndex: 4, overscan: 12, count: 5 })).toEqual([0, 1, 2, 3, 4]);
    expect(tailRange({ startIndex: 0, endIndex: 0, overscan: 12, count: 0 })).toEqual([]);
  });
});

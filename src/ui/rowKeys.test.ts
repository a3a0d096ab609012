import { describe, expect, it } from 'vitest';
import { nextRowIndex } from './rowKeys';

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
});

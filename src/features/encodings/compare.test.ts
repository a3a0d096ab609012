import { describe, expect, it } from 'vitest';
import { differences } from './compare';

describe('differences between decoded forms', () => {
  it('ignores key order', () => {
    expect(differences({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
  });
  it('points at a changed value, a missing key and a shorter list', () => {
    expect(differences({ a: 1, b: 'x', l: [1, 2] }, { a: 2, l: [1] })).toEqual(['a: 1 vs 2', 'b: only in the first', 'l: 2 items vs 1']);
  });
  it('quotes keys that are not identifiers', () => {
    expect(differences({ data: { 'a.b': '1' } }, { data: { 'a.b': '2' } })).toEqual(['data["a.b"]: "1" vs "2"']);
  });
});

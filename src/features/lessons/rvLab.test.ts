import { describe, expect, it } from 'vitest';
import { allCells, cellId, cellQuery, labValues, predict, relation } from './rvLab';

const v = labValues('1234', 'TOKEN');

describe('the resourceVersion lab grid', () => {
  it('has one cell per verb, resourceVersion and resourceVersionMatch', () => {
    const ids = allCells().map(cellId);
    expect(ids).toHaveLength(75);
    expect(new Set(ids).size).toBe(75);
  });
  it('builds each request from the cell: old is "1", future has three more digits', () => {
    expect(cellQuery({ verb: 'get', rv: 'old', match: 'unset' }, v, 'lab-1').path).toBe('/lab-1?resourceVersion=1');
    expect(cellQuery({ verb: 'list-limit', rv: 'future', match: 'Exact' }, v, 'lab-1').path).toBe('?limit=2&resourceVersion=1234000&resourceVersionMatch=Exact');
    expect(cellQuery({ verb: 'list-continue', rv: 'unset', match: 'unset' }, v, 'lab-1').path).toBe('?limit=2&continue=TOKEN');
    const w = cellQuery({ verb: 'watch', rv: '0', match: 'unset' }, v, 'lab-1');
    expect(w).toEqual({ path: '?watch=1&allowWatchBookmarks=true&resourceVersion=0', watch: true });
    expect(cellQuery({ verb: 'list', rv: 'unset', match: 'unset' }, v, 'lab-1').path).toBe('');
  });
  it('predicts the legacy Exact for a version with limit and no match, and a lower bound without limit', () => {
    expect(predict({ verb: 'list-limit', rv: 'recent', match: 'unset' }).semantic).toBe('Exact');
    expect(predict({ verb: 'list', rv: 'recent', match: 'unset' }).semantic).toBe('Not older than');
  });
  it('relates versions only by the KEP-5504 rule', () => {
    expect(relation('1000', '999')).toBe('newer than asked');
    expect(relation('1234', '1234')).toBe('the one asked');
    expect(relation('1233', '1234')).toBe('older than asked');
    expect(relation('1234', '0')).toBe('"0" is not comparable');
    expect(relation(undefined, '1')).toBe('no resourceVersion in the answer');
  });
});

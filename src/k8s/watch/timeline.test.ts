import { describe, expect, it } from 'vitest';
import { Ring } from './timeline';

describe('Ring', () => {
  it('keeps the last N entries and counts the ones it let go', () => {
    const r = new Ring<number>(3);
    for (let i = 1; i <= 5; i++) r.push(i);
    expect(r.toArray()).toEqual([3, 4, 5]);
    expect(r.dropped).toBe(2);
  });
  it('shrinks to the newest entries and grows without losing any', () => {
    const r = new Ring<number>(4);
    for (let i = 1; i <= 4; i++) r.push(i);
    r.resize(2);
    expect(r.toArray()).toEqual([3, 4]);
    expect(r.dropped).toBe(2);
    r.resize(5);
    r.push(5);
    expect(r.toArray()).toEqual([3, 4, 5]);
  });
  it('clear() empties it and resets the count', () => {
    const r = new Ring<number>(1);
    r.push(1);
    r.push(2);
    r.clear();
    expect([r.size, r.dropped]).toEqual([0, 0]);
  });
});

describe('Ring views and byte budget', () => {
  it('a view is an immutable snapshot: later pushes, drops, compaction and clear() do not change it', () => {
    const r = new Ring<number>(3);
    for (let i = 1; i <= 3; i++) r.push(i);
    const v = r.view();
    for (let i = 4; i <= 3000; i++) r.push(i);
    expect([v.length, v.at(0), v.at(2), v.at(3)]).toEqual([3, 1, 3, undefined]);
    expect(r.view().toArray()).toEqual([2998, 2999, 3000]);
    r.clear();
    expect([...v]).toEqual([1, 2, 3]);
  });
  it('drops the oldest entries once the kept bytes exceed the budget, and counts them', () => {
    const r = new Ring<string>(100, { maxBytes: 10, sizeOf: (s) => s.length });
    for (const s of ['aaaa', 'bbbb', 'cccc', 'dd']) r.push(s);
    expect(r.toArray()).toEqual(['bbbb', 'cccc', 'dd']);
    expect([r.bytes, r.dropped, r.droppedBytes]).toEqual([10, 1, 4]);
  });
  it('keeps the newest entry even when it alone exceeds the budget', () => {
    const r = new Ring<string>(100, { maxBytes: 3, sizeOf: (s) => s.length });
    r.push('ab');
    r.push('a long one');
    expect(r.toArray()).toEqual(['a long one']);
    expect(r.dropped).toBe(1);
  });
});

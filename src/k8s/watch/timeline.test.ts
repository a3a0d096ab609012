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

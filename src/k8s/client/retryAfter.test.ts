import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './kubeFetch';

describe('parseRetryAfter', () => {
  it('reads delta-seconds (what API Priority and Fairness sends with its 429)', () => {
    expect(parseRetryAfter('1')).toBe(1);
    expect(parseRetryAfter(' 30 ')).toBe(30);
  });
  it('reads an HTTP date as the seconds until then', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:00:05 GMT', now)).toBe(5);
  });
  it('gives undefined for nothing or nonsense', () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });
});

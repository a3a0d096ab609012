import { describe, expect, it } from 'vitest';
import { compareResourceVersions, isComparableResourceVersion } from './compare';

describe('KEP-5504 resourceVersion comparison', () => {
  it('orders a shorter version before a longer one, whatever its digits', () => {
    expect(compareResourceVersions('999', '1000')).toBe(-1);
    expect(compareResourceVersions('1000', '999')).toBe(1);
  });
  it('compares versions of equal length as text', () => {
    expect(compareResourceVersions('1234', '1243')).toBe(-1);
    expect(compareResourceVersions('1243', '1234')).toBe(1);
    expect(compareResourceVersions('4321', '4321')).toBe(0);
  });
  it('orders versions beyond the range of a JavaScript number exactly', () => {
    expect(compareResourceVersions('18446744073709551615', '18446744073709551616')).toBe(-1);
  });
  it('refuses to order anything that is not a decimal integer without leading zeros', () => {
    for (const bad of ['0', '', '01', '12a', ' 12', '-1', 'abc']) {
      expect(isComparableResourceVersion(bad)).toBe(false);
      expect(compareResourceVersions(bad, '12')).toBeUndefined();
      expect(compareResourceVersions('12', bad)).toBeUndefined();
    }
  });
});

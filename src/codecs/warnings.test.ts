import { describe, expect, it } from 'vitest';
import { parseWarningHeader } from './warnings';

describe('parseWarningHeader', () => {
  it('reads code, agent and unescaped text of one value', () => {
    expect(parseWarningHeader('299 - "unknown field \\"spec.foo\\""')).toEqual([{ code: 299, agent: '-', text: 'unknown field "spec.foo"' }]);
  });

  it('splits values joined by fetch without splitting inside quoted text', () => {
    expect(parseWarningHeader('299 - "a, b", 299 - "c \\"d, e\\""')).toEqual([
      { code: 299, agent: '-', text: 'a, b' },
      { code: 299, agent: '-', text: 'c "d, e"' },
    ]);
  });

  it('keeps an optional warn-date and skips malformed values', () => {
    expect(parseWarningHeader('garbage, 110 proxy "stale" "Sat, 21 Nov 2026 10:00:00 GMT"')).toEqual([
      { code: 110, agent: 'proxy', text: 'stale', date: 'Sat, 21 Nov 2026 10:00:00 GMT' },
    ]);
    expect(parseWarningHeader(null)).toEqual([]);
    expect(parseWarningHeader('299 - "unterminated')).toEqual([]);
  });
});

// Exact JSON (pure): integers beyond 2^53 survive a read and a write, values JSON cannot hold are
// refused instead of turning into null, and the characters YAML 1.1 reads as line breaks are escaped.
import { describe, expect, it } from 'vitest';
import { JsonError, nonFinitePath, parseJsonExact, toJson } from './json';
import { fromYaml, toYaml } from './yaml';
import { toKyaml } from './kyaml';

describe('parseJsonExact / toJson', () => {
  it('keeps int64 values beyond 2^53 exactly, as bigint, and writes them back digit for digit', () => {
    const text = '{"spec":{"count":9007199254740993,"small":42,"f":1.5,"neg":-1234567890123456789,"max":9223372036854775807}}';
    const v = parseJsonExact(text) as { spec: Record<string, unknown> };
    expect(v.spec.count).toBe(9007199254740993n);
    expect(v.spec.small).toBe(42);
    expect(v.spec.f).toBe(1.5);
    expect(v.spec.neg).toBe(-1234567890123456789n);
    expect(toJson(v)).toBe(text);
    // JSON.parse, for contrast, rounds it.
    expect(JSON.stringify(JSON.parse(text))).toContain('9007199254740992');
  });

  it('takes the fast path for ordinary bodies (same value as JSON.parse)', () => {
    const text = '{"a":[1,2,{"b":"c"}],"d":null,"e":true,"f":0.1}';
    expect(parseJsonExact(text)).toEqual(JSON.parse(text));
  });

  it('refuses numbers beyond float64 and bodies holding Infinity or NaN, never writing null', () => {
    expect(() => parseJsonExact('{"a":1e400}')).toThrow(JsonError);
    expect(() => toJson({ a: { b: [1, Number.POSITIVE_INFINITY] } })).toThrow(/unsupported value at \/a\/b\/1/);
    expect(() => toJson({ a: Number.NaN })).toThrow(JsonError);
    expect(nonFinitePath({ 'x/y': -Infinity })).toBe('/x~1y');
    expect(nonFinitePath({ a: [1, 'inf'] })).toBeUndefined();
  });

  it('names the position of a syntax error', () => {
    expect(() => parseJsonExact('{"a": 1,}')).toThrow(JsonError);
  });

  it('escapes NEL, U+2028 and U+2029 (line breaks to YAML 1.1) and reads them back the same', () => {
    const v = { s: 'a\u0085b\u2028c\u2029d' };
    const text = toJson(v, 2);
    expect(text).toContain('a\\u0085b\\u2028c\\u2029d');
    expect(text).not.toMatch(/[\u0085\u2028\u2029]/);
    expect(parseJsonExact(text)).toEqual(v);
    // The same text is YAML (a JSON document is a YAML 1.2 document): the escapes read the same.
    expect(fromYaml(text)).toEqual(v);
  });
});

describe('exact integers in YAML and KYAML', () => {
  it('reads and writes int64 values beyond 2^53 exactly', () => {
    const v = fromYaml('spec:\n  count: 9007199254740993\n  raw: 1234567890123456789\n  hex: 0x20000000000001\n  small: 7\n') as { spec: Record<string, unknown> };
    expect(v.spec).toEqual({ count: 9007199254740993n, raw: 1234567890123456789n, hex: 0x20000000000001n, small: 7 });
    const text = toYaml(v);
    expect(text).toContain('count: 9007199254740993\n');
    expect(text).toContain('raw: 1234567890123456789\n');
    expect(fromYaml(text)).toEqual(v);
    expect(toKyaml(v)).toContain('count: 9007199254740993,');
    expect(fromYaml(toKyaml(v))).toEqual(v);
  });

  it('still quotes strings that look like numbers', () => {
    const text = toYaml({ a: '9007199254740993', b: '0x10' });
    expect(fromYaml(text)).toEqual({ a: '9007199254740993', b: '0x10' });
  });
});

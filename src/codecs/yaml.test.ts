// The one YAML codec (pure): what it writes is read back the same by both YAML versions, and the
import { fc, test } from '@fast-check/vitest';
// reader points at lines where the API server (YAML 1.1) would read a plain scalar otherwise.
import { describe, expect, it } from 'vitest';
import { fromYaml, fromYamlAll, lineOfPath, serverScalar, toYaml, YamlError, yamlVersionDifferences } from './yaml';

// The words of the issue, and more that YAML 1.1 and 1.2 resolve differently.
export const TRICKY_STRINGS = ['yes', 'no', 'on', 'off', 'y', 'n', 'Yes', 'NO', 'True', '~', 'null', '0x10', '012', '1e3', '.inf', '1_000', '2026-11-23', '12:30', '', 'line one\nline two\n', 'ünïcödé ✓ 日本', '0b101', '+12', '-.INF', '.NaN', '0o17', '09', 'Off', 'NULL'];

describe('toYaml', () => {
  it('writes a list of 200,000 items (the scan for long strings once spread them as arguments and overflowed the stack)', () => {
    const y = toYaml({ items: Array.from({ length: 200_000 }, (_, i) => i) });
    expect(y.startsWith('items:\n  - 0\n  - 1\n')).toBe(true);
    expect(y.endsWith('  - 199999\n')).toBe(true);
  });
  it('quotes every string the API server (go-yaml v2) reads as something else, keys too', () => {
    // Before: js-yaml's rules alone, under which these went out plain and the server read numbers.
    for (const w of ['0X1F', '0B101', '0O17', '08_', '1_e3', '-0b1_0', '+0x_1', '.1_0', '<<']) {
      const text = toYaml({ [w]: w });
      expect([w, text]).toEqual([w, `'${w}': '${w}'\n`]);
    }
  });

  it('quotes every string that either YAML version would read as something else', () => {
    const text = toYaml({ data: Object.fromEntries(TRICKY_STRINGS.map((w, i) => [`k${i}`, w])) });
    expect(yamlVersionDifferences(text)).toEqual([]);
    expect(fromYaml(text)).toEqual({ data: Object.fromEntries(TRICKY_STRINGS.map((w, i) => [`k${i}`, w])) });
    expect(text).toContain("k0: 'yes'");
    expect(text).toContain("k11: '0x10'");
  });

  it('writes objects used twice in full (no anchors) and long strings on one line', () => {
    const shared = { a: 'x'.repeat(200) };
    const text = toYaml({ one: shared, two: shared });
    expect(text).not.toMatch(/[&*]ref/);
    expect(text.split('\n').some((l) => l.length > 200)).toBe(true);
  });
});

describe('fromYaml', () => {
  it('reads YAML 1.2: only true/false are booleans', () => {
    expect(fromYaml('a: yes\nb: true\nc: ~\n')).toEqual({ a: 'yes', b: true, c: null });
  });

  it('reads several documents', () => {
    expect(fromYamlAll('a: 1\n---\nb: 2\n---\n')).toEqual([{ a: 1 }, { b: 2 }]);
    expect(fromYaml('a: 1\n---\nb: 2\n')).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('malformed YAML throws a YamlError that names the line', () => {
    let err: unknown;
    try {
      fromYaml('metadata:\n  name: x\n  labels: [a,\n');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(YamlError);
    expect((err as YamlError).line).toBe(4);
    expect((err as YamlError).message).toMatch(/^line 4/);
  });
});

describe('yamlVersionDifferences', () => {
  it('names the line and both readings of plain scalars, keys included', () => {
    const text = 'data:\n  a: yes\n  b: "yes"\n  c: 1_000\n  d: 012\non: x\n  e: 0x10\n';
    const d = yamlVersionDifferences(text.replace('on: x\n  e: 0x10\n', 'e: 0x10\non: x\n'));
    expect(d.map((x) => [x.line, x.source, x.yaml12, x.yaml11])).toEqual([
      [2, 'yes', 'yes', true],
      [4, '1_000', '1_000', 1000],
      [5, '012', 12, 10],
      [7, 'on', 'on', true],
    ]);
    expect(d[0]!.message).toContain("quote it ('yes')");
  });

  it('does not flag -0 (YAML 1.2 reads -0, YAML 1.1 reads 0: the same number in JSON)', () => {
    // Before: "`-0` is the number 0 here, but the API server … sees the number 0".
    expect(yamlVersionDifferences('a: -0\nb: +0\nc: -0.0\n')).toEqual([]);
  });

  it('quoted, block and tagged scalars are never flagged', () => {
    expect(yamlVersionDifferences("a: 'yes'\nb: \"on\"\nc: !!str no\nd: |\n  yes\n")).toEqual([]);
  });
});

describe('serverScalar (go.yaml.in/yaml/v2 resolve)', () => {
  it.each([
    ['yes', true],
    ['OFF', false],
    ['~', null],
    ['0x10', 16],
    ['012', 10],
    ['0o17', 15],
    ['0b101', 5],
    ['1_000', 1000],
    ['1e3', 1000],
    ['.5', 0.5],
    ['.inf', Number.POSITIVE_INFINITY],
    ['2026-11-23', '2026-11-23'],
    ['12:30', '12:30'],
    ['09', 9],
    ['abc', 'abc'],
    ['0X1F', 31],
    ['0B101', 5],
    ['0O17', 15],
    ['08_', 8],
    ['1_e3', 1000],
    ['.1_0', 0.1],
    ['1e400', '1e400'],
    ['+0xFFFFFFFFFFFFFFFF', '+0xFFFFFFFFFFFFFFFF'],
    ['0xFFFFFFFFFFFFFFFF', 18446744073709551615n],
    ['<<', '<<'],
  ])('%s reads as %s', (source, value) => {
    expect(serverScalar(source)).toEqual(value);
  });
});

describe('values JSON cannot hold', () => {
  it.each(['.inf', '-.inf', '.nan', '+.Inf', '.NaN'])('refuses %s at its line, naming the value as kubectl does', (word) => {
    let err: unknown;
    try {
      fromYaml(`spec:\n  a: 1\n  ratio: ${word}\n`);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(YamlError);
    expect((err as YamlError).line).toBe(3);
    expect((err as YamlError).message).toMatch(word.includes('nan') || word.includes('NaN') ? /unsupported value: NaN/ : word.startsWith('-') ? /unsupported value: -Inf/ : /unsupported value: \+Inf/);
  });

  it('reads a quoted .inf as the string', () => {
    expect(fromYaml("a: '.inf'\n")).toEqual({ a: '.inf' });
  });
});

describe('merge keys', () => {
  it('merges `<<: *anchor` as go-yaml does; the mapping’s own keys win', () => {
    const v = fromYaml('defaults: &d\n  a: 1\n  b: 2\nthing:\n  <<: *d\n  b: 3\n');
    expect(v).toEqual({ defaults: { a: 1, b: 2 }, thing: { a: 1, b: 3 } });
    expect(JSON.stringify(v)).not.toContain('<<');
  });

  it('merges a list of anchors', () => {
    expect(fromYaml('x: &x {a: 1}\ny: &y {b: 2}\nz:\n  <<: [*x, *y]\n')).toMatchObject({ z: { a: 1, b: 2 } });
  });
});

describe('lineOfPath', () => {
  it('finds the line of a key or element, in YAML and in JSON', () => {
    const yaml = 'spec:\n  replicas: 3\n  containers:\n  - name: a\n    ports:\n    - containerPort: 80\n';
    expect(lineOfPath(yaml, ['spec', 'replicas'])).toBe(2);
    expect(lineOfPath(yaml, ['spec', 'containers', 0, 'ports', 0, 'containerPort'])).toBe(6);
    expect(lineOfPath(yaml, ['spec', 'missing'])).toBeUndefined();
    const json = '{\n  "metadata": {"labels": {"a.b": "1"}},\n  "spec": {\n    "replicas": 4294967297\n  }\n}\n';
    expect(lineOfPath(json, ['spec', 'replicas'])).toBe(4);
    expect(lineOfPath(json, ['metadata', 'labels', 'a.b'])).toBe(2);
  });
});

describe('toYaml of long strings (written double-quoted without js-yaml: issue 43)', () => {
  const pad = 'k'.repeat(64 * 1024);
  test.prop([fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 50 })], { numRuns: 60 })('reads back as written', (a, b) => {
    const v = { spec: { blob: `${a}${pad}${b}`, list: [`${pad}${b}`, 'short'], short: a } };
    expect(fromYaml(toYaml(v))).toEqual(v);
  });
  it('writes each long string as one double-quoted line, escaping what YAML 1.1 reads as a line break', () => {
    const v = { spec: { blob: `x\u2028y\u0085z"\\\n${'k'.repeat(1.4 * 1024 * 1024)}` } };
    const y = toYaml(v);
    expect(y.split('\n')).toHaveLength(3);
    expect(y).toContain('blob: "x\\u2028y\\u0085z\\"\\\\\\nkkk');
    expect(fromYaml(y)).toEqual(v);
  });
});

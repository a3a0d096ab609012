import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { jsonNesting, MAX_NESTING, refuseDeepNesting, refuseOversizedObject } from './nesting';

/** The depth JSON.parse's value has, walked without recursion. */
function depthOf(v: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length) {
    const [x, d] = stack.pop()!;
    if (x && typeof x === 'object') {
      max = Math.max(max, d + 1);
      for (const c of Object.values(x)) stack.push([c, d + 1]);
    }
  }
  return max;
}

describe('jsonNesting', () => {
  test.prop([fc.jsonValue({ maxDepth: 8 })])('counts the nesting of objects and arrays as the parsed value has it (brackets in strings do not count)', (v) => {
    const text = JSON.stringify(v);
    expect(jsonNesting(text, 1000)).toBe(depthOf(JSON.parse(text)));
  });

  it('refuses a text nested past the bound, in one pass, saying why', () => {
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    expect(jsonNesting(deep)).toBe(MAX_NESTING + 1);
    expect(() => refuseDeepNesting(deep)).toThrow(/nested more than 512 levels deep/);
    expect(() => refuseDeepNesting(JSON.stringify({ s: '{'.repeat(10_000), q: '\\"[[[' }))).not.toThrow();
  });
});

describe('refuseOversizedObject', () => {
  it('refuses one object of 60 MB (a crafted recording), saying so, and takes one of a size a server stores', () => {
    expect(() => refuseOversizedObject(`{"a":"${'x'.repeat(60_000_000)}"}`)).toThrow(/is 57\.2 MiB of JSON: the explorer's views open objects up to 8 MiB/);
    expect(() => refuseOversizedObject(`{"a":"${'x'.repeat(1_500_000)}"}`)).not.toThrow();
  });
});

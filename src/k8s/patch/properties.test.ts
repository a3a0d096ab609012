// Properties of the patch builders over any objects (fast-check): keys that are JSON Pointer
// escapes (`/`, `~`), empty, or `__proto__` (a valid ConfigMap data key: [-._a-zA-Z0-9]+), and
// int64 values beyond 2^53 (bigint, codecs/json.ts). Seeds that failed on earlier code are kept.
import { fc, test as fcTest } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { keyedJsonPatch, strategicMergePatch } from './keyed';
import { applyMergePatch, deepEqual, type Json, type JsonObject, mergePatch } from './patch';
import { threeWayMerge } from './threeWay';

const key = fc.oneof(fc.constantFrom('a', 'b', '~', '/', '~1', 'a/b', '', '__proto__', 'constructor'), fc.string({ maxLength: 3 }));
const scalar = fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.bigInt({ min: 2n ** 53n + 1n, max: 2n ** 63n - 1n }) as unknown as fc.Arbitrary<Json>);
const { tree: anyTree } = fc.letrec((tie) => ({
  tree: fc.oneof({ depthSize: 'small' }, scalar, tie('obj'), tie('arr')),
  obj: fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
  arr: fc.array(tie('tree'), { maxLength: 3 }),
}));
const tree = anyTree as fc.Arbitrary<Json>;
/** Objects without null values (a merge patch cannot set null: null deletes). */
const obj = fc.dictionary(key, tree, { maxKeys: 4 }) as fc.Arbitrary<JsonObject>;

describe('patch builders over any two objects', () => {
  fcTest.prop([obj, obj], { numRuns: 500, seed: -564328642 })('a merge patch applied to the loaded object gives the edit', (from, to) => {
    expect(deepEqual(applyMergePatch(from, mergePatch(from, to)), to)).toBe(true);
  });

  fcTest.prop([obj, obj], { numRuns: 500, seed: 2036375722 })('a strategic merge patch without schema hints is a merge patch', (from, to) => {
    expect(deepEqual(applyMergePatch(from, strategicMergePatch(from, to)), to)).toBe(true);
  });

  // (The JSON Patch property is in keyed.test.ts: fast-json-patch refuses to apply a `__proto__` path.)
  it('JSON Patch addresses a __proto__ key like any other', () => {
    expect(keyedJsonPatch(JSON.parse('{"data":{"__proto__":"x","a":"1"}}') as JsonObject, JSON.parse('{"data":{"__proto__":"y"}}') as JsonObject)).toEqual([
      { op: 'remove', path: '/data/a' },
      { op: 'replace', path: '/data/__proto__', value: 'y' },
    ]);
  });

  // The rebase never drops a field one side kept and the other did not touch (a PUT of the
  // merge would delete it).
  fcTest.prop([obj, obj], { numRuns: 500 })('a three-way merge where one side changed nothing is the other side', (original, changed) => {
    expect(deepEqual(threeWayMerge(original, changed, original).merged, changed)).toBe(true);
    expect(deepEqual(threeWayMerge(original, original, changed).merged, changed)).toBe(true);
  });

  fcTest.prop([obj, tree, tree], { numRuns: 500, seed: -132134159 })('a three-way merge of changes to different fields keeps every field of both', (original, mine, theirs) => {
    const merged = threeWayMerge(original, { ...original, 'mine-only': mine }, { ...original, 'theirs-only': theirs });
    expect(merged.conflicts).toEqual([]);
    expect(deepEqual(merged.merged, { ...original, 'mine-only': mine, 'theirs-only': theirs })).toBe(true);
  });
});

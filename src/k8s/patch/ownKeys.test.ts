// An apply configuration keeps any key, `__proto__` among them (a valid ConfigMap data key; see
// setField in patch.ts). The other builders' properties over such keys are in properties.test.ts.
import { describe, expect, it } from 'vitest';
import { applyConfiguration } from './apply';
import type { Json, JsonObject } from './patch';

/** A ConfigMap whose data has these own keys, `__proto__` too, as JSON.parse makes one. */
function configMap(data: [string, Json][]): JsonObject {
  const d: JsonObject = {};
  for (const [k, v] of data) Object.defineProperty(d, k, { value: v, enumerable: true, writable: true, configurable: true });
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: d };
}

describe('an apply configuration keeps every key', () => {
  it('an apply of a new object sends data.__proto__; a changed value is the manager\'s intent', () => {
    const edited = configMap([['__proto__', 'x'], ['a', '1']]);
    expect(Object.keys(applyConfiguration(undefined, edited, 'me').data as object)).toEqual(['__proto__', 'a']);
    expect(Object.keys(applyConfiguration(edited, configMap([['__proto__', 'y'], ['a', '1']]), 'me').data as object)).toEqual(['__proto__']);
  });
});

// Every reader of bytes (`decodeBytes`, what `npm run decode` and the console use) gives back the
// value that was written, exactly, in each text and binary format: integers over the API
// server's whole int64 range (beyond 2^53 as bigint, as codecs/json.ts reads them), floats,
// any string, and any map key, `__proto__` among them (an ordinary key to the server: a
// ConfigMap's data may hold it; an assignment in JavaScript takes it as the prototype instead).
// Generated cases, compared after a round trip through each writer.
import { fc, it } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { decodeCbor, encodeCbor } from './cbor';
import { decodeBytes } from './detect';
import { toJson } from './json';
import { toYaml } from './yaml';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
/** An int64 as the readers give it back: a number when one holds it exactly, else a bigint. */
const int64 = fc.bigInt({ min: INT64_MIN, max: INT64_MAX }).map((b) => (Number.isSafeInteger(Number(b)) ? Number(b) : b));
/** Floats that are not integers (an integral float is an integer to every reader), finite (-0 is an integer too, and JSON has none). */
const float = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d));
const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString', 'a/b~c', '', 'ünïcödé', '0', 'yes', 'null'));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, int64, float, fc.string(), fc.boolean(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 5, noNullPrototype: true }),
}));
// A body is an object (every Kubernetes body is).
const body = fc.dictionary(key, value, { minKeys: 1, maxKeys: 5, noNullPrototype: true });

/** An object with these own keys (`__proto__` too, as JSON.parse makes one). */
function own(entries: [string, unknown][]): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  return o;
}
/** Counterexamples fast-check found against the readers before the fix (seeds 1406997185, 1185602286, -2046209840), run first every time. */
const FOUND: [Record<string, unknown>][] = [[own([['__proto__', -9007199254740992n]])], [own([['__proto__', 9007199254740992n]])], [own([['__proto__', 0]])]];

function decoded(bytes: Uint8Array): unknown {
  const r = decodeBytes({} as never, bytes);
  if (!r.ok) throw new Error(r.error);
  expect(r.value.values).toHaveLength(1);
  return r.value.values[0];
}

describe('what each format reads back is what was written', () => {
  it.prop([body], { examples: FOUND })('JSON', (v) => {
    expect(decoded(new TextEncoder().encode(toJson(v)))).toEqual(v);
  });

  it.prop([body], { examples: FOUND })('JSON, indented', (v) => {
    expect(decoded(new TextEncoder().encode(toJson(v, 2)))).toEqual(v);
  });

  it.prop([body], { examples: FOUND })('CBOR (what the explorer sends, read as the server\'s answers are)', (v) => {
    expect(decoded(encodeCbor(v))).toEqual(v);
    const d = decodeCbor(encodeCbor(v));
    expect(d.ok && d.value).toEqual(v);
  });

  it.prop([body], { examples: FOUND })('YAML', (v) => {
    expect(decoded(new TextEncoder().encode(toYaml(v)))).toEqual(v);
  });
});

describe('found by hand, kept', () => {
  it('an int64 beyond 2^53 from JSON, as the server writes one (was rounded: -9223372036854776000)', () => {
    expect(decoded(new TextEncoder().encode('{"spec":{"x":-9223372036854775807,"y":9007199254740993}}'))).toStrictEqual({ spec: { x: -9223372036854775807n, y: 9007199254740993n } });
  });

  it('an int64 beyond 2^53 from CBOR is a number, not text (was the string "-9223372036854775807")', () => {
    // {"x": -9223372036854775807} as kube-apiserver writes it: self-described, a negative integer of 8 bytes.
    const bytes = new Uint8Array([0xd9, 0xd9, 0xf7, 0xa1, 0x41, 0x78, 0x3b, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]);
    expect(decoded(bytes)).toStrictEqual({ x: -9223372036854775807n });
  });

  it('the key __proto__ in CBOR, both ways (was dropped)', () => {
    const v = JSON.parse('{"data":{"__proto__":"x","a":"1"}}') as unknown;
    expect(Object.keys((decoded(encodeCbor(v)) as { data: object }).data)).toEqual(['__proto__', 'a']);
  });
});

// JSON that keeps every integer exactly, for the objects the explorer reads back and writes.
//
// Why: Kubernetes fields are int64 (and a preserve-unknown-fields custom resource holds any
// integer the server's JSON decoder reads as int64), while a JavaScript number is exact only up
// to 2^53. `JSON.parse` turns `9007199254740993` into `…992`, and every body built from that
// value (a PUT, a merge patch, an apply) would store the rounded number, also in fields the user
// never touched.
//
// How: lossless-json reads numbers from their source text. An integer that a number holds
// exactly stays a number (so the rest of the code is unchanged); a larger one becomes a bigint,
// which compares with `===` like any scalar and which `toJson` writes back digit for digit. We
// chose the library over `JSON.parse`'s reviver source text (`context.source`), which Chromium
// has but Node 20, where the unit tests run, does not: one code path in both places.
//
// Values that JSON cannot hold are refused, never written as `null` (JSON.stringify's choice):
// a number beyond float64 (`1e400`), Infinity and NaN. The API server refuses them as well
// (Go's encoding/json: "unsupported value: +Inf").
import { isInteger, isSafeNumber, parse, stringify } from 'lossless-json';

/** A JSON text that does not parse, or a value JSON cannot hold; `offset` is 0-based into the text. */
export class JsonError extends Error {
  constructor(
    message: string,
    readonly offset?: number,
  ) {
    super(message);
    this.name = 'JsonError';
  }
}

function exactNumber(text: string): number | bigint {
  if (isInteger(text) && !isSafeNumber(text)) return BigInt(text);
  const n = Number(text);
  if (!Number.isFinite(n)) throw new JsonError(`unsupported value: ${text} is beyond what a float64 holds`);
  return n;
}

const MAYBE_INEXACT = /\d{16}|[eE][-+]?\d{3}/;

/** JSON.parse, with integers beyond 2^53 as bigint (exact) and numbers beyond float64 refused. */
export function parseJsonExact(text: string): unknown {
  // Fast path (a list of thousands of objects): no run of 16 digits (2^53 has 16) and no
  // three-digit exponent means every number JSON.parse reads is exact and finite.
  if (!MAYBE_INEXACT.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      /* the slow path names the position */
    }
  }
  return parseLossless(text);
}

/**
 * parseJsonExact for a text a user typed: a key given twice in one object is refused, with its
 * offset. JSON.parse keeps the last one silently (a second `metadata` block would drop the
 * first's labels from the body); YAML's reader and kubectl refuse such a text too.
 */
export function parseJsonStrict(text: string): unknown {
  return parseLossless(text);
}

function parseLossless(text: string): unknown {
  try {
    return parse(text, null, exactNumber);
  } catch (e) {
    if (e instanceof JsonError) throw e;
    const message = e instanceof Error ? e.message : String(e);
    const at = /position (\d+)/.exec(message);
    throw new JsonError(message, at ? Number(at[1]) : undefined);
  }
}

/** The first value JSON cannot hold (Infinity, NaN), as a JSON Pointer; undefined when none. */
export function nonFinitePath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : path || '/';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const p = nonFinitePath(value[i], `${path}/${i}`);
      if (p !== undefined) return p;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const p = nonFinitePath(v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (p !== undefined) return p;
    }
  }
  return undefined;
}

// Characters YAML 1.1 (the API server's reader for apply-patch+yaml and application/yaml) takes
// for line breaks even inside a double-quoted string, where JSON takes them as text: NEL, LINE
// SEPARATOR, PARAGRAPH SEPARATOR. A JSON text sent as YAML must carry them escaped (`\u0085` means
// the same character to both readers); in a JSON body the escape is just as exact.
const YAML11_BREAKS = /[\u0085\u2028\u2029]/g;

/**
 * JSON text of `value`: bigints written exactly, NEL/U+2028/U+2029 escaped. Throws JsonError for
 * a value JSON cannot hold (Infinity, NaN) instead of writing `null`.
 */
export function toJson(value: unknown, space?: number): string {
  const bad = nonFinitePath(value);
  if (bad !== undefined) throw new JsonError(`unsupported value at ${bad}: JSON has no Infinity or NaN`);
  const text = stringify(value, undefined, space) ?? 'null';
  return text.replace(YAML11_BREAKS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// `__proto__` is an ordinary key to the API server (a ConfigMap's data, a label-free map in a
// custom resource may hold it), and JSON.parse, lossless-json and object spread keep it as an own
// property. An assignment `o[k] = v` takes it as the object's prototype instead (the key vanishes
// from what is shown or sent), and a read `o[k]` of an object without that own key yields
// Object.prototype. Code that walks objects by key reads and writes through these two.

/** o[key] as an own property only: undefined when `o` has no own `key` (also for `__proto__`). */
export function ownValue<T>(o: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return o !== undefined && Object.hasOwn(o, key) ? o[key] : undefined;
}

/** o[key] = value as an own property, also for the key `__proto__`. */
export function setOwn<T>(o: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

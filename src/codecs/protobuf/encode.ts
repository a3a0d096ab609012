// ---------------------------------------------------------------------------------------------
// The other way: an edited object (its JSON form) as an `application/vnd.kubernetes.protobuf`
// request body. Every field of the object must have a place in the schema: a field that does not
// (a typo, a field of a newer version) is an error naming its path, never silently dropped.
import protobuf from 'protobufjs';
import { fromStdBase64 } from '../base64';
import { setOwn } from '../json';
import { errText, SchemaEncodeError } from './errors';
import { K8S_MAGIC, type PbResult } from './fields';
import { parseGoDuration, parseRfc3339 } from './goText';
import { planOf } from './plan';
import type { K8sSchema } from './schema';
import { writeMessage } from './writer';



function fromBase64(s: string, path: string): Uint8Array {
  try {
    return fromStdBase64(s);
  } catch {
    throw new SchemaEncodeError(`${path}: not base64`);
  }
}

const utf8enc = new TextEncoder();

/** A value in an error message (JSON.stringify throws on a bigint). */
function shown(v: unknown): string {
  return typeof v === 'bigint' ? v.toString() : JSON.stringify(v);
}

// The range of each protobuf integer type. The server's JSON decoder refuses a value outside its
// Go field's range (400); written into protobuf it would wrap instead (replicas 4294967297 became 1).
const INT_RANGES: Record<string, [bigint, bigint]> = {
  int32: [-(2n ** 31n), 2n ** 31n - 1n],
  sint32: [-(2n ** 31n), 2n ** 31n - 1n],
  sfixed32: [-(2n ** 31n), 2n ** 31n - 1n],
  uint32: [0n, 2n ** 32n - 1n],
  fixed32: [0n, 2n ** 32n - 1n],
  int64: [-(2n ** 63n), 2n ** 63n - 1n],
  sint64: [-(2n ** 63n), 2n ** 63n - 1n],
  sfixed64: [-(2n ** 63n), 2n ** 63n - 1n],
  uint64: [0n, 2n ** 64n - 1n],
  fixed64: [0n, 2n ** 64n - 1n],
};

/** An integer of a protobuf type, in range, as protobufjs writes it (64-bit ones as {low, high}, exact beyond 2^53). */
function integerFromJson(type: string, v: unknown, path: string): unknown {
  if (!(typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v)))) throw new SchemaEncodeError(`${path}: expected an integer, got ${shown(v)}`);
  const range = INT_RANGES[type];
  if (!range) return v;
  // (A number beyond 2^53 has lost digits already; the JSON reader keeps such integers as bigint.)
  const b = BigInt(v);
  if (b < range[0] || b > range[1]) throw new SchemaEncodeError(`${path}: ${b} is out of the range of a ${type} (${range[0]} to ${range[1]}): the server refuses it (as it refuses the JSON), and protobuf would wrap it`);
  if (!type.endsWith('64')) return Number(b);
  const u = BigInt.asUintN(64, b);
  return { low: Number(u & 0xffffffffn), high: Number(u >> 32n) };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Text protobuf carries as UTF-8: a lone surrogate has no UTF-8 form (TextEncoder would write U+FFFD instead). */
function utf8Text(v: string, path: string): string {
  if (LONE_SURROGATE.test(v)) throw new SchemaEncodeError(`${path}: the text holds a lone UTF-16 surrogate, which protobuf's UTF-8 cannot carry`);
  return v;
}

function scalarFromJson(type: string, v: unknown, path: string): unknown {
  switch (type) {
    case 'string':
      if (typeof v !== 'string') throw new SchemaEncodeError(`${path}: expected a string, got ${shown(v)}`);
      return utf8Text(v, path);
    case 'bool':
      if (typeof v !== 'boolean') throw new SchemaEncodeError(`${path}: expected true or false, got ${shown(v)}`);
      return v;
    case 'bytes':
      if (typeof v !== 'string') throw new SchemaEncodeError(`${path}: expected base64 text`);
      return fromBase64(v, path);
    case 'double':
    case 'float':
      if (typeof v === 'bigint') return Number(v);
      if (typeof v !== 'number') throw new SchemaEncodeError(`${path}: expected a number, got ${shown(v)}`);
      return v;
    default:
      return integerFromJson(type, v, path);
  }
}

function isObj(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The JSON form of one message as the plain object protobufjs encodes. `used` collects the keys it took. */
export function jsonToMessage(t: protobuf.Type, v: unknown, path: string, used?: Set<string>): Record<string, unknown> | undefined {
  const plan = planOf(t);
  switch (plan.special) {
    case 'time':
      if (v === null) return undefined;
      if (typeof v !== 'string') throw new SchemaEncodeError(`${path}: expected an RFC 3339 time`);
      return { seconds: parseRfc3339(v, path).seconds };
    case 'microtime':
      if (v === null) return undefined;
      if (typeof v !== 'string') throw new SchemaEncodeError(`${path}: expected an RFC 3339 time`);
      return parseRfc3339(v, path);
    case 'duration':
      if (typeof v !== 'string') throw new SchemaEncodeError(`${path}: expected a duration like "1m30s"`);
      return { duration: parseGoDuration(v, path) };
    case 'quantity':
      if (typeof v !== 'string' && typeof v !== 'number') throw new SchemaEncodeError(`${path}: expected a quantity like "250m"`);
      return { string: String(v) };
    case 'intorstring':
      if ((typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint') return { type: 0, intVal: integerFromJson('int32', v, path) };
      if (typeof v === 'string') return { type: 1, strVal: v };
      throw new SchemaEncodeError(`${path}: expected an integer or a string`);
    case 'rawjson': {
      if (v === null || v === undefined) return undefined;
      const name = t.fields.Raw ? 'Raw' : 'raw';
      return { [name]: utf8enc.encode(JSON.stringify(v)) };
    }
    case 'rawextension':
      if (v === null || v === undefined) return undefined;
      return { raw: utf8enc.encode(JSON.stringify(v)) };
    case 'slice': {
      const f = plan.fields[0]!;
      if (!Array.isArray(v)) throw new SchemaEncodeError(`${path}: expected a list`);
      return { [f.name]: v.map((x, i) => (f.message ? jsonToMessage(f.message, x, `${path}[${i}]`) ?? {} : scalarFromJson(f.scalar!, x, `${path}[${i}]`))) };
    }
    case 'orarray': {
      const st = t.fields.schema!.resolvedType as protobuf.Type;
      if (Array.isArray(v)) return { jSONSchemas: v.map((x, i) => jsonToMessage(st, x, `${path}[${i}]`) ?? {}) };
      return v === null ? undefined : { schema: jsonToMessage(st, v, path) };
    }
    case 'orbool': {
      const st = t.fields.schema!.resolvedType as protobuf.Type;
      if (typeof v === 'boolean') return { allows: v };
      return { allows: true, schema: jsonToMessage(st, v, path) };
    }
    case 'orstringarray': {
      const st = t.fields.schema!.resolvedType as protobuf.Type;
      if (Array.isArray(v)) return { property: v.map((x, i) => scalarFromJson('string', x, `${path}[${i}]`)) };
      return v === null ? undefined : { schema: jsonToMessage(st, v, path) };
    }
  }
  if (v === null || v === undefined) return undefined;
  if (!isObj(v)) throw new SchemaEncodeError(`${path}: expected an object, got ${shown(v)}`);
  const top = used === undefined;
  const taken = used ?? new Set<string>();
  const out: Record<string, unknown> = {};
  for (const f of plan.fields) {
    if (f.inline && f.message) {
      const inner = jsonToMessage(f.message, v, path, taken);
      if (inner && Object.keys(inner).length) out[f.name] = inner;
      else out[f.name] = {};
      continue;
    }
    if (!(f.json in v)) continue;
    taken.add(f.json);
    const x = v[f.json];
    if (x === null || x === undefined) continue;
    const p = path ? `${path}.${f.json}` : f.json;
    if (f.map) {
      if (!isObj(x)) throw new SchemaEncodeError(`${p}: expected an object`);
      const o: Record<string, unknown> = {};
      for (const [k, y] of Object.entries(x)) {
        const q = `${p}[${JSON.stringify(k)}]`;
        // setOwn: a key `__proto__` is a key like any other (an assignment would set the prototype and drop it).
        setOwn(o, utf8Text(k, q), f.message ? (jsonToMessage(f.message, y, q) ?? {}) : scalarFromJson(f.scalar!, y, q));
      }
      out[f.name] = o;
    } else if (f.repeated) {
      if (!Array.isArray(x)) throw new SchemaEncodeError(`${p}: expected a list`);
      out[f.name] = x.map((y, i) => (f.message ? (jsonToMessage(f.message, y, `${p}[${i}]`) ?? {}) : scalarFromJson(f.scalar!, y, `${p}[${i}]`)));
    } else if (f.message) {
      const m = jsonToMessage(f.message, x, p);
      if (m !== undefined) out[f.name] = m;
    } else out[f.name] = scalarFromJson(f.scalar!, x, p);
  }
  if (top) {
    const extra = Object.keys(v).filter((k) => !taken.has(k) && !(path === '' && (k === 'apiVersion' || k === 'kind')));
    if (extra.length) throw new SchemaEncodeError(`${extra.map((k) => (path ? `${path}.${k}` : k)).join(', ')}: not a field of ${t.name} in the Kubernetes ${'schema'}; protobuf cannot carry it (send JSON instead)`);
  }
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * An object (JSON form, with apiVersion and kind) as a Kubernetes protobuf body: the magic, then
 * runtime.Unknown {typeMeta, raw = the object's message}. Fails for kinds the schema does not
 * know; custom resources are never served as protobuf (the server answers 415), so callers send JSON.
 */
export function encodeK8sObject(schema: K8sSchema, obj: unknown): PbResult<Uint8Array> {
  if (!isObj(obj)) return { ok: false, error: 'Only an object can be sent as protobuf.' };
  const { apiVersion, kind } = obj as { apiVersion?: unknown; kind?: unknown };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return { ok: false, error: 'apiVersion and kind are needed to pick the protobuf message.' };
  const t = schema.typeFor(apiVersion, kind);
  if (!t) return { ok: false, error: `${apiVersion} ${kind} has no protobuf schema (custom resources and aggregated APIs speak JSON and CBOR only): send it as JSON.` };
  let raw: Uint8Array;
  try {
    raw = writeMessage(t, jsonToMessage(t, obj, '') ?? {}).finish();
  } catch (e) {
    return { ok: false, error: errText(e) };
  }
  const unknownType = schema.root.lookupType('k8s.io.apimachinery.pkg.runtime.Unknown');
  const env = writeMessage(unknownType, { typeMeta: { apiVersion, kind }, raw, contentEncoding: '', contentType: '' }).finish();
  return { ok: true, value: concat([K8S_MAGIC, env]) };
}

/**
 * A copy of an object (JSON form) with the base64 text of every `[]byte` field (ConfigMap
 * binaryData, Secret data…) turned back into bytes, as CBOR must carry them: the server refuses
 * a text string there ("cannot unmarshal UTF-8 text string into … of type []uint8"). Kinds the
 * schemas do not know (custom resources) have no []byte fields and come back unchanged.
 */
export function withBinaryBytes(schema: K8sSchema, obj: unknown): unknown {
  if (!isObj(obj) || typeof obj.apiVersion !== 'string' || typeof obj.kind !== 'string') return obj;
  const t = schema.typeFor(obj.apiVersion, obj.kind);
  return t ? bytesIn(t, obj, '') : obj;
}

function bytesIn(t: protobuf.Type, v: unknown, path: string): unknown {
  const plan = planOf(t);
  if (plan.special || !isObj(v)) return v;
  const out: Record<string, unknown> = { ...v };
  for (const f of plan.fields) {
    if (f.inline && f.message) {
      Object.assign(out, bytesIn(f.message, out, path));
      continue;
    }
    const x = out[f.json];
    if (x === null || x === undefined) continue;
    const p = path ? `${path}.${f.json}` : f.json;
    const one = (y: unknown, q: string): unknown => (f.message ? bytesIn(f.message, y, q) : f.scalar === 'bytes' && typeof y === 'string' ? fromBase64(y, q) : y);
    if (f.map && isObj(x)) out[f.json] = Object.fromEntries(Object.entries(x).map(([k, y]) => [k, one(y, `${p}[${JSON.stringify(k)}]`)]));
    else if (f.repeated && Array.isArray(x)) out[f.json] = x.map((y, i) => one(y, `${p}[${i}]`));
    else out[f.json] = one(x, p);
  }
  return out;
}


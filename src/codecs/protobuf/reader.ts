// Reading and writing messages by walking the descriptor, with protobufjs' Reader and Writer.
// Not Type.decode/encode: those are generated with `new Function`, which the explorer's
// Content-Security-Policy (`script-src 'self'`, no 'unsafe-eval') forbids in the browser.
// The result has the shape Type.decode gives (fields by proto name, only those on the wire),
// so messageToJson applies to both.
import protobuf from 'protobufjs';
import { setOwn } from '../json';
import { Cursor } from './cursor';

export { Cursor };

/**
 * Turns one message read off the wire into its JSON form (json.ts's messageToJson bound to a
 * schema). Passed in rather than imported: the JSON form of a RawExtension decodes a whole nested
 * object, which reads through this module again, and a module cycle would make the load order
 * decide which binding is still undefined.
 */
export type ToJson = (t: protobuf.Type, m: Record<string, unknown>, converted?: boolean) => unknown;

interface FastField {
  name: string;
  /** 0 string, 1 bytes, 2 bool, 3 varint int, 4 sint (zigzag), 5 double, 6 float, 7 fixed32, 8 sfixed32, 9 fixed64, 10 sfixed64, 11 message */
  code: number;
  repeated: boolean;
  map: boolean;
  keyCode: number;
  message?: protobuf.Type;
}

const CODES: Record<string, number> = { string: 0, bytes: 1, bool: 2, int32: 3, uint32: 3, int64: 3, uint64: 3, sint32: 4, sint64: 4, double: 5, float: 6, fixed32: 7, sfixed32: 8, fixed64: 9, sfixed64: 10 };
const fastPlans = new WeakMap<protobuf.Type, (FastField | undefined)[]>();

function fastPlan(t: protobuf.Type): (FastField | undefined)[] {
  let p = fastPlans.get(t);
  if (p) return p;
  p = [];
  for (const f of t.fieldsArray) {
    const r = f.resolvedType;
    const message = r instanceof protobuf.Type ? r : undefined;
    const code = message ? 11 : CODES[f.type];
    if (code === undefined) throw new Error(`unsupported field type ${f.type} in ${t.name}`);
    p[f.id] = { name: f.name, code, repeated: f.repeated, map: f.map, keyCode: f.map ? (CODES[(f as unknown as protobuf.MapField).keyType] ?? 0) : 0, message };
  }
  fastPlans.set(t, p);
  return p;
}

export function readValue(c: Cursor, code: number, message: protobuf.Type | undefined, toJson?: ToJson): unknown {
  switch (code) {
    case 0:
      return c.string();
    case 1:
      return c.bytes();
    case 2:
      return c.varint() !== 0;
    case 3:
      return c.varint();
    case 4: {
      const n = c.varint();
      return n % 2 === 0 ? n / 2 : -(n + 1) / 2;
    }
    case 11: {
      const n = c.length();
      return readMessage(message!, c, c.pos + n, toJson);
    }
  }
  const at = c.pos;
  const size = code === 5 || code === 9 || code === 10 ? 8 : 4;
  if (at + size > c.buf.length) c.fail('truncated fixed-size field');
  c.pos += size;
  switch (code) {
    case 5:
      return c.view.getFloat64(at, true);
    case 6:
      return c.view.getFloat32(at, true);
    case 7:
      return c.view.getUint32(at, true);
    case 8:
      return c.view.getInt32(at, true);
    case 9:
      return Number(c.view.getBigUint64(at, true));
    default:
      return Number(c.view.getBigInt64(at, true));
  }
}

/** Reads one message of type `t` from `c` up to `end`; in its JSON form when `toJson` is given. */
export function readMessage(t: protobuf.Type, c: Cursor, end: number, toJson?: ToJson): Record<string, unknown> {
  const plan = fastPlan(t);
  const m: Record<string, unknown> = {};
  while (c.pos < end) {
    const key = c.varint();
    const id = key >>> 3;
    const wt = key & 7;
    const f = plan[id];
    if (!f) {
      c.skip(wt);
      continue;
    }
    if (f.map) {
      const stop = c.length() + c.pos;
      let k: unknown = f.keyCode === 0 ? '' : 0;
      let v: unknown = f.code === 11 ? (toJson ? toJson(f.message!, {}) : {}) : f.code === 0 ? '' : f.code === 1 ? new Uint8Array() : 0;
      while (c.pos < stop) {
        const kk = c.varint();
        if (kk >>> 3 === 1) k = readValue(c, f.keyCode, undefined);
        else if (kk >>> 3 === 2) v = readValue(c, f.code, f.message, toJson);
        else c.skip(kk & 7);
      }
      const obj = (m[f.name] ??= {}) as Record<string, unknown>;
      // As an own key: `__proto__` is a valid ConfigMap data key, and a plain assignment would set
      // the map's prototype instead, dropping the entry.
      setOwn(obj, String(k), v);
      continue;
    }
    if (f.repeated && wt === 2 && f.code >= 2 && f.code <= 10) {
      // A packed list of numbers or bools.
      const stop = c.length() + c.pos;
      const list = (m[f.name] ??= []) as unknown[];
      while (c.pos < stop) list.push(readValue(c, f.code, undefined));
      continue;
    }
    const expected = f.code <= 1 || f.code === 11 ? 2 : f.code === 5 || f.code === 9 || f.code === 10 ? 1 : f.code >= 6 ? 5 : 0;
    if (wt !== expected) c.fail(`${t.name}.${f.name}: wire type ${wt}, expected ${expected}`);
    const value = readValue(c, f.code, f.message, toJson);
    if (f.repeated) ((m[f.name] ??= []) as unknown[]).push(value);
    else m[f.name] = value;
  }
  if (c.pos > end) c.fail(`${t.name} runs ${c.pos - end} byte(s) past its end`);
  return toJson ? (toJson(t, m, true) as Record<string, unknown>) : m;
}

/** Decodes a whole buffer as one message of type `t`; errors name the offset in `base + …`. */
export function decodeMessage(t: protobuf.Type, bytes: Uint8Array): Record<string, unknown> {
  return readMessage(t, new Cursor(bytes), bytes.length);
}

// From protobufjs messages to the JSON form the server sends for the same object.
import { setOwn } from '../json';
import { rawExtension } from './decode';
import { goDuration, rfc3339 } from './goText';
import { planOf } from './plan';
import type { K8sSchema } from './schema';
import protobuf from 'protobufjs';
import { toBase64 } from '../base64';
const hasOwn = Object.prototype.hasOwnProperty;

function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && 'toNumber' in v) return (v as { toNumber(): number }).toNumber();
  return Number(v);
}


const utf8 = new TextDecoder();

function isZeroScalar(v: unknown): boolean {
  if (v === '' || v === false || v === 0 || v === null || v === undefined) return true;
  if (v instanceof Uint8Array) return v.length === 0;
  if (typeof v === 'object' && 'isZero' in (v as object)) return (v as { isZero(): boolean }).isZero();
  return false;
}

function scalarJson(type: string, v: unknown): unknown {
  switch (type) {
    case 'bytes':
      return toBase64(v as Uint8Array);
    case 'int64':
    case 'uint64':
    case 'sint64':
    case 'fixed64':
    case 'sfixed64':
      return num(v);
    default:
      return v;
  }
}

function zeroScalar(type: string): unknown {
  switch (type) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'bytes':
      return null; // a nil []byte without omitempty
    default:
      return 0;
  }
}

/** Raw JSON bytes (FieldsV1, apiextensions JSON) as the value they spell. */
function rawJson(raw: Uint8Array | undefined): unknown {
  if (!raw || raw.length === 0) return null;
  return JSON.parse(utf8.decode(raw));
}


/** One protobufjs message (as Type.decode returns it) in the server's JSON form. */
export function messageToJson(schema: K8sSchema, t: protobuf.Type, m: Record<string, unknown>, converted = false): unknown {
  const plan = planOf(t);
  // `converted`: the message values in `m` are in their JSON form already (the one-pass reader).
  const sub = (mt: protobuf.Type, x: unknown): unknown => (converted ? x : messageToJson(schema, mt, x as Record<string, unknown>));
  switch (plan.special) {
    case 'time': {
      if (!hasOwn.call(m, 'seconds')) return null;
      return rfc3339(num(m.seconds));
    }
    case 'microtime': {
      if (!hasOwn.call(m, 'seconds') && !hasOwn.call(m, 'nanos')) return null;
      return rfc3339(num(m.seconds), Math.floor(num(m.nanos ?? 0) / 1000));
    }
    case 'duration':
      return goDuration(num(m.duration ?? 0));
    case 'quantity':
      return (m.string as string | undefined) ?? '0';
    case 'intorstring':
      return num(m.type ?? 0) === 1 ? ((m.strVal as string | undefined) ?? '') : num(m.intVal ?? 0);
    case 'rawjson':
      return rawJson((m.Raw ?? m.raw) as Uint8Array | undefined);
    case 'rawextension':
      return rawExtension(schema, m.raw as Uint8Array | undefined);
    case 'slice': {
      const f = plan.fields[0];
      if (!f) return [];
      const items = (m[f.name] as unknown[] | undefined) ?? [];
      return items.map((x) => (f.message ? sub(f.message, x) : scalarJson(f.scalar!, x)));
    }
    case 'orarray': {
      const list = (m.jSONSchemas as Record<string, unknown>[] | undefined) ?? [];
      const schemaType = t.fields.schema!.resolvedType as protobuf.Type;
      if (list.length) return list.map((x) => sub(schemaType, x));
      return hasOwn.call(m, 'schema') ? sub(schemaType, m.schema) : null;
    }
    case 'orbool': {
      const schemaType = t.fields.schema!.resolvedType as protobuf.Type;
      if (hasOwn.call(m, 'schema')) return sub(schemaType, m.schema);
      return !!m.allows;
    }
    case 'orstringarray': {
      const prop = (m.property as string[] | undefined) ?? [];
      if (prop.length) return [...prop];
      const schemaType = t.fields.schema!.resolvedType as protobuf.Type;
      return hasOwn.call(m, 'schema') ? sub(schemaType, m.schema) : null;
    }
  }
  const out: Record<string, unknown> = {};
  for (const f of plan.fields) {
    const present = hasOwn.call(m, f.name);
    const v = m[f.name];
    if (f.map) {
      const entries = present ? Object.entries(v as Record<string, unknown>) : [];
      if (entries.length === 0 && f.omitempty) continue;
      if (!present && !f.omitempty) {
        out[f.json] = null;
        continue;
      }
      const o: Record<string, unknown> = {};
      for (const [k, x] of entries) setOwn(o, k, f.message ? sub(f.message, x) : scalarJson(f.scalar!, x));
      out[f.json] = o;
      continue;
    }
    if (f.repeated) {
      const list = present ? (v as unknown[]) : [];
      if (list.length === 0) {
        if (f.omitempty) continue;
        // A nil slice is `null` in Go's JSON; lists are the exception the server makes (`items: []`).
        out[f.json] = f.json === 'items' ? [] : null;
        continue;
      }
      out[f.json] = list.map((x) => (f.message ? sub(f.message, x) : scalarJson(f.scalar!, x)));
      continue;
    }
    if (f.message) {
      if (!present) {
        if (f.pointer) {
          if (!f.omitempty) out[f.json] = null;
          continue;
        }
      }
      const value = present ? sub(f.message, v) : messageToJson(schema, f.message, {});
      if (f.inline && value && typeof value === 'object') {
        Object.assign(out, value);
        continue;
      }
      // RawExtension and Time are structs whose zero JSON is `null`; omitempty does not drop
      // structs, omitzero does (`creationTimestamp` of a template).
      if (f.omitzero && (value === null || (typeof value === 'object' && Object.keys(value as object).length === 0))) continue;
      out[f.json] = value;
      continue;
    }
    if (f.pointer) {
      if (present) out[f.json] = scalarJson(f.scalar!, v);
      else if (!f.omitempty) out[f.json] = null;
      continue;
    }
    const value = present ? v : undefined;
    if (f.omitempty && isZeroScalar(value)) continue;
    out[f.json] = value === undefined ? zeroScalar(f.scalar!) : scalarJson(f.scalar!, value);
  }
  return out;
}


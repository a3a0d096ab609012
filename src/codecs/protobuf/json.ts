// From protobufjs messages to the JSON form the server sends for the same object.
import { setOwn } from '../json';
import { errText, SchemaDecodeError } from './errors';
import { decodeK8sEnvelope, decodeProtobufFields, K8S_MAGIC, type PbField, type PbResult } from './fields';
import { goDuration, rfc3339 } from './goText';
import { planOf } from './plan';
import type { K8sSchema } from './schema';
import { Cursor, readMessage } from './reader';
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

/** Decodes a whole buffer as one message of type `t` straight into its JSON form, in one pass. */
export function decodeMessageToJson(schema: K8sSchema, t: protobuf.Type, bytes: Uint8Array): unknown {
  return readMessage(t, new Cursor(bytes), bytes.length, (mt, m, converted) => messageToJson(schema, mt, m, converted));
}

/** The decoder of one message type to its JSON form: the compiled one where the schema has one, else the descriptor walk. */
export function jsonDecoder(schema: K8sSchema, t: protobuf.Type): (bytes: Uint8Array) => unknown {
  return schema.compiled?.[t.fullName.slice(1)] ?? ((bytes) => decodeMessageToJson(schema, t, bytes));
}

// Whole objects: here, not in decode.ts, because a RawExtension inside a message is itself a whole
// object (a nested `k8s\\0` body), so the JSON form and the object decoder call each other.
function startsWithMagic(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === K8S_MAGIC[0] && b[1] === K8S_MAGIC[1] && b[2] === K8S_MAGIC[2] && b[3] === K8S_MAGIC[3];
}

/** A runtime.RawExtension's bytes: a nested `k8s\\0` body, or embedded JSON. */
export function rawExtension(schema: K8sSchema, raw: Uint8Array | undefined): unknown {
  if (!raw || raw.length === 0) return null;
  if (startsWithMagic(raw)) {
    const d = decodeK8sObject(schema, raw);
    if (!d.ok) throw new SchemaDecodeError(`embedded object: ${d.error}`);
    return d.value.object;
  }
  // Embedded objects that are not protobuf are JSON (ControllerRevision data, Event involvedObject…).
  return JSON.parse(utf8.decode(raw));
}

export interface SchemaDecoded {
  apiVersion: string;
  kind: string;
  /** The JSON form; for a type the schema does not know, undefined (see `fields`). */
  object: unknown;
  /** The message type used, e.g. `k8s.io.api.core.v1.ConfigMap`. */
  type?: string;
  /** Field-number view for a type the schema does not know (a newer server, an aggregated API). */
  fields?: PbField[];
}


/** Decodes one `application/vnd.kubernetes.protobuf` body into the JSON form the server would send. */
export function decodeK8sObject(schema: K8sSchema, bytes: Uint8Array): PbResult<SchemaDecoded> {
  const env = decodeK8sEnvelope(bytes);
  if (!env.ok) return env;
  const { apiVersion, kind, raw, contentEncoding } = env.value;
  if (contentEncoding) return { ok: false, error: `The object is ${contentEncoding}-encoded inside the envelope; not decoded.` };
  const t = schema.typeFor(apiVersion, kind);
  if (!t) {
    const fields = decodeProtobufFields(raw);
    if (!fields.ok) return fields;
    return { ok: true, value: { apiVersion, kind, object: undefined, fields: fields.value } };
  }
  // Where `raw` starts in `bytes`, so errors point into the body the user has.
  const base = raw.byteOffset - bytes.byteOffset;
  let body: Record<string, unknown>;
  try {
    body = jsonDecoder(schema, t)(raw) as Record<string, unknown>;
  } catch (e) {
    return { ok: false, error: `Malformed ${t.name} message (object bytes start at offset ${base}): ${errText(e)}` };
  }
  try {
    // The server's JSON starts with kind and apiVersion.
    const object: Record<string, unknown> = { kind, apiVersion, ...body };
    if (kind === 'PartialObjectMetadataList' && Array.isArray(object.items)) {
      // The JSON serializer stamps each item's TypeMeta; protobuf does not carry it.
      object.items = (object.items as Record<string, unknown>[]).map((i) => ({ kind: 'PartialObjectMetadata', apiVersion, ...i }));
    }
    return { ok: true, value: { apiVersion, kind, object, type: t.fullName.slice(1) } };
  } catch (e) {
    return { ok: false, error: `Cannot turn ${t.name} into JSON: ${errText(e)}` };
  }
}

// Kubernetes protobuf decoded with the real schemas: the `generated.proto` files of the control
// plane's own module versions, turned into a protobufjs descriptor by tools/generate-proto.ts
// and loaded lazily (the descriptor is ~450 KiB; only views that meet protobuf pay for it).
// The goal is exactly the JSON the server sends for the same object, so the Go JSON rules apply:
// - names are the `json:"…"` tags (carried in the descriptor as `json_name`), embedded structs
//   without a JSON name are inlined (`Volume` holds `VolumeSource`'s fields);
// - the generated marshallers write every non-pointer scalar, even when zero, so presence on the
//   wire says nothing for them: `omitempty` decides; a pointer field is on the wire only when set,
//   and then shown even when zero (`replicas: 0`);
// - types with their own JSON form: metav1.Time (RFC 3339, seconds; zero is `null`), MicroTime
//   (RFC 3339 with microseconds), Duration (Go's duration text), resource.Quantity (its string),
//   intstr.IntOrString, FieldsV1 and apiextensions JSON (raw JSON bytes), runtime.RawExtension
//   (embedded JSON or a nested `k8s\0` body), the JSONSchemaPropsOr* unions, slice types that
//   travel as a message with `items` (`ExtraValue`); `[]byte` is base64 as encoding/json writes it.
// - TypeMeta is not on the wire in protobuf: apiVersion and kind come from the runtime.Unknown
//   envelope (and list items carry none, as in JSON).
// Pure: bytes in, values or an error out.
import protobuf from 'protobufjs';
import { decodeK8sEnvelope, K8S_MAGIC, type PbField, type PbResult, decodeProtobufFields } from './protobuf';

export interface DescriptorJson {
  kubernetes: string;
  groupVersions: Record<string, string>;
  root: protobuf.INamespace;
}

export interface K8sSchema {
  kubernetes: string;
  root: protobuf.Root;
  /** The message type for an apiVersion and kind, or undefined when the schema does not know it. */
  typeFor(apiVersion: string, kind: string): protobuf.Type | undefined;
}

const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

export function schemaFromDescriptor(desc: DescriptorJson): K8sSchema {
  const root = protobuf.Root.fromJSON(desc.root);
  root.resolveAll();
  const cache = new Map<string, protobuf.Type | undefined>();
  return {
    kubernetes: desc.kubernetes,
    root,
    typeFor(apiVersion, kind) {
      const key = `${apiVersion}/${kind}`;
      if (cache.has(key)) return cache.get(key);
      // Kinds common to every group version (Status, WatchEvent, APIResourceList…) live in meta/v1.
      const pkgs = [desc.groupVersions[apiVersion], META].filter((p): p is string => !!p);
      let found: protobuf.Type | undefined;
      for (const p of pkgs) {
        const t = root.lookup(`${p}.${kind}`);
        if (t instanceof protobuf.Type) {
          found = t;
          break;
        }
      }
      cache.set(key, found);
      return found;
    },
  };
}

let loading: Promise<K8sSchema> | undefined;
let loaded: K8sSchema | undefined;

/** The schema of the Kubernetes version the explorer was built for, fetched on first use. */
export function loadK8sSchema(): Promise<K8sSchema> {
  loading ??= import('./proto/k8s-descriptor.json').then((m) => (loaded = schemaFromDescriptor((m.default ?? m) as unknown as DescriptorJson)));
  return loading;
}

/** The schema if it has been loaded already (views render at once then), else undefined. */
export function loadedK8sSchema(): K8sSchema | undefined {
  return loaded;
}

// ---------------------------------------------------------------------------------------------
// From protobufjs messages to the JSON form.

type Special =
  | 'time'
  | 'microtime'
  | 'duration'
  | 'quantity'
  | 'intorstring'
  | 'rawjson'
  | 'rawextension'
  | 'orarray'
  | 'orbool'
  | 'orstringarray'
  | 'slice';

const SPECIAL: Record<string, Special> = {
  [`.${META}.Time`]: 'time',
  [`.${META}.MicroTime`]: 'microtime',
  [`.${META}.Duration`]: 'duration',
  [`.${META}.FieldsV1`]: 'rawjson',
  '.k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  '.k8s.io.apimachinery.pkg.api.resource.QuantityValue': 'quantity',
  '.k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'intorstring',
  '.k8s.io.apimachinery.pkg.runtime.RawExtension': 'rawextension',
};
for (const v of ['v1', 'v1beta1']) {
  const p = `.k8s.io.apiextensions_apiserver.pkg.apis.apiextensions.${v}`;
  SPECIAL[`${p}.JSON`] = 'rawjson';
  SPECIAL[`${p}.JSONSchemaPropsOrArray`] = 'orarray';
  SPECIAL[`${p}.JSONSchemaPropsOrBool`] = 'orbool';
  SPECIAL[`${p}.JSONSchemaPropsOrStringArray`] = 'orstringarray';
}

interface FieldPlan {
  name: string;
  json: string;
  omitempty: boolean;
  omitzero: boolean;
  pointer: boolean;
  inline: boolean;
  repeated: boolean;
  map: boolean;
  /** The scalar type (for maps: of the value), or undefined for a message. */
  scalar?: string;
  message?: protobuf.Type;
}

interface Plan {
  special?: Special;
  fields: FieldPlan[];
}

const plans = new WeakMap<protobuf.Type, Plan>();

function planOf(t: protobuf.Type): Plan {
  let p = plans.get(t);
  if (p) return p;
  const special = SPECIAL[t.fullName] ?? (t.options?.['(k8s.slice)'] ? 'slice' : undefined);
  p = {
    special,
    fields: t.fieldsArray.map((f) => {
      const o = f.options ?? {};
      const resolved = f.resolvedType;
      return {
        name: f.name,
        json: (o.json_name as string | undefined) ?? f.name,
        omitempty: !!o['(k8s.omitempty)'],
        omitzero: !!o['(k8s.omitzero)'],
        pointer: !!o['(k8s.pointer)'],
        inline: !!o['(k8s.inline)'],
        repeated: f.repeated,
        map: f.map,
        scalar: resolved instanceof protobuf.Type ? undefined : f.type,
        message: resolved instanceof protobuf.Type ? resolved : undefined,
      };
    }),
  };
  plans.set(t, p);
  return p;
}

const hasOwn = Object.prototype.hasOwnProperty;

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

function rfc3339(seconds: number, micros?: number): string {
  const d = new Date(seconds * 1000);
  const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return micros === undefined ? `${base}Z` : `${base}.${pad(micros, 6)}Z`;
}

/** Go's time.Duration.String(): "1h2m3.5s", "150ms", "0s". */
export function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const neg = ns < 0;
  let u = Math.abs(ns);
  let out: string;
  if (u < 1e9) {
    const [unit, div] = u < 1e3 ? ['ns', 1] : u < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    out = `${trimFrac(u / div)}${unit}`;
  } else {
    const h = Math.floor(u / 3.6e12);
    u -= h * 3.6e12;
    const m = Math.floor(u / 6e10);
    u -= m * 6e10;
    out = `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${trimFrac(u / 1e9)}s`;
  }
  return neg ? `-${out}` : out;
}

function trimFrac(x: number): string {
  return String(Number(x.toFixed(9)));
}

function num(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && 'toNumber' in v) return (v as { toNumber(): number }).toNumber();
  return Number(v);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 with padding, as Go's encoding/json writes []byte. */
export function base64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + B64[(n >> 6) & 63]! + B64[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += B64[n >> 18]! + B64[(n >> 12) & 63]! + (i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '=') + '=';
  }
  return out;
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
      return base64(v as Uint8Array);
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

export class SchemaDecodeError extends Error {}

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
      for (const [k, x] of entries) o[k] = f.message ? sub(f.message, x) : scalarJson(f.scalar!, x);
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

function startsWithMagic(b: Uint8Array): boolean {
  return b.length >= 4 && b[0] === K8S_MAGIC[0] && b[1] === K8S_MAGIC[1] && b[2] === K8S_MAGIC[2] && b[3] === K8S_MAGIC[3];
}

function rawExtension(schema: K8sSchema, raw: Uint8Array | undefined): unknown {
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

function errText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
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
    body = decodeMessageToJson(schema, t, raw) as Record<string, unknown>;
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

export interface SchemaWatchEvent {
  /** Offset of the frame's 4-byte length in the stream. */
  offset: number;
  type: string;
  object: SchemaDecoded;
}

export interface SchemaWatch {
  events: SchemaWatchEvent[];
  /** Bytes after the last complete frame (a running watch mid-frame). */
  rest: number;
  error?: string;
}

const WatchEventFields = { type: 1, object: 2 };

/** A `;stream=watch` protobuf stream: 4-byte big-endian length, then a metav1.WatchEvent, repeated. */
export function decodeK8sWatch(schema: K8sSchema, bytes: Uint8Array): SchemaWatch {
  const events: SchemaWatchEvent[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const evType = schema.root.lookupType(`${META}.WatchEvent`);
  let pos = 0;
  while (pos + 4 <= bytes.length) {
    const len = view.getUint32(pos, false);
    if (pos + 4 + len > bytes.length) break;
    const frame = bytes.subarray(pos + 4, pos + 4 + len);
    let ev: { type?: string; object?: { raw?: Uint8Array } };
    try {
      ev = decodeMessage(evType, frame) as typeof ev;
    } catch (e) {
      return { events, rest: bytes.length - pos, error: `Frame at offset ${pos}: malformed WatchEvent: ${errText(e)}` };
    }
    if (!ev.type) return { events, rest: bytes.length - pos, error: `Frame at offset ${pos}: WatchEvent without a type (field ${WatchEventFields.type}).` };
    const raw = ev.object?.raw;
    if (!raw) return { events, rest: bytes.length - pos, error: `Frame at offset ${pos}: WatchEvent without an object (field ${WatchEventFields.object}).` };
    const obj = decodeK8sObject(schema, raw);
    if (!obj.ok) return { events, rest: bytes.length - pos, error: `Frame at offset ${pos}: ${obj.error}` };
    events.push({ offset: pos, type: ev.type, object: obj.value });
    pos += 4 + len;
  }
  return { events, rest: bytes.length - pos };
}

// ---------------------------------------------------------------------------------------------
// The other way: an edited object (its JSON form) as an `application/vnd.kubernetes.protobuf`
// request body. Every field of the object must have a place in the schema: a field that does not
// (a typo, a field of a newer version) is an error naming its path, never silently dropped.

export class SchemaEncodeError extends Error {}

function parseRfc3339(s: string, path: string): { seconds: number; nanos: number } {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.exec(s);
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(ms)) throw new SchemaEncodeError(`${path}: "${s}" is not an RFC 3339 time`);
  const frac = m[2] ? m[2].slice(1).padEnd(9, '0').slice(0, 9) : '0';
  return { seconds: Math.floor(ms / 1000), nanos: Number(frac) };
}

/** Parses Go's duration text ("1h2m3.5s", "150ms") into nanoseconds. */
export function parseGoDuration(s: string, path = 'duration'): number {
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
  const unit: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };
  const neg = s.startsWith('-');
  const body = s.replace(/^[+-]/, '');
  let total = 0;
  re.lastIndex = 0;
  let m: RegExpExecArray | null;
  let consumed = 0;
  while ((m = re.exec(body))) {
    total += Number(m[1]) * unit[m[2]!]!;
    consumed = re.lastIndex;
  }
  if (!body || consumed !== body.length) throw new SchemaEncodeError(`${path}: "${s}" is not a Go duration`);
  return Math.round(neg ? -total : total);
}

function fromBase64(s: string, path: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0) throw new SchemaEncodeError(`${path}: not base64`);
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const utf8enc = new TextEncoder();

function scalarFromJson(type: string, v: unknown, path: string): unknown {
  switch (type) {
    case 'string':
      if (typeof v !== 'string') throw new SchemaEncodeError(`${path}: expected a string, got ${JSON.stringify(v)}`);
      return v;
    case 'bool':
      if (typeof v !== 'boolean') throw new SchemaEncodeError(`${path}: expected true or false, got ${JSON.stringify(v)}`);
      return v;
    case 'bytes':
      if (typeof v !== 'string') throw new SchemaEncodeError(`${path}: expected base64 text`);
      return fromBase64(v, path);
    case 'double':
    case 'float':
      if (typeof v !== 'number') throw new SchemaEncodeError(`${path}: expected a number, got ${JSON.stringify(v)}`);
      return v;
    default:
      if (typeof v !== 'number' || !Number.isInteger(v)) throw new SchemaEncodeError(`${path}: expected an integer, got ${JSON.stringify(v)}`);
      return v;
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
      if (typeof v === 'number' && Number.isInteger(v)) return { type: 0, intVal: v };
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
  if (!isObj(v)) throw new SchemaEncodeError(`${path}: expected an object, got ${JSON.stringify(v)}`);
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
      for (const [k, y] of Object.entries(x)) o[k] = f.message ? (jsonToMessage(f.message, y, `${p}[${JSON.stringify(k)}]`) ?? {}) : scalarFromJson(f.scalar!, y, `${p}[${JSON.stringify(k)}]`);
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

// ---------------------------------------------------------------------------------------------
// Reading and writing messages by walking the descriptor, with protobufjs' Reader and Writer.
// Not Type.decode/encode: those are generated with `new Function`, which the explorer's
// Content-Security-Policy (`script-src 'self'`, no 'unsafe-eval') forbids in the browser.
// The result has the shape Type.decode gives (fields by proto name, only those on the wire),
// so messageToJson applies to both.

// A small reader of our own for speed (protobufjs' Reader allocates a Long per int64 and goes
// through a generic string decoder); the same wire rules.
class Cursor {
  pos = 0;
  readonly view: DataView;
  constructor(readonly buf: Uint8Array) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }
  fail(what: string): never {
    throw new Error(`${what} at offset ${this.pos}`);
  }
  varint(): number {
    const b = this.buf;
    let p = this.pos;
    let x = b[p++]!;
    if (x < 0x80) {
      this.pos = p;
      return x;
    }
    let result = x & 0x7f;
    let mul = 0x80;
    for (let i = 1; i < 10; i++) {
      if (p >= b.length) this.fail('truncated varint');
      x = b[p++]!;
      result += (x & 0x7f) * mul;
      if (x < 0x80) {
        this.pos = p;
        // Negative int32/int64 are 10-byte two's complement: fold back into the signed range.
        return result >= 2 ** 63 ? result - 2 ** 64 : result;
      }
      mul *= 0x80;
    }
    return this.fail('varint longer than 10 bytes');
  }
  length(): number {
    const n = this.varint();
    if (this.pos + n > this.buf.length) this.fail(`a field of ${n} bytes runs past the end (${this.buf.length - this.pos} left)`);
    return n;
  }
  string(): string {
    const n = this.length();
    const b = this.buf;
    const p = this.pos;
    this.pos = p + n;
    if (n < 24) {
      let s = '';
      for (let i = p; i < p + n; i++) {
        const c = b[i]!;
        if (c >= 0x80) return utf8.decode(b.subarray(p, p + n));
        s += String.fromCharCode(c);
      }
      return s;
    }
    return utf8.decode(b.subarray(p, p + n));
  }
  bytes(): Uint8Array {
    const n = this.length();
    const p = this.pos;
    this.pos = p + n;
    return this.buf.slice(p, p + n);
  }
  skip(wt: number): void {
    switch (wt) {
      case 0:
        this.varint();
        return;
      case 1:
        this.pos += 8;
        break;
      case 2:
        this.pos += this.length();
        return;
      case 5:
        this.pos += 4;
        break;
      default:
        this.fail(`unsupported wire type ${wt}`);
    }
    if (this.pos > this.buf.length) this.fail('truncated field');
  }
}

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

function readValue(c: Cursor, code: number, message: protobuf.Type | undefined, schema?: K8sSchema): unknown {
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
      return readFast(message!, c, c.pos + n, schema);
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

function readFast(t: protobuf.Type, c: Cursor, end: number, schema?: K8sSchema): Record<string, unknown> {
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
      let v: unknown = f.code === 11 ? (schema ? messageToJson(schema, f.message!, {}) : {}) : f.code === 0 ? '' : f.code === 1 ? new Uint8Array() : 0;
      while (c.pos < stop) {
        const kk = c.varint();
        if (kk >>> 3 === 1) k = readValue(c, f.keyCode, undefined);
        else if (kk >>> 3 === 2) v = readValue(c, f.code, f.message, schema);
        else c.skip(kk & 7);
      }
      const obj = (m[f.name] ??= {}) as Record<string, unknown>;
      obj[String(k)] = v;
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
    const value = readValue(c, f.code, f.message, schema);
    if (f.repeated) ((m[f.name] ??= []) as unknown[]).push(value);
    else m[f.name] = value;
  }
  if (c.pos > end) c.fail(`${t.name} runs ${c.pos - end} byte(s) past its end`);
  return schema ? (messageToJson(schema, t, m, true) as Record<string, unknown>) : m;
}

/** Decodes a whole buffer as one message of type `t`; errors name the offset in `base + …`. */
export function decodeMessage(t: protobuf.Type, bytes: Uint8Array): Record<string, unknown> {
  return readFast(t, new Cursor(bytes), bytes.length);
}

/** Decodes a whole buffer as one message of type `t` straight into its JSON form, in one pass. */
export function decodeMessageToJson(schema: K8sSchema, t: protobuf.Type, bytes: Uint8Array): unknown {
  return readFast(t, new Cursor(bytes), bytes.length, schema);
}

const WIRE: Record<string, number> = { double: 1, fixed64: 1, sfixed64: 1, float: 5, fixed32: 5, sfixed32: 5, string: 2, bytes: 2 };

function writeScalar(w: protobuf.Writer, id: number, type: string, v: unknown): void {
  w.uint32((id << 3) | (WIRE[type] ?? 0));
  switch (type) {
    case 'string':
      w.string(v as string);
      return;
    case 'bytes':
      w.bytes(v as Uint8Array);
      return;
    case 'bool':
      w.bool(v as boolean);
      return;
    case 'double':
      w.double(v as number);
      return;
    case 'float':
      w.float(v as number);
      return;
    default:
      (w as unknown as Record<string, (x: number) => void>)[type]!.call(w, v as number);
  }
}

/** Writes a plain message (fields by proto name, as jsonToMessage makes them) of type `t`. */
export function writeMessage(t: protobuf.Type, m: Record<string, unknown>, w: protobuf.Writer = protobuf.Writer.create()): protobuf.Writer {
  for (const f of [...t.fieldsArray].sort((a, b) => a.id - b.id)) {
    const v = m[f.name];
    if (v === undefined || v === null) continue;
    const sub = f.resolvedType instanceof protobuf.Type ? f.resolvedType : undefined;
    if (f.map) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        w.uint32((f.id << 3) | 2).fork();
        writeScalar(w, 1, (f as unknown as protobuf.MapField).keyType, k);
        if (sub) writeMessage(sub, x as Record<string, unknown>, w.uint32((2 << 3) | 2).fork()).ldelim();
        else writeScalar(w, 2, f.type, x);
        w.ldelim();
      }
    } else if (f.repeated) {
      for (const x of v as unknown[]) {
        if (sub) writeMessage(sub, x as Record<string, unknown>, w.uint32((f.id << 3) | 2).fork()).ldelim();
        else writeScalar(w, f.id, f.type, x);
      }
    } else if (sub) writeMessage(sub, v as Record<string, unknown>, w.uint32((f.id << 3) | 2).fork()).ldelim();
    else writeScalar(w, f.id, f.type, v);
  }
  return w;
}

// Whole bodies: one `application/vnd.kubernetes.protobuf` object, or a watch stream, decoded into
// the JSON form the server would send.
import { errText, SchemaDecodeError } from './errors';
import { decodeK8sEnvelope, decodeProtobufFields, K8S_MAGIC, type PbField, type PbResult } from './fields';
import { decodeMessage, jsonDecoder } from './reader';
import { type K8sSchema, META } from './schema';

const utf8 = new TextDecoder();
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


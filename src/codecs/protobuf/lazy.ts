// A list body decoded only as far as a list view needs: the list's own metadata and each item's
// metadata, with the item's bytes kept so the whole item is decoded when someone opens it.
// Wire facts relied on (apimachinery generated.proto): every Kubernetes list message has
// `metadata` (ListMeta) as field 1 and `items` as field 2; every object has `metadata`
// (ObjectMeta) as field 1. Bytes are subarrays of the body (no copy): an item keeps the body alive.
import { errText } from './errors';
import { decodeK8sEnvelope, type PbResult } from './fields';
import { Cursor } from './reader';
import { jsonDecoder } from './json';
import { type K8sSchema, META } from './schema';
import protobuf from 'protobufjs';

export interface LazyItem {
  /** The item's metadata in its JSON form. */
  metadata: Record<string, unknown>;
  /** The item's own message bytes. */
  bytes: Uint8Array;
}

export interface LazyList {
  apiVersion: string;
  kind: string;
  /** The list's ListMeta in its JSON form. */
  metadata: Record<string, unknown>;
  items: LazyItem[];
  /** The item type, e.g. `k8s.io.api.core.v1.Pod`. */
  itemType: string;
}

export interface LazyOptions {
  /**
   * false: each item's metadata without `managedFields` (rows rarely show them, and their
   * FieldsV1 JSON is much of an item's metadata); open the item for them.
   */
  managedFields?: boolean;
}

/** ObjectMeta field 17, managedFields: key (17 << 3) | 2. */
const MANAGED_FIELDS_KEY = 138;

/** Reads a list body's envelope, ListMeta and each item's ObjectMeta; items stay bytes. */
export function decodeK8sListLazily(schema: K8sSchema, body: Uint8Array, options: LazyOptions = {}): PbResult<LazyList> {
  const env = decodeK8sEnvelope(body);
  if (!env.ok) return env;
  const { apiVersion, kind, raw, contentEncoding } = env.value;
  if (contentEncoding) return { ok: false, error: `The object is ${contentEncoding}-encoded inside the envelope; not decoded.` };
  const t = schema.typeFor(apiVersion, kind);
  const itemsField = t?.fieldsById[2];
  const itemType = itemsField?.resolvedType;
  if (!t || !t.fieldsById[1] || !itemsField?.repeated || !(itemType instanceof protobuf.Type)) return { ok: false, error: `${apiVersion} ${kind} is not a list the schema knows.` };
  const listMeta = jsonDecoder(schema, schema.root.lookupType(`${META}.ListMeta`));
  const fullMeta = jsonDecoder(schema, schema.root.lookupType(`${META}.ObjectMeta`));
  const objectMeta = options.managedFields === false ? (b: Uint8Array) => fullMeta(withoutField(b, MANAGED_FIELDS_KEY)) : fullMeta;
  const items: LazyItem[] = [];
  let metadata: Record<string, unknown> | undefined;
  try {
    const c = new Cursor(raw);
    while (c.pos < raw.length) {
      const key = c.varint();
      if (key === 10 || key === 18) {
        const n = c.length();
        const bytes = raw.subarray(c.pos, c.pos + n);
        c.pos += n;
        if (key === 10) metadata = listMeta(bytes) as Record<string, unknown>;
        else items.push({ metadata: itemMetadata(bytes, objectMeta), bytes });
      } else c.skip(key & 7);
    }
  } catch (e) {
    return { ok: false, error: `Malformed ${t.name} message: ${errText(e)}` };
  }
  return { ok: true, value: { apiVersion, kind, metadata: metadata ?? (listMeta(new Uint8Array()) as Record<string, unknown>), items, itemType: itemType.fullName.slice(1) } };
}

function itemMetadata(item: Uint8Array, objectMeta: (b: Uint8Array) => unknown): Record<string, unknown> {
  const c = new Cursor(item);
  let meta: Record<string, unknown> | undefined;
  while (c.pos < item.length) {
    const key = c.varint();
    if (key === 10) {
      const n = c.length();
      // Go's decoder merges repeated occurrences of a message field; the server writes it once.
      meta = objectMeta(item.subarray(c.pos, c.pos + n)) as Record<string, unknown>;
      c.pos += n;
    } else c.skip(key & 7);
  }
  return meta ?? (objectMeta(new Uint8Array()) as Record<string, unknown>);
}

/** The message without the occurrences of one length-delimited field (a copy only when it has some). */
function withoutField(msg: Uint8Array, key: number): Uint8Array {
  const c = new Cursor(msg);
  const kept: Uint8Array[] = [];
  let from = 0;
  let size = 0;
  while (c.pos < msg.length) {
    const at = c.pos;
    const k = c.varint();
    c.skip(k & 7);
    if (k !== key) continue;
    kept.push(msg.subarray(from, at));
    size += at - from;
    from = c.pos;
  }
  if (from === 0) return msg;
  kept.push(msg.subarray(from));
  size += msg.length - from;
  const out = new Uint8Array(size);
  let p = 0;
  for (const part of kept) {
    out.set(part, p);
    p += part.length;
  }
  return out;
}

/** One item of a lazy list, decoded whole into the JSON form it has in the list's JSON. */
export function openLazyItem(schema: K8sSchema, list: LazyList, item: LazyItem): unknown {
  return jsonDecoder(schema, schema.root.lookupType(list.itemType))(item.bytes);
}

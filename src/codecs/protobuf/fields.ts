// Kubernetes protobuf bodies, read without the .proto schemas (the explorer does not load them yet),
// so fields are known by number only. Wire facts relied on (protobuf encoding guide; apimachinery
// runtime/serializer/protobuf):
// - A body is the 4 magic bytes `6b 38 73 00` ("k8s\0") then a runtime.Unknown message:
//   1 typeMeta {1 apiVersion, 2 kind}, 2 raw (the object's own message), 3 contentEncoding,
//   4 contentType.
// - A watch (`application/vnd.kubernetes.protobuf;stream=watch`) is frames of a 4-byte big-endian
//   length then a metav1.WatchEvent {1 type, 2 object: RawExtension {1 raw}}; raw is a whole body
//   again, magic included.
// - Field keys are varints `(fieldNumber << 3) | wireType`; wire types 0 varint, 1 fixed64,
//   2 length-delimited, 5 fixed32 (3 and 4, groups, are not used by Kubernetes types).
// Everything here is pure and returns errors as values.

export const K8S_MAGIC = new Uint8Array([0x6b, 0x38, 0x73, 0x00]);

export type PbResult<T> = { ok: true; value: T } | { ok: false; error: string };

export type PbValue =
  /** Wire type 0. A number when it fits in a JS number exactly, else its decimal text. */
  | { type: 'varint'; value: number | string }
  /** Wire type 1 (unsigned decimal text) or 5 (a number). */
  | { type: 'fixed64'; value: string }
  | { type: 'fixed32'; value: number }
  /** Wire type 2 that parses as a message; `text` too when the same bytes are also printable. */
  | { type: 'message'; fields: PbField[]; text?: string }
  | { type: 'text'; value: string }
  | { type: 'bytes'; hex: string; length: number };

export interface PbField {
  fieldNumber: number;
  wireType: number;
  /** Where the field's key starts in the decoded buffer. */
  offset: number;
  /** Where the field's value ends (exclusive). */
  end: number;
  value: PbValue;
}

export interface DecodeOptions {
  /** Length-delimited fields nested deeper than this are left as bytes or text. */
  maxDepth?: number;
  /** Offset of these bytes in the body they came from, so errors and field offsets point into it. */
  base?: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
    /** Added to positions in error messages: where `buf` sits in the whole body. */
    readonly base = 0,
  ) {
    this.pos = start;
  }
  /** Reads a varint of up to 10 bytes; a bigint only when it does not fit exactly in a number. */
  varint(): number | bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Error(`truncated varint at offset ${this.base + this.pos}`);
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(result) : result;
      shift += 7n;
    }
    throw new Error(`varint longer than 10 bytes at offset ${this.base + this.pos}`);
  }
  take(n: number): Uint8Array {
    if (this.pos + n > this.end) throw new Error(`field of ${n} bytes at offset ${this.base + this.pos} runs past the end (${this.end - this.pos} left)`);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}

export function toHex(bytes: Uint8Array, limit = 4096): string {
  const hex = Array.from(bytes.subarray(0, limit), (b) => b.toString(16).padStart(2, '0')).join(' ');
  return bytes.length > limit ? `${hex} …` : hex;
}

function printableText(bytes: Uint8Array): string | undefined {
  try {
    const s = utf8.decode(bytes);
    return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(s) ? undefined : s;
  } catch {
    return undefined;
  }
}

/** Parses bytes as a message; throws when they are not one (strictly: every byte consumed). */
function parseFields(buf: Uint8Array, depth: number, maxDepth: number, base: number): PbField[] {
  const r = new Reader(buf, 0, buf.length, base);
  const fields: PbField[] = [];
  while (r.pos < r.end) {
    const offset = r.pos;
    const key = r.varint();
    if (typeof key === 'bigint' || key > 0xffffffff) throw new Error(`field key too large at offset ${base + offset}`);
    const fieldNumber = Math.floor(key / 8);
    const wireType = key % 8;
    if (fieldNumber < 1 || fieldNumber > 536870911) throw new Error(`invalid field number ${fieldNumber} at offset ${base + offset}`);
    let value: PbValue;
    switch (wireType) {
      case 0: {
        const v = r.varint();
        value = { type: 'varint', value: typeof v === 'bigint' ? v.toString() : v };
        break;
      }
      case 1: {
        const b = r.take(8);
        const v = new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, true);
        value = { type: 'fixed64', value: v.toString() };
        break;
      }
      case 5: {
        const b = r.take(4);
        value = { type: 'fixed32', value: new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true) };
        break;
      }
      case 2: {
        const len = r.varint();
        if (typeof len === 'bigint' || len > 0x7fffffff) throw new Error(`length too large at offset ${base + offset}`);
        const start = r.pos;
        value = lengthDelimited(r.take(len), depth, maxDepth, base + start);
        break;
      }
      default:
        throw new Error(`unsupported wire type ${wireType} (field ${fieldNumber}) at offset ${base + offset}`);
    }
    fields.push({ fieldNumber, wireType, offset: base + offset, end: base + r.pos, value });
  }
  return fields;
}

/**
 * Without a schema, a length-delimited field may be a message, a string or bytes. A nested message
 * is tried first (as `protoc --decode_raw` does); text that happens to parse as one keeps its text.
 */
function lengthDelimited(bytes: Uint8Array, depth: number, maxDepth: number, base: number): PbValue {
  const text = printableText(bytes);
  if (bytes.length > 0 && depth < maxDepth) {
    try {
      const fields = parseFields(bytes, depth + 1, maxDepth, base);
      return text === undefined ? { type: 'message', fields } : { type: 'message', fields, text };
    } catch {
      // not a message: fall through
    }
  }
  if (text !== undefined) return { type: 'text', value: text };
  return { type: 'bytes', hex: toHex(bytes), length: bytes.length };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Decodes bytes as a protobuf message, schema-less: field numbers, wire types and values. */
export function decodeProtobufFields(bytes: Uint8Array, options: DecodeOptions = {}): PbResult<PbField[]> {
  try {
    return { ok: true, value: parseFields(bytes, 0, options.maxDepth ?? 32, options.base ?? 0) };
  } catch (e) {
    return { ok: false, error: `Malformed protobuf: ${errorText(e)}` };
  }
}

export interface K8sEnvelope {
  apiVersion: string;
  kind: string;
  /** The object's own message bytes (runtime.Unknown field 2). */
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

function stringField(bytes: Uint8Array): string {
  return new TextDecoder('utf-8').decode(bytes);
}

/** Reads the `k8s\0` magic and the runtime.Unknown that follows it. */
export function decodeK8sEnvelope(bytes: Uint8Array): PbResult<K8sEnvelope> {
  if (bytes.length < K8S_MAGIC.length || !K8S_MAGIC.every((b, i) => bytes[i] === b)) {
    return { ok: false, error: 'Not a Kubernetes protobuf body: it does not start with the magic bytes 6b 38 73 00 ("k8s\\0").' };
  }
  const env: K8sEnvelope = { apiVersion: '', kind: '', raw: new Uint8Array(), contentEncoding: '', contentType: '' };
  try {
    const r = new Reader(bytes, K8S_MAGIC.length);
    while (r.pos < r.end) {
      const at = r.pos;
      const key = r.varint();
      if (typeof key === 'bigint') throw new Error(`field key too large at offset ${at}`);
      const [field, wt] = [Math.floor(key / 8), key % 8];
      if (wt !== 2) {
        // Unknown has only length-delimited fields; skip anything else a newer server might add.
        if (wt === 0) r.varint();
        else if (wt === 1) r.take(8);
        else if (wt === 5) r.take(4);
        else throw new Error(`unsupported wire type ${wt} at offset ${at}`);
        continue;
      }
      const len = r.varint();
      if (typeof len === 'bigint') throw new Error(`length too large at offset ${at}`);
      const value = r.take(len);
      if (field === 1) {
        const t = new Reader(value);
        while (t.pos < t.end) {
          const k = t.varint();
          if (typeof k === 'bigint' || k % 8 !== 2) throw new Error('typeMeta holds a field that is not a string');
          const l = t.varint();
          if (typeof l === 'bigint') throw new Error('typeMeta string too long');
          const s = stringField(t.take(l));
          if (Math.floor(k / 8) === 1) env.apiVersion = s;
          else if (Math.floor(k / 8) === 2) env.kind = s;
        }
      } else if (field === 2) env.raw = value;
      else if (field === 3) env.contentEncoding = stringField(value);
      else if (field === 4) env.contentType = stringField(value);
    }
  } catch (e) {
    return { ok: false, error: `Malformed runtime.Unknown after the magic: ${errorText(e)}` };
  }
  return { ok: true, value: env };
}

export interface DecodedK8sProtobuf {
  envelope: K8sEnvelope;
  /** The object's fields, by number (field names need the .proto schemas). */
  fields: PbField[];
}

/** A whole `application/vnd.kubernetes.protobuf` body: envelope, then the object's field tree. */
export function decodeK8sProtobuf(bytes: Uint8Array, options?: DecodeOptions): PbResult<DecodedK8sProtobuf> {
  const env = decodeK8sEnvelope(bytes);
  if (!env.ok) return env;
  if (env.value.contentEncoding) {
    return { ok: false, error: `The object is ${env.value.contentEncoding}-encoded inside the envelope; not decoded.` };
  }
  const fields = decodeProtobufFields(env.value.raw, options);
  if (!fields.ok) return fields;
  return { ok: true, value: { envelope: env.value, fields: fields.value } };
}

export interface PbWatchEvent {
  /** The frame's offset in the stream. */
  offset: number;
  type: string;
  /** The object's decoded body (envelope and fields), or why it could not be decoded. */
  object: PbResult<DecodedK8sProtobuf>;
}

export interface PbWatchFrames {
  events: PbWatchEvent[];
  /** Bytes after the last complete frame (a running watch mid-frame). */
  rest: number;
  error?: string;
}

/** Splits a protobuf watch stream into frames and decodes each metav1.WatchEvent. */
export function decodeProtobufWatch(bytes: Uint8Array, options?: DecodeOptions): PbWatchFrames {
  const events: PbWatchEvent[] = [];
  let pos = 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  while (pos + 4 <= bytes.length) {
    const len = view.getUint32(pos, false);
    if (pos + 4 + len > bytes.length) break;
    const frame = bytes.subarray(pos + 4, pos + 4 + len);
    const ev = decodeWatchEvent(frame, options);
    if (!ev.ok) return { events, rest: bytes.length - pos, error: `Frame at offset ${pos}: ${ev.error}` };
    events.push({ offset: pos, ...ev.value });
    pos += 4 + len;
  }
  return { events, rest: bytes.length - pos };
}

/** One metav1.WatchEvent message (a frame's payload, without the length prefix). */
export function decodeWatchEvent(frame: Uint8Array, options?: DecodeOptions): PbResult<{ type: string; object: PbResult<DecodedK8sProtobuf> }> {
  let type = '';
  let raw: Uint8Array | undefined;
  try {
    const r = new Reader(frame);
    while (r.pos < r.end) {
      const at = r.pos;
      const key = r.varint();
      if (typeof key === 'bigint' || key % 8 !== 2) throw new Error(`unexpected field key at offset ${at}`);
      const len = r.varint();
      if (typeof len === 'bigint') throw new Error(`length too large at offset ${at}`);
      const value = r.take(len);
      if (Math.floor(key / 8) === 1) type = stringField(value);
      else if (Math.floor(key / 8) === 2) {
        // RawExtension {1 raw}
        const x = new Reader(value);
        while (x.pos < x.end) {
          const k = x.varint();
          if (typeof k === 'bigint' || k % 8 !== 2) throw new Error('RawExtension holds an unexpected field');
          const l = x.varint();
          if (typeof l === 'bigint') throw new Error('RawExtension raw too long');
          const v = x.take(l);
          if (Math.floor(k / 8) === 1) raw = v;
        }
      }
    }
  } catch (e) {
    return { ok: false, error: `Malformed WatchEvent: ${errorText(e)}` };
  }
  if (!type) return { ok: false, error: 'Malformed WatchEvent: no type (field 1).' };
  const object: PbResult<DecodedK8sProtobuf> = raw ? decodeK8sProtobuf(raw, options) : { ok: false, error: 'The event carries no object (field 2).' };
  return { ok: true, value: { type, object } };
}

/** Finds the first field with this path of field numbers, e.g. [1, 1] for metadata.name. */
export function fieldAt(fields: PbField[], path: number[]): PbField | undefined {
  let list = fields;
  let found: PbField | undefined;
  for (const n of path) {
    found = list.find((f) => f.fieldNumber === n);
    if (!found) return undefined;
    list = found.value.type === 'message' ? found.value.fields : [];
  }
  return found;
}

/** The text of a length-delimited field, whether it was shown as text or also parsed as a message. */
export function fieldText(field: PbField | undefined): string | undefined {
  if (!field) return undefined;
  if (field.value.type === 'text') return field.value.value;
  if (field.value.type === 'message') return field.value.text;
  return undefined;
}

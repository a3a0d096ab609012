// CBOR bodies (`application/cbor`, and `application/cbor-seq` for watches) turned into the plain
// values a JSON body would give. What the API server writes, and why each step below exists:
// - Go strings and struct field names are CBOR byte strings (major type 2), not text strings
//   (apimachinery serializer/cbor/internal/modes: StringToByteString, FieldNameToByteString), so a
//   map key or a value in bytes is read as UTF-8 text when it is valid UTF-8.
// - []byte fields (ConfigMap binaryData, Secret data) are byte strings inside tag 22, "expected
//   conversion to base64" (RFC 8949 §3.4.5.2): shown as the base64 text JSON would carry, and
//   their paths listed in `bytesAt` so the view can say they were bytes on the wire.
// - Every top-level item starts with the self-described CBOR tag 55799 (`d9 d9 f7`), dropped here.
// - A watch is a CBOR sequence (RFC 8742): items back to back with no other framing.
// Errors are returned, never thrown: the console renders whatever the server sent. Decoding is
// cbor-x's; a walk over the item heads first (itemEnd) tells truncated from malformed and where.
import { Decoder, Encoder, Tag } from 'cbor-x';
import { toBase64 } from './base64';
import { setOwn } from './json';

export type CborDecoded = { ok: true; value: unknown; bytesAt: string[] } | { ok: false; error: string };

const SELF_DESCRIBED = 55799;
const BASE64_EXPECTED = 22;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function asText(bytes: Uint8Array): string | undefined {
  // Most keys and values are short ASCII: build those directly, the decoder for the rest.
  if (bytes.length < 32) {
    let s = '';
    for (let i = 0; i < bytes.length; i++) {
      const c = bytes[i]!;
      if (c >= 0x80) return decodeUtf8(bytes);
      s += String.fromCharCode(c);
    }
    return s;
  }
  return decodeUtf8(bytes);
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}


function keyText(k: unknown): string {
  if (k instanceof Uint8Array) return asText(k) ?? toBase64(k);
  if (typeof k === 'string') return k;
  return String(k);
}

/** The path of the value being converted, as pieces: built into text only for `bytesAt`. */
type PathStack = (string | number)[];

function pathText(stack: PathStack): string {
  let path = '';
  for (const p of stack) {
    if (typeof p === 'number') path += `[${p}]`;
    else path = /^[A-Za-z_$][\w$]*$/.test(p) ? (path ? `${path}.${p}` : p) : `${path}[${JSON.stringify(p)}]`;
  }
  return path || '(root)';
}

/** Turns what cbor-x returns (Maps with byte keys, Uint8Array, Tag, bigint) into JSON-like values (integers beyond 2^53 as bigint). */
function plain(v: unknown, stack: PathStack, bytesAt: string[]): unknown {
  if (v instanceof Uint8Array) {
    const text = asText(v);
    if (text !== undefined) return text;
    bytesAt.push(pathText(stack));
    return toBase64(v);
  }
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, val] of v) {
      const key = keyText(k);
      stack.push(key);
      setOwn(out, key, plain(val, stack, bytesAt));
      stack.pop();
    }
    return out;
  }
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) {
      stack.push(i);
      out[i] = plain(v[i], stack, bytesAt);
      stack.pop();
    }
    return out;
  }
  if (v instanceof Tag) {
    if (v.tag === SELF_DESCRIBED) return plain(v.value, stack, bytesAt);
    if (v.tag === BASE64_EXPECTED && v.value instanceof Uint8Array) {
      bytesAt.push(pathText(stack));
      return toBase64(v.value);
    }
    // No other tag is expected from the API server; keep it visible rather than guess.
    return { '@tag': Number(v.tag), '@value': plain(v.value, stack, bytesAt) };
  }
  // An int64 beyond 2^53 (kube-apiserver writes one as a CBOR integer of 8 bytes) stays a bigint,
  // as json.ts and yaml.ts read it: a string would show a number as text, and differ from the
  // same object read as JSON or YAML.
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  if (v === undefined) return null;
  if (v !== null && typeof v === 'object' && !(v instanceof Date)) return String(v); // Simple values
  return v;
}

// mapsAsObjects: false keeps maps as Map, because the keys are byte strings (an object would
// stringify them as "104,105"); useRecords: false, since records are a cbor-x extension.
const decoder = new Decoder({ mapsAsObjects: false, useRecords: false });

function decodeItem(bytes: Uint8Array): unknown {
  return decoder.decode(bytes);
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Decodes one `application/cbor` body. Trailing bytes after the first item are an error. */
export function decodeCbor(bytes: Uint8Array): CborDecoded {
  if (bytes.length === 0) return { ok: false, error: 'Empty body: no CBOR item.' };
  const end = itemEnd(bytes, 0);
  if (typeof end === 'string') return { ok: false, error: end };
  if (end !== bytes.length) return { ok: false, error: `Extra bytes after the CBOR item: ${bytes.length - end} byte(s) from offset ${end}.` };
  try {
    const bytesAt: string[] = [];
    return { ok: true, value: plain(decodeItem(bytes), [], bytesAt), bytesAt };
  } catch (e) {
    return { ok: false, error: `Malformed CBOR: ${message(e)}` };
  }
}

export interface CborSeqItem {
  offset: number;
  length: number;
  decoded: CborDecoded;
}

export interface CborSeq {
  items: CborSeqItem[];
  /** Bytes after the last complete item: a running watch mid-item, or a malformed stream. */
  rest: number;
  /** Why the rest could not be read, when it is not simply an item still arriving. */
  error?: string;
}

/** Splits an `application/cbor-seq` body (a CBOR watch stream) into its items and decodes each. */
export function decodeCborSeq(bytes: Uint8Array): CborSeq {
  const items: CborSeqItem[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const end = itemEnd(bytes, offset);
    if (end === TRUNCATED) return { items, rest: bytes.length - offset };
    if (typeof end === 'string') return { items, rest: bytes.length - offset, error: end };
    items.push({ offset, length: end - offset, decoded: decodeCbor(bytes.subarray(offset, end)) });
    offset = end;
  }
  return { items, rest: 0 };
}

const TRUNCATED = 'Truncated CBOR: the body ends inside an item.';
const MAX_DEPTH = 256;

/**
 * Where the CBOR item starting at `start` ends (RFC 8949 §3 heads), or why it cannot be read.
 * Walking heads is cheap and tells a truncated item (a watch still streaming) from a bad one.
 */
function itemEnd(b: Uint8Array, start: number): number | string {
  let pos = start;
  // Items still to read at each open level; -1 marks an indefinite-length container (ends at break).
  const stack: number[] = [1];
  // One item at the innermost level is complete: count it, and close every level it completes.
  const finished = () => {
    while (stack.length) {
      const top = stack.length - 1;
      if (stack[top] === -1) return;
      stack[top]! -= 1;
      if (stack[top]! > 0) return;
      stack.pop();
    }
  };
  while (stack.length) {
    if (pos >= b.length) return TRUNCATED;
    const ib = b[pos++]!;
    const mt = ib >> 5;
    const ai = ib & 0x1f;
    if (ib === 0xff) {
      if (stack[stack.length - 1] !== -1) return `Malformed CBOR: unexpected "break" at offset ${pos - 1}.`;
      stack.pop();
      finished();
      continue;
    }
    let arg = 0;
    if (ai < 24) arg = ai;
    else if (ai <= 27) {
      const n = 1 << (ai - 24);
      if (pos + n > b.length) return TRUNCATED;
      for (let i = 0; i < n; i++) arg = arg * 256 + b[pos + i]!;
      pos += n;
    } else if (ai === 31 && mt >= 2 && mt <= 5) arg = -1;
    else return `Malformed CBOR: invalid additional information ${ai} for major type ${mt} at offset ${pos - 1}.`;
    if (stack.length >= MAX_DEPTH) return `Malformed CBOR: nested deeper than ${MAX_DEPTH} levels.`;
    if (mt === 0 || mt === 1 || mt === 7) finished();
    else if (mt === 2 || mt === 3) {
      // Indefinite strings are definite chunks of the same type up to a break.
      if (arg === -1) stack.push(-1);
      else {
        if (pos + arg > b.length) return TRUNCATED;
        pos += arg;
        finished();
      }
    } else if (mt === 4 || mt === 5) {
      const count = arg === -1 ? -1 : mt === 5 ? arg * 2 : arg;
      if (count === 0) finished();
      else stack.push(count);
    } else stack.push(1); // a tag: exactly one item follows
  }
  return pos;
}

// Encoding request bodies (create, update, apply as CBOR). The server's decoder takes text strings
// where Go has strings, and JSON numbers become CBOR integers when whole: cbor-x writes a whole
// number beyond 32 bits as a float64, which a Go int64 field refuses, so those go as bigint.
// variableMapSize: the shortest map header, as the server itself writes.
const encoder = new Encoder({ useRecords: false, mapsAsObjects: true, tagUint8Array: false, variableMapSize: true });

/** The self-described CBOR tag 55799 (RFC 8949 §3.4.6), which the server expects in front of a body. */
export const CBOR_SELF_DESCRIBED = new Uint8Array([0xd9, 0xd9, 0xf7]);

function forEncoding(v: unknown): unknown {
  if (typeof v === 'number') return Number.isInteger(v) && (v > 0xffffffff || v < -0x80000000) ? BigInt(v) : v;
  // A []byte field: raw bytes in tag 22, as the server writes them. Without the tag the server
  // reads a byte string for []byte as base64 text (the JSON way), and refuses a text string.
  if (v instanceof Uint8Array) return new Tag(v, BASE64_EXPECTED);
  if (Array.isArray(v)) return v.map(forEncoding);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) setOwn(out, k, forEncoding(x));
    return out;
  }
  return v;
}

/**
 * A value as an `application/cbor` (or `application/apply-patch+cbor`) body, self-described.
 * Give []byte fields as Uint8Array (codecs/protobuf's withBinaryBytes does that from the JSON form).
 */
export function encodeCbor(value: unknown): Uint8Array {
  const body = encoder.encode(forEncoding(value));
  const out = new Uint8Array(CBOR_SELF_DESCRIBED.length + body.length);
  out.set(CBOR_SELF_DESCRIBED);
  out.set(body, CBOR_SELF_DESCRIBED.length);
  return out;
}

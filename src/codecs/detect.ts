// Captured bytes of unknown format (a saved response body, a recorded watch) turned into their
// JSON form: used by `npm run decode` and the encodings view. Detection, from the bytes alone:
// - `6b 38 73 00` ("k8s\0") first: one Kubernetes protobuf body;
// - a 4-byte big-endian length whose frame starts with WatchEvent field 1 (`0a`) and holds the
//   magic: a protobuf watch stream (`;stream=watch`);
// - the self-described CBOR tag `d9 d9 f7` first: CBOR, a sequence (`cbor-seq`, a watch) when
//   more items follow the first;
// - `{` or `[`: JSON, or newline-delimited JSON (a JSON watch) when there is more than one value;
// - anything else that is text: YAML.
// Any error is reported with the byte offset where the bytes stop making sense, never as a
// partial result.
import { decodeCborSeq } from './cbor';
import { K8S_MAGIC, decodeProtobufFields, decodeK8sObject, decodeK8sWatch, type K8sSchema } from './protobuf';
import { JsonError, parseJsonExact } from './json';
import { parseYaml } from './text';

export type WireFormat = 'protobuf' | 'protobuf-watch' | 'cbor' | 'cbor-seq' | 'json' | 'ndjson' | 'yaml';

export interface DecodedBytes {
  format: WireFormat;
  /** One value for a body; one `{type, object}` per event for a watch. */
  values: unknown[];
  watch: boolean;
  /** Things the reader should know that are not errors (a type decoded by field number only). */
  notes: string[];
}

export type DetectResult = { ok: true; value: DecodedBytes } | { ok: false; format?: WireFormat; error: string };

function hasMagic(b: Uint8Array, at = 0): boolean {
  return b.length >= at + 4 && K8S_MAGIC.every((m, i) => b[at + i] === m);
}

function indexOfMagic(b: Uint8Array, from: number, to: number): boolean {
  for (let i = from; i + 4 <= to; i++) if (hasMagic(b, i)) return true;
  return false;
}

export function detectFormat(b: Uint8Array): WireFormat | undefined {
  if (hasMagic(b)) return 'protobuf';
  if (b.length >= 3 && b[0] === 0xd9 && b[1] === 0xd9 && b[2] === 0xf7) return 'cbor';
  if (b.length >= 6 && b[4] === 0x0a) {
    const len = new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(0, false);
    if (len > 0 && indexOfMagic(b, 4, Math.min(b.length, 4 + len))) return 'protobuf-watch';
  }
  let i = 0;
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  if (i === b.length) return undefined;
  if (b[i] === 0x7b || b[i] === 0x5b) return 'json';
  // CBOR without the self-described tag still starts with a map head (major type 5).
  if (b[i]! >> 5 === 5 && i === 0 && !isText(b)) return 'cbor';
  return isText(b) ? 'yaml' : undefined;
}

function isText(b: Uint8Array): boolean {
  try {
    const s = new TextDecoder('utf-8', { fatal: true }).decode(b.subarray(0, 4096));
    return !/[\u0000-\u0008\u000e-\u001f]/.test(s);
  } catch {
    return false;
  }
}

const utf8 = new TextDecoder();

/**
 * JSON read exactly (json.ts: integers beyond 2^53 as bigint, as the API server's int64 fields
 * hold them), with the failing byte offset (the parser names a character position, or none at the end).
 */
function parseJsonAt(text: string, base: number, bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: parseJsonExact(text) };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const at = e instanceof JsonError && e.offset !== undefined ? e.offset : /position (\d+)/.exec(msg)?.[1];
    const offset = at !== undefined ? base + new TextEncoder().encode(text.slice(0, Number(at))).length : base + new TextEncoder().encode(text).length;
    const end = at === undefined || offset >= bytes.length ? ' (the body ends too early: truncated?)' : '';
    return { ok: false, error: `Malformed JSON at byte offset ${offset}${end}: ${msg}` };
  }
}

function protobufError(schema: K8sSchema, bytes: Uint8Array, error: string): string {
  if (/offset \d+/.test(error) && !/object bytes start at offset/.test(error)) return error;
  // protobufjs names positions inside the object's bytes; walk them without the schema to give
  // the offset in the whole body.
  const start = /object bytes start at offset (\d+)/.exec(error);
  if (start) {
    const base = Number(start[1]);
    const walk = decodeProtobufFields(bytes.subarray(base), { base, maxDepth: 0 });
    if (!walk.ok) return `${walk.error} (${error})`;
  }
  void schema;
  return error;
}

export function decodeBytes(schema: K8sSchema, bytes: Uint8Array): DetectResult {
  const format = detectFormat(bytes);
  if (!format) return { ok: false, error: bytes.length === 0 ? 'Empty input: nothing to decode.' : 'Unknown format: not a Kubernetes protobuf body or watch, CBOR, JSON or YAML text.' };
  const notes: string[] = [];
  switch (format) {
    case 'protobuf': {
      const d = decodeK8sObject(schema, bytes);
      if (!d.ok) return { ok: false, format, error: protobufError(schema, bytes, d.error) };
      if (d.value.object === undefined) {
        notes.push(`${d.value.apiVersion} ${d.value.kind} is not in the Kubernetes ${schema.kubernetes} schemas: fields shown by number only.`);
        return { ok: true, value: { format, values: [{ apiVersion: d.value.apiVersion, kind: d.value.kind, fieldsByNumber: d.value.fields }], watch: false, notes } };
      }
      return { ok: true, value: { format, values: [d.value.object], watch: false, notes } };
    }
    case 'protobuf-watch': {
      const w = decodeK8sWatch(schema, bytes);
      if (w.error) return { ok: false, format, error: w.error };
      if (w.rest) return { ok: false, format, error: `Truncated protobuf watch: the frame at byte offset ${bytes.length - w.rest} is incomplete (${w.rest} byte(s) left, a frame needs its 4-byte length and that many bytes).` };
      for (const e of w.events) if (e.object.object === undefined) notes.push(`Frame at offset ${e.offset}: ${e.object.apiVersion} ${e.object.kind} decoded by field number only.`);
      return { ok: true, value: { format, values: w.events.map((e) => ({ type: e.type, object: e.object.object ?? { apiVersion: e.object.apiVersion, kind: e.object.kind, fieldsByNumber: e.object.fields } })), watch: true, notes } };
    }
    case 'cbor': {
      const seq = decodeCborSeq(bytes);
      if (seq.error) return { ok: false, format, error: `${seq.error}` };
      if (seq.rest) return { ok: false, format, error: `Truncated CBOR: the item starting at byte offset ${bytes.length - seq.rest} ends after the input (${bytes.length} bytes).` };
      for (const it of seq.items) if (!it.decoded.ok) return { ok: false, format, error: `CBOR item at byte offset ${it.offset}: ${it.decoded.error}` };
      const values = seq.items.map((it) => (it.decoded as { value: unknown }).value);
      if (values.length === 1) return { ok: true, value: { format, values, watch: false, notes } };
      return { ok: true, value: { format: 'cbor-seq', values, watch: true, notes } };
    }
    case 'json': {
      const text = utf8.decode(bytes);
      const whole = parseJsonAt(text, 0, bytes);
      if (whole.ok) return { ok: true, value: { format, values: [whole.value], watch: false, notes } };
      // More than one value, one per line: a JSON watch stream.
      const values: unknown[] = [];
      let offset = 0;
      const lines = text.split('\n');
      if (lines.filter((l) => l.trim()).length < 2) return { ok: false, format, error: whole.error };
      for (const line of lines) {
        const len = new TextEncoder().encode(line).length + 1;
        if (line.trim()) {
          const p = parseJsonAt(line, offset, bytes);
          if (!p.ok) return { ok: false, format: 'ndjson', error: p.error.replace('Malformed JSON', 'Malformed JSON watch line') };
          values.push(p.value);
        }
        offset += len;
      }
      return { ok: true, value: { format: 'ndjson', values, watch: true, notes } };
    }
    default: {
      const p = parseYaml(utf8.decode(bytes));
      if (!p.ok) return { ok: false, format, error: `Malformed YAML: ${p.error}` };
      return { ok: true, value: { format, values: Array.isArray(p.value) && /^\s*---/m.test(utf8.decode(bytes)) ? p.value : [p.value], watch: false, notes } };
    }
  }
}

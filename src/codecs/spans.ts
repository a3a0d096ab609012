// Where each part of a binary body sits, byte by byte, for the hex view: the protobuf envelope
// (magic, runtime.Unknown's typeMeta and raw), each field named by its JSON path through the
// schema (`metadata.name`), watch frames; and for CBOR the self-described tag and each map
// entry's key and value. Spans nest: a field's span holds its children's.
import type protobuf from 'protobufjs';
import { decodeProtobufFields, K8S_MAGIC, type PbField } from './protobuf';
import type { K8sSchema } from './protobuf';

export interface ByteSpan {
  start: number;
  /** Exclusive. */
  end: number;
  /** A JSON path (`metadata.name`, `data["a.b"]`), or a part of the framing (`magic`, `frame 2`). */
  label: string;
  kind: 'framing' | 'field';
}

function child(path: string, key: string): string {
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

function fieldText(f: PbField | undefined): string | undefined {
  if (!f) return undefined;
  if (f.value.type === 'text') return f.value.value;
  if (f.value.type === 'message') return f.value.text;
  if (f.value.type === 'varint') return String(f.value.value);
  return undefined;
}

function jsonName(f: protobuf.Field): string {
  return (f.options?.json_name as string | undefined) ?? f.name;
}

function walkFields(fields: PbField[], t: protobuf.Type | undefined, path: string, out: ByteSpan[]): void {
  const counts = new Map<number, number>();
  for (const f of fields) {
    const sf = t?.fieldsById[f.fieldNumber];
    if (!sf) {
      out.push({ start: f.offset, end: f.end, label: child(path, `#${f.fieldNumber}`), kind: 'field' });
      if (f.value.type === 'message') walkFields(f.value.fields, undefined, child(path, `#${f.fieldNumber}`), out);
      continue;
    }
    const inline = !!sf.options?.['(k8s.inline)'];
    const name = jsonName(sf);
    let p = inline ? path : child(path, name);
    const resolved = sf.resolvedType as protobuf.Type | null;
    if (sf.map && f.value.type === 'message') {
      const key = fieldText(f.value.fields.find((x) => x.fieldNumber === 1)) ?? '?';
      p = `${p}[${JSON.stringify(key)}]`;
      out.push({ start: f.offset, end: f.end, label: p, kind: 'field' });
      const value = f.value.fields.find((x) => x.fieldNumber === 2);
      if (value && value.value.type === 'message' && resolved && 'fieldsById' in resolved) walkFields(value.value.fields, resolved, p, out);
      continue;
    }
    if (sf.repeated) {
      const i = counts.get(f.fieldNumber) ?? 0;
      counts.set(f.fieldNumber, i + 1);
      p = `${p}[${i}]`;
    }
    if (!inline) out.push({ start: f.offset, end: f.end, label: p, kind: 'field' });
    if (f.value.type === 'message' && resolved && 'fieldsById' in resolved) walkFields(f.value.fields, resolved, p, out);
  }
}

/** Spans of one `k8s\0` body starting at `base` in the bytes shown. */
export function protobufSpans(schema: K8sSchema | undefined, bytes: Uint8Array, base = 0): ByteSpan[] {
  if (!K8S_MAGIC.every((m, i) => bytes[i] === m)) return [];
  const out: ByteSpan[] = [{ start: base, end: base + 4, label: 'magic "k8s\\0"', kind: 'framing' }];
  const env = decodeProtobufFields(bytes.subarray(4), { base: base + 4, maxDepth: 1 });
  if (!env.ok) return out;
  const names: Record<number, string> = { 1: 'runtime.Unknown typeMeta', 2: 'runtime.Unknown raw (the object)', 3: 'contentEncoding', 4: 'contentType' };
  let typeMeta: { apiVersion?: string; kind?: string } = {};
  for (const f of env.value) {
    out.push({ start: f.offset, end: f.end, label: names[f.fieldNumber] ?? `#${f.fieldNumber}`, kind: 'framing' });
    if (f.fieldNumber === 1 && f.value.type === 'message') typeMeta = { apiVersion: fieldText(f.value.fields.find((x) => x.fieldNumber === 1)), kind: fieldText(f.value.fields.find((x) => x.fieldNumber === 2)) };
  }
  const raw = env.value.find((f) => f.fieldNumber === 2);
  if (!raw) return out;
  // The raw field's value starts after its key and length varints.
  const rawStart = raw.end - contentLength(bytes, raw.offset - base);
  const t = schema && typeMeta.apiVersion !== undefined && typeMeta.kind ? schema.typeFor(typeMeta.apiVersion, typeMeta.kind) : undefined;
  const fields = decodeProtobufFields(bytes.subarray(rawStart - base, raw.end - base), { base: rawStart });
  if (fields.ok) walkFields(fields.value, t, '', out);
  return out;
}

/** The length a length-delimited field declares, reading its key and length varints at `at`. */
function contentLength(b: Uint8Array, at: number): number {
  let p = at;
  while (b[p]! & 0x80) p++;
  p++;
  let len = 0;
  let shift = 0;
  while (p < b.length) {
    const x = b[p++]!;
    len += (x & 0x7f) * 2 ** shift;
    if (!(x & 0x80)) break;
    shift += 7;
  }
  return len;
}

/** Spans of a protobuf watch stream: each frame's length prefix, then the object's spans. */
export function protobufWatchSpans(schema: K8sSchema | undefined, bytes: Uint8Array): ByteSpan[] {
  const out: ByteSpan[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  for (let n = 0; pos + 4 <= bytes.length; n++) {
    const len = view.getUint32(pos, false);
    if (pos + 4 + len > bytes.length) break;
    out.push({ start: pos, end: pos + 4 + len, label: `frame ${n}`, kind: 'framing' });
    out.push({ start: pos, end: pos + 4, label: `frame ${n} length (${len}, big-endian)`, kind: 'framing' });
    const ev = decodeProtobufFields(bytes.subarray(pos + 4, pos + 4 + len), { base: pos + 4, maxDepth: 2 });
    if (ev.ok) {
      for (const f of ev.value) {
        out.push({ start: f.offset, end: f.end, label: `frame ${n} WatchEvent.${f.fieldNumber === 1 ? 'type' : 'object'}`, kind: 'framing' });
        if (f.fieldNumber === 2 && f.value.type === 'message') {
          const raw = f.value.fields.find((x) => x.fieldNumber === 1);
          if (raw) {
            const start = raw.end - contentLength(bytes, raw.offset);
            out.push(...protobufSpans(schema, bytes.subarray(start, raw.end), start).map((s) => ({ ...s, label: s.kind === 'field' ? s.label : `frame ${n} ${s.label}` })));
          }
        }
      }
    }
    pos += 4 + len;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// CBOR: a walk over item heads (RFC 8949 §3) that names map entries by their keys.

const utf8 = new TextDecoder('utf-8', { fatal: true });

export function cborSpans(b: Uint8Array): ByteSpan[] {
  const out: ByteSpan[] = [];
  let pos = 0;
  let n = 0;
  try {
    while (pos < b.length) {
      const start = pos;
      pos = item(b, pos, '', out, 0);
      out.push({ start, end: pos, label: `item ${n++}`, kind: 'framing' });
    }
  } catch {
    // A malformed or truncated body: the spans found so far still help.
  }
  return out;
}

function head(b: Uint8Array, pos: number): { mt: number; arg: number; indefinite: boolean; next: number } {
  if (pos >= b.length) throw new Error('truncated');
  const ib = b[pos]!;
  const mt = ib >> 5;
  const ai = ib & 0x1f;
  let p = pos + 1;
  let arg = ai;
  if (ai >= 24 && ai <= 27) {
    const len = 1 << (ai - 24);
    if (p + len > b.length) throw new Error('truncated');
    arg = 0;
    for (let i = 0; i < len; i++) arg = arg * 256 + b[p + i]!;
    p += len;
  } else if (ai === 31) return { mt, arg: 0, indefinite: true, next: p };
  else if (ai > 27) throw new Error('malformed');
  return { mt, arg, indefinite: false, next: p };
}

function item(b: Uint8Array, pos: number, path: string, out: ByteSpan[], depth: number): number {
  if (depth > 200) throw new Error('too deep');
  const h = head(b, pos);
  switch (h.mt) {
    case 0:
    case 1:
    case 7:
      return h.next;
    case 2:
    case 3: {
      if (!h.indefinite) return h.next + h.arg;
      let p = h.next;
      while (b[p] !== 0xff) p = item(b, p, path, out, depth + 1);
      return p + 1;
    }
    case 4: {
      let p = h.next;
      for (let i = 0; h.indefinite ? b[p] !== 0xff : i < h.arg; i++) {
        const start = p;
        p = item(b, p, `${path}[${i}]`, out, depth + 1);
        out.push({ start, end: p, label: `${path}[${i}]`, kind: 'field' });
      }
      return h.indefinite ? p + 1 : p;
    }
    case 5: {
      let p = h.next;
      for (let i = 0; h.indefinite ? b[p] !== 0xff : i < h.arg; i++) {
        const start = p;
        const kh = head(b, p);
        let key = `#${i}`;
        if ((kh.mt === 2 || kh.mt === 3) && !kh.indefinite) {
          try {
            key = utf8.decode(b.subarray(kh.next, kh.next + kh.arg));
          } catch {
            // a binary key: keep its index
          }
        }
        p = item(b, p, path, out, depth + 1);
        const label = child(path, key);
        p = item(b, p, label, out, depth + 1);
        out.push({ start, end: p, label, kind: 'field' });
      }
      return h.indefinite ? p + 1 : p;
    }
    case 6: {
      const tagEnd = h.next;
      if (h.arg === 55799) out.push({ start: pos, end: tagEnd, label: 'self-described CBOR tag 55799', kind: 'framing' });
      return item(b, tagEnd, path, out, depth + 1);
    }
  }
  throw new Error('malformed');
}

/** The innermost span holding a byte, for the hex view's tooltips. */
export function innermost(spans: ByteSpan[], at: number): ByteSpan | undefined {
  let best: ByteSpan | undefined;
  for (const s of spans) if (s.start <= at && at < s.end && (!best || s.end - s.start <= best.end - best.start)) best = s;
  return best;
}

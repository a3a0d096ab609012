// A Protobuf watch stream read as far as a watch pane needs per event, without the schema.
// `application/vnd.kubernetes.protobuf;stream=watch` (what kube-apiserver answers to
// `Accept: application/vnd.kubernetes.protobuf;type=watch`, checked against v1.37) is a sequence of
// frames: a 4-byte big-endian length, then a metav1.WatchEvent {type (1): string, object (2):
// runtime.RawExtension {raw (1): bytes}}, where `raw` is a `k8s\0` envelope (runtime.Unknown:
// typeMeta (1) {apiVersion (1), kind (2)}, raw (2): the object's message, contentEncoding (3)).
// Every Kubernetes object message has its ObjectMeta as field 1 (generated.proto), so a pane reads
// name, namespace, resourceVersion and creationTimestamp from it and leaves the rest as bytes: the
// whole object is decoded with the schema only when someone opens it (decode.ts).
// ERROR events carry a metav1.Status (the server's own 410 "too old resource version", for one),
// read here too: the watch machinery acts on its code and reason.
import { K8S_MAGIC } from './fields';
import { rfc3339 } from './goText';
import { Cursor } from './cursor';

/** Frames larger than this are taken for a corrupt length, not waited for. */
export const MAX_WATCH_FRAME = 256 * 1024 * 1024;

/**
 * Cuts a watch body into frames as its chunks arrive, whatever their boundaries. Each frame is
 * returned with its 4-byte length, in a buffer of its own (a copy): a kept event must not hold
 * the whole chunk it came in alive.
 */
export class ProtobufWatchFramer {
  private rest: Uint8Array = new Uint8Array(0);

  push(chunk: Uint8Array): Uint8Array[] {
    let buf = chunk;
    if (this.rest.length) {
      buf = new Uint8Array(this.rest.length + chunk.length);
      buf.set(this.rest);
      buf.set(chunk, this.rest.length);
    }
    const frames: Uint8Array[] = [];
    let pos = 0;
    while (buf.length - pos >= 4) {
      const len = ((buf[pos]! << 24) >>> 0) + (buf[pos + 1]! << 16) + (buf[pos + 2]! << 8) + buf[pos + 3]!;
      if (len > MAX_WATCH_FRAME) throw new Error(`a watch frame of ${len} bytes at offset ${pos}: not a Protobuf watch stream`);
      if (buf.length - pos - 4 < len) break;
      frames.push(buf.slice(pos, pos + 4 + len));
      pos += 4 + len;
    }
    this.rest = pos === buf.length ? new Uint8Array(0) : buf.slice(pos);
    return frames;
  }

  /** Bytes of an incomplete frame left at the end (0 when the stream ended on a frame boundary). */
  get pending(): number {
    return this.rest.length;
  }
}

/** metav1.Status as JSON has it, from its Protobuf message: what the watch machinery acts on. */
export interface StatusJson {
  kind: 'Status';
  apiVersion: string;
  metadata: Record<string, unknown>;
  status?: string;
  message?: string;
  reason?: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: { reason?: string; message?: string; field?: string }[]; retryAfterSeconds?: number };
  code?: number;
}

/** The fields of ObjectMeta a pane's row and timeline use, in their JSON form. */
export interface MetaHead {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  annotations?: Record<string, string>;
}

export interface WatchFrame {
  type: string;
  apiVersion: string;
  kind: string;
  /** The object's ObjectMeta head (not for ERROR events, whose object is a Status). */
  metadata?: MetaHead;
  /** ERROR events: the Status. */
  status?: StatusJson;
  /** Set when the envelope says the object is compressed (then nothing of it is read). */
  contentEncoding?: string;
}

/** One frame (with its 4-byte length) of a Protobuf watch stream, read as far as a pane needs. Throws on malformed bytes. */
export function readWatchFrame(frame: Uint8Array): WatchFrame {
  // One cursor over the frame, each nested message read within its own end: a cursor per message
  // (a DataView each) was much of the cost per event in a streaming list of 20,000 Pods.
  const c = new Cursor(frame);
  c.pos = 4;
  let type = '';
  let raw: [number, number] | undefined;
  while (c.pos < frame.length) {
    const key = c.varint();
    if (key === 10) type = c.string();
    else if (key === 18) {
      const e = end(c);
      raw = rawOf(c, e);
      closed(c, e);
    } else c.skip(key & 7);
  }
  if (!type) throw new Error('a watch event without a type (field 1)');
  if (!raw) throw new Error(`a ${type} watch event without an object (field 2)`);
  c.pos = raw[0];
  const env = readEnvelope(c, raw[1]);
  const out: WatchFrame = { type, apiVersion: env.apiVersion, kind: env.kind };
  if (env.contentEncoding) out.contentEncoding = env.contentEncoding;
  else if (type === 'ERROR' || env.kind === 'Status') out.status = readStatusMessage(frame.subarray(env.object[0], env.object[1]), env.apiVersion);
  else {
    c.pos = env.object[0];
    out.metadata = metaHead(c, env.object[1]);
  }
  return out;
}

/** A `k8s\0` body holding a metav1.Status (an HTTP error's body in Protobuf), as JSON has it. */
export function readStatusBody(body: Uint8Array): StatusJson {
  const env = readEnvelope(new Cursor(body), body.length);
  if (env.kind !== 'Status') throw new Error(`expected a Status, got ${env.apiVersion} ${env.kind}`);
  return readStatusMessage(body.subarray(env.object[0], env.object[1]), env.apiVersion);
}

/** The bytes of the object inside a frame's `k8s\0` envelope, for a decoder with the schema. */
export function watchFrameObject(frame: Uint8Array): Uint8Array {
  const c = new Cursor(frame);
  c.pos = 4;
  while (c.pos < frame.length) {
    const key = c.varint();
    if (key === 18) {
      const raw = rawOf(c, end(c));
      if (raw) return frame.subarray(raw[0], raw[1]);
    } else c.skip(key & 7);
  }
  throw new Error('a watch event without an object (field 2)');
}

/** Reads a length-delimited field's length; the cursor stays at its first byte. Returns where it ends. */
function end(c: Cursor): number {
  const n = c.length();
  return c.pos + n;
}

/** A nested message read to `to` must end there: a field running past it means malformed bytes. */
function closed(c: Cursor, to: number): void {
  if (c.pos !== to) c.fail(`a field runs past the end of its message (at ${to})`);
}

function sub(c: Cursor): Uint8Array {
  const n = c.length();
  const b = c.buf.subarray(c.pos, c.pos + n);
  c.pos += n;
  return b;
}

/** runtime.RawExtension's raw (field 1), as [start, end) in the cursor's buffer; the cursor ends at `to`. */
function rawOf(c: Cursor, to: number): [number, number] | undefined {
  let raw: [number, number] | undefined;
  while (c.pos < to) {
    const key = c.varint();
    if (key === 10) {
      const e = end(c);
      raw = [c.pos, e];
      c.pos = e;
    } else c.skip(key & 7);
  }
  return raw;
}

function readEnvelope(c: Cursor, to: number): { apiVersion: string; kind: string; object: [number, number]; contentEncoding?: string } {
  const b = c.buf;
  const p = c.pos;
  if (to - p < 4 || b[p] !== K8S_MAGIC[0] || b[p + 1] !== K8S_MAGIC[1] || b[p + 2] !== K8S_MAGIC[2] || b[p + 3] !== K8S_MAGIC[3]) throw new Error('an object without the k8s\\0 envelope');
  c.pos = p + 4;
  let apiVersion = '';
  let kind = '';
  let object: [number, number] = [to, to];
  let contentEncoding: string | undefined;
  while (c.pos < to) {
    const key = c.varint();
    if (key === 10) {
      const e = end(c);
      while (c.pos < e) {
        const k = c.varint();
        if (k === 10) apiVersion = c.string();
        else if (k === 18) kind = c.string();
        else c.skip(k & 7);
      }
      closed(c, e);
    } else if (key === 18) {
      const e = end(c);
      object = [c.pos, e];
      c.pos = e;
    } else if (key === 26) contentEncoding = c.string() || undefined;
    else c.skip(key & 7);
  }
  return { apiVersion, kind, object, contentEncoding };
}

function metaHead(c: Cursor, to: number): MetaHead {
  const m: MetaHead = {};
  while (c.pos < to) {
    const key = c.varint();
    if (key !== 10) {
      c.skip(key & 7);
      continue;
    }
    const metaEnd = end(c);
    while (c.pos < metaEnd) {
      const k = c.varint();
      switch (k) {
        case 10:
          set(m, 'name', c.string());
          break;
        case 26:
          set(m, 'namespace', c.string());
          break;
        case 42:
          set(m, 'uid', c.string());
          break;
        case 50:
          set(m, 'resourceVersion', c.string());
          break;
        case 66:
          m.creationTimestamp = time(c, end(c)) ?? m.creationTimestamp;
          break;
        case 74:
          m.deletionTimestamp = time(c, end(c)) ?? m.deletionTimestamp;
          break;
        case 98: {
          const [ak, av] = mapEntry(c, end(c));
          (m.annotations ??= {})[ak] = av;
          break;
        }
        default:
          c.skip(k & 7);
      }
    }
    closed(c, metaEnd);
  }
  closed(c, to);
  return m;
}

function set(m: MetaHead, k: 'name' | 'namespace' | 'uid' | 'resourceVersion', v: string): void {
  if (v) m[k] = v;
}

/** metav1.Time {seconds (1), nanos (2)}: RFC 3339 in seconds as the JSON has it; the zero time (no seconds on the wire) is null in JSON, omitted here (json.ts's rule). */
function time(c: Cursor, to: number): string | undefined {
  let seconds: number | undefined;
  while (c.pos < to) {
    const k = c.varint();
    if (k === 8) seconds = c.varint();
    else c.skip(k & 7);
  }
  closed(c, to);
  return seconds === undefined ? undefined : rfc3339(seconds);
}

function mapEntry(c: Cursor, to: number): [string, string] {
  let k = '';
  let v = '';
  while (c.pos < to) {
    const key = c.varint();
    if (key === 10) k = c.string();
    else if (key === 18) v = c.string();
    else c.skip(key & 7);
  }
  closed(c, to);
  return [k, v];
}

/** metav1.Status: metadata (1, ListMeta), status (2), message (3), reason (4), details (5), code (6). */
function readStatusMessage(b: Uint8Array, apiVersion: string): StatusJson {
  const c = new Cursor(b);
  const s: StatusJson = { kind: 'Status', apiVersion: apiVersion || 'v1', metadata: {} };
  while (c.pos < b.length) {
    const key = c.varint();
    switch (key) {
      case 18:
        s.status = c.string() || undefined;
        break;
      case 26:
        s.message = c.string() || undefined;
        break;
      case 34:
        s.reason = c.string() || undefined;
        break;
      case 42:
        s.details = readDetails(sub(c));
        break;
      case 48:
        s.code = c.varint() || undefined;
        break;
      default:
        c.skip(key & 7);
    }
  }
  // JSON's omitempty drops the empty ones; keep the key order the server's JSON has.
  return JSON.parse(JSON.stringify(s)) as StatusJson;
}

function readDetails(b: Uint8Array): NonNullable<StatusJson['details']> {
  const c = new Cursor(b);
  const d: NonNullable<StatusJson['details']> = {};
  while (c.pos < b.length) {
    const key = c.varint();
    if (key === 10) d.name = c.string() || undefined;
    else if (key === 18) d.group = c.string() || undefined;
    else if (key === 26) d.kind = c.string() || undefined;
    else if (key === 34) (d.causes ??= []).push(readCause(sub(c)));
    else if (key === 40) d.retryAfterSeconds = c.varint() || undefined;
    else if (key === 50) d.uid = c.string() || undefined;
    else c.skip(key & 7);
  }
  return d;
}

function readCause(b: Uint8Array): { reason?: string; message?: string; field?: string } {
  const c = new Cursor(b);
  const r: { reason?: string; message?: string; field?: string } = {};
  while (c.pos < b.length) {
    const key = c.varint();
    // Field 1 is `type` in Go, `reason` in JSON (metav1.StatusCause).
    if (key === 10) r.reason = c.string() || undefined;
    else if (key === 18) r.message = c.string() || undefined;
    else if (key === 26) r.field = c.string() || undefined;
    else c.skip(key & 7);
  }
  return r;
}

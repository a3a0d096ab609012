// A watch request as an AsyncIterable of events. The request goes over the proxy's mux
// WebSocket; the JSON watch body is newline-delimited WatchEvents (API concepts: "Efficient
// detection of changes"). A non-200 answer becomes a KubeApiError carrying the server's Status,
// so a caller tells an HTTP 410 Gone from a 200 stream that later sends an ERROR event.
// A Protobuf watch (`encoding: 'protobuf'`) asks for `application/vnd.kubernetes.protobuf;type=watch`
// with JSON as the fallback (custom resources have no Protobuf form: the server then answers JSON),
// and the response's Content-Type, not the request, says how the body is read.
import { type NdjsonLine, NdjsonFramer } from '../../codecs/ndjson';
import { ProtobufWatchFramer, readStatusBody, readWatchFrame } from '../../codecs/protobuf/watchStream';
import { type WatchFormatId, wireFormat } from '../../codecs/formats';
import { KubeApiError, parseRetryAfter, type Status, statusOf } from '../client';
import type { MuxClient } from '../client/mux';
import type { KubeObject, WatchEvent } from './types';

export interface ReceivedEvent extends WatchEvent {
  /** The event's line exactly as the server sent it (without the newline). */
  raw: string;
  /** Bytes of that line. */
  size: number;
  /** Date.now() when the line was framed in the page. */
  receivedAt: number;
  /**
   * A Protobuf event: its frame as the server sent it (the 4-byte length, then the WatchEvent).
   * `object` then holds only what was read of it (kind, apiVersion, the ObjectMeta head; an ERROR
   * event's Status whole), and `raw` is empty: the whole object is decoded from these bytes when
   * someone opens it.
   */
  wire?: Uint8Array;
}

/** How a watch asks for its events; the response's Content-Type says how they came. */
/** The wire formats a watch may ask for: those with `watch` in codecs/formats.ts. */
export type WatchEncoding = WatchFormatId;


/** The encoding of a watch response, from its Content-Type (`application/vnd.kubernetes.protobuf;stream=watch` in v1.37). */
export function responseEncoding(contentType: string | undefined): WatchEncoding {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === 'application/vnd.kubernetes.protobuf' ? 'protobuf' : 'json';
}

export interface WatchRequest {
  mux: Pick<MuxClient, 'open'>;
  context: string;
  path: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The events' wire format (its `watch.accept` in codecs/formats.ts is the Accept). Default JSON. */
  encoding?: WatchEncoding;
}

export interface OpenWatch {
  /** Response headers (lower-case names). */
  headers: Record<string, string>;
  /** How the server encoded this stream (its Content-Type), whatever was asked. */
  encoding: WatchEncoding;
  /**
   * The stream as each chunk's events, decoded one at a time on demand (`event(i)`): one step of
   * the iteration per chunk, whatever the encoding. Read this, `lines` or `events`, only one.
   */
  batches: AsyncIterable<EventBatch>;
  events: AsyncIterable<ReceivedEvent>;
  /**
   * The same stream as the lines of each chunk, not yet decoded (decodeWatchLine): for a reader
   * that goes through many events (a watch pane catching up), one step of the iteration per
   * chunk instead of one per event. Read either this or `events`, not both.
   */
  lines: AsyncIterable<LineBatch>;
  close(): void;
}

/** Opens a watch; rejects with KubeApiError when the response is not 200. */
export async function openWatch(req: WatchRequest): Promise<OpenWatch> {
  const accept = wireFormat(req.encoding ?? 'json').watch!.accept;
  const stream = await req.mux.open({ context: req.context, path: req.path, headers: { Accept: accept, ...req.headers }, signal: req.signal });
  const encoding = responseEncoding(stream.headers['content-type']);
  if (stream.status !== 200) {
    const chunks: Uint8Array[] = [];
    try {
      for await (const c of stream.body) chunks.push(c);
    } catch {
      // The status line is what matters; a body cut short just gives a thinner message.
    }
    const status = errorStatus(stream.status, concat(chunks), encoding);
    throw new KubeApiError(status, stream.status, stream.fromProxy, parseRetryAfter(stream.headers['retry-after']) ?? status.details?.retryAfterSeconds);
  }
  async function* lines(): AsyncGenerator<LineBatch> {
    const framer = new NdjsonFramer();
    try {
      for await (const chunk of stream.body) {
        const ls = framer.pushLines(chunk);
        if (ls.length > 0) yield { lines: ls, receivedAt: Date.now() };
      }
      const rest = framer.end();
      if (rest.length > 0) yield { lines: rest.map((f) => ({ text: f.text, size: f.bytes.length })), receivedAt: Date.now() };
    } finally {
      stream.close();
    }
  }
  async function* frames(): AsyncGenerator<EventBatch> {
    const framer = new ProtobufWatchFramer();
    try {
      for await (const chunk of stream.body) {
        const fs = framer.push(chunk);
        if (fs.length > 0) {
          const receivedAt = Date.now();
          yield { count: fs.length, receivedAt, event: (i) => decodeWatchFrame(fs[i]!, receivedAt) };
        }
      }
      // A stream cut inside a frame: what came of that event cannot be read.
      if (framer.pending > 0) throw new Error(`the watch ended inside an event (${framer.pending} bytes of it received)`);
    } finally {
      stream.close();
    }
  }
  async function* batches(): AsyncGenerator<EventBatch> {
    if (encoding === 'protobuf') return yield* frames();
    for await (const b of lines()) yield { count: b.lines.length, receivedAt: b.receivedAt, event: (i) => decodeWatchLine(b.lines[i]!, b.receivedAt) };
  }
  async function* events(): AsyncGenerator<ReceivedEvent> {
    for await (const b of batches()) for (let i = 0; i < b.count; i++) yield b.event(i);
  }
  return { headers: stream.headers, encoding, batches: batches(), events: events(), lines: lines(), close: stream.close };
}

/** A non-200 answer's Status, from its JSON or its Protobuf body. */
function errorStatus(code: number, body: Uint8Array, encoding: WatchEncoding): Status {
  if (encoding === 'protobuf') {
    try {
      const s = readStatusBody(body) as Status;
      return { ...s, code: s.code ?? code };
    } catch {
      // Not a Status after all: the generic one below, from the code.
    }
  }
  return statusOf(code, encoding === 'protobuf' ? '' : new TextDecoder().decode(body));
}

/** The events of one chunk of a watch body, decoded when asked for. */
export interface EventBatch {
  count: number;
  event(i: number): ReceivedEvent;
  receivedAt: number;
}

/**
 * One frame of a Protobuf watch body as its event, read as far as a pane needs (watchStream.ts):
 * the object is its kind, apiVersion and ObjectMeta head (an ERROR event's: its Status), and the
 * frame is kept as `wire`. Throws on a malformed frame.
 */
export function decodeWatchFrame(frame: Uint8Array, receivedAt: number): ReceivedEvent {
  const f = readWatchFrame(frame);
  if (f.contentEncoding) throw new Error(`a ${f.type} event whose object is ${f.contentEncoding}-encoded: not read`);
  const object: KubeObject = f.status ? (f.status as unknown as KubeObject) : { kind: f.kind, apiVersion: f.apiVersion, metadata: { ...f.metadata } };
  return { type: f.type as WatchEvent['type'], object, raw: '', size: frame.length, receivedAt, wire: frame };
}

/** The lines of one chunk of a watch body, and when the page framed them. */
export interface LineBatch {
  lines: NdjsonLine[];
  receivedAt: number;
}

/** One line of a JSON watch body as its event; throws SyntaxError when the line is not JSON. */
export function decodeWatchLine(line: NdjsonLine, receivedAt: number): ReceivedEvent {
  const e = JSON.parse(line.text) as { type: WatchEvent['type']; object: KubeObject };
  return { type: e.type, object: e.object, raw: line.text, size: line.size, receivedAt };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

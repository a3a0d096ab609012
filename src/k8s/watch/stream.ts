// A watch request as an AsyncIterable of events. The request goes over the proxy's mux
// WebSocket; the JSON watch body is newline-delimited WatchEvents (API concepts: "Efficient
// detection of changes"). A non-200 answer becomes a KubeApiError carrying the server's Status,
// so a caller tells an HTTP 410 Gone from a 200 stream that later sends an ERROR event.
import { NdjsonFramer } from '../../codecs/ndjson';
import { KubeApiError, parseRetryAfter, statusOf } from '../client';
import type { MuxClient } from '../client/mux';
import type { KubeObject, WatchEvent } from './types';

export interface ReceivedEvent extends WatchEvent {
  /** The event's line exactly as the server sent it (without the newline). */
  raw: string;
  /** Bytes of that line. */
  size: number;
  /** Date.now() when the line was framed in the page. */
  receivedAt: number;
}

export interface WatchRequest {
  mux: Pick<MuxClient, 'open'>;
  context: string;
  path: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface OpenWatch {
  /** Response headers (lower-case names). */
  headers: Record<string, string>;
  events: AsyncIterable<ReceivedEvent>;
  close(): void;
}

/** Opens a watch; rejects with KubeApiError when the response is not 200. */
export async function openWatch(req: WatchRequest): Promise<OpenWatch> {
  const stream = await req.mux.open({ context: req.context, path: req.path, headers: { Accept: 'application/json', ...req.headers }, signal: req.signal });
  if (stream.status !== 200) {
    const chunks: Uint8Array[] = [];
    try {
      for await (const c of stream.body) chunks.push(c);
    } catch {
      // The status line is what matters; a body cut short just gives a thinner message.
    }
    const text = new TextDecoder().decode(concat(chunks));
    const status = statusOf(stream.status, text);
    throw new KubeApiError(status, stream.status, stream.fromProxy, parseRetryAfter(stream.headers['retry-after']) ?? status.details?.retryAfterSeconds);
  }
  async function* events(): AsyncGenerator<ReceivedEvent> {
    const framer = new NdjsonFramer();
    try {
      for await (const chunk of stream.body) {
        for (const f of framer.push(chunk)) yield decode(f.text, f.bytes.length);
      }
      for (const f of framer.end()) yield decode(f.text, f.bytes.length);
    } finally {
      stream.close();
    }
  }
  return { headers: stream.headers, events: events(), close: stream.close };
}

function decode(text: string, size: number): ReceivedEvent {
  const e = JSON.parse(text) as { type: WatchEvent['type']; object: KubeObject };
  return { type: e.type, object: e.object, raw: text, size, receivedAt: Date.now() };
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

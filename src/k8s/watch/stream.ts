// A watch request as an AsyncIterable of events. The request goes over the proxy's mux
// WebSocket; the JSON watch body is newline-delimited WatchEvents (API concepts: "Efficient
// detection of changes"). A non-200 answer becomes a KubeApiError carrying the server's Status,
// so a caller tells an HTTP 410 Gone from a 200 stream that later sends an ERROR event.
import { type NdjsonLine, NdjsonFramer } from '../../codecs/ndjson';
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
  async function* events(): AsyncGenerator<ReceivedEvent> {
    for await (const b of lines()) for (const l of b.lines) yield decodeWatchLine(l, b.receivedAt);
  }
  return { headers: stream.headers, events: events(), lines: lines(), close: stream.close };
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

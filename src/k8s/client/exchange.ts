// The one request/response recorder: an exchange as the console shows it, records it in the
// history and exports it to HAR, and as the Edit view and the lessons show what they sent and what
// came back. Bodies are kept as the bytes received (the browser has already undone any
// Content-Encoding), so that binary media types (protobuf, CBOR) can be shown as hex and exported
// faithfully.
import { isWatchRequest } from '../../../protocol/watch';
import { kubeFetch } from './kubeFetch';
import { userAgentSent } from './userAgent';
import { pathAsSent, pathProblem } from '../paths';

import type { HeaderList } from './headerList';

export { headerValue, type HeaderList } from './headerList';

export interface ExchangeRequest {
  method: string;
  /** The API path with its query string, exactly as sent to the API server: `/api/v1/pods?limit=5`. */
  path: string;
  /** Headers the user set (the proxy token and what the browser adds are not part of the exchange). */
  headers: HeaderList;
  body?: string;
  /** The bytes sent instead of `body` when the console encoded it (Protobuf, CBOR). */
  bodyBytes?: Uint8Array;
}

export interface ExchangeResponse {
  status: number;
  statusText: string;
  headers: HeaderList;
  body: Uint8Array;
  /** True when the body was cut at the console's size limit. */
  truncated?: boolean;
}

export interface Exchange {
  id: string;
  context: string;
  /** ISO 8601 time the request started. */
  startedAt: string;
  request: ExchangeRequest;
  response?: ExchangeResponse;
  /** A network failure or abort before any response. */
  error?: string;
  /** Milliseconds: total as the browser saw it; upstream as the proxy measured the API server (Server-Timing). */
  timings: { totalMs?: number; upstreamMs?: number };
  /**
   * The User-Agent the request reached the API server with: the explorer's (the proxy replaces the
   * browser's) or one the user set; undefined when not known (an old HAR).
   */
  userAgent?: string;
  /** Bytes as transferred (before decoding Content-Encoding), when the browser tells us. */
  wireSize?: number;
  watch: boolean;
  /** The user stopped a streaming response. */
  stopped?: boolean;
  /** Where it came from: run here, or imported from a HAR file. */
  source: 'live' | 'har';
}

const MAX_BODY = 8 * 1024 * 1024;


/** `upstream;dur=12.5, other;dur=3` → 12.5 (the proxy measures the API server's answer time). */
export function parseServerTiming(value: string | undefined, metric = 'upstream'): number | undefined {
  if (!value) return undefined;
  for (const entry of value.split(',')) {
    const [name, ...params] = entry.split(';').map((s) => s.trim());
    if (name !== metric) continue;
    for (const p of params) {
      const m = /^dur=("?)([\d.]+)\1$/.exec(p);
      if (m) return Number(m[2]);
    }
  }
  return undefined;
}

export function queryOf(path: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(path.split('?')[1] ?? ''));
}

let seq = 0;
export function newExchangeId(): string {
  seq += 1;
  return `${Date.now().toString(36)}-${seq}`;
}

export function decodeText(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/**
 * A growing byte buffer: appending is amortized O(chunk), and `view()` is a window on the bytes so
 * far, so a long watch does not copy its whole body again for every event.
 */
class ByteBuffer {
  private buf = new Uint8Array(16 * 1024);
  length = 0;
  push(chunk: Uint8Array) {
    if (this.length + chunk.length > this.buf.length) {
      let size = this.buf.length * 2;
      while (size < this.length + chunk.length) size *= 2;
      const next = new Uint8Array(size);
      next.set(this.buf.subarray(0, this.length));
      this.buf = next;
    }
    this.buf.set(chunk, this.length);
    this.length += chunk.length;
  }
  view(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
  /** An exact-size copy, for keeping. */
  copy(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Called with the exchange as it grows: once at the response head, then per received chunk. */
  onUpdate?: (x: Exchange) => void;
}

/**
 * Sends a request through the proxy and reads the response body incrementally, so that a watch
 * (which the server never ends by itself) is visible as events arrive and can be stopped.
 */
export async function runExchange(context: string, request: ExchangeRequest, opts: RunOptions = {}): Promise<Exchange> {
  const x: Exchange = {
    id: newExchangeId(),
    context,
    startedAt: new Date().toISOString(),
    // Recorded as the browser sends it (percent-encoding added where the typed path had none), so
    // the inspector, the history and the HAR hold the URL that reached the proxy. Paths the browser
    // would rewrite otherwise are refused by kubeFetch before sending.
    request: pathProblem(request.path) ? request : { ...request, path: pathAsSent(request.path) },
    timings: {},
    watch: isWatchRequest(request.path, request.method.toUpperCase()),
    source: 'live',
  };
  const userAgent = userAgentSent(request.headers);
  if (userAgent) x.userAgent = userAgent;
  const t0 = performance.now();
  let res: Response;
  try {
    res = await kubeFetch({
      context,
      path: request.path,
      method: request.method,
      headers: Object.fromEntries(request.headers),
      body: request.body !== undefined && request.body !== '' && request.method !== 'GET' && request.method !== 'HEAD' ? ((request.bodyBytes as BodyInit | undefined) ?? request.body) : null,
      signal: opts.signal,
    });
  } catch (e) {
    x.error = e instanceof Error ? e.message : String(e);
    x.stopped = opts.signal?.aborted;
    x.timings.totalMs = performance.now() - t0;
    return x;
  }
  const headers: HeaderList = [];
  res.headers.forEach((v, k) => headers.push([k, v]));
  x.response = { status: res.status, statusText: res.statusText, headers, body: new Uint8Array() };
  x.timings.upstreamMs = parseServerTiming(res.headers.get('Server-Timing') ?? undefined);
  opts.onUpdate?.({ ...x });
  const buffer = new ByteBuffer();
  if (res.body) {
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (buffer.length + value.length > MAX_BODY) {
          buffer.push(value.subarray(0, MAX_BODY - buffer.length));
          x.response.truncated = true;
          await reader.cancel();
          break;
        }
        buffer.push(value);
        if (x.watch) {
          x.response = { ...x.response, body: buffer.view() };
          opts.onUpdate?.({ ...x, timings: { ...x.timings } });
        }
      }
    } catch (e) {
      if (opts.signal?.aborted) x.stopped = true;
      else x.error = e instanceof Error ? e.message : String(e);
    }
  }
  x.response = { ...x.response, body: buffer.copy() };
  x.timings.totalMs = performance.now() - t0;
  x.wireSize = wireSizeOf(res.url, res.headers.get('Content-Length'));
  return x;
}

/** Bytes on the wire: the Resource Timing entry's encodedBodySize when there is one, else Content-Length. */
function wireSizeOf(url: string, contentLength: string | null): number | undefined {
  if (typeof performance !== 'undefined' && typeof performance.getEntriesByName === 'function' && url) {
    const entries = performance.getEntriesByName(url) as PerformanceResourceTiming[];
    const last = entries[entries.length - 1];
    if (last && last.encodedBodySize > 0) return last.encodedBodySize;
  }
  return contentLength !== null ? Number(contentLength) : undefined;
}

// Forwarding to the API server with node:http(s) directly: fetch would decompress gzip and buffer
// differently; here bytes pass through as sent, chunk by chunk, with backpressure both ways.
import { type ClientRequest, type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ProxyError, sendProxyError, upstreamFailure } from './errors';
import { clientResponseHeaders, toHeaderObject, upstreamRequestHeaders } from './headers';
import type { UpstreamTarget } from './kubeconfig';

/** The API server's own limit on request bodies (apiserver MaxRequestBodyBytes). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;
/** Time allowed for TCP+TLS to the API server; watches themselves have no timeout. */
export const CONNECT_TIMEOUT_MS = 15_000;

/** Live counters, for tests (an aborted watch must really close its upstream) and diagnostics. */
export interface ProxyStats {
  /** Upstream requests not yet closed. */
  upstreamOpen: number;
  /** Upstream requests started since launch. */
  upstreamTotal: number;
  /** Mux streams currently paused because their WebSocket has too much unsent data. */
  muxPaused: number;
}

export interface Upstream {
  req: ClientRequest;
  /** Destroys the upstream request on purpose: no onError follows. */
  abort(): void;
}

export interface UpstreamHandlers {
  onResponse(res: IncomingMessage, ttfbMs: number): void;
  /** A failure before any response arrived. */
  onError(err: ProxyError): void;
}

/**
 * Starts one upstream request. Headers are the already-filtered client headers; the target's
 * credentials are added here. The caller writes the body (or ends it) and destroys it to abort.
 */
export function openUpstream(
  target: UpstreamTarget,
  method: string,
  pathAndQuery: string,
  clientHeaders: [string, string][],
  stats: ProxyStats,
  handlers: UpstreamHandlers,
): Upstream {
  const headers = toHeaderObject(clientHeaders);
  for (const [k, v] of Object.entries(target.headers)) headers[k.toLowerCase()] = v;
  const started = performance.now();
  const req = (target.secure ? httpsRequest : httpRequest)({
    hostname: target.hostname,
    port: target.port,
    method,
    path: target.basePath + pathAndQuery,
    headers,
    agent: target.agent,
  });
  stats.upstreamOpen++;
  stats.upstreamTotal++;
  let responded = false;
  let failed = false;
  req.once('close', () => {
    stats.upstreamOpen--;
  });
  req.on('socket', (socket: Socket) => {
    socket.setNoDelay(true);
    if (!socket.connecting) return;
    const timer = setTimeout(() => {
      const e = new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`) as NodeJS.ErrnoException;
      e.code = 'ETIMEDOUT';
      req.destroy(e);
    }, CONNECT_TIMEOUT_MS);
    socket.once(target.secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
  });
  req.on('response', (res) => {
    responded = true;
    handlers.onResponse(res, performance.now() - started);
  });
  req.on('error', (err: NodeJS.ErrnoException) => {
    if (responded || failed) return;
    failed = true;
    handlers.onError(err instanceof ProxyError ? err : upstreamFailure(err, target.context, target.server));
  });
  return {
    req,
    abort() {
      failed = true;
      req.destroy();
    },
  };
}

/** A watch (`?watch=1`, `?watch=true`, or the deprecated /watch/ paths): a response the server streams. */
export function isStreamingRequest(pathAndQuery: string): boolean {
  const q = pathAndQuery.indexOf('?');
  const path = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const watch = new URLSearchParams(q < 0 ? '' : pathAndQuery.slice(q + 1)).get('watch');
  return (watch !== null && watch !== '0' && watch !== 'false') || /^\/(?:api\/[^/]+|apis\/[^/]+\/[^/]+)\/watch\//.test(path);
}

export function serverTiming(ttfbMs: number): string {
  return `upstream;dur=${ttfbMs.toFixed(1)}`;
}

/**
 * HTTP forwarding of one /k8s/ request whose path was already filtered. Response status, headers
 * (minus hop-by-hop) and body pass through unchanged; a client that goes away aborts the upstream.
 */
export function forwardHttp(
  req: IncomingMessage,
  res: ServerResponse,
  target: UpstreamTarget,
  pathAndQuery: string,
  stats: ProxyStats,
  log: (l: string) => void,
): void {
  let headers = upstreamRequestHeaders(req.rawHeaders);
  // Streamed responses (watches) are asked for uncompressed: the API server may gzip a stream as a
  // series of gzip members, one per flush, and browsers' decoders stop after the first, so the
  // watch would freeze after one or two events. The response says so (X-Explorer-Encoding).
  const streaming = isStreamingRequest(pathAndQuery);
  if (streaming) headers = [...headers.filter(([k]) => k.toLowerCase() !== 'accept-encoding'), ['Accept-Encoding', 'identity']];
  // Transfer-Encoding is hop-by-hop, but a chunked body still needs chunked framing upstream.
  const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
  if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined) headers.push(['Transfer-Encoding', 'chunked']);

  const upstream = openUpstream(target, req.method ?? 'GET', pathAndQuery, headers, stats, {
    onResponse(up, ttfbMs) {
      if (res.destroyed) {
        upstream.abort();
        return;
      }
      const out = clientResponseHeaders(up.rawHeaders);
      out.push(['Server-Timing', serverTiming(ttfbMs)]);
      if (streaming) out.push(['X-Explorer-Encoding', 'identity: the proxy asked the API server not to compress this stream']);
      // appendHeader, not writeHead(status, [pairs]): once setHeader has run (the security
      // headers), Node applies such pairs with setHeader, and a repeated name (one Warning header
      // per problem) would keep only its last value.
      for (const [k, v] of out) res.appendHeader(k, v);
      res.writeHead(up.statusCode ?? 502, up.statusMessage);
      // A streamed body (watch, chunked list) gets its headers now, not with the first body chunk:
      // a quiet watch is still an open watch. A body of known length goes out with its headers in
      // one write, which saves a packet on every small GET.
      if (up.headers['content-length'] === undefined) res.flushHeaders();
      up.pipe(res);
      up.on('close', () => {
        // Upstream cut mid-body: cut the client too, so a truncated body is not taken as complete.
        if (!up.complete) res.destroy();
      });
    },
    onError(err) {
      log(`proxy: ${err.message}`);
      sendProxyError(res, err);
    },
  });

  res.on('close', () => {
    if (!res.writableFinished) upstream.abort();
  });

  if (!hasBody) {
    upstream.req.end();
    return;
  }
  // Content-Length was checked before; this counts what actually arrives (chunked bodies, liars).
  let bytes = 0;
  let tooBig = false;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES && !tooBig) {
      tooBig = true;
      req.unpipe(upstream.req);
      upstream.abort();
      sendProxyError(res, tooLarge(), { close: true });
    }
  });
  req.pipe(upstream.req);
}

export function tooLarge(): ProxyError {
  return new ProxyError(413, 'RequestEntityTooLarge', 'BodyTooLarge', `request bodies are limited to ${MAX_BODY_BYTES} bytes (3 MiB), like the API server's own limit`);
}

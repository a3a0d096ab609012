// Forwarding one /k8s/ request to the API server: bytes pass through as sent, chunk by chunk,
// with backpressure both ways (fetch would decompress gzip and buffer differently). The request
// itself is opened by openUpstream.ts, which the mux shares.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isWatchRequest } from '../../protocol/watch';
import { ProxyError, sendProxyError } from './errors';
import { appendClientResponseHeaders, proxiedLocation, upstreamRequestHeaders } from './headers';
import type { UpstreamTarget } from './kubeconfig';
import { BODYLESS_METHODS, openUpstream, serverTiming, type Upstream, type UpstreamLaunch, type UpstreamReply } from './openUpstream';

/** The API server's own limit on request bodies (apiserver MaxRequestBodyBytes). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;
/** Bytes a response may hold unsent before the upstream is paused (per response; see forwardHttp). */
export const RESPONSE_HIGH_WATER = 1024 * 1024;
/** What the forwarder needs of the launch, the same for every request. */
export interface ForwardContext {
  launch: UpstreamLaunch;
  log: (line: string) => void;
  /** Told each request's time to first byte or failure, per context (for /proxy/status). */
  observe?: (context: string, outcome: { ttfbMs: number } | { error: ProxyError }) => void;
  /** Security headers as a flat name/value list, first on every answer. */
  security: readonly string[];
}

/** One /k8s/ request to forward, its path already filtered. */
export interface ForwardedRequest {
  req: IncomingMessage;
  res: ServerResponse;
  target: UpstreamTarget;
  pathAndQuery: string;
  /** The request's body framing headers, when the caller read them already (readDoorHeaders). */
  framing?: { 'content-length'?: string; 'transfer-encoding'?: string | string[] };
}

/**
 * HTTP forwarding of one /k8s/ request whose path was already filtered. Response status, headers
 * (minus hop-by-hop) and body pass through unchanged; a client that goes away aborts the upstream.
 */
export function forwardHttp(x: ForwardedRequest, ctx: ForwardContext): void {
  const { req, res, target, pathAndQuery } = x;
  const framing = x.framing ?? req.headers;
  const method = req.method ?? 'GET';
  const bodyless = BODYLESS_METHODS.has(method);
  // The proxy's own answers carry the security headers too (set first, then the Status).
  const fail = (err: ProxyError, opts?: { close?: boolean }) => {
    if (!res.headersSent) for (let i = 0; i < ctx.security.length; i += 2) res.setHeader(ctx.security[i]!, ctx.security[i + 1]!);
    sendProxyError(res, err, opts);
  };
  let headers = upstreamRequestHeaders(req.rawHeaders, bodyless);
  // Streamed responses (watches) are asked for uncompressed: the API server may gzip a stream as a
  // series of gzip members, one per flush, and browsers' decoders stop after the first, so the
  // watch would freeze after one or two events. The response says so (X-Explorer-Encoding).
  const streaming = isWatchRequest(pathAndQuery, method);
  if (streaming) headers = [...headers.filter(([k]) => k.toLowerCase() !== 'accept-encoding'), ['Accept-Encoding', 'identity']];
  // Transfer-Encoding is hop-by-hop, but a chunked body still needs chunked framing upstream.
  const announced = framing['content-length'] !== undefined || framing['transfer-encoding'] !== undefined;
  const hasBody = !bodyless && announced;
  if (hasBody && framing['content-length'] === undefined) headers.push(['Transfer-Encoding', 'chunked']);

  const upstream = openUpstream(ctx.launch, target, { method, pathAndQuery, headers }, {
    onResponse(up, ttfbMs) {
      if (res.destroyed) {
        ctx.observe?.(target.context, { ttfbMs });
        upstream.abort();
        return;
      }
      relayResponse(res, up, ttfbMs, { target, ctx, streaming });
    },
    onError(err) {
      ctx.log(`proxy: ${err.message}`);
      ctx.observe?.(target.context, { error: err });
      fail(err);
    },
  });

  const abandoned = () => {
    if (!res.writableFinished) upstream.abort();
  };
  if (!hasBody) {
    // The request goes out first; what follows overlaps with the API server's work. (A client
    // gone meanwhile is seen by the listener below: 'close' comes on a later turn.)
    upstream.end();
    res.on('close', abandoned);
    // A body sent with a GET anyway is read and dropped (within the request timeout and 3 MiB);
    // without Content-Length or Transfer-Encoding an HTTP/1.1 request has none.
    if (announced) discardBody(req, res);
    return;
  }
  res.on('close', abandoned);
  sendBody(req, upstream, () => fail(tooLarge(), { close: true }));
}

/** The API server's answer, passed on: one head, then the body as it comes, paused while the client is full. */
function relayResponse(res: ServerResponse, up: UpstreamReply, ttfbMs: number, { target, ctx, streaming }: { target: UpstreamTarget; ctx: ForwardContext; streaming: boolean }): void {
  // One writeHead with a flat list and nothing set before (the security headers come first in
  // the list): Node then writes the head straight from the list, where setHeader or
  // appendHeader would build and merge a header map on every response; repeated names (one
  // Warning header per problem) stay repeated.
  const out = appendClientResponseHeaders(up.rawHeaders, [...ctx.security]);
  out.push('Server-Timing', serverTiming(ttfbMs));
  if (streaming) out.push('X-Explorer-Encoding', 'identity: the proxy asked the API server not to compress this stream');
  // What the response head says of its body and of a redirect, read from the raw list: the
  // header map of IncomingMessage (or of the lean client's response) is built on first read.
  let hasLength = false;
  let hasLocation = false;
  for (let i = 0; i < up.rawHeaders.length; i += 2) {
    const n = up.rawHeaders[i]!;
    if (n.length === 14 && n.toLowerCase() === 'content-length') hasLength = true;
    else if (n.length === 8 && n.toLowerCase() === 'location') hasLocation = true;
  }
  // A redirect names a path on the API server; the browser must follow it through the proxy.
  if (hasLocation) {
    for (let i = 0; i < out.length; i += 2) if (out[i]!.toLowerCase() === 'location') out[i + 1] = proxiedLocation(out[i + 1]!, target);
  }
  if (up.statusMessage) res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
  else res.writeHead(up.statusCode ?? 502, out);
  // The whole body came with the head (a small object, a Status): one end() with it, no
  // listeners or events per piece; the connection's bookkeeping comes after the answer is out.
  const whole = up.takeBody?.();
  if (whole) {
    res.end(whole);
    ctx.observe?.(target.context, { ttfbMs });
    return;
  }
  ctx.observe?.(target.context, { ttfbMs });
  // A streamed body (watch, chunked list) gets its headers now, not with the first body chunk:
  // a quiet watch is still an open watch. A body of known length goes out with its headers in
  // one write, which saves a packet on every small GET.
  if (!hasLength) res.flushHeaders();
  // pipe() without its bookkeeping (listeners for unpipe, errors, finish on both sides, set up
  // and torn down per response): write, pause upstream while the client's socket is full.
  // "Full" is RESPONSE_HIGH_WATER, not the socket's 16 KiB highWaterMark: a TLS record is up to
  // 16 KiB, so pausing whenever write() says so stopped and restarted the upstream read after
  // nearly every record of a large list (a readStop/readStart pair and a turn of the event
  // loop each), which cost more than the bytes.
  //
  // The pieces of one turn of the event loop go out in one write: kube-apiserver writes a chunked
  // body in 4 KiB chunks (Go's bufio size), each its own TLS record and so its own 'data' here, and
  // a write per piece cost a writev system call per 4 KiB (38 of the 63 ms of CPU the proxy spent
  // on an 8 MiB list; 15 of 34 ms corked). Corked until setImmediate, the next check phase: after
  // the reads of this poll phase, before any timer, so a watch event waits for no other I/O.
  let corked = false;
  const uncork = () => {
    if (!corked) return;
    corked = false;
    res.uncork();
  };
  up.on('data', (chunk: Buffer) => {
    if (!corked) {
      corked = true;
      res.cork();
      setImmediate(uncork);
    }
    res.write(chunk);
    if (res.writableLength > RESPONSE_HIGH_WATER) up.pause();
  });
  res.on('drain', () => up.resume());
  up.on('end', () => {
    // Uncorked here, balanced, and not by the pending setImmediate: by then the kept-alive socket
    // may carry the next response.
    uncork();
    res.end();
  });
  up.on('close', () => {
    uncork();
    // Upstream cut mid-body: cut the client too, so a truncated body is not taken as complete.
    if (!up.complete) res.destroy();
  });
}

/** The request body, streamed upstream; past MAX_BODY_BYTES (what actually arrives: chunked bodies, liars) the upstream is aborted. */
function sendBody(req: IncomingMessage, upstream: Upstream, tooBig: () => void): void {
  let bytes = 0;
  let over = false;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES && !over) {
      over = true;
      req.unpipe(upstream.body!);
      upstream.abort();
      tooBig();
    }
  });
  req.pipe(upstream.body!);
}

function discardBody(req: IncomingMessage, res: ServerResponse): void {
  let bytes = 0;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES) res.destroy();
  });
}

export function tooLarge(): ProxyError {
  return new ProxyError(413, 'RequestEntityTooLarge', 'BodyTooLarge', `request bodies are limited to ${MAX_BODY_BYTES} bytes (3 MiB), like the API server's own limit`);
}

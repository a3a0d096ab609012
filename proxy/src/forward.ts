// Forwarding to the API server with node:http(s) directly: fetch would decompress gzip and buffer
// differently; here bytes pass through as sent, chunk by chunk, with backpressure both ways.
import { type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { PassThrough, type Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { isWatchRequest, queryFlag } from '../../protocol/watch';
import { ProxyError, sendProxyError, upstreamFailure } from './errors';
import { appendClientResponseHeaders, proxiedLocation, upstreamRequestHeaders } from './headers';
import type { UpstreamTarget } from './kubeconfig';
import { checkPath, type CredentialLines, credentialLines, headerLines, type LeanExchange } from './http1';

/** The API server's own limit on request bodies (apiserver MaxRequestBodyBytes). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;
/** Time allowed for TCP+TLS to the API server; watches themselves have no timeout. */
export const CONNECT_TIMEOUT_MS = 15_000;
/**
 * Time allowed for the response head of a request that is not a watch. kube-apiserver ends its own
 * non-long-running requests after --request-timeout (60 s by default) with a 504 Status, so this
 * only fires for a server that stopped answering (SIGSTOP, half-open connection), where the
 * upstream socket would otherwise be held for good.
 */
export const UPSTREAM_RESPONSE_TIMEOUT_MS = 90_000;
/** Bytes a response may hold unsent before the upstream is paused (per response; see forwardHttp). */
export const RESPONSE_HIGH_WATER = 1024 * 1024;
/** Upstream requests open at once, per launch (HTTP and mux together). */
export const MAX_UPSTREAMS = 512;

/** Live counters, for tests (an aborted watch must really close its upstream) and diagnostics. */
export interface ProxyStats {
  /** Upstream requests not yet closed. */
  upstreamOpen: number;
  /** Upstream requests started since launch. */
  upstreamTotal: number;
  /** Mux streams currently paused because their WebSocket has too much unsent data. */
  muxPaused: number;
  /** Binary frames sent on mux sockets since launch (the watch bench reports frames per catch-up). */
  muxFrames: number;
}

/** Limits of one launch; set once per launch with {@link setUpstreamLimits}. */
export interface UpstreamLimits {
  /** Upstream requests open at once; more get 429 with Retry-After. */
  maxUpstreams: number;
  /** Time to the response head of a non-watch request; 0 = none. */
  responseTimeoutMs: number;
}

// Keyed by the launch's stats object, which every caller of openUpstream (the /k8s/ forwarder and
// the mux) already carries: the limits apply to both without widening every signature.
const launchLimits = new WeakMap<ProxyStats, UpstreamLimits>();

export function setUpstreamLimits(stats: ProxyStats, limits: Partial<UpstreamLimits>): void {
  launchLimits.set(stats, { maxUpstreams: limits.maxUpstreams ?? MAX_UPSTREAMS, responseTimeoutMs: limits.responseTimeoutMs ?? UPSTREAM_RESPONSE_TIMEOUT_MS });
}

/**
 * A watch (or a followed log) has no end by design; every other request does. A watch is what
 * kube-apiserver takes for one (protocol/watch.ts); `follow` on pod logs streams them, read as
 * every boolean query parameter is.
 */
export function isLongRunning(pathAndQuery: string, method = 'GET'): boolean {
  if (isWatchRequest(pathAndQuery, method)) return true;
  // Every request passes here: the common case (no follow anywhere) answers at once.
  const q = pathAndQuery.indexOf('?');
  return q >= 0 && pathAndQuery.includes('follow', q) && queryFlag(pathAndQuery.slice(q + 1), 'follow');
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD']);
const BODY_FRAMING = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'content-type']);

/** What the forwarders read of a response: node:http's IncomingMessage, or the lean client's UpstreamResponse. */
export interface UpstreamReply {
  statusCode?: number;
  statusMessage?: string;
  rawHeaders: string[];
  headers: Record<string, string | string[] | undefined>;
  complete: boolean;
  pause(): unknown;
  resume(): unknown;
  /** The lean client's: the entire body when it came with the head (see UpstreamResponse.takeBody). */
  takeBody?(): Buffer | undefined;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
}

export interface Upstream {
  /** Where a request body is written, for methods that may carry one (not GET or HEAD). */
  body?: Writable;
  /** Sends the request without a body (or ends the body written so far). */
  end(): void;
  /** Destroys the upstream request on purpose: no onError follows. */
  abort(): void;
}

export interface UpstreamHandlers {
  onResponse(res: UpstreamReply, ttfbMs: number): void;
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
  const limits = launchLimits.get(stats);
  if (limits && stats.upstreamOpen >= limits.maxUpstreams) return refuseUpstream(handlers, tooManyUpstreams(limits.maxUpstreams));
  // A GET or HEAD carries no body whoever asks (the mux's headers included): with Content-Length
  // the server would wait for one, holding the connection.
  const bodyless = BODYLESS_METHODS.has(method);
  if (bodyless && target.pool) return openLean(target, method as 'GET' | 'HEAD', pathAndQuery, clientHeaders, stats, limits, handlers);
  const headers = upstreamHeaderObject(clientHeaders, bodyless);
  for (const k in target.headers) headers[k.toLowerCase()] = target.headers[k]!;
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
  req.on('socket', (socket: Socket) => {
    // A reused keep-alive socket was set up when it was new: no syscall per request.
    if (!socket.connecting) return;
    socket.setNoDelay(true);
    const timer = setTimeout(() => {
      const e = new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`) as NodeJS.ErrnoException;
      e.code = 'ETIMEDOUT';
      req.destroy(e);
    }, CONNECT_TIMEOUT_MS);
    socket.once(target.secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
  });
  const timeoutMs = limits?.responseTimeoutMs ?? UPSTREAM_RESPONSE_TIMEOUT_MS;
  const waiting: AwaitingHead | undefined =
    timeoutMs > 0 && !isLongRunning(pathAndQuery, method)
      ? awaitHead(started + timeoutMs, () => {
          req.destroy(new ProxyError(504, 'Timeout', 'UpstreamTimeout', `the API server of context "${target.context}" (${target.server}) did not answer within ${timeoutMs / 1000} s`, target.context));
        })
      : undefined;
  req.once('close', () => {
    stats.upstreamOpen--;
    if (waiting) awaitingHead.delete(waiting);
  });
  req.on('response', (res) => {
    responded = true;
    if (waiting) awaitingHead.delete(waiting);
    handlers.onResponse(res, performance.now() - started);
  });
  req.on('error', (err: NodeJS.ErrnoException) => {
    if (responded || failed) return;
    failed = true;
    handlers.onError(err instanceof ProxyError ? err : upstreamFailure(err, target.context, target.server));
  });
  return {
    body: req,
    end: () => req.end(),
    abort() {
      failed = true;
      req.destroy();
    },
  };
}

/**
 * A GET or HEAD through the target's lean client (http1/): the same limits, timeouts, counters
 * and error mapping as the node:https path, with less work per request.
 */
function openLean(
  target: UpstreamTarget,
  method: 'GET' | 'HEAD',
  pathAndQuery: string,
  clientHeaders: [string, string][],
  stats: ProxyStats,
  limits: UpstreamLimits | undefined,
  handlers: UpstreamHandlers,
): Upstream {
  const path = target.basePath + pathAndQuery;
  // Checked before anything is sent, as node:http's request() checks (and throws) too.
  checkPath(path);
  const lines = headerLines(clientHeaders, credentialsOf(target), BODY_FRAMING);
  const started = performance.now();
  let exchange: LeanExchange | undefined;
  let aborted = false;
  return {
    end: () => {
      if (exchange || aborted) return;
      stats.upstreamOpen++;
      stats.upstreamTotal++;
      let waiting: AwaitingHead | undefined;
      let over = false;
      exchange = target.pool!.request(method, path, lines, {
        onResponse(res) {
          if (waiting) awaitingHead.delete(waiting);
          waiting = undefined;
          handlers.onResponse(res, performance.now() - started);
        },
        onError(err) {
          handlers.onError(err instanceof ProxyError ? err : upstreamFailure(err as NodeJS.ErrnoException, target.context, target.server));
        },
        onClose() {
          over = true;
          stats.upstreamOpen--;
          if (waiting) awaitingHead.delete(waiting);
        },
      });
      // The response-head timeout is set up once the request is on its way (that work then
      // overlaps with the API server's); an exchange that already ended (a pool being shut down)
      // needs none. No response can have come yet: socket events come on later turns.
      const timeoutMs = limits?.responseTimeoutMs ?? UPSTREAM_RESPONSE_TIMEOUT_MS;
      if (!over && timeoutMs > 0 && !isLongRunning(pathAndQuery, method)) {
        waiting = awaitHead(started + timeoutMs, () => {
          exchange?.fail(new ProxyError(504, 'Timeout', 'UpstreamTimeout', `the API server of context "${target.context}" (${target.server}) did not answer within ${timeoutMs / 1000} s`, target.context));
        });
      }
    },
    abort() {
      aborted = true;
      exchange?.abort();
    },
  };
}

// Per resolved target (cached per context while its credentials are): checked once, not per request.
const credentialCache = new WeakMap<UpstreamTarget, CredentialLines>();

function credentialsOf(target: UpstreamTarget): CredentialLines {
  let c = credentialCache.get(target);
  if (!c) credentialCache.set(target, (c = credentialLines(target.headers)));
  return c;
}

interface AwaitingHead {
  /** performance.now() by which the response head must have come. */
  deadline: number;
  expire(): void;
}

/**
 * Non-watch upstream requests still waiting for their response head. One timer sweeps them all
 * while any waits, instead of a timer set and cleared on every request (this only catches a server
 * that stopped answering, so a quarter second late is soon enough).
 */
const awaitingHead = new Set<AwaitingHead>();
const SWEEP_MS = 250;
let sweeper: NodeJS.Timeout | undefined;

function awaitHead(deadline: number, expire: () => void): AwaitingHead {
  const w = { deadline, expire };
  awaitingHead.add(w);
  if (!sweeper) {
    sweeper = setInterval(() => {
      const now = performance.now();
      for (const x of awaitingHead) {
        if (x.deadline > now) continue;
        awaitingHead.delete(x);
        x.expire();
      }
      if (awaitingHead.size === 0) {
        clearInterval(sweeper);
        sweeper = undefined;
      }
    }, SWEEP_MS);
    sweeper.unref();
  }
  return w;
}

/** Header pairs in the object form node:http takes (repeated names become arrays), without body framing when `bodyless`. */
function upstreamHeaderObject(pairs: readonly [string, string][], bodyless: boolean): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of pairs) {
    const key = k.toLowerCase();
    if (bodyless && BODY_FRAMING.has(key)) continue;
    const prev = out[key];
    out[key] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** An upstream that was never opened: the handler hears of the refusal on the next tick. */
function refuseUpstream(handlers: UpstreamHandlers, err: ProxyError): Upstream {
  const sink = new PassThrough();
  // Whatever a caller pipes in (a request body) is read and dropped.
  sink.resume();
  let aborted = false;
  process.nextTick(() => {
    if (!aborted) handlers.onError(err);
  });
  return {
    body: sink,
    end: () => undefined,
    abort() {
      aborted = true;
    },
  };
}

export function tooManyUpstreams(max: number): ProxyError {
  const e = new ProxyError(429, 'TooManyRequests', 'TooManyStreams', `the proxy has ${max} requests to API servers open already (its limit per launch); close watch panes or retry shortly`);
  e.retryAfterSeconds = 1;
  return e;
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
  observe?: (context: string, outcome: { ttfbMs: number } | { error: ProxyError }) => void,
  security: readonly string[] = [],
  /** The request's body framing headers, when the caller read them already (readDoorHeaders). */
  framing: { 'content-length'?: string; 'transfer-encoding'?: string | string[] } = req.headers,
): void {
  const bodyless = BODYLESS_METHODS.has(req.method ?? 'GET');
  // The proxy's own answers carry the security headers too (set first, then the Status).
  const fail = (err: ProxyError, opts?: { close?: boolean }) => {
    if (!res.headersSent) for (let i = 0; i < security.length; i += 2) res.setHeader(security[i]!, security[i + 1]!);
    sendProxyError(res, err, opts);
  };
  let headers = upstreamRequestHeaders(req.rawHeaders, bodyless);
  // Streamed responses (watches) are asked for uncompressed: the API server may gzip a stream as a
  // series of gzip members, one per flush, and browsers' decoders stop after the first, so the
  // watch would freeze after one or two events. The response says so (X-Explorer-Encoding).
  const streaming = isWatchRequest(pathAndQuery, req.method ?? 'GET');
  if (streaming) headers = [...headers.filter(([k]) => k.toLowerCase() !== 'accept-encoding'), ['Accept-Encoding', 'identity']];
  // Transfer-Encoding is hop-by-hop, but a chunked body still needs chunked framing upstream.
  const hasBody = !bodyless && (framing['content-length'] !== undefined || framing['transfer-encoding'] !== undefined);
  if (hasBody && framing['content-length'] === undefined) headers.push(['Transfer-Encoding', 'chunked']);

  const upstream = openUpstream(target, req.method ?? 'GET', pathAndQuery, headers, stats, {
    onResponse(up, ttfbMs) {
      if (res.destroyed) {
        observe?.(target.context, { ttfbMs });
        upstream.abort();
        return;
      }
      // One writeHead with a flat list and nothing set before (the security headers come first in
      // the list): Node then writes the head straight from the list, where setHeader or
      // appendHeader would build and merge a header map on every response; repeated names (one
      // Warning header per problem) stay repeated.
      const out = appendClientResponseHeaders(up.rawHeaders, [...security]);
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
        observe?.(target.context, { ttfbMs });
        return;
      }
      observe?.(target.context, { ttfbMs });
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
      up.on('data', (chunk: Buffer) => {
        res.write(chunk);
        if (res.writableLength > RESPONSE_HIGH_WATER) up.pause();
      });
      res.on('drain', () => up.resume());
      up.on('end', () => res.end());
      up.on('close', () => {
        // Upstream cut mid-body: cut the client too, so a truncated body is not taken as complete.
        if (!up.complete) res.destroy();
      });
    },
    onError(err) {
      log(`proxy: ${err.message}`);
      observe?.(target.context, { error: err });
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
    if (bodyless && (framing['content-length'] !== undefined || framing['transfer-encoding'] !== undefined)) discardBody(req, res);
    return;
  }
  res.on('close', abandoned);
  // Content-Length was checked before; this counts what actually arrives (chunked bodies, liars).
  let bytes = 0;
  let tooBig = false;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_BODY_BYTES && !tooBig) {
      tooBig = true;
      req.unpipe(upstream.body!);
      upstream.abort();
      fail(tooLarge(), { close: true });
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

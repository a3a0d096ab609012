// Opening one request to an API server: the one place that counts upstream requests, holds them
// to the launch's limits, times out a response head that does not come, and maps failures to the
// proxy's Status errors. Two transports carry the bytes: the lean HTTP/1.1 client (http1/) for
// requests without a body, node:http(s) for the rest (writes, and clusters behind a proxy-url).
// The /k8s/ forwarder (forward.ts) and the mux (mux.ts) both open their requests here.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { PassThrough, type Writable } from 'node:stream';
import { isWatchRequest, queryFlag } from '../../protocol/watch';
import { ProxyError, upstreamFailure } from './errors';
import { isImpersonationHeader } from './headers';
import { checkPath, type CredentialLines, credentialLines, headerLines, type LeanExchange } from './http1';
import type { UpstreamTarget } from './kubeconfig';
import { CONNECT_TIMEOUT_MS } from './timeouts';


/**
 * Time allowed for the response head of a request that is not a watch. kube-apiserver ends its own
 * non-long-running requests after --request-timeout (60 s by default) with a 504 Status, so this
 * only fires for a server that stopped answering (SIGSTOP, half-open connection), where the
 * upstream socket would otherwise be held for good.
 */
export const UPSTREAM_RESPONSE_TIMEOUT_MS = 90_000;
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

/** Limits of one launch. */
export interface UpstreamLimits {
  /** Upstream requests open at once; more get 429 with Retry-After. */
  maxUpstreams: number;
  /** Time to the response head of a non-watch request; 0 = none. */
  responseTimeoutMs: number;
}

/** What every upstream request of one launch shares, HTTP and mux alike: its counters and limits. */
export interface UpstreamLaunch {
  stats: ProxyStats;
  limits: UpstreamLimits;
}

/** A launch with fresh counters; limits left out take the defaults. */
export function upstreamLaunch(limits: Partial<UpstreamLimits> = {}): UpstreamLaunch {
  return {
    stats: { upstreamOpen: 0, upstreamTotal: 0, muxPaused: 0, muxFrames: 0 },
    limits: { maxUpstreams: limits.maxUpstreams ?? MAX_UPSTREAMS, responseTimeoutMs: limits.responseTimeoutMs ?? UPSTREAM_RESPONSE_TIMEOUT_MS },
  };
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

/** Methods whose requests carry no body, whoever asks. */
export const BODYLESS_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);
const BODY_FRAMING = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'content-type']);

/** One request to open: the already-filtered client headers; the target's credentials are added here. */
export interface UpstreamRequest {
  method: string;
  pathAndQuery: string;
  headers: [string, string][];
}

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
 * One upstream request as both transports carry it: the counters, the response-head timeout, the
 * time to first byte and the error mapping are the same whichever carries the bytes.
 */
class UpstreamCall {
  readonly started = performance.now();
  private waiting: AwaitingHead | undefined;

  constructor(
    readonly launch: UpstreamLaunch,
    readonly target: UpstreamTarget,
    readonly request: UpstreamRequest,
    private readonly handlers: UpstreamHandlers,
  ) {}

  opened(): void {
    this.launch.stats.upstreamOpen++;
    this.launch.stats.upstreamTotal++;
  }

  closed(): void {
    this.launch.stats.upstreamOpen--;
    this.stopWaiting();
  }

  /**
   * Arms the response-head timeout, except for requests with no end by design (watches, followed
   * logs): `expire` gets the 504 to fail the exchange with.
   */
  awaitHead(expire: (err: ProxyError) => void): void {
    const timeoutMs = this.launch.limits.responseTimeoutMs;
    if (timeoutMs <= 0 || isLongRunning(this.request.pathAndQuery, this.request.method)) return;
    const { context, server } = this.target;
    this.waiting = awaitHead(this.started + timeoutMs, () => {
      this.waiting = undefined;
      expire(new ProxyError(504, 'Timeout', 'UpstreamTimeout', `the API server of context "${context}" (${server}) did not answer within ${timeoutMs / 1000} s`, context));
    });
  }

  responded(res: UpstreamReply): void {
    this.stopWaiting();
    this.handlers.onResponse(res, performance.now() - this.started);
  }

  failed(err: Error): void {
    this.handlers.onError(err instanceof ProxyError ? err : upstreamFailure(err as NodeJS.ErrnoException, this.target.context, this.target.server));
  }

  private stopWaiting(): void {
    if (this.waiting) awaitingHead.delete(this.waiting);
    this.waiting = undefined;
  }
}

/** A way to carry an upstream request's bytes. */
type Transport = (call: UpstreamCall) => Upstream;

/**
 * Starts one upstream request. The caller writes the body (or ends it) and aborts it to stop.
 * A GET or HEAD goes through the target's lean client when it has one; everything else, and
 * every request of a target behind a proxy-url, through node:http(s).
 */
export function openUpstream(launch: UpstreamLaunch, target: UpstreamTarget, request: UpstreamRequest, handlers: UpstreamHandlers): Upstream {
  if (launch.stats.upstreamOpen >= launch.limits.maxUpstreams) return refuseUpstream(handlers, tooManyUpstreams(launch.limits.maxUpstreams));
  // A credential from a plugin that the server refuses is dropped (auth/exec.ts), for HTTP and mux alike.
  if (target.onUnauthorized) handlers = withUnauthorizedHook(handlers, target.onUnauthorized);
  const transport: Transport = BODYLESS_METHODS.has(request.method) && target.pool ? leanTransport : nodeTransport;
  return transport(new UpstreamCall(launch, target, request, handlers));
}

function withUnauthorizedHook(handlers: UpstreamHandlers, onUnauthorized: () => void): UpstreamHandlers {
  return {
    onResponse(res, ttfbMs) {
      if (res.statusCode === 401) onUnauthorized();
      handlers.onResponse(res, ttfbMs);
    },
    onError: (err) => handlers.onError(err),
  };
}

/** node:http(s) with the target's keep-alive agent: requests with a body, and every request of a target without a lean client. */
const nodeTransport: Transport = (call) => {
  const { target, request } = call;
  // A GET or HEAD carries no body whoever asks (the mux's headers included): with Content-Length
  // the server would wait for one, holding the connection.
  const headers = upstreamHeaderObject(request.headers, BODYLESS_METHODS.has(request.method));
  const own = pageImpersonates(request) ? withoutImpersonation(target.headers) : target.headers;
  for (const k in own) headers[k.toLowerCase()] = own[k]!;
  const req = (target.secure ? httpsRequest : httpRequest)({
    hostname: target.hostname,
    port: target.port,
    method: request.method,
    path: target.basePath + request.pathAndQuery,
    headers,
    agent: target.agent,
  });
  call.opened();
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
  call.awaitHead((err) => req.destroy(err));
  req.once('close', () => call.closed());
  req.on('response', (res) => {
    responded = true;
    call.responded(res);
  });
  req.on('error', (err: NodeJS.ErrnoException) => {
    if (responded || failed) return;
    failed = true;
    call.failed(err);
  });
  return {
    body: req,
    end: () => req.end(),
    abort() {
      failed = true;
      req.destroy();
    },
  };
};

/** The target's lean HTTP/1.1 client (http1/): a GET or HEAD with less work per request. */
const leanTransport: Transport = (call) => {
  const { target, request } = call;
  const path = target.basePath + request.pathAndQuery;
  // Checked before anything is sent, as node:http's request() checks (and throws) too.
  checkPath(path);
  const lines = headerLines(request.headers, credentialsOf(target, pageImpersonates(request)), BODY_FRAMING);
  let exchange: LeanExchange | undefined;
  let aborted = false;
  return {
    end: () => {
      if (exchange || aborted) return;
      call.opened();
      let over = false;
      exchange = target.pool!.request(request.method as 'GET' | 'HEAD', path, lines, {
        onResponse: (res) => call.responded(res),
        onError: (err) => call.failed(err),
        onClose() {
          over = true;
          call.closed();
        },
      });
      // The response-head timeout is set up once the request is on its way (that work then
      // overlaps with the API server's); an exchange that already ended (a pool being shut down)
      // needs none. No response can have come yet: socket events come on later turns.
      if (!over) call.awaitHead((err) => exchange?.fail(err));
    },
    abort() {
      aborted = true;
      exchange?.abort();
    },
  };
};

// Per resolved target (cached per context while its credentials are): checked once, not per
// request; the second form is the target's credentials without its impersonation.
const credentialCache = new WeakMap<UpstreamTarget, CredentialLines>();
const unimpersonatedCache = new WeakMap<UpstreamTarget, CredentialLines>();

function credentialsOf(target: UpstreamTarget, unimpersonated: boolean): CredentialLines {
  const cache = unimpersonated ? unimpersonatedCache : credentialCache;
  let c = cache.get(target);
  if (!c) cache.set(target, (c = credentialLines(unimpersonated ? withoutImpersonation(target.headers) : target.headers)));
  return c;
}

/** Whether the page sent an Impersonate-* header (headers.ts lets them through). */
function pageImpersonates(request: UpstreamRequest): boolean {
  return request.headers.some(([k]) => isImpersonationHeader(k.toLowerCase()));
}

/**
 * The kubeconfig's headers without its Impersonate-*: the page's impersonation replaces the
 * context's (`as`, `as-groups`, `as-uid`, `as-user-extra`) as a whole. kubectl's `--as`,
 * `--as-group` and `--as-uid` override the kubeconfig user's impersonation (they are bound to
 * clientcmd's ConfigOverrides.AuthInfo, which wins over the file); the explorer goes one step
 * further and never mixes the two sets, so a request acts as exactly the identity the page's
 * headers name, or exactly the context's, never a blend neither side wrote.
 */
function withoutImpersonation(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const k in headers) if (!isImpersonationHeader(k.toLowerCase())) out[k] = headers[k]!;
  return out;
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

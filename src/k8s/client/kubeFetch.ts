// The one place in the SPA that calls fetch(). Every request to a cluster goes through here: it
// prefixes the proxy route for the context, attaches the per-launch proxy token, and turns a
// failed response's `Status` body into a KubeApiError.

import { parseJsonExact } from '../../codecs/json';
import { refuseDeepNesting, refuseOversizedObject } from '../../codecs/nesting';
import { readStatusBody } from '../../codecs/protobuf/watchStream';
import { pathProblem, RefusedPathError } from '../paths/safety';
import { activeReplayTransport, beginTap, observeResponse } from './transportHooks';
import { headerValue } from './headerList';
import { connectionHealth } from './health';
import { explorerToken, proxyOrigin, refreshExplorerToken } from './token';
import { headersForProxy } from './userAgent';
import type { Status } from '../../../protocol/kubeStatus';

export interface KubeRequest {
  context: string;
  /** An API path as the server knows it, starting with `/`, e.g. `/api/v1/namespaces`. May carry a query. */
  path: string;
  method?: string;
  /** Query parameters added to those already in `path`; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  body?: BodyInit | null;
  signal?: AbortSignal;
}

/** A metav1.Status as the API server (or our proxy) returns it for failures: declared in protocol/. */
export type { Status };

export class KubeApiError extends Error {
  override name = 'KubeApiError';
  constructor(
    readonly status: Status,
    readonly httpStatus: number,
    /** True when our proxy produced the error (unknown context, cluster unreachable, refusal), not the API server. */
    readonly fromProxy: boolean,
    /**
     * How long the server asked us to wait before trying again: the Retry-After header (API
     * Priority and Fairness answers 429 with it and a plain-text body) or the Status's
     * details.retryAfterSeconds.
     */
    readonly retryAfterSeconds?: number,
  ) {
    super(status.message ?? `HTTP ${httpStatus}`);
  }
  get reason(): string | undefined {
    return this.status.reason;
  }
  get code(): number {
    return this.status.code ?? this.httpStatus;
  }
}

export function isStatus(v: unknown): v is Status {
  return typeof v === 'object' && v !== null && (v as { kind?: unknown }).kind === 'Status';
}

/**
 * The Status of a failed response, whatever its body: the server's own Status when the body is one
 * (kube-apiserver answers every API error with a metav1.Status), else one built from the HTTP code
 * and the start of the body (a load balancer's HTML page, a truncated body, an empty 502).
 */
export function statusOf(code: number, bodyText: string, fallbackMessage?: string): Status {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    if (isStatus(parsed)) return parsed;
  } catch {
    /* not JSON: described below */
  }
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', code, message: bodyText.slice(0, 500) || fallbackMessage || `HTTP ${code}` };
}

/** The proxy URL for a request; exported so that "copy as" and the console can show it. */
export function proxyUrl(context: string, path: string, query?: KubeRequest['query']): string {
  return `${proxyOrigin()}/k8s/${encodeURIComponent(context)}${apiPathWithQuery(path, query)}`;
}

/** The API path of a request with `query` merged into the query it already has. */
export function apiPathWithQuery(path: string, query?: KubeRequest['query']): string {
  const url = new URL(path.startsWith('/') ? path : `/${path}`, 'http://x');
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  }
  return `${url.pathname}${url.search}`;
}

/** Raw fetch through the proxy: the Response is returned whatever its status. */
export async function kubeFetch(req: KubeRequest): Promise<Response> {
  refuseRewrittenPath(req.path);
  // Replaying a recording (k8s/record/replay.ts): the answer comes from the file, nothing leaves.
  const replay = activeReplayTransport();
  if (replay) return replay.fetch({ context: req.context, method: req.method, path: apiPathWithQuery(req.path, req.query), accept: headerValue(Object.entries(req.headers ?? {}), 'Accept'), signal: req.signal });
  const send = () => {
    const headers = new Headers(headersForProxy(req.headers));
    headers.set('X-Explorer-Token', explorerToken());
    return fetch(proxyUrl(req.context, req.path, req.query), {
      method: req.method ?? 'GET',
      headers,
      body: req.body ?? null,
      signal: req.signal,
      credentials: 'same-origin',
      cache: 'no-store',
    });
  };
  const started = performance.now();
  // The recorder (k8s/record) sees what leaves and what comes back: the user's recording, and the
  // tab's journal that time travel reads.
  const tap = beginTap({ context: req.context, method: req.method ?? 'GET', path: apiPathWithQuery(req.path, req.query), headers: req.headers, body: req.body, via: 'http' });
  let res: Response;
  try {
    res = await observed(send(), req.context, started);
  } catch (e) {
    tap?.end(e instanceof Error ? e.message : String(e));
    throw e;
  }
  // A restarted explorer server has a new token. The proxy refused the request before sending
  // anything to the cluster, so sending the very same request again with the new token sends
  // nothing the user did not see; a streamed body cannot be sent twice, so that one fails.
  if (res.status === 401 && (await isWrongToken(res)) && !(typeof ReadableStream !== 'undefined' && req.body instanceof ReadableStream)) {
    const before = explorerToken();
    const fresh = await refreshExplorerToken();
    if (fresh && fresh !== before) {
      connectionHealth.tokenRefreshed();
      res = await observed(send(), req.context, performance.now());
    } else {
      connectionHealth.tokenRejected();
    }
  }
  return tap ? observeResponse(res, tap) : res;
}

/**
 * Throws RefusedPathError for a path the browser would rewrite (dot segments, also encoded: see
 * paths/safety.ts). Checked before anything parses the path, which would resolve them quietly.
 */
export function refuseRewrittenPath(path: string): void {
  const problem = pathProblem(path.startsWith('/') ? path : `/${path}`);
  if (problem) throw new RefusedPathError(path, problem);
}

/** Tells connectionHealth how the proxy answered a request (over HTTP or the mux). */
export function reportAnswer(context: string, answer: { status: number; statusText?: string; fromProxy: boolean }, ms: number): void {
  if (!answer.fromProxy) connectionHealth.clusterAnswered(context, ms);
  else if (answer.status >= 500) connectionHealth.clusterFailed(context, `${answer.status} ${answer.statusText || 'from the proxy'}`);
  else connectionHealth.serverAnswered();
}

/** Reports the outcome to connectionHealth; the response is untouched. */
async function observed(pending: Promise<Response>, context: string, started: number): Promise<Response> {
  let res: Response;
  try {
    res = await pending;
  } catch (e) {
    if (!(e instanceof DOMException && e.name === 'AbortError')) connectionHealth.serverUnreachable(e instanceof Error ? e.message : String(e));
    throw e;
  }
  reportAnswer(context, { status: res.status, statusText: res.statusText, fromProxy: res.headers.get('X-Explorer-Proxy-Error') !== null }, performance.now() - started);
  return res;
}

async function isWrongToken(res: Response): Promise<boolean> {
  if (res.headers.get('X-Explorer-Proxy-Error') === null) return false;
  try {
    const body = (await res.clone().json()) as { reason?: string; details?: { causes?: { reason?: string }[] } };
    return body.details?.causes?.[0]?.reason === 'WrongToken';
  } catch {
    return false;
  }
}

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Builds a KubeApiError from a non-2xx response, whatever its body. */
export async function errorFromResponse(res: Response): Promise<KubeApiError> {
  const fromProxy = res.headers.get('X-Explorer-Proxy-Error') !== null;
  const bytes = new Uint8Array(await res.arrayBuffer().catch(() => new ArrayBuffer(0)));
  const status = binaryStatus(res.headers.get('Content-Type'), bytes) ?? statusOf(res.status, new TextDecoder().decode(bytes), res.statusText);
  return new KubeApiError(status, res.status, fromProxy, parseRetryAfter(res.headers.get('Retry-After')) ?? status.details?.retryAfterSeconds);
}

/**
 * A refusal asked for in Protobuf comes as a Protobuf Status (kube-apiserver encodes the error in
 * the media type the request accepted, a 406 included when the Accept also allows it for errors):
 * read as text it would be bytes, so it is decoded. Undefined for any other body.
 */
function binaryStatus(contentType: string | null, bytes: Uint8Array): Status | undefined {
  if (!contentType?.startsWith('application/vnd.kubernetes.protobuf')) return undefined;
  try {
    const s = readStatusBody(bytes);
    return { ...s, status: s.status === 'Success' ? 'Success' : 'Failure' };
  } catch {
    return undefined;
  }
}

/** JSON request: resolves with the parsed body on 2xx, throws KubeApiError otherwise. */
export async function kubeJson<T>(req: KubeRequest): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...req.headers };
  if (req.body != null && typeof req.body === 'string' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  const res = await kubeFetch({ ...req, headers });
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as T;
}

/**
 * kubeJson for an object the user may edit and write back: integers beyond 2^53 stay exact
 * (bigint, codecs/json.ts), so a write built from it never rounds a field nobody touched.
 */
export async function kubeJsonExact<T>(req: KubeRequest): Promise<T> {
  const res = await kubeFetch({ ...req, headers: { Accept: 'application/json', ...req.headers } });
  if (!res.ok) throw await errorFromResponse(res);
  const text = await res.text();
  // The objects read here are the Edit and Ownership views': refused past the size and depth they walk.
  refuseOversizedObject(text);
  refuseDeepNesting(text);
  return parseJsonExact(text) as T;
}

/** The proxy's own endpoints (`/proxy/contexts`, ...): same token, same error handling. */
export async function proxyJson<T>(path: string, init: { signal?: AbortSignal; method?: 'GET' | 'POST' } = {}): Promise<T> {
  const replay = activeReplayTransport();
  if (replay) {
    // The contexts are the recording's; the proxy's other endpoints describe a live connection.
    if (path.replace(/^\//, '') === 'contexts') return replay.contexts() as T;
    throw new KubeApiError(statusOf(503, '', `replaying a recording: no /proxy/${path}`), 503, true);
  }
  const res = await proxyFetch(path, { ...init, accept: 'application/json' });
  return (await res.json()) as T;
}

/**
 * A proxy endpoint's response as it arrives (a stream such as X-ray's journal, a file): the
 * token, its refresh and the connection's health as for proxyJson; a refusal thrown as KubeApiError.
 */
export async function proxyFetch(path: string, init: { signal?: AbortSignal; method?: 'GET' | 'POST'; accept?: string } = {}): Promise<Response> {
  const send = () =>
    fetch(`${proxyOrigin()}/proxy/${path.replace(/^\/(proxy\/)?/, '')}`, {
      method: init.method ?? 'GET',
      headers: { 'X-Explorer-Token': explorerToken(), Accept: init.accept ?? '*/*' },
      signal: init.signal,
      cache: 'no-store',
    });
  let res: Response;
  try {
    res = await send();
    if (res.status === 401 && (await isWrongToken(res))) {
      const before = explorerToken();
      const fresh = await refreshExplorerToken();
      if (fresh && fresh !== before) {
        connectionHealth.tokenRefreshed();
        res = await send();
      } else connectionHealth.tokenRejected();
    }
  } catch (e) {
    if (!(e instanceof DOMException && e.name === 'AbortError')) connectionHealth.serverUnreachable(e instanceof Error ? e.message : String(e));
    throw e;
  }
  connectionHealth.serverAnswered();
  if (!res.ok) throw await errorFromResponse(res);
  return res;
}

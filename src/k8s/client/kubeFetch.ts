// The one place in the SPA that calls fetch(). Every request to a cluster goes through here: it
// prefixes the proxy route for the context, attaches the per-launch proxy token, and turns a
// failed response's `Status` body into a KubeApiError.

import { pathProblem, RefusedPathError } from '../paths/safety';
import { explorerToken, proxyOrigin } from './token';

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

/** A metav1.Status as the API server (or our proxy) returns it for failures. */
export interface Status {
  kind: 'Status';
  apiVersion: string;
  metadata?: { resourceVersion?: string; continue?: string };
  status?: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    uid?: string;
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
}

export class KubeApiError extends Error {
  override name = 'KubeApiError';
  constructor(
    readonly status: Status,
    readonly httpStatus: number,
    /** True when our proxy produced the error (unknown context, cluster unreachable, refusal), not the API server. */
    readonly fromProxy: boolean,
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
  const url = new URL(path.startsWith('/') ? path : `/${path}`, 'http://x');
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== '') url.searchParams.set(k, String(v));
  }
  return `${proxyOrigin()}/k8s/${encodeURIComponent(context)}${url.pathname}${url.search}`;
}

/** Raw fetch through the proxy: the Response is returned whatever its status. */
export function kubeFetch(req: KubeRequest): Promise<Response> {
  // Never send a path the browser would rewrite (dot segments, also encoded): see paths/safety.ts.
  const problem = pathProblem(req.path.startsWith('/') ? req.path : `/${req.path}`);
  if (problem) return Promise.reject(new RefusedPathError(req.path, problem));
  const headers = new Headers(req.headers);
  headers.set('X-Explorer-Token', explorerToken());
  return fetch(proxyUrl(req.context, req.path, req.query), {
    method: req.method ?? 'GET',
    headers,
    body: req.body ?? null,
    signal: req.signal,
    credentials: 'same-origin',
    cache: 'no-store',
  });
}

/** Builds a KubeApiError from a non-2xx response, whatever its body. */
export async function errorFromResponse(res: Response): Promise<KubeApiError> {
  const fromProxy = res.headers.get('X-Explorer-Proxy-Error') !== null;
  const text = await res.text().catch(() => '');
  return new KubeApiError(statusOf(res.status, text, res.statusText), res.status, fromProxy);
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

/** The proxy's own endpoints (`/proxy/contexts`, ...): same token, same error handling. */
export async function proxyJson<T>(path: string, init: { signal?: AbortSignal } = {}): Promise<T> {
  const res = await fetch(`${proxyOrigin()}/proxy/${path.replace(/^\//, '')}`, {
    headers: { 'X-Explorer-Token': explorerToken(), Accept: 'application/json' },
    signal: init.signal,
    cache: 'no-store',
  });
  if (!res.ok) throw await errorFromResponse(res);
  return (await res.json()) as T;
}

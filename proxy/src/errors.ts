// Errors produced by the proxy itself, shaped like the API server's own `Status` so the SPA has one
// error type to render, and marked (header + details.kind) so it can tell "the proxy refused" from
// "the cluster said no".
import type { ServerResponse } from 'node:http';
import type { Status } from '../../protocol/kubeStatus';

export const PROXY_ERROR_HEADER = 'X-Explorer-Proxy-Error';

/** Why the proxy failed, as `details.causes[0].reason`; stable strings the SPA may switch on. */
export type ProxyCause =
  | 'ForbiddenHost'
  | 'ForbiddenOrigin'
  | 'CrossSiteRequest'
  | 'MissingToken'
  | 'WrongToken'
  | 'RefusedSubresource'
  | 'InvalidPath'
  | 'BodyTooLarge'
  | 'UnknownContext'
  | 'InvalidKubeconfig'
  | 'CredentialsFailed'
  | 'CredentialsPending'
  | 'ClusterUnreachable'
  | 'TLSFailure'
  | 'ProxyRefused'
  | 'UpstreamTimeout'
  | 'UpstreamError'
  | 'MethodNotAllowed'
  | 'NotFound'
  | 'TooManyStreams'
  | 'DuplicateHost'
  | 'ReplayMode';

/** The proxy's own metav1.Status (protocol/kubeStatus.ts), narrowed to what it always fills in. */
export interface StatusBody extends Status {
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure';
  message: string;
  reason: string;
  code: number;
  details: { kind: 'proxy'; name?: string; causes: { reason: ProxyCause; message: string }[]; retryAfterSeconds?: number };
}

export class ProxyError extends Error {
  override name = 'ProxyError';
  /** Sent as Retry-After and details.retryAfterSeconds, as the API server does on its own 429s. */
  retryAfterSeconds?: number;
  constructor(
    readonly code: number,
    /** A metav1.StatusReason (Forbidden, NotFound, ...), as the API server would use. */
    readonly reason: string,
    readonly proxyCause: ProxyCause,
    message: string,
    /** The context concerned, when there is one (details.name). */
    readonly context?: string,
  ) {
    super(message);
  }

  toStatus(): StatusBody {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
      details: {
        kind: 'proxy',
        ...(this.context !== undefined ? { name: this.context } : {}),
        causes: [{ reason: this.proxyCause, message: this.message }],
        ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
      },
    };
  }
}

export const forbidden = (cause: ProxyCause, message: string) => new ProxyError(403, 'Forbidden', cause, message);
export const badRequest = (cause: ProxyCause, message: string) => new ProxyError(400, 'BadRequest', cause, message);

/** Response headers of a proxy error, for HTTP and for the mux's `response` message alike. */
export function proxyErrorHeaders(body: Buffer): Record<string, string> {
  return {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'cache-control': 'no-store',
    [PROXY_ERROR_HEADER.toLowerCase()]: '1',
  };
}

/**
 * Writes a proxy error unless the response has already started (then the connection is cut, the
 * only honest signal left). `close` also ends the connection, for refusals whose request body we
 * do not want to read (oversized uploads).
 */
export function sendProxyError(res: ServerResponse, err: ProxyError, opts: { close?: boolean } = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = Buffer.from(JSON.stringify(err.toStatus()));
  for (const [k, v] of Object.entries(proxyErrorHeaders(body))) res.setHeader(k, v);
  if (opts.close) res.setHeader('connection', 'close');
  if (err.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(err.retryAfterSeconds));
  res.writeHead(err.code);
  res.end(body);
}

/** Maps a failure to reach the API server to a Status; Node's messages carry no credentials. */
export function upstreamFailure(err: NodeJS.ErrnoException, context: string, server: string): ProxyError {
  const code = err.code ?? '';
  const detail = err.message || code;
  const tls = /^(ERR_TLS_|ERR_SSL_|CERT_|EPROTO$|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|HOSTNAME_MISMATCH$|ERR_OSSL_)/.test(code);
  if (tls) {
    return new ProxyError(502, 'ServiceUnavailable', 'TLSFailure', `TLS with the API server of context "${context}" (${server}) failed: ${detail}`, context);
  }
  if (code === 'PROXY_REFUSED' || code === 'PROXY_FAILED') {
    // The kubeconfig's proxy-url answered, but not with a tunnel (407, 403, 502, a SOCKS refusal).
    return new ProxyError(502, 'ServiceUnavailable', 'ProxyRefused', `cannot reach the API server of context "${context}" (${server}): ${detail}`, context);
  }
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
    return new ProxyError(504, 'Timeout', 'UpstreamTimeout', `the API server of context "${context}" (${server}) did not accept a connection in time: ${detail}`, context);
  }
  if (['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'EADDRNOTAVAIL'].includes(code)) {
    return new ProxyError(502, 'ServiceUnavailable', 'ClusterUnreachable', `cannot reach the API server of context "${context}" (${server}): ${detail}`, context);
  }
  return new ProxyError(502, 'ServiceUnavailable', 'UpstreamError', `request to the API server of context "${context}" (${server}) failed: ${detail}`, context);
}

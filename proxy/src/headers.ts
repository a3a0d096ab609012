// Which headers cross the proxy. The rule is "pass everything through" (the explorer shows what the
// server sent), minus what belongs to one hop of HTTP and what would leak or confuse credentials.
// One exception the other way: the User-Agent is the explorer's own, not the browser's.
import { USER_AGENT_OVERRIDE_HEADER } from '../../protocol/userAgent';
import { explorerVersion } from './version';

/** RFC 9110 §7.6.1 connection-specific fields, plus Proxy-Connection which clients still send. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'trailers', 'transfer-encoding', 'upgrade']);

/**
 * Request headers that may reach the cluster: an allow-list, not a deny-list. Everything else the
 * page (or anything holding the token) sends is dropped, silently: the browser's own credentials
 * and identity (the kubeconfig provides the real ones), our token, Host (set for the upstream),
 * and headers a front proxy would vouch for (X-Remote-User, X-Remote-Group, X-Forwarded-For): an
 * API server with request-header authentication trusting the kubeconfig's CA would believe them.
 * What remains is what kube-apiserver reads from a client: content negotiation, the body's framing
 * and type, caching validators (OpenAPI answers 304 to If-None-Match), and the tracing ids it logs;
 * and impersonation ({@link isImpersonationHeader}).
 */
export const ALLOWED_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'accept', 'accept-encoding', 'accept-language',
  'content-type', 'content-length', 'content-encoding',
  'if-none-match', 'if-match', 'if-modified-since', 'cache-control', 'pragma',
  'audit-id', 'x-request-id', 'traceparent', 'tracestate',
]);

/**
 * Impersonate-User, -Group (one line per group), -Uid and -Extra-<key>: passed from the page, as
 * `kubectl --as/--as-group/--as-uid` and `kubectl proxy` pass them. They carry no authority of
 * their own: the API server authenticates the kubeconfig's user and then checks that user's
 * `impersonate` verb on users, groups, uids and userextras (apiserver's impersonation filter),
 * answering 403 "cannot impersonate" otherwise. So the page gains nothing kubectl does not give
 * the same user. When the context impersonates too, the page's set replaces the context's as a
 * whole (openUpstream.ts). `lower` is a lower-case header name.
 */
export function isImpersonationHeader(lower: string): boolean {
  return lower === 'impersonate-user' || lower === 'impersonate-group' || lower === 'impersonate-uid' || lower.startsWith('impersonate-extra-');
}

const OVERRIDE = USER_AGENT_OVERRIDE_HEADER.toLowerCase();

/** Node's `process.platform`/`process.arch` as Go spells GOOS/GOARCH, which kubectl's User-Agent shows. */
const GOOS: Record<string, string> = { win32: 'windows' };
const GOARCH: Record<string, string> = { x64: 'amd64', ia32: '386', ppc64: 'ppc64le' };

/**
 * The explorer's User-Agent, in kubectl's form (`kubectl/v1.34.1 (linux/amd64) kubernetes/…`).
 * The browser's own is never forwarded: kube-apiserver pretty-prints JSON when the User-Agent starts
 * with `Mozilla/5.0`, `curl` or `Wget` (apiserver negotiation, isPrettyPrint), so every size the
 * explorer showed was a browser's and not a client's, and it names the field manager of a write
 * without `fieldManager` after the User-Agent's first `/`-separated part (`Mozilla`).
 */
export function userAgentOf(version: string, platform: string = process.platform, arch: string = process.arch): string {
  return `kube-api-explorer/${version} (${GOOS[platform] ?? platform}/${GOARCH[arch] ?? arch})`;
}

let ownUserAgent: string | undefined;
/** {@link userAgentOf} this explorer (computed once: the version is read from package.json). */
export function explorerUserAgent(): string {
  return (ownUserAgent ??= userAgentOf(explorerVersion()));
}

/** A User-Agent the page asked for on purpose: printable ASCII, as RFC 9110's field-value allows, and bounded. */
function acceptableUserAgent(v: string): boolean {
  return v.length > 0 && v.length <= 512 && /^[\x20-\x7e]+$/.test(v);
}

/** Body framing: never forwarded on a request that carries no body (GET, HEAD). */
const BODY_FRAMING = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'content-type']);

/**
 * Response headers dropped: cookies would be set on the proxy's origin by a remote party (and are
 * credentials of sorts); CORS grants are the proxy's to make, and it makes none.
 */
const DROP_RESPONSE = new Set(['set-cookie', 'set-cookie2']);
const DROP_RESPONSE_PREFIXES = ['proxy-', 'access-control-'];

function connectionListed(raw: readonly string[]): Set<string> {
  const listed = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'connection') {
      for (const token of raw[i + 1]!.split(',')) {
        const t = token.trim().toLowerCase();
        if (t) listed.add(t);
      }
    }
  }
  return listed;
}

function filterRaw(raw: readonly string[], drop: Set<string>, prefixes: string[]): [string, string][] {
  const listed = connectionListed(raw);
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || listed.has(lower) || drop.has(lower) || prefixes.some((p) => lower.startsWith(p))) continue;
    out.push([name, raw[i + 1]!]);
  }
  return out;
}

/**
 * Request headers to forward upstream, from Node's `rawHeaders` (flat name/value list): only
 * {@link ALLOWED_REQUEST_HEADERS} and impersonation, and without body framing when `bodyless` (a GET or HEAD: a
 * watch opened with Content-Length would make the server wait for a body that never comes). Then
 * the User-Agent, last: the one the page asked for in {@link USER_AGENT_OVERRIDE_HEADER}, else
 * `userAgent` (the explorer's own); the browser's User-Agent is never forwarded.
 */
export function upstreamRequestHeaders(raw: readonly string[], bodyless = false, userAgent: string = explorerUserAgent()): [string, string][] {
  const out: [string, string][] = [];
  let connection = false;
  let asked: string | undefined;
  // One pass (this runs on every request); names listed in Connection are taken out afterwards,
  // when there is a Connection header at all (browsers send "keep-alive", which is never allowed).
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (lower === 'connection') connection = true;
    if (lower === OVERRIDE && asked === undefined && acceptableUserAgent(raw[i + 1]!)) asked = raw[i + 1]!;
    if (!(ALLOWED_REQUEST_HEADERS.has(lower) || isImpersonationHeader(lower)) || (bodyless && BODY_FRAMING.has(lower))) continue;
    out.push([name, raw[i + 1]!]);
  }
  const listed = connection ? connectionListed(raw) : undefined;
  const kept = listed ? out.filter(([k]) => !listed.has(k.toLowerCase())) : out;
  kept.push(['User-Agent', asked ?? userAgent]);
  return kept;
}

/** Response headers to pass back to the browser, from the upstream `rawHeaders`. */
export function clientResponseHeaders(raw: readonly string[]): [string, string][] {
  return filterRaw(raw, DROP_RESPONSE, DROP_RESPONSE_PREFIXES);
}

/**
 * The same filter as {@link clientResponseHeaders}, appending flat name/value pairs to `out`: the
 * form `writeHead` takes without building a header map (every forwarded response passes here).
 */
export function appendClientResponseHeaders(raw: readonly string[], out: string[]): string[] {
  // Names listed in Connection are hop-by-hop too; the API server sends no Connection header on
  // a kept-alive HTTP/1.1 response, so the list is only built when there is one.
  let listed: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 10 && raw[i]!.toLowerCase() === 'connection') {
      listed = connectionListed(raw);
      break;
    }
  }
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || DROP_RESPONSE.has(lower) || lower.startsWith('proxy-') || lower.startsWith('access-control-') || listed?.has(lower)) continue;
    out.push(name, raw[i + 1]!);
  }
  return out;
}

/** Turns a plain record (the mux's `open.headers`) into the flat list the filters take. */
export function recordToRaw(headers: Record<string, unknown> | undefined): string[] {
  const raw: string[] = [];
  for (const [k, v] of Object.entries(headers ?? {})) {
    if (typeof v === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k) && !/[\r\n\0]/.test(v)) raw.push(k, v);
  }
  return raw;
}

/** Merges header pairs into the object form node:http takes; repeated names become arrays. */
export function toHeaderObject(pairs: readonly [string, string][]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of pairs) {
    const key = k.toLowerCase();
    const prev = out[key];
    out[key] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** Page-hardening headers sent on every response, API or not. */
export function securityHeaders(port: number): Record<string, string> {
  // connect-src: 'self' covers same-origin ws: in CSP3 browsers; the explicit ws:// origins cover the
  // rest (the mux at /proxy/mux and Vite's HMR socket in --dev) without allowing ws: anywhere.
  // No [::1] here: CSP host sources cannot be IPv6 literals (Chrome ignores the entry and warns),
  // and the proxy listens on 127.0.0.1 only.
  const ws = ['localhost', '127.0.0.1'].map((h) => `ws://${h}:${port}`).join(' ');
  return {
    'content-security-policy': [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self' data:",
      "worker-src 'self' blob:",
      `connect-src 'self' ${ws}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  };
}

/**
 * The `Location` of a redirect, as the browser must follow it: through this proxy. kube-apiserver
 * redirects with a path on itself (kube-openapi answers a stale `/openapi/v3/...?hash=` with 301
 * to the current hash, `Location: /openapi/v3/apis/<group>/<version>?hash=<new>`), which the browser
 * would resolve against the explorer's own origin and miss the cluster. A path on the API server
 * (or a full URL of it), under its kubeconfig path prefix if it has one, becomes the same path under
 * `/k8s/<context>`; a relative reference already resolves under the proxied URL, and a redirect to
 * another origin is left as it is (the browser's fetch then refuses to follow it cross-origin).
 */
export function proxiedLocation(location: string, target: { server: string; basePath: string; context: string }): string {
  let pathAndQuery: string;
  if (location.startsWith('/') && !location.startsWith('//')) {
    pathAndQuery = location;
  } else if (/^https?:\/\//i.test(location)) {
    let to: URL;
    let from: URL;
    try {
      to = new URL(location);
      from = new URL(target.server);
    } catch {
      return location;
    }
    if (to.origin !== from.origin) return location;
    pathAndQuery = `${to.pathname}${to.search}${to.hash}`;
  } else {
    return location;
  }
  const base = target.basePath;
  if (base && (pathAndQuery === base || pathAndQuery.startsWith(`${base}/`) || pathAndQuery.startsWith(`${base}?`))) pathAndQuery = pathAndQuery.slice(base.length) || '/';
  return `/k8s/${encodeURIComponent(target.context)}${pathAndQuery}`;
}

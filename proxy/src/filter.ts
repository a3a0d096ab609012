// The path filter: what may pass to the API server. Paths are decoded and checked segment by
// segment, and what is forwarded is re-encoded from exactly the segments that were checked, so the
// API server cannot see a different path than the one we judged (`..`, `%2e%2e`, `%2f`, `//`).
import { badRequest, ProxyError } from './errors';

export interface ApiPath {
  /** Decoded path segments (no leading empty segment). */
  segments: string[];
  /** Canonical encoded path, starting with `/`: what goes upstream. */
  path: string;
  /** Raw query including the leading `?`, or ''. */
  query: string;
}

export interface K8sRoute extends ApiPath {
  context: string;
}

/** RFC 3986 pchar minus `%`: left as is when re-encoding, so `system:masters` stays readable. */
const PCHAR = /[A-Za-z0-9\-._~!$&'()*+,;=:@]/;

const ALL_PCHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]*$/;

export function encodeSegment(segment: string): string {
  // Nearly every segment (api, v1, namespaces, names) needs no encoding at all.
  if (ALL_PCHAR.test(segment)) return segment;
  let out = '';
  for (const ch of segment) {
    if (PCHAR.test(ch)) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function decodeSegment(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest('InvalidPath', `malformed percent-encoding in ${what}: ${JSON.stringify(raw)}`);
  }
}

const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;

/** The characters of PCHAR, by code: a path made of them needs no decoding or re-encoding. */
const PLAIN_CHAR = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@") PLAIN_CHAR[c.charCodeAt(0)] = 1;

/**
 * The common case, in one pass over the characters: a path of one or more non-empty segments of
 * PCHAR (no `%`, so nothing to decode), none starting with a dot, an optional trailing slash; and a
 * query of printable ASCII without `#`. Anything else takes the full check (and its error messages).
 * One loop instead of several regular expressions and scans: this runs on every API request.
 */
function isPlain(pathAndQuery: string): boolean {
  const n = pathAndQuery.length;
  if (n < 2 || pathAndQuery.charCodeAt(0) !== 47 /* / */) return false;
  let prev = 47;
  let i = 1;
  for (; i < n; i++) {
    const c = pathAndQuery.charCodeAt(i);
    if (c === 63 /* ? */) break;
    if (c === 47) {
      if (prev === 47) return false;
    } else if (c >= 128 || PLAIN_CHAR[c] === 0 || (c === 46 /* . */ && prev === 47)) return false;
    prev = c;
  }
  if (i === 1) return false;
  for (i++; i < n; i++) {
    const c = pathAndQuery.charCodeAt(i);
    if (c < 0x21 || c > 0x7e || c === 35 /* # */) return false;
  }
  return true;
}

/**
 * Normalizes an API path with optional query (`/api/v1/pods?watch=1`). Throws a 400 ProxyError for
 * anything that does not mean exactly what it spells: dot segments (also encoded), encoded slashes
 * or backslashes, empty segments, double encoding, control characters, absolute URLs.
 */
export function normalizeApiPath(pathAndQuery: string): ApiPath {
  // Nearly every path is plain segments of unreserved characters: nothing to decode or re-encode,
  // so it is forwarded as is.
  if (isPlain(pathAndQuery)) {
    const q = pathAndQuery.indexOf('?');
    const rawPath = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
    const segments = rawPath.slice(1).split('/');
    if (segments[segments.length - 1] === '') segments.pop();
    return { segments, path: rawPath, query: q < 0 ? '' : pathAndQuery.slice(q) };
  }
  if (!PRINTABLE_ASCII.test(pathAndQuery)) throw badRequest('InvalidPath', 'the path contains spaces, control or non-ASCII characters; percent-encode them');
  const q = pathAndQuery.indexOf('?');
  const rawPath = q < 0 ? pathAndQuery : pathAndQuery.slice(0, q);
  const query = q < 0 ? '' : pathAndQuery.slice(q);
  if (query.includes('#')) throw badRequest('InvalidPath', 'the query contains "#"');
  if (!rawPath.startsWith('/')) throw badRequest('InvalidPath', `an API path must start with "/": ${JSON.stringify(rawPath.slice(0, 100))}`);
  if (rawPath.includes('\\')) throw badRequest('InvalidPath', 'backslashes are not allowed in API paths');
  const rawSegments = rawPath.slice(1).split('/');
  const segments: string[] = [];
  rawSegments.forEach((raw, i) => {
    const last = i === rawSegments.length - 1;
    if (raw === '') {
      // A single trailing slash (`/api/v1/`) is harmless; an empty segment elsewhere is `//`.
      if (last && i > 0) return;
      if (last && i === 0) return; // the root path "/"
      throw badRequest('InvalidPath', 'empty path segments ("//") are not allowed; an absolute URL is not a path');
    }
    const seg = decodeSegment(raw, 'the path');
    if (seg === '.' || seg === '..') throw badRequest('InvalidPath', `dot segments ("${raw}") are not allowed in API paths`);
    if (/[/\\%]/.test(seg)) throw badRequest('InvalidPath', `the path segment ${JSON.stringify(raw)} decodes to one containing "/", "\\" or "%"`);
    if (/[\x00-\x1f\x7f]/.test(seg)) throw badRequest('InvalidPath', 'control characters are not allowed in the path');
    segments.push(seg);
  });
  const trailing = rawSegments.length > 1 && rawSegments[rawSegments.length - 1] === '';
  const path = `/${segments.map(encodeSegment).join('/')}${trailing ? '/' : ''}`;
  return { segments, path, query };
}

/**
 * Splits `/k8s/<context>/<api path>?query`. The context segment is URL-encoded by the client and
 * may legitimately contain `/` (EKS ARNs), so it is decoded once and looked up, never re-parsed.
 */
export function parseK8sUrl(url: string): K8sRoute {
  if (!url.startsWith('/k8s/')) throw badRequest('InvalidPath', 'expected /k8s/<context>/<path>');
  const rest = url.slice('/k8s/'.length);
  const q = rest.indexOf('?');
  const slash = rest.indexOf('/');
  if (slash < 0 || (q >= 0 && q < slash)) throw badRequest('InvalidPath', 'expected /k8s/<context>/<path>');
  const rawContext = rest.slice(0, slash);
  if (!rawContext) throw badRequest('InvalidPath', 'the context name is empty: expected /k8s/<context>/<path>');
  // decodeURIComponent returns a name without `%` as it is (most context names).
  const context = rawContext.includes('%') ? decodeSegment(rawContext, 'the context name') : rawContext;
  const { segments, path, query } = normalizeApiPath(rest.slice(slash));
  return { context, segments, path, query };
}

/** Subresources that reach into workloads and nodes rather than the API: refused by default. */
const REFUSED_SUBRESOURCES: Record<string, string> = {
  exec: 'runs commands inside containers',
  attach: 'attaches to a running container',
  portforward: 'opens network connections into pods',
  proxy: 'forwards requests into pods, services or the kubelet API of nodes',
  ephemeralcontainers: 'starts a container of any image and command inside a running pod',
};

/**
 * Refuses exec/attach/portforward/proxy/ephemeralcontainers subresources (of pods, services and nodes, and of any other
 * resource that has them, e.g. aggregated APIs) and the legacy /api/v1/proxy and /redirect verbs.
 * Returns null when the path may pass.
 */
export function refusal(segments: readonly string[]): ProxyError | null {
  // Segments are lower-cased as they are looked at (this runs on every API request).
  const at = (i: number): string | undefined => segments[i]?.toLowerCase();
  const group = at(0);
  let base: number;
  if (group === 'api' && segments.length >= 2) base = 2;
  else if (group === 'apis' && segments.length >= 3) base = 3;
  else return null;
  if (at(base) === 'watch') base++;
  const first = at(base);
  if (first === 'proxy' || first === 'redirect') {
    return refused(`${first} (legacy /${segments.slice(0, group === 'api' ? 2 : 3).map((x) => x.toLowerCase()).join('/')}/${first}/...)`, REFUSED_SUBRESOURCES.proxy!);
  }
  // namespaces/<ns>/<resource>/<name>/<sub>; or <resource>/<name>/<sub> (cluster-scoped, and
  // namespaces/<name>/<sub> itself).
  const namespaced = first === 'namespaces' && segments.length - base >= 4;
  const resource = namespaced ? at(base + 2) : first;
  const sub = namespaced ? at(base + 4) : at(base + 2);
  if (sub !== undefined && Object.hasOwn(REFUSED_SUBRESOURCES, sub)) return refused(`${resource}/${sub}`, REFUSED_SUBRESOURCES[sub]!, sub === 'exec' || sub === 'attach');
  return null;
}

function refused(what: string, why: string, kubectlToo = false): ProxyError {
  // kubectl proxy's default --reject-paths cover pods' exec and attach only.
  return new ProxyError(403, 'Forbidden', 'RefusedSubresource', `the explorer proxy refuses ${what}: it ${why}, which this explorer does not offer${kubectlToo ? ' (kubectl proxy refuses it by default too)' : ''}; start the explorer with --allow-exec to let it through`);
}

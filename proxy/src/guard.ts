// The locked door in front of everything: the proxy holds cluster credentials and listens on
// loopback, where any web page the user opens can reach it. Host checks stop DNS rebinding, Origin
// and Sec-Fetch-Site stop cross-site requests, and the per-launch token (only readable by a page of
// our own origin) stops everything else.
import { forbidden, ProxyError } from './errors';

/** What the door reads of a request's headers (lower-case names, as node:http's req.headers has them). */
export interface DoorHeaders {
  /** Number of Host header lines (more than one is refused: a front proxy might route by another). */
  hosts: number;
  host?: string;
  origin?: string;
  'sec-fetch-site'?: string;
  'sec-fetch-mode'?: string;
  'sec-fetch-dest'?: string;
  'x-explorer-token'?: string;
  'content-length'?: string;
  'transfer-encoding'?: string;
}

/**
 * The headers the door and the forwarder read, in one pass over rawHeaders: node:http builds
 * req.headers (every header, each name matched and lower-cased) on first read, which cost more
 * on every API request than the checks themselves. Repeated lines are combined as req.headers
 * combines them: the first Host and Content-Length count, the others are joined with ", " (so two
 * tokens or two origins never match).
 */
export function readDoorHeaders(raw: readonly string[]): DoorHeaders {
  const h: DoorHeaders = { hosts: 0 };
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    // Only names of these lengths can be one we read: most lines are never lower-cased.
    switch (name.length) {
      case 4:
        if (name.toLowerCase() === 'host') {
          if (h.hosts++ === 0) h.host = value;
        }
        break;
      case 6:
        if (name.toLowerCase() === 'origin') h.origin = join(h.origin, value);
        break;
      case 14: {
        const lower = name.toLowerCase();
        if (lower === 'sec-fetch-site' || lower === 'sec-fetch-mode' || lower === 'sec-fetch-dest') h[lower] = join(h[lower], value);
        else if (lower === 'content-length') h['content-length'] ??= value;
        break;
      }
      case 16:
        if (name.toLowerCase() === 'x-explorer-token') h['x-explorer-token'] = join(h['x-explorer-token'], value);
        break;
      case 17:
        if (name.toLowerCase() === 'transfer-encoding') h['transfer-encoding'] = join(h['transfer-encoding'], value);
        break;
    }
  }
  return h;
}

function join(prev: string | undefined, value: string): string {
  return prev === undefined ? value : `${prev}, ${value}`;
}

/** The headers checkOrigin reads: node:http's req.headers, or {@link DoorHeaders}. */
export interface OriginHeaders {
  origin?: string;
  'sec-fetch-site'?: string | string[];
  'sec-fetch-mode'?: string | string[];
  'sec-fetch-dest'?: string | string[];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

// The hot path asks for the same port on every request: keep the last set.
let cachedHosts: { port: number; hosts: Set<string> } | undefined;

/** `host:port` values accepted in Host: loopback names with the proxy's own port only. */
export function allowedHosts(port: number): ReadonlySet<string> {
  if (cachedHosts?.port === port) return cachedHosts.hosts;
  const hosts = new Set(LOOPBACK_NAMES.map((h) => `${h}:${port}`));
  if (port === 80) for (const h of LOOPBACK_NAMES) hosts.add(h);
  cachedHosts = { port, hosts };
  return hosts;
}

export function checkHost(host: string | undefined, port: number): ProxyError | null {
  if (host !== undefined && allowedHosts(port).has(host.toLowerCase())) return null;
  return forbidden('ForbiddenHost', `Host ${JSON.stringify(host ?? '')} is not this proxy (expected localhost, 127.0.0.1 or [::1] with port ${port}); requests through other host names are refused to prevent DNS rebinding`);
}

/**
 * Origin, when present, must be one of our own origins (a page served by this proxy). Sec-Fetch-Site
 * cross-site is refused too; `allowNavigation` lets a top-level navigation from another site open
 * the page itself (it carries no API access: the page reads its token from its own origin).
 */
export function checkOrigin(headers: OriginHeaders, port: number, allowNavigation = false): ProxyError | null {
  const origin = headers.origin;
  if (origin !== undefined) {
    const hosts = allowedHosts(port);
    let ok: boolean;
    try {
      const u = new URL(origin);
      ok = u.protocol === 'http:' && u.pathname === '/' && !u.username && hosts.has(u.host) && origin.replace(/\/$/, '') === `http://${u.host}`;
    } catch {
      ok = false;
    }
    if (!ok) return forbidden('ForbiddenOrigin', `requests from origin ${JSON.stringify(origin)} are refused; only pages served by this proxy may use it`);
  }
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site') {
    const navigation = headers['sec-fetch-mode'] === 'navigate' && (headers['sec-fetch-dest'] ?? 'document') === 'document';
    if (!(allowNavigation && navigation)) return forbidden('CrossSiteRequest', 'cross-site requests are refused (Sec-Fetch-Site: cross-site)');
  }
  return null;
}

/**
 * Compares the token in time that does not depend on where the strings differ: every code unit
 * is compared and the differences OR-ed together, with no branch on them. Its length is no secret
 * (64 hex digits, in every page the proxy serves), so a length mismatch may answer early. This
 * replaced Buffer.from plus crypto.timingSafeEqual: a buffer and a call into C++ on every request,
 * measurable in the proxy's added latency; hashing both sides first, as an earlier version did,
 * cost more still.
 */
export function tokenMatches(given: unknown, token: string): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length !== token.length) return false;
  let diff = 0;
  for (let i = 0; i < token.length; i++) diff |= given.charCodeAt(i) ^ token.charCodeAt(i);
  return diff === 0;
}

export function checkToken(given: string | string[] | undefined, token: string): ProxyError | null {
  if (given === undefined || given === '') {
    return new ProxyError(401, 'Unauthorized', 'MissingToken', 'the X-Explorer-Token header is missing; the explorer page sends it (it is in the page the proxy serves)');
  }
  if (Array.isArray(given) || !tokenMatches(given, token)) {
    return new ProxyError(401, 'Unauthorized', 'WrongToken', 'the X-Explorer-Token header does not match this proxy launch; reload the explorer page');
  }
  return null;
}

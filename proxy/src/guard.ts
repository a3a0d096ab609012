// The locked door in front of everything: the proxy holds cluster credentials and listens on
// loopback, where any web page the user opens can reach it. Host checks stop DNS rebinding, Origin
// and Sec-Fetch-Site stop cross-site requests, and the per-launch token (only readable by a page of
// our own origin) stops everything else.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { forbidden, ProxyError } from './errors';

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
export function checkOrigin(headers: IncomingHttpHeaders, port: number, allowNavigation = false): ProxyError | null {
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

// The launch's token as bytes, made once, not on every request.
let cachedToken: { token: string; bytes: Buffer } | undefined;

/**
 * Constant-time comparison of the token's bytes. Its length is no secret (64 hex digits, in every
 * page the proxy serves), so a length mismatch may answer early; hashing both sides first, as this
 * did, cost more than the rest of the request filter on every request.
 */
export function tokenMatches(given: unknown, token: string): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  if (cachedToken?.token !== token) cachedToken = { token, bytes: Buffer.from(token, 'utf8') };
  if (given.length !== token.length) return false;
  const bytes = Buffer.from(given, 'utf8');
  return bytes.length === cachedToken.bytes.length && timingSafeEqual(bytes, cachedToken.bytes);
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

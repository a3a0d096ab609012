// Sealed cookies for the shared deployment (issue 48): the server mode keeps no session in memory,
// so that any replica behind a Service can answer any request. What a session needs (the user's
// ID and refresh tokens, their expiry) travels in the browser's own cookies, encrypted and
// authenticated (JWE, `dir` + A256GCM, with jose) under a key every replica reads from the same
// Secret. A browser can hold them but neither read nor change them.
//
// - Rotation: the Secret lists the current key first and may keep older ones; a cookie sealed
//   under an older key is still opened (its `kid` names it) and is sealed anew under the current
//   key on its next write. Removing an old key ends the sessions sealed under it.
// - Size: ID tokens of providers that put many groups in them exceed what one cookie may hold
//   (browsers take about 4,096 bytes per cookie), so a sealed value is split over numbered
//   cookies and joined in order; a missing or extra part fails to open, it is never guessed.
// - Kinds: the login cookie (state, nonce, PKCE verifier) and the session cookie are sealed with
//   their kind inside, so one cannot be presented as the other.
// - Names use the `__Host-` prefix: browsers accept such a cookie only with Secure, Path=/ and no
//   Domain, so no other host or path can set or shadow it.
import { CompactEncrypt, compactDecrypt } from 'jose';

export interface SealingKey {
  /** Names the key in each sealed value's header (`kid`), so rotation can find it. */
  id: string;
  /** 32 bytes (A256GCM). */
  secret: Uint8Array;
}

/** The current key first, then the older ones still accepted. */
export type SealingKeys = [SealingKey, ...SealingKey[]];

/**
 * Keys from the Secret's text: one `id:base64` per line, current first (`#` comments and blank
 * lines skipped). A key that is not 32 bytes, or a repeated id, is refused with the line named.
 */
export function parseSealingKeys(text: string): SealingKeys {
  const keys: SealingKey[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const m = /^([A-Za-z0-9._-]{1,64}):([A-Za-z0-9+/=_-]+)$/.exec(line);
    if (!m) throw new Error(`session keys, line ${i + 1}: expected id:base64 (32 bytes)`);
    const secret = new Uint8Array(Buffer.from(m[2]!, 'base64'));
    if (secret.length !== 32) throw new Error(`session keys, line ${i + 1}: key "${m[1]}" is ${secret.length} bytes, not 32`);
    if (keys.some((k) => k.id === m[1])) throw new Error(`session keys, line ${i + 1}: key id "${m[1]}" is repeated`);
    keys.push({ id: m[1]!, secret });
  });
  if (keys.length === 0) throw new Error('session keys: none given (one id:base64 line of 32 bytes at least)');
  return keys as SealingKeys;
}

export type SealedKind = 'login' | 'session';

/** Most of a cookie's 4,096 bytes, leaving room for its name and attributes. */
export const CHUNK = 3_800;
/** More parts than any real token needs: a cookie header claiming more is not read. */
const MAX_PARTS = 12;

export const cookieName = (kind: SealedKind, part: number) => `__Host-kae-${kind}-${part}`;

/** Seals `payload` (with its kind and expiry) and splits it into cookie values, in order. */
export async function seal(kind: SealedKind, payload: Record<string, unknown>, keys: SealingKeys, expiresAt: number): Promise<string[]> {
  const [key] = keys;
  const body = new TextEncoder().encode(JSON.stringify({ ...payload, kind, exp: Math.floor(expiresAt / 1000) }));
  const jwe = await new CompactEncrypt(body).setProtectedHeader({ alg: 'dir', enc: 'A256GCM', kid: key.id }).encrypt(key.secret);
  const parts: string[] = [];
  for (let i = 0; i < jwe.length; i += CHUNK) parts.push(jwe.slice(i, i + CHUNK));
  if (parts.length > MAX_PARTS) throw new Error(`the sealed ${kind} is ${jwe.length} bytes, over the ${MAX_PARTS * CHUNK} a browser can be asked to keep`);
  return parts;
}

export type Opened<T> = { ok: true; payload: T; keyId: string; rotated: boolean } | { ok: false; reason: 'absent' | 'malformed' | 'unknown key' | 'tampered' | 'wrong kind' | 'expired' };

/** Parses a Cookie header into name → value (the first of a repeated name wins, as browsers send the most specific first). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    const name = pair.slice(0, eq).trim();
    if (!out.has(name)) out.set(name, pair.slice(eq + 1).trim());
  }
  return out;
}

/** Joins the numbered parts from part 0 on; stops at the first gap. */
function joined(kind: SealedKind, cookies: Map<string, string>): string | undefined {
  let value = '';
  for (let i = 0; i < MAX_PARTS; i++) {
    const part = cookies.get(cookieName(kind, i));
    if (part === undefined) return i === 0 ? undefined : value;
    value += part;
  }
  return value;
}

/** Opens the sealed `kind` from a Cookie header: its payload, or why not. */
export async function open<T extends Record<string, unknown>>(kind: SealedKind, cookieHeader: string | undefined, keys: SealingKeys, now = Date.now()): Promise<Opened<T>> {
  const jwe = joined(kind, parseCookies(cookieHeader));
  if (jwe === undefined) return { ok: false, reason: 'absent' };
  let kid: unknown;
  try {
    kid = (JSON.parse(Buffer.from(jwe.split('.')[0] ?? '', 'base64url').toString('utf8')) as { kid?: unknown }).kid;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  const key = keys.find((k) => k.id === kid);
  if (!key) return { ok: false, reason: 'unknown key' };
  let payload: T & { kind?: unknown; exp?: unknown };
  try {
    const { plaintext } = await compactDecrypt(jwe, key.secret, { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] });
    payload = JSON.parse(new TextDecoder().decode(plaintext)) as T & { kind?: unknown; exp?: unknown };
  } catch {
    // A changed byte, a part from another cookie, a truncated value: the tag does not verify.
    return { ok: false, reason: 'tampered' };
  }
  if (payload.kind !== kind) return { ok: false, reason: 'wrong kind' };
  if (typeof payload.exp !== 'number' || payload.exp * 1000 <= now) return { ok: false, reason: 'expired' };
  return { ok: true, payload, keyId: key.id, rotated: key.id !== keys[0].id };
}

/**
 * The Set-Cookie headers for `parts` (HttpOnly, Secure, SameSite=Strict, Path=/), clearing any
 * higher-numbered part the browser still holds from a longer value (`had`: parts it sent).
 */
export function setCookies(kind: SealedKind, parts: string[], maxAgeSeconds: number, had = 0): string[] {
  const attrs = 'Path=/; Secure; HttpOnly; SameSite=Strict';
  const set = parts.map((p, i) => `${cookieName(kind, i)}=${p}; ${attrs}; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`);
  for (let i = parts.length; i < Math.max(had, parts.length); i++) set.push(`${cookieName(kind, i)}=; ${attrs}; Max-Age=0`);
  return set;
}

/** How many parts of `kind` a Cookie header carries (to clear them all). */
export function partsSent(kind: SealedKind, cookieHeader: string | undefined): number {
  const cookies = parseCookies(cookieHeader);
  let n = 0;
  while (n < MAX_PARTS && cookies.has(cookieName(kind, n))) n++;
  return n;
}

import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK, cookieName, open, parseSealingKeys, partsSent, seal, type SealingKeys, setCookies } from './sealed';

const key = (id: string) => ({ id, secret: new Uint8Array(randomBytes(32)) });
const header = (kind: 'login' | 'session', parts: string[]) => parts.map((p, i) => `${cookieName(kind, i)}=${p}`).join('; ');
const HOUR = 3_600_000;

describe('sealed cookies', () => {
  it('round-trips any payload, split over as many cookies as it needs, each within one cookie', async () => {
    const keys: SealingKeys = [key('k1')];
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue()), fc.string({ minLength: 0, maxLength: 20_000 }), async (extra, idToken) => {
        const payload = { ...extra, idToken };
        const parts = await seal('session', payload, keys, Date.now() + HOUR);
        expect(parts.every((p) => p.length <= CHUNK && /^[A-Za-z0-9_.-]*$/.test(p))).toBe(true);
        const opened = await open('session', header('session', parts), keys);
        expect(opened.ok && opened.payload).toMatchObject(JSON.parse(JSON.stringify(payload)) as object);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a changed byte, a missing or reordered part, the other kind, an expired value, an unknown key', async () => {
    const keys: SealingKeys = [key('k1')];
    const parts = await seal('session', { idToken: 'x'.repeat(9_000) }, keys, Date.now() + HOUR);
    expect(parts.length).toBe(4);
    const flipped = parts.map((p, i) => (i === 1 ? p.slice(0, 10) + (p[10] === 'A' ? 'B' : 'A') + p.slice(11) : p));
    expect(await open('session', header('session', flipped), keys)).toEqual({ ok: false, reason: 'tampered' });
    expect(await open('session', header('session', [parts[0]!, parts[2]!, parts[3]!]), keys)).toEqual({ ok: false, reason: 'tampered' });
    expect(await open('session', header('session', [parts[0]!, parts[2]!, parts[1]!, parts[3]!]), keys)).toEqual({ ok: false, reason: 'tampered' });
    // A login cookie's value presented as a session (both sealed with the same key).
    const login = await seal('login', { state: 's' }, keys, Date.now() + HOUR);
    expect(await open('session', header('session', login), keys)).toEqual({ ok: false, reason: 'wrong kind' });
    const old = await seal('session', { idToken: 't' }, keys, Date.now() - 1);
    expect(await open('session', header('session', old), keys)).toEqual({ ok: false, reason: 'expired' });
    expect(await open('session', header('session', parts), [key('k2')])).toEqual({ ok: false, reason: 'unknown key' });
    expect(await open('session', 'other=1', keys)).toEqual({ ok: false, reason: 'absent' });
    expect(await open('session', `${cookieName('session', 0)}=not-a-jwe`, keys)).toEqual({ ok: false, reason: 'malformed' });
  });

  it('opens a value sealed under an older key while the Secret keeps it, and says it should be sealed anew', async () => {
    const [k1, k2] = [key('k1'), key('k2')];
    const parts = await seal('session', { idToken: 't' }, [k1], Date.now() + HOUR);
    expect(await open('session', header('session', parts), [k2, k1])).toMatchObject({ ok: true, keyId: 'k1', rotated: true });
    expect(await open('session', header('session', parts), [k2])).toEqual({ ok: false, reason: 'unknown key' });
  });

  it('sets HttpOnly, Secure, SameSite=Strict cookies and clears the parts a shorter value no longer uses', () => {
    const set = setCookies('session', ['a', 'b'], 60, 4);
    expect(set).toHaveLength(4);
    expect(set[0]).toBe('__Host-kae-session-0=a; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=60');
    expect(set[3]).toBe('__Host-kae-session-3=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0');
    expect(partsSent('session', '__Host-kae-session-0=a; __Host-kae-session-1=b; x=1')).toBe(2);
  });

  it('reads keys from the Secret, current first, and names the line of a bad one', () => {
    const k = (n: number) => Buffer.alloc(32, n).toString('base64');
    const keys = parseSealingKeys(`# rotated 2026-11-29\nnew:${k(1)}\n\nold:${k(2)}\n`);
    expect(keys.map((x) => x.id)).toEqual(['new', 'old']);
    expect(() => parseSealingKeys(`a:${Buffer.alloc(16).toString('base64')}`)).toThrow('line 1: key "a" is 16 bytes, not 32');
    expect(() => parseSealingKeys(`a:${k(1)}\na:${k(2)}`)).toThrow('line 2: key id "a" is repeated');
    expect(() => parseSealingKeys('')).toThrow('none given');
  });
});

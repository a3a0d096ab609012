// The server mode's relying party against a real OpenID provider (oidc-provider over HTTPS) and
// the real kube-apiserver trusting it: sign-in, the attacks on it by name, refresh single-flight
// and sign-out. The browser is played by hand (its cookies carried from answer to request).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeAuthenticationConfig } from '../../cluster/authnConfig';
import { type OidcProvider, startOidcProvider } from '../../cluster/oidc';
import { browseToCallback, fetchTrusting } from '../../cluster/oidcLogin.testkit';
import { pem } from '../../cluster/pki';
import { type HttpAnswer, RelyingParty, safeReturnTo } from './relyingParty';

const CLIENT = 'kube-api-explorer';
const REDIRECT = 'https://explorer.test/oidc/callback';
const pkiDir = () => join(inject('controlPlane').dir, 'pki');
let idp: OidcProvider;
let rp: RelyingParty;
let f: typeof fetch;
let refreshGrants = 0;

/** The Cookie header a browser would send after these Set-Cookie headers (a cleared cookie is dropped). */
function cookiesAfter(setCookies: string[], before = ''): string {
  const jar = new Map(before.split('; ').filter(Boolean).map((c) => [c.slice(0, c.indexOf('=')), c.slice(c.indexOf('=') + 1)]));
  for (const line of setCookies) {
    const [pair] = line.split(';');
    const name = pair!.slice(0, pair!.indexOf('='));
    if (/Max-Age=0(;|$)/.test(line)) jar.delete(name);
    else jar.set(name, pair!.slice(pair!.indexOf('=') + 1));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
}

/** Starts a login in "a browser" and brings the provider's answer back: the callback URL and the browser's cookies. */
async function loginUpToCallback(user: string): Promise<{ callback: URL; cookies: string }> {
  const start = await rp.startLogin('/?view=lists');
  expect(start.status).toBe(302);
  const callback = await browseToCallback(f, start.location!, idp.issuer, user);
  expect(callback.startsWith(REDIRECT)).toBe(true);
  return { callback: new URL(callback), cookies: cookiesAfter(start.setCookies) };
}

async function signIn(user: string): Promise<{ answer: HttpAnswer; cookies: string }> {
  const { callback, cookies } = await loginUpToCallback(user);
  const answer = await rp.finishLogin(callback, cookies);
  return { answer, cookies: cookiesAfter(answer.setCookies, cookies) };
}

async function whoAmI(idToken: string): Promise<number> {
  const res = await f(new URL('/apis/authentication.k8s.io/v1/selfsubjectreviews', inject('controlPlane').server), {
    method: 'POST',
    headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
  });
  await res.arrayBuffer();
  return res.status;
}

beforeAll(async () => {
  const ca = pem(join(pkiDir(), 'ca.crt'));
  f = fetchTrusting(ca);
  idp = await startOidcProvider({ certFile: join(pkiDir(), 'apiserver.crt'), keyFile: join(pkiDir(), 'apiserver.key'), clients: [{ id: CLIENT, redirectUris: [REDIRECT] }], rotateRefreshTokens: true });
  idp.provider.on('grant.success', (ctx) => {
    if ((ctx.oidc.params as { grant_type?: string } | undefined)?.grant_type === 'refresh_token') refreshGrants++;
  });
  writeAuthenticationConfig(inject('controlPlane').dir, [{ url: idp.issuer, audiences: [CLIENT], certificateAuthority: ca, prefix: 'oidc:' }]);
  rp = await RelyingParty.discover({ issuer: new URL(idp.issuer), clientId: CLIENT, redirectUri: REDIRECT, keys: [{ id: 'k1', secret: new Uint8Array(randomBytes(32)) }], fetch: f });
}, 60_000);

afterAll(async () => {
  writeAuthenticationConfig(inject('controlPlane').dir, []);
  await idp?.stop();
});

describe('the relying party of the server mode', () => {
  it('signs alice in: back to where she was, her session sealed in cookies, her ID token accepted by kube-apiserver', async () => {
    const { answer, cookies } = await signIn('alice');
    expect(answer).toMatchObject({ status: 302, location: '/?view=lists' });
    expect(answer.setCookies.every((c) => c.includes('HttpOnly') && c.includes('Secure') && c.includes('SameSite=Strict'))).toBe(true);
    const s = await rp.session(cookies);
    expect(s.ok && s.payload.sub).toBe('alice');
    await expect.poll(() => whoAmI((s as { payload: { idToken: string } }).payload.idToken), { timeout: 90_000, interval: 500 }).toBe(201);
  }, 120_000);

  it('refuses a forged state, a replayed callback, a callback without this browser\'s login cookie (login CSRF), and a foreign return address', async () => {
    const { callback, cookies } = await loginUpToCallback('alice');
    const forged = new URL(callback);
    forged.searchParams.set('state', 'forged');
    expect(await rp.finishLogin(forged, cookies)).toMatchObject({ status: 400, error: expect.stringContaining('state differs') });
    // The genuine answer still works once...
    expect((await rp.finishLogin(callback, cookies)).status).toBe(302);
    // ...and not twice: the provider refuses a used code, whatever cookies come with it.
    expect(await rp.finishLogin(callback, cookies)).toMatchObject({ status: 400, error: expect.stringContaining('identity provider') });
    // Login CSRF: the attacker's own callback, opened in the victim's browser (no login cookie, or another one).
    const attacker = await loginUpToCallback('bob');
    expect((await rp.finishLogin(attacker.callback, '')).status).toBe(400);
    const victim = await loginUpToCallback('alice');
    expect(await rp.finishLogin(attacker.callback, victim.cookies)).toMatchObject({ status: 400, error: expect.stringContaining('state differs') });
    expect(['//evil.test/x', 'https://evil.test', '/\\evil.test', '', null].map(safeReturnTo)).toEqual(['/', '/', '/', '/', '/']);
  });

  it('fifty refreshes at once in one replica send one refresh grant, and all get the new session', async () => {
    const { cookies } = await signIn('alice');
    const before = refreshGrants;
    const answers = await Promise.all(Array.from({ length: 50 }, () => rp.refresh(cookies)));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(refreshGrants - before).toBe(1);
    const next = cookiesAfter(answers[0]!.setCookies, cookies);
    expect(await whoAmI((await rp.session(next) as { payload: { idToken: string } }).payload.idToken)).toBe(201);
    // The provider rotated the refresh token: the old cookie's one is spent.
    expect((await rp.refresh(cookies)).status).toBe(401);
  });

  it('signs out: the refresh token revoked at the provider, the cookies cleared, the provider\'s sign-out next', async () => {
    const { cookies } = await signIn('alice');
    const out = await rp.logout(cookies);
    expect(out.status).toBe(302);
    expect(out.location).toContain(`${idp.issuer}/session/end`);
    expect(cookiesAfter(out.setCookies, cookies)).toBe('');
    // The old cookie replayed: its refresh token no longer works.
    expect(await rp.refresh(cookies)).toMatchObject({ status: 401, error: expect.stringContaining('refused the refresh') });
  });
});

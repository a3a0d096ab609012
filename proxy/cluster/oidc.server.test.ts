// The shared deployment's identity chain, against the real control plane (issue 48): a real
// OpenID provider (oidc-provider over HTTPS), kube-apiserver trusting it through structured
// authentication (reloaded while it runs), users signed in by the authorization code flow with
// PKCE, and RBAC deciding per user. What the explorer's server mode will rely on, proven first
// without it: the API server, not the explorer, says who a token is and what it may do.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import * as client from 'openid-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type JwtIssuer, writeAuthenticationConfig } from './authnConfig';
import { testCluster } from './cluster.testkit';
import { type OidcProvider, startOidcProvider } from './oidc';
import { fetchTrusting, oidcLogin } from './oidcLogin.testkit';
import { pem } from './pki';

const CLIENT = 'kube-api-explorer';
const OTHER = 'another-app';
const REDIRECT = 'http://127.0.0.1:9/oidc/callback';
const ns = `oidc-${randomBytes(3).toString('hex')}`;
const cluster = () => testCluster(inject('controlPlane'));
const pkiDir = () => join(inject('controlPlane').dir, 'pki');

let idp: OidcProvider;
let ca: string;
let f: typeof fetch;

/** A request to kube-apiserver with a bearer token (no client certificate). */
async function asBearer(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await f(new URL(path, inject('controlPlane').server), {
    method,
    headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const whoAmI = (token: string) => asBearer(token, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
const login = (user: string, clientId = CLIENT) => oidcLogin({ issuer: idp.issuer, ca, clientId, redirectUri: REDIRECT, user });

beforeAll(async () => {
  ca = pem(join(pkiDir(), 'ca.crt'));
  f = fetchTrusting(ca);
  idp = await startOidcProvider({
    certFile: join(pkiDir(), 'apiserver.crt'),
    keyFile: join(pkiDir(), 'apiserver.key'),
    clients: [{ id: CLIENT, redirectUris: [REDIRECT] }, { id: OTHER, redirectUris: [REDIRECT] }],
  });
  const issuer: JwtIssuer = { url: idp.issuer, audiences: [CLIENT], certificateAuthority: ca, prefix: 'oidc:' };
  writeAuthenticationConfig(inject('controlPlane').dir, [issuer]);
  const k = cluster();
  expect((await k.request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
  const binding = { metadata: { name: 'alice-view' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' }, subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'oidc:alice' }] };
  expect((await k.request('admin', 'POST', `/apis/rbac.authorization.k8s.io/v1/namespaces/${ns}/rolebindings`, binding)).status).toBe(201);
}, 60_000);

afterAll(async () => {
  writeAuthenticationConfig(inject('controlPlane').dir, []);
  await cluster().request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
  await idp?.stop();
});

describe('an OpenID provider trusted by kube-apiserver', () => {
  it('signs alice in with PKCE; once the server has reloaded its configuration, it knows her as oidc:alice with her groups', async () => {
    const alice = await login('alice');
    // The reload is the server's own (a file watch); wait for it, as an operator would.
    await expect.poll(async () => (await whoAmI(alice.idToken)).status, { timeout: 90_000, interval: 500 }).toBe(201);
    const review = (await whoAmI(alice.idToken)).json as { status: { userInfo: { username: string; groups: string[] } } };
    expect(review.status.userInfo.username).toBe('oidc:alice');
    expect(review.status.userInfo.groups).toEqual(expect.arrayContaining(['oidc:explorer-team', 'system:authenticated']));
  }, 120_000);

  it('RBAC decides per user: alice lists the namespace, bob gets a 403 naming him', async () => {
    const [alice, bob] = [await login('alice'), await login('bob')];
    expect((await asBearer(alice.idToken, 'GET', `/api/v1/namespaces/${ns}/configmaps`)).status).toBe(200);
    const denied = await asBearer(bob.idToken, 'GET', `/api/v1/namespaces/${ns}/configmaps`);
    expect(denied.status).toBe(403);
    expect(String(denied.json.message)).toContain('"oidc:bob"');
  });

  it('a token for another audience is refused (401), and so is a token signed by no trusted issuer', async () => {
    const other = await login('alice', OTHER);
    expect((await whoAmI(other.idToken)).status).toBe(401);
    const [h, p] = other.idToken.split('.');
    const forged = `${h}.${p}.${Buffer.from(randomBytes(64)).toString('base64url')}`;
    expect((await whoAmI(forged)).status).toBe(401);
  });

  it('an ID token over 8 KB (400 groups) authenticates, every group kept', async () => {
    const carol = await login('carol');
    expect(carol.idToken.length).toBeGreaterThan(8192);
    const review = await whoAmI(carol.idToken);
    expect(review.status).toBe(201);
    expect((review.json as { status: { userInfo: { groups: string[] } } }).status.userInfo.groups.filter((g) => g.startsWith('oidc:explorer-group-'))).toHaveLength(400);
  });

  it('a refresh gives a new ID token the server accepts', async () => {
    const alice = await login('alice');
    expect(alice.refreshToken).toBeTruthy();
    const config = await client.discovery(new URL(idp.issuer), CLIENT, undefined, client.None(), { [client.customFetch]: f as client.CustomFetch });
    config[client.customFetch] = f as client.CustomFetch;
    const fresh = await client.refreshTokenGrant(config, alice.refreshToken!);
    expect(fresh.id_token).toBeTruthy();
    // Issued anew (within the same second it can equal the first, which carries no jti).
    const exp = (t: string) => (JSON.parse(Buffer.from(t.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp;
    expect(exp(fresh.id_token!)).toBeGreaterThanOrEqual(exp(alice.idToken));
    expect((await whoAmI(fresh.id_token!)).status).toBe(201);
  });
});

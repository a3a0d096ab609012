// A real OpenID provider for the shared deployment's tests (issue 48): `oidc-provider`, a certified
// implementation of OpenID Connect, served over HTTPS with the local control plane's CA, so that
// kube-apiserver's structured authentication (authnConfig.ts) can trust it and the explorer's
// server mode can sign users in through it, as it would through a company's provider.
//
// Sign-in is oidc-provider's development interaction: a form that takes any login (the account ID)
// and a password it does not check. The test users below give each account its claims; a name
// not among them signs in with no groups. Their RBAC is the test's business, not the provider's.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { type ClientMetadata, type Configuration } from 'oidc-provider';

/** The test users: `sub` is the login; `groups` goes into the ID token. */
export const OIDC_USERS: Record<string, { groups: string[] }> = {
  alice: { groups: ['explorer-team'] },
  bob: { groups: [] },
  // An ID token over 8 KB (some providers' are: many groups), which no single cookie can hold.
  carol: { groups: Array.from({ length: 400 }, (_, i) => `explorer-group-${String(i).padStart(3, '0')}`) },
};

export interface OidcClient {
  id: string;
  /** A confidential client's secret; a public client (PKCE only) has none. */
  secret?: string;
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
}

export interface OidcProviderOptions {
  /** PEM file paths of the serving certificate (for 127.0.0.1) and its key. */
  certFile: string;
  keyFile: string;
  clients: OidcClient[];
  /** Lifetimes in seconds; tests shorten them to meet expiry and refresh. */
  ttl?: { idToken?: number; accessToken?: number; refreshToken?: number };
  /** Rotate refresh tokens on use (a used one is then refused, and its reuse revokes the grant). */
  rotateRefreshTokens?: boolean;
  port?: number;
}

export interface OidcProvider {
  /** https://127.0.0.1:PORT: the `iss` of its tokens. */
  issuer: string;
  provider: Provider;
  stop(): Promise<void>;
}

function clientMetadata(c: OidcClient): ClientMetadata {
  return {
    client_id: c.id,
    ...(c.secret ? { client_secret: c.secret } : { token_endpoint_auth_method: 'none' }),
    redirect_uris: c.redirectUris,
    post_logout_redirect_uris: c.postLogoutRedirectUris ?? [],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
}

async function configuration(o: OidcProviderOptions): Promise<Configuration> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const ttl = o.ttl ?? {};
  return {
    clients: o.clients.map(clientMetadata),
    jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test' }] },
    claims: { openid: ['sub'], groups: ['groups'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'offline_access', 'groups', 'email'],
    findAccount: (_ctx, sub) => ({
      accountId: sub,
      claims: () => ({ sub, groups: OIDC_USERS[sub]?.groups ?? [], email: `${sub}@example.test`, email_verified: true }),
    }),
    // Groups in the ID token itself, as kube-apiserver reads them (it never calls userinfo).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: true }, rpInitiatedLogout: { enabled: true }, revocation: { enabled: true } },
    pkce: { required: () => true },
    rotateRefreshToken: o.rotateRefreshTokens ?? false,
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    ttl: {
      IdToken: ttl.idToken ?? 3600,
      AccessToken: ttl.accessToken ?? ttl.idToken ?? 3600,
      RefreshToken: ttl.refreshToken ?? 86_400,
      Session: 86_400,
      Grant: 86_400,
      Interaction: 600,
    },
    cookies: { keys: ['kube-api-explorer-oidc-test'] },
  };
}

/** Starts the provider on 127.0.0.1 (a free port unless given), over HTTPS. */
export async function startOidcProvider(o: OidcProviderOptions): Promise<OidcProvider> {
  const server: Server = createServer({ cert: readFileSync(o.certFile), key: readFileSync(o.keyFile) });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port ?? 0, '127.0.0.1', () => ok());
  });
  const issuer = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, await configuration(o));
  // The provider's own warnings about development interactions are for deployments, not tests.
  provider.on('server_error', (_ctx, err) => console.error('oidc-provider:', err));
  server.on('request', provider.callback());
  return {
    issuer,
    provider,
    stop: () => new Promise<void>((ok) => {
      server.closeAllConnections();
      server.close(() => ok());
    }),
  };
}

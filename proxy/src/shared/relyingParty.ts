// The server mode's OpenID relying party (issue 48): sign-in by the authorization code flow with
// PKCE, refresh and sign-out, with openid-client (a certified relying party) and no state on the
// server: the login's state, nonce and PKCE verifier travel in a sealed, five-minute login cookie,
// and the session's tokens in sealed session cookies (sealed.ts), so any replica can finish a
// login another one started, and answer any request.
//
// Each function takes what the request carried (its Cookie header, its URL) and returns what the
// response must carry (a redirect, Set-Cookie headers): the HTTP wiring is the server's.
import { createHash, timingSafeEqual } from 'node:crypto';
import * as client from 'openid-client';
import { type Opened, open, partsSent, seal, type SealingKeys, setCookies } from './sealed';

export interface RelyingPartyConfig {
  issuer: URL;
  clientId: string;
  /** A confidential client's secret; without one the client is public (PKCE alone). */
  clientSecret?: string;
  /** This deployment's callback, as registered at the provider: https://explorer.example/oidc/callback */
  redirectUri: string;
  /** Scopes asked for; `openid` always. Refresh tokens usually need `offline_access`. */
  scopes?: string;
  keys: SealingKeys;
  /** How long a session may last without signing in again (default 12 h), whatever the refresh token allows. */
  sessionMaxAgeSeconds?: number;
  /** A fetch for the provider (a private CA, a proxy); the global one when absent. */
  fetch?: typeof fetch;
}

export interface Session extends Record<string, unknown> {
  idToken: string;
  refreshToken?: string;
  /** The ID token's `exp` (seconds): past it the API server refuses the token. */
  idExp: number;
  /** The ID token's `sub`, to say who is signed in without decoding again. */
  sub: string;
  /** When the session began (ms): the session's own limit counts from here, refreshes do not extend it. */
  since: number;
}

interface LoginState extends Record<string, unknown> {
  state: string;
  nonce: string;
  verifier: string;
  returnTo: string;
}

export interface HttpAnswer {
  status: number;
  location?: string;
  setCookies: string[];
  /** A sentence for the page when the answer is an error. */
  error?: string;
}

const LOGIN_SECONDS = 300;

/** A path of this site to come back to: anything else (another origin, `//host`) becomes `/`. */
export function safeReturnTo(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  return value;
}

function claimsOf(tokens: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers): { sub: string; exp: number } {
  const c = tokens.claims();
  if (!c) throw new Error('the provider returned no ID token');
  return { sub: c.sub, exp: c.exp };
}

function sameString(a: string, b: string): boolean {
  const [x, y] = [createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest()];
  return timingSafeEqual(x, y);
}

export class RelyingParty {
  /** Refreshes in flight in this replica, by refresh token: fifty requests at expiry make one. */
  private refreshing = new Map<string, Promise<HttpAnswer & { session?: Session }>>();

  private constructor(private readonly cfg: RelyingPartyConfig, private readonly oidc: client.Configuration) {}

  static async discover(cfg: RelyingPartyConfig): Promise<RelyingParty> {
    const auth = cfg.clientSecret ? client.ClientSecretPost(cfg.clientSecret) : client.None();
    const opts = cfg.fetch ? { [client.customFetch]: cfg.fetch as client.CustomFetch } : undefined;
    const oidc = await client.discovery(cfg.issuer, cfg.clientId, undefined, auth, opts);
    if (cfg.fetch) oidc[client.customFetch] = cfg.fetch as client.CustomFetch;
    return new RelyingParty(cfg, oidc);
  }

  private get maxAge(): number {
    return this.cfg.sessionMaxAgeSeconds ?? 12 * 3600;
  }

  /** GET /oidc/login?returnTo=…: to the provider, with a fresh state, nonce and verifier sealed in the login cookie. */
  async startLogin(returnTo: string | null): Promise<HttpAnswer> {
    const login: LoginState = { state: client.randomState(), nonce: client.randomNonce(), verifier: client.randomPKCECodeVerifier(), returnTo: safeReturnTo(returnTo) };
    const url = client.buildAuthorizationUrl(this.oidc, {
      redirect_uri: this.cfg.redirectUri,
      scope: this.cfg.scopes ?? 'openid offline_access',
      code_challenge: await client.calculatePKCECodeChallenge(login.verifier),
      code_challenge_method: 'S256',
      state: login.state,
      nonce: login.nonce,
    });
    const parts = await seal('login', login, this.cfg.keys, Date.now() + LOGIN_SECONDS * 1000);
    return { status: 302, location: url.href, setCookies: setCookies('login', parts, LOGIN_SECONDS) };
  }

  /**
   * GET /oidc/callback?code=…&state=…: the state must be the one sealed in this browser's login
   * cookie (a forged, replayed or foreign callback is refused), then the code is exchanged and
   * the session sealed. The login cookie is cleared whatever happens: a state serves once.
   */
  async finishLogin(callback: URL, cookieHeader: string | undefined): Promise<HttpAnswer> {
    const clearLogin = setCookies('login', [], 0, partsSent('login', cookieHeader));
    const login = await open<LoginState>('login', cookieHeader, this.cfg.keys);
    if (!login.ok) return { status: 400, setCookies: clearLogin, error: `This sign-in cannot be finished here (${login.reason} login cookie): it expired, was already used, or was started in another browser. Sign in again.` };
    const state = callback.searchParams.get('state') ?? '';
    if (!sameString(state, login.payload.state)) return { status: 400, setCookies: clearLogin, error: 'The sign-in answer does not match the sign-in this browser started (state differs). Sign in again.' };
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(this.oidc, callback, { pkceCodeVerifier: login.payload.verifier, expectedState: login.payload.state, expectedNonce: login.payload.nonce });
    } catch (e) {
      return { status: 400, setCookies: clearLogin, error: `The identity provider did not complete the sign-in: ${(e as Error).message}` };
    }
    const { sub, exp } = claimsOf(tokens);
    const session: Session = { idToken: tokens.id_token!, refreshToken: tokens.refresh_token, idExp: exp, sub, since: Date.now() };
    const parts = await seal('session', session, this.cfg.keys, session.since + this.maxAge * 1000);
    return { status: 302, location: login.payload.returnTo, setCookies: [...clearLogin, ...setCookies('session', parts, this.maxAge, partsSent('session', cookieHeader))] };
  }

  /** The session this request carries, or why there is none. */
  session(cookieHeader: string | undefined): Promise<Opened<Session>> {
    return open<Session>('session', cookieHeader, this.cfg.keys);
  }

  /**
   * A new ID token from the refresh token, resealed. One refresh per refresh token at a time in
   * this replica: concurrent callers share its answer.
   */
  refresh(cookieHeader: string | undefined): Promise<HttpAnswer & { session?: Session }> {
    return this.session(cookieHeader).then((s) => {
      if (!s.ok) return { status: 401, setCookies: [], error: `No session to refresh (${s.reason}).` };
      const rt = s.payload.refreshToken;
      if (!rt) return { status: 401, setCookies: [], error: 'The identity provider gave this session no refresh token: sign in again.' };
      let running = this.refreshing.get(rt);
      if (!running) {
        running = this.doRefresh(s.payload, rt, partsSent('session', cookieHeader)).finally(() => this.refreshing.delete(rt));
        this.refreshing.set(rt, running);
      }
      return running;
    });
  }

  private async doRefresh(old: Session, rt: string, had: number): Promise<HttpAnswer & { session?: Session }> {
    let tokens: Awaited<ReturnType<typeof client.refreshTokenGrant>>;
    try {
      tokens = await client.refreshTokenGrant(this.oidc, rt);
    } catch (e) {
      return { status: 401, setCookies: [], error: `The identity provider refused the refresh: ${(e as Error).message}. Sign in again.` };
    }
    const { sub, exp } = claimsOf(tokens);
    if (sub !== old.sub) return { status: 401, setCookies: [], error: 'The refreshed token names another user: sign in again.' };
    const session: Session = { ...old, idToken: tokens.id_token ?? old.idToken, refreshToken: tokens.refresh_token ?? rt, idExp: exp };
    const leftMs = old.since + this.maxAge * 1000 - Date.now();
    const parts = await seal('session', session, this.cfg.keys, old.since + this.maxAge * 1000);
    return { status: 200, setCookies: setCookies('session', parts, leftMs / 1000, had), session };
  }

  /** GET /oidc/logout: the refresh token revoked at the provider, the cookies cleared, then the provider's own sign-out. */
  async logout(cookieHeader: string | undefined, postLogoutRedirectUri?: string): Promise<HttpAnswer> {
    const s = await this.session(cookieHeader);
    const clear = [...setCookies('session', [], 0, partsSent('session', cookieHeader)), ...setCookies('login', [], 0, partsSent('login', cookieHeader))];
    if (s.ok && s.payload.refreshToken) await client.tokenRevocation(this.oidc, s.payload.refreshToken, { token_type_hint: 'refresh_token' }).catch(() => undefined);
    const end = this.oidc.serverMetadata().end_session_endpoint;
    if (!end) return { status: 302, location: postLogoutRedirectUri ?? '/', setCookies: clear };
    const url = client.buildEndSessionUrl(this.oidc, {
      ...(s.ok ? { id_token_hint: s.payload.idToken } : {}),
      ...(postLogoutRedirectUri ? { post_logout_redirect_uri: postLogoutRedirectUri } : {}),
    });
    return { status: 302, location: url.href, setCookies: clear };
  }
}

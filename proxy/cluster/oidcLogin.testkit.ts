// Signs a test user in at the test's OpenID provider (oidc.ts) the way a browser would, without
// one: the authorization code flow with PKCE, following the provider's redirects with its cookies,
// filling its development login form and its consent form, then exchanging the code with
// openid-client (a certified relying party), as the explorer's server mode does.
import * as client from 'openid-client';
import { Agent, fetch as undiciFetch } from 'undici';

/** A fetch that trusts this CA (the local control plane's), for the provider's HTTPS. */
export function fetchTrusting(ca: string): typeof fetch {
  const dispatcher = new Agent({ connect: { ca } });
  return ((input: string | URL | Request, init?: RequestInit) => undiciFetch(input as string, { ...(init as object), dispatcher })) as unknown as typeof fetch;
}

export interface LoginResult {
  idToken: string;
  refreshToken?: string;
  tokens: client.TokenEndpointResponse;
}

/** The provider's cookies, by name (one provider, one path: enough for its interaction cookies). */
class Jar {
  private cookies = new Map<string, string>();
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim());
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** Follows redirects by hand (fetch would drop the cookies) until one leaves the provider. */
async function follow(f: typeof fetch, jar: Jar, start: string, issuer: string, init?: RequestInit): Promise<string> {
  let url = start;
  let req: RequestInit | undefined = init;
  for (let hop = 0; hop < 10; hop++) {
    const res = await f(url, { ...req, redirect: 'manual', headers: { ...(req?.headers as Record<string, string>), cookie: jar.header() } });
    jar.take(res);
    const location = res.headers.get('location');
    if (!location) {
      const body = await res.text();
      const form = /<form[^>]*action="([^"]+)"[^>]*>[\s\S]*?name="prompt" value="(login|consent)"/.exec(body);
      if (!form) throw new Error(`the provider answered ${res.status} without a redirect or a form: ${body.slice(0, 300)}`);
      return `form:${form[2]}:${new URL(form[1]!, url).href}`;
    }
    await res.arrayBuffer();
    url = new URL(location, url).href;
    if (!url.startsWith(issuer)) return url;
    req = undefined;
  }
  throw new Error('too many redirects at the provider');
}

/**
 * Plays the browser at the provider: from an authorization URL, through the login and consent
 * forms as `user`, to the URL the provider sends the browser back to (the client's callback).
 */
export async function browseToCallback(f: typeof fetch, authorizeUrl: string, issuer: string, user: string): Promise<string> {
  const jar = new Jar();
  let at = await follow(f, jar, authorizeUrl, issuer);
  for (let step = 0; at.startsWith('form:') && step < 4; step++) {
    const [, prompt, action] = /^form:(login|consent):(.*)$/.exec(at)!;
    const body = new URLSearchParams(prompt === 'login' ? { prompt: 'login', login: user, password: 'unused' } : { prompt: 'consent' });
    at = await follow(f, jar, action!, issuer, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }
  return at;
}

/** Logs `user` in as `clientId` (a public client: PKCE, no secret) and returns its tokens. */
export async function oidcLogin(o: { issuer: string; ca: string; clientId: string; redirectUri: string; user: string; scope?: string }): Promise<LoginResult> {
  const f = fetchTrusting(o.ca);
  const config = await client.discovery(new URL(o.issuer), o.clientId, undefined, client.None(), { [client.customFetch]: f as client.CustomFetch });
  config[client.customFetch] = f as client.CustomFetch;
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const authorize = client.buildAuthorizationUrl(config, {
    redirect_uri: o.redirectUri,
    scope: o.scope ?? 'openid groups offline_access',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    prompt: 'consent',
  });
  const at = await browseToCallback(f, authorize.href, o.issuer, o.user);
  if (!at.startsWith(o.redirectUri)) throw new Error(`the login did not come back to the client: ${at}`);
  const tokens = await client.authorizationCodeGrant(config, new URL(at), { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  if (!tokens.id_token) throw new Error('the token endpoint returned no ID token');
  return { idToken: tokens.id_token, refreshToken: tokens.refresh_token, tokens };
}

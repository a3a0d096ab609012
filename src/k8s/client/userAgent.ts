// The User-Agent a request reaches the API server with. The proxy replaces the browser's with the
// explorer's own (kube-apiserver pretty-prints JSON for a browser's and names a write's field
// manager after it); the page learns that one from /proxy/contexts, to name it in the exchange and
// the HAR. A User-Agent the user sets on purpose (the console's headers) travels to the proxy in
// USER_AGENT_OVERRIDE_HEADER: a page cannot set User-Agent itself (Chromium does not send it).
import { USER_AGENT_OVERRIDE_HEADER } from '../../../protocol/userAgent';

let proxyUserAgent: string | undefined;

/** Called with /proxy/contexts' `userAgent`. */
export function rememberProxyUserAgent(userAgent: string | undefined): void {
  if (userAgent) proxyUserAgent = userAgent;
}

/** The request's headers as the page sends them to the proxy: a `User-Agent` set by the user moves to the override header. */
export function headersForProxy(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase() === 'user-agent' ? USER_AGENT_OVERRIDE_HEADER : k] = v;
  return out;
}

/** The User-Agent a request with these headers reaches the API server with, when known. */
export function userAgentSent(headers: readonly (readonly [string, string])[]): string | undefined {
  return headers.find(([k]) => k.toLowerCase() === 'user-agent')?.[1] ?? proxyUserAgent;
}

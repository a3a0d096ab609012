// The User-Agent the explorer's proxy sends to the API server, shared by the proxy (which sets it
// on every forwarded request) and the page (which names it in the exchange and the HAR, and may
// ask for another one on purpose). Types and constants only.

/**
 * The request header the page sets to send a User-Agent of its choosing (the console's "User-Agent"
 * header): browsers do not let a page set User-Agent itself, and the proxy replaces the browser's
 * own with the explorer's (kube-apiserver pretty-prints JSON for `Mozilla/5.0…`, `curl…` and
 * `Wget…`, and records the part before the first `/` as the field manager of a write that names
 * none). Never forwarded under this name.
 */
export const USER_AGENT_OVERRIDE_HEADER = 'X-Explorer-User-Agent';

// The proxy puts a per-launch token into index.html; every proxy request must carry it
// (X-Explorer-Token), which is what keeps other pages in the browser out of the cluster.
let cachedToken: string | undefined;
let origin = '';

export function explorerToken(): string {
  if (cachedToken !== undefined) return cachedToken;
  const meta = typeof document === 'undefined' ? null : document.querySelector('meta[name="explorer-token"]');
  cachedToken = meta?.getAttribute('content') ?? '';
  return cachedToken;
}

/** The proxy's origin: empty in the browser (same origin); set by Node-side tests. */
export function proxyOrigin(): string {
  return origin;
}

/** For tests that run the SPA's client code in Node against a real explorer server. */
export function configureProxyForTests(opts: { origin: string; token: string }): void {
  origin = opts.origin.replace(/\/$/, '');
  cachedToken = opts.token;
}

// The proxy puts a per-launch token into index.html; every proxy request must carry it
// (X-Explorer-Token), which is what keeps other pages in the browser out of the cluster.
// A restarted explorer server has a new token: the page, being of the same origin, fetches
// index.html again and reads it from there (refreshExplorerToken), as a reload would.
let cachedToken: string | undefined;
let origin = '';

const META = /<meta\s+name="explorer-token"\s+content="([^"]*)"/;

export function explorerToken(): string {
  if (cachedToken !== undefined) return cachedToken;
  const meta = typeof document === 'undefined' ? null : document.querySelector('meta[name="explorer-token"]');
  cachedToken = meta?.getAttribute('content') ?? '';
  return cachedToken;
}

/** The token in an index.html the proxy served, or undefined. */
export function tokenInPage(html: string): string | undefined {
  const m = META.exec(html);
  return m?.[1] || undefined;
}

let refreshing: Promise<string | undefined> | undefined;

/**
 * Fetches the page again and adopts the token in it. Resolves with the new token, or undefined
 * when the page has none or could not be fetched. Concurrent callers share one fetch.
 */
export function refreshExplorerToken(): Promise<string | undefined> {
  refreshing ??= (async () => {
    try {
      const base = origin || (typeof location === 'undefined' ? '' : location.origin);
      const res = await fetch(`${base}/`, { cache: 'no-store', credentials: 'same-origin' });
      if (!res.ok) return undefined;
      const token = tokenInPage(await res.text());
      if (token) cachedToken = token;
      return token;
    } catch {
      return undefined;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

/** The proxy's origin: empty in the browser (same origin); set by Node-side tests. */
export function proxyOrigin(): string {
  return origin;
}

/**
 * Points the client code at an explorer server from Node: tests, and the command line's `check`
 * (which runs the Serving view's probes headless through an explorer server of its own).
 */
export function configureProxy(opts: { origin: string; token: string }): void {
  origin = opts.origin.replace(/\/$/, '');
  cachedToken = opts.token;
}


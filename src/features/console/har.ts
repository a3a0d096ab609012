// HAR 1.2 (the HTTP Archive format browser developer tools export) for console exchanges, so an
// exchange can be attached to a bug report or loaded again for teaching. Text bodies are stored as
// text; binary ones (protobuf, CBOR) base64-encoded, as HAR's `content.encoding` allows. Our own
// fields start with `_`, which HAR reserves for custom data. The entries are written by
// k8s/record (exchangeEntry), which writes the recordings' entries too.
import { fromBase64 } from '../../codecs';
import type { Exchange, HeaderList } from '../../k8s/client';
import { exchangeEntry, type Har, type HarEntry, type HarHeader, type RedactionOptions, Redactor } from '../../k8s/record';

export type { Har, HarEntry };

/**
 * `servers` maps a context to its API server URL, so that the HAR's URLs are the cluster's own.
 * Redacted as a recording is (k8s/record/redact.ts), by default: an exported file travels as far
 * as a recording does, and a Secret read in the console must not go with it.
 */
export function toHar(exchanges: Exchange[], servers: Record<string, string> = {}, redaction: RedactionOptions = { enabled: true, patterns: [] }): Har {
  const redactor = new Redactor(redaction);
  return { log: { version: '1.2', creator: { name: 'Kube API Explorer', version: '0.1.0' }, entries: exchanges.map((x, i) => exchangeEntry(x, servers, redactor, i)) } };
}

export class HarError extends Error {
  override name = 'HarError';
}

/**
 * Paths of the Kubernetes API itself (what a HAR of kubectl or of a direct API call holds):
 * the API groups, discovery, OpenAPI, version and the health endpoints.
 */
const API_PATH = /^\/(api|apis|openapi|version|healthz|livez|readyz|metrics)(\/|$)/;

/**
 * Whether a HAR entry is an API request: ours (`_apiPath`), a browser's capture of the explorer's
 * proxy (`/k8s/<context>/...`), or a direct call to an API server. A browser's HAR of the explorer
 * also holds the page itself (`/`, `/assets/*.js`, `.css`, the favicon) and the proxy's own
 * endpoints (`/proxy/...`): those are not exchanges with the cluster.
 */
export function isApiEntry(e: Partial<HarEntry>): boolean {
  if (e._apiPath !== undefined) return true;
  let pathname: string;
  try {
    pathname = new URL(e.request?.url ?? '').pathname;
  } catch {
    return false;
  }
  return /^\/k8s\/[^/]+\//.test(pathname) || API_PATH.test(pathname);
}

/** Reads a HAR file (ours or a browser's) back into exchanges; entries that are not API requests are left out. */
export function fromHar(input: unknown, fallbackContext: string): Exchange[] {
  const log = (input as { log?: { entries?: unknown } } | null)?.log;
  if (!log || !Array.isArray(log.entries)) throw new HarError('not a HAR file: no log.entries');
  return (log.entries as Partial<HarEntry>[]).flatMap((e, i) => {
    if (!e.request?.method || !e.request.url) throw new HarError(`entry ${i}: request.method and request.url are required`);
    if (!isApiEntry(e)) return [];
    const url = new URL(e.request.url);
    // A browser's HAR of the explorer itself carries proxy URLs: /k8s/<context>/<api path>.
    const proxied = /^\/k8s\/([^/]+)(\/.*)$/.exec(url.pathname);
    const path = e._apiPath ?? (proxied ? `${proxied[2]}${url.search}` : `${url.pathname}${url.search}`);
    const context = e._context ?? (proxied ? decodeURIComponent(proxied[1]!) : fallbackContext);
    const content = e.response?.content;
    const body = content?.text ? (content.encoding === 'base64' ? fromBase64(content.text) : new TextEncoder().encode(content.text)) : new Uint8Array();
    const hdrs = (h: HarHeader[] | undefined): HeaderList => (h ?? []).filter((x) => !x.name.toLowerCase().startsWith('x-explorer-token')).map((x) => [x.name, x.value]);
    const x: Exchange = {
      id: `har-${i}-${Date.now().toString(36)}`,
      context,
      startedAt: e.startedDateTime ?? new Date(0).toISOString(),
      // The recorded User-Agent is shown, not sent again: re-sending goes out with the explorer's own
      // unless the user sets one (a browser's HAR would otherwise re-send as `Mozilla/5.0…`).
      request: { method: e.request.method, path, headers: hdrs(e.request.headers).filter(([k]) => k.toLowerCase() !== 'user-agent'), ...(e.request.postData?.text ? { body: e.request.postData.text } : {}) },
      timings: { totalMs: e.time, ...(e._upstreamMs !== undefined ? { upstreamMs: e._upstreamMs } : {}) },
      watch: e._watch ?? false,
      source: 'har',
    };
    if (e.response && e.response.status) x.response = { status: e.response.status, statusText: e.response.statusText ?? '', headers: hdrs(e.response.headers), body };
    if (e.response?._error) x.error = e.response._error;
    if (e.response?.bodySize !== undefined && e.response.bodySize >= 0) x.wireSize = e.response.bodySize;
    if (e._stopped) x.stopped = true;
    const userAgent = e.request.headers?.find((h) => h.name.toLowerCase() === 'user-agent')?.value;
    if (userAgent) x.userAgent = userAgent;
    return [x];
  });
}

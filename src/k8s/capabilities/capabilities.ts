// What this server can do, asked of the server itself rather than assumed from the newest
// release. Clusters lag: a v1.33 server in its default configuration answers a CBOR Accept with
// 406 NotAcceptable (CBORServingAndStorage is alpha and off) and a streaming list with 422 Invalid
// ("sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled",
// apimachinery meta/internalversion/validation). Each probe is one small GET whose answer is kept
// as the server gave it, so that a view can say what was refused and why.
import { queryOptions } from '@tanstack/react-query';
import { errorFromResponse, kubeFetch, type Status } from '../client';
import { AGGREGATED_ACCEPT } from '../discovery';

export interface Probe {
  /** 'yes': the server did it; 'no': it refused (status says how); 'unknown': the probe itself could not tell (403, network). */
  answer: 'yes' | 'no' | 'unknown';
  /** The request the probe sent, as the console would show it. */
  request: { path: string; accept: string };
  /** The HTTP status of the answer. */
  httpStatus?: number;
  /** The server's Status when it refused (or when the probe was not allowed). */
  status?: Status;
  /** What was learned, in one sentence. */
  detail: string;
}

export interface ServerVersion {
  gitVersion: string;
  major: string;
  minor: string;
}

export interface Capabilities {
  version?: ServerVersion;
  cbor: Probe;
  protobuf: Probe;
  watchList: Probe;
  aggregatedDiscovery: Probe;
}

/** A small collection most users may list (the built-in `view` role grants it). */
const PROBE_COLLECTION = '/api/v1/namespaces';

export const CBOR_ACCEPT = 'application/cbor';
export const PROTOBUF_ACCEPT = 'application/vnd.kubernetes.protobuf';

/** The streaming-list request (KEP-3157): the parameters the watch pane sends for "Streaming list". */
export const STREAMING_LIST_QUERY = 'watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=';

function statusText(p: { httpStatus?: number; status?: Status }): string {
  const s = p.status;
  return [p.httpStatus ?? s?.code, s?.reason, s?.message ? `“${s.message}”` : ''].filter(Boolean).join(' ');
}

/** One line for people: "406 NotAcceptable “only the following media types are accepted: …”". */
export function describeRefusal(p: Probe): string {
  return statusText(p) || p.detail;
}

/** Asks for `accept` on `path` and reads only the response's head; the body is dropped. */
async function acceptProbe(context: string, path: string, accept: string, what: string, signal?: AbortSignal): Promise<Probe> {
  const request = { path, accept };
  try {
    const res = await kubeFetch({ context, path, headers: { Accept: accept }, signal });
    if (res.ok) {
      const type = res.headers.get('Content-Type') ?? '';
      await res.body?.cancel().catch(() => undefined);
      const got = type.split(';')[0]!.trim().toLowerCase();
      // A server may answer 200 in another type it prefers when the Accept list allows it; only
      // an answer in the asked type counts.
      if (got === accept.split(';')[0]!.trim().toLowerCase()) return { answer: 'yes', request, httpStatus: res.status, detail: `${what} served (Content-Type ${type})` };
      return { answer: 'no', request, httpStatus: res.status, detail: `${what} not served: the server answered in ${type || 'an unnamed type'}` };
    }
    const err = await errorFromResponse(res);
    // 406 NotAcceptable (or 415 for bodies) is the server's refusal of the media type; 401/403
    // say the probe was not allowed, which tells nothing about the format.
    const refused = res.status === 406 || res.status === 415;
    return {
      answer: refused ? 'no' : 'unknown',
      request,
      httpStatus: res.status,
      status: err.status,
      detail: refused ? `${what} refused` : `could not tell whether ${what} is served (${res.status} ${err.status.reason ?? ''})`.trim(),
    };
  } catch (e) {
    if (signal?.aborted) throw e;
    return { answer: 'unknown', request, detail: `could not tell whether ${what} is served: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Opens a streaming list of a small collection, reads the response's head, and closes it. */
export async function probeWatchList(context: string, collection = PROBE_COLLECTION, signal?: AbortSignal): Promise<Probe> {
  // timeoutSeconds bounds the stream even if the cancel below did not reach the server.
  const path = `${collection}?${STREAMING_LIST_QUERY}&timeoutSeconds=5`;
  const request = { path, accept: 'application/json' };
  const ctrl = new AbortController();
  const stopOuter = () => ctrl.abort();
  signal?.addEventListener('abort', stopOuter, { once: true });
  try {
    const res = await kubeFetch({ context, path, headers: { Accept: 'application/json' }, signal: ctrl.signal });
    if (res.ok) {
      ctrl.abort();
      return { answer: 'yes', request, httpStatus: res.status, detail: 'streaming lists served (sendInitialEvents=true accepted)' };
    }
    const err = await errorFromResponse(res);
    // 422 Invalid (WatchList off: v1.33 by default, or turned off) or 400 BadRequest: the server refused the
    // parameters; 401/403 tell nothing about the feature.
    const refused = res.status === 422 || res.status === 400;
    return {
      answer: refused ? 'no' : 'unknown',
      request,
      httpStatus: res.status,
      status: err.status,
      detail: refused ? 'streaming lists refused (WatchList off on this server)' : `could not tell whether streaming lists are served (${res.status})`,
    };
  } catch (e) {
    if (signal?.aborted) throw e;
    return { answer: 'unknown', request, detail: `could not tell whether streaming lists are served: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    signal?.removeEventListener('abort', stopOuter);
  }
}

async function probeAggregatedDiscovery(context: string, signal?: AbortSignal): Promise<Probe> {
  const path = '/apis';
  const request = { path, accept: AGGREGATED_ACCEPT };
  try {
    const res = await kubeFetch({ context, path, headers: { Accept: AGGREGATED_ACCEPT }, signal });
    if (!res.ok) {
      const err = await errorFromResponse(res);
      return { answer: 'unknown', request, httpStatus: res.status, status: err.status, detail: `could not read /apis (${res.status})` };
    }
    const type = res.headers.get('Content-Type') ?? '';
    await res.body?.cancel().catch(() => undefined);
    // A server without aggregated discovery ignores the first media type and answers with the
    // legacy APIGroupList; the Content-Type tells which one came.
    return type.includes('as=APIGroupDiscoveryList')
      ? { answer: 'yes', request, httpStatus: res.status, detail: 'aggregated discovery served (apidiscovery.k8s.io/v2)' }
      : { answer: 'no', request, httpStatus: res.status, detail: `aggregated discovery not served: /apis answered ${type}; discovery reads the legacy documents` };
  } catch (e) {
    if (signal?.aborted) throw e;
    return { answer: 'unknown', request, detail: `could not read /apis: ${e instanceof Error ? e.message : String(e)}` };
  }
}

async function fetchVersion(context: string, signal?: AbortSignal): Promise<ServerVersion | undefined> {
  try {
    const res = await kubeFetch({ context, path: '/version', headers: { Accept: 'application/json' }, signal });
    if (!res.ok) return undefined;
    return (await res.json()) as ServerVersion;
  } catch {
    return undefined;
  }
}

/**
 * Namespaced collections a user restricted to one namespace is most often allowed to list, tried
 * in this order when `list namespaces` is forbidden (RBAC answers 403 before looking at the
 * Accept or the parameters, so a forbidden collection tells nothing about the server).
 */
const NAMESPACED_PROBE_RESOURCES = ['configmaps', 'pods', 'services', 'serviceaccounts', 'events'];

/**
 * A collection this user may list, for the probes: `/api/v1/namespaces` when allowed, else the
 * first of a few core collections in `namespace` that answers. One GET `?limit=1` per try.
 */
export async function probeCollectionFor(context: string, namespace: string | undefined, signal?: AbortSignal): Promise<string> {
  const candidates = [PROBE_COLLECTION, ...(namespace ? NAMESPACED_PROBE_RESOURCES.map((r) => `/api/v1/namespaces/${encodeURIComponent(namespace)}/${r}`) : [])];
  for (const path of candidates) {
    try {
      const res = await kubeFetch({ context, path: `${path}?limit=1`, headers: { Accept: 'application/json' }, signal });
      await res.body?.cancel().catch(() => undefined);
      if (res.ok) return path;
      if (res.status !== 403) return PROBE_COLLECTION;
    } catch (e) {
      if (signal?.aborted) throw e;
      return PROBE_COLLECTION;
    }
  }
  return PROBE_COLLECTION;
}

export async function probeCapabilities(context: string, signal?: AbortSignal, namespace?: string): Promise<Capabilities> {
  const base = await probeCollectionFor(context, namespace, signal);
  const collection = `${base}?limit=1`;
  const [version, cbor, protobuf, watchList, aggregatedDiscovery] = await Promise.all([
    fetchVersion(context, signal),
    acceptProbe(context, collection, CBOR_ACCEPT, 'CBOR', signal),
    acceptProbe(context, collection, PROTOBUF_ACCEPT, 'Protobuf', signal),
    probeWatchList(context, base, signal),
    probeAggregatedDiscovery(context, signal),
  ]);
  return { version, cbor, protobuf, watchList, aggregatedDiscovery };
}

/**
 * `namespace` is where to probe when the user may not list namespaces (a restricted user): the
 * route's namespace, or the context's.
 */
/** The key every capability answer of a context starts with ("Ask again" invalidates them all). */
export const capabilitiesQueryPrefix = (context: string) => ['k8s', context, 'capabilities'] as const;

export const capabilitiesQuery = (context: string, namespace?: string) =>
  queryOptions({
    queryKey: [...capabilitiesQueryPrefix(context), namespace ?? ''],
    queryFn: ({ signal }) => probeCapabilities(context, signal, namespace),
    staleTime: 10 * 60_000,
  });

/** The representations a list of one resource can be read in, each asked of the server. */
export const ACCEPT_PROBES = [
  { label: 'JSON', accept: 'application/json' },
  { label: 'YAML', accept: 'application/yaml' },
  { label: 'Protobuf', accept: PROTOBUF_ACCEPT },
  { label: 'CBOR', accept: CBOR_ACCEPT },
  { label: 'Table', accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
] as const;

export interface AcceptAnswer {
  label: string;
  probe: Probe;
}

/** GET `collectionPath?limit=1` once per representation. Custom resources refuse Protobuf, for one. */
export async function probeResourceAccepts(context: string, collectionPath: string, signal?: AbortSignal): Promise<AcceptAnswer[]> {
  const path = `${collectionPath}?limit=1`;
  return Promise.all(ACCEPT_PROBES.map(async (a) => ({ label: a.label, probe: await acceptProbe(context, path, a.accept, a.label, signal) })));
}

export const resourceAcceptsQuery = (context: string, collectionPath: string) =>
  queryOptions({
    queryKey: [...capabilitiesQueryPrefix(context), 'accepts', collectionPath],
    queryFn: ({ signal }) => probeResourceAccepts(context, collectionPath, signal),
    staleTime: 10 * 60_000,
  });

// What the Clients view makes of the exchanges other programs had through the X-ray endpoint:
// who sent them (the User-Agent, and the headers kubectl adds), in which run, what a watch
// stream carried frame by frame and where the client resumed from, and how two runs differ.
// Pure functions over the recording's exchange shape; the view (ClientsView.tsx) draws them.
import { framesOf, joinChunks, type RecordedExchange } from '../../k8s/record';
import { headerValue } from '../../k8s/client';

/** An exchange of another client, with the run it belongs to (built from protocol/xray.ts's messages). */
export interface XrayExchange extends RecordedExchange {
  /** The run's id: one `xray -- COMMAND`, or the long-lived endpoint (LONG_LIVED_RUN). */
  run: string;
  /** The endpoint answered itself (an upgrade without --allow-exec), the API server never saw it. */
  refused?: boolean;
  upgrade?: { sentBytes: number; receivedBytes: number };
  /** The whole body's totals, also past the journal's budget (then `cut`, and `chunks` holds the first only). */
  totals?: { bytes: number; chunks: number; wireBytes?: number };
  /** The request body was over the budget: `request.body` holds its first part. */
  requestCut?: { size: number };
  closedBy?: 'server' | 'client' | 'error';
}

export interface ClientId {
  /** The program: `kubectl`, `OpenAPI-Generator`, a controller's binary name. */
  product: string;
  version?: string;
  /** `linux/amd64` from client-go's `(os/arch)`. */
  platform?: string;
  /** The kubectl command, from the `Kubectl-Command` header kubectl sends (KEP 859). */
  command?: string;
  /** The whole User-Agent as sent. */
  raw: string;
}

/**
 * client-go's default User-Agent is `<binary>/<version> (<os>/<arch>) kubernetes/<commit>`
 * (rest.DefaultKubernetesUserAgent); other clients send `<product>/<version>…` or anything at all.
 * kube-apiserver takes the part before the first `/` as the field manager of a write that names none.
 */
export function parseUserAgent(ua: string | undefined, kubectlCommand?: string): ClientId {
  const raw = ua ?? '';
  const m = /^([^/\s]+)(?:\/(\S+))?(?:\s+\(([^)]*)\))?/.exec(raw);
  const id: ClientId = { product: m?.[1] ?? (raw || '(no User-Agent)'), raw };
  if (m?.[2]) id.version = m[2];
  if (m?.[3]) id.platform = m[3];
  if (kubectlCommand) id.command = kubectlCommand;
  return id;
}

/** Read once per exchange object (the journal keeps an exchange's object until a message changes it). */
const clients = new WeakMap<XrayExchange, ClientId>();

export function clientOf(x: XrayExchange): ClientId {
  let c = clients.get(x);
  if (!c) clients.set(x, (c = parseUserAgent(headerValue(x.request.headers, 'User-Agent') ?? x.userAgent, headerValue(x.request.headers, 'Kubectl-Command'))));
  return c;
}

export interface ClientGroup {
  key: string;
  client: ClientId;
  runs: { run: string; exchanges: XrayExchange[] }[];
  count: number;
}

/** Exchanges grouped by client (product and version), then by run, each in arrival order. */
export function groupByClient(xs: readonly XrayExchange[]): ClientGroup[] {
  const groups = new Map<string, ClientGroup>();
  for (const x of xs) {
    const client = clientOf(x);
    const key = `${client.product}/${client.version ?? ''}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, client, runs: [], count: 0 }));
    let r = g.runs.find((r) => r.run === x.run);
    if (!r) g.runs.push((r = { run: x.run, exchanges: [] }));
    r.exchanges.push(x);
    g.count += 1;
  }
  return [...groups.values()];
}

export interface FrameFact {
  /** Arrival, ms since the epoch. */
  at: number;
  /** ADDED, MODIFIED, DELETED, BOOKMARK, ERROR; undefined for a binary frame. */
  type?: string;
  resourceVersion?: string;
  /** A BOOKMARK carrying `k8s.io/initial-events-end: "true"`: the streaming list's state is complete. */
  initialEventsEnd?: boolean;
  /** An ERROR event's Status: 410 Expired (the resourceVersion was compacted) and others. */
  code?: number;
  reason?: string;
  name?: string;
  size: number;
  text?: string;
}

/** A watch's frames with what each one says (JSON watches: one event per line; binary: per chunk). */
export function watchFrames(x: RecordedExchange): FrameFact[] {
  const mime = x.response ? (headerValue(x.response.headers, 'Content-Type') ?? '') : '';
  return framesOf(x.chunks, mime).map((f) => {
    if (f.bytes) return { at: f.at, size: f.bytes.length };
    const text = f.text ?? '';
    const fact: FrameFact = { at: f.at, size: new TextEncoder().encode(text).length, text };
    try {
      const e = JSON.parse(text) as { type?: string; object?: { code?: number; reason?: string; metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> }; rows?: { object?: { metadata?: { name?: string } } }[] } };
      fact.type = e.type;
      const md = e.object?.metadata;
      if (md?.resourceVersion) fact.resourceVersion = md.resourceVersion;
      // A watch asked as a Table (kubectl get -w) carries each object as a row of a Table.
      const name = md?.name ?? e.object?.rows?.[0]?.object?.metadata?.name;
      if (name) fact.name = name;
      // KEP-3157: the BOOKMARK that ends a streaming list's initial events is annotated so.
      if (e.type === 'BOOKMARK' && md?.annotations?.['k8s.io/initial-events-end'] === 'true') fact.initialEventsEnd = true;
      if (e.type === 'ERROR') {
        fact.code = e.object?.code;
        fact.reason = e.object?.reason;
      }
    } catch {
      // A line that is not JSON is shown as it came.
    }
    return fact;
  });
}

/** The resourceVersion the stream last delivered (events and bookmarks move it; errors do not). */
export function lastResourceVersion(frames: readonly FrameFact[]): string | undefined {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i]!.type !== 'ERROR' && frames[i]!.resourceVersion) return frames[i]!.resourceVersion;
  return undefined;
}

/** The collection a request reads or watches: its path without the query and without a trailing name for watches. */
function queryOf(path: string): URLSearchParams {
  return new URLSearchParams(path.split('?')[1] ?? '');
}

export interface Resumption {
  /** The client's next request on the same collection. */
  next: XrayExchange;
  /** The resourceVersion it asked for ('' or absent: a fresh list, i.e. a relist). */
  resourceVersion?: string;
  kind: 'resumed' | 'relisted' | 'streaming-list';
}

/**
 * Where the client went on after this watch ended: the next exchange of the same run and client on
 * the same path. A watch from the last resourceVersion seen is a resume; a list (or a watch without
 * a resourceVersion) after a 410 is a relist; `sendInitialEvents=true` is a new streaming list.
 */
export function resumptionAfter(xs: readonly XrayExchange[], watch: XrayExchange): Resumption | undefined {
  const i = xs.indexOf(watch);
  const path = watch.request.path.split('?')[0];
  const ua = clientOf(watch).raw;
  const next = xs.slice(i + 1).find((y) => y.run === watch.run && y.request.method === 'GET' && y.request.path.split('?')[0] === path && clientOf(y).raw === ua);
  if (!next) return undefined;
  const q = queryOf(next.request.path);
  const rv = q.get('resourceVersion') ?? undefined;
  const kind = q.get('sendInitialEvents') === 'true' ? 'streaming-list' : q.get('watch') === 'true' || q.get('watch') === '1' ? (rv && rv !== '0' ? 'resumed' : 'relisted') : 'relisted';
  return { next, ...(rv !== undefined ? { resourceVersion: rv } : {}), kind };
}

/** The request body as text (JSON, YAML, apply-patch YAML) or undefined for bytes. */
export function requestBodyText(x: RecordedExchange): string | undefined {
  if (x.request.bodyBytes?.length) return undefined;
  return x.request.body || undefined;
}

/** The response body, whole (a watch's chunks joined). */
export function responseBody(x: RecordedExchange): Uint8Array {
  return x.response?.body.length ? x.response.body : joinChunks(x.chunks);
}

/** Warnings and API Priority and Fairness headers: what the server told the client besides the body. */
export function serverNotes(x: RecordedExchange): { warnings: string[]; flowSchema?: string; priorityLevel?: string } {
  const h = x.response?.headers ?? [];
  const warnings = h.filter(([k]) => k.toLowerCase() === 'warning').map(([, v]) => v);
  const flowSchema = headerValue(h, 'X-Kubernetes-PF-FlowSchema-UID');
  const priorityLevel = headerValue(h, 'X-Kubernetes-PF-PriorityLevel-UID');
  return { warnings, ...(flowSchema ? { flowSchema } : {}), ...(priorityLevel ? { priorityLevel } : {}) };
}

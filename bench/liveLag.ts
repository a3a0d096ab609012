// The live watch lag, shared by the watch bench (200 ConfigMaps) and the scale bench (a pane
// holding 150,000 Pods): a generator writes at a target rate straight to kube-apiserver and keeps,
// for each write that succeeded, the resourceVersion its response carried and when that response
// arrived (the change is committed in etcd by then, its watch event on the way). The page reports
// when a commit put each MODIFIED event on screen (window.__explorerWatchRendered, see
// WatchPane.tsx); commit→screen is the difference, per resourceVersion.
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Credentials } from '../proxy/cluster/controlplane';
import { ProtobufWatchFramer, readWatchFrame } from '../src/codecs/protobuf/watchStream';

export type Send = (method: string, path: string, body: unknown, type?: string) => Promise<{ status: number; body: string }>;

/** Requests straight to kube-apiserver over a keep-alive agent of `sockets` sockets. */
export function directSender(server: string, creds: Credentials, sockets: number): Send {
  const agent = new HttpsAgent({ keepAlive: true, maxSockets: sockets, ca: creds.ca, cert: creds.cert, key: creds.key });
  const base = new URL(server);
  return (method, path, body, type = 'application/json') =>
    new Promise((ok, fail) => {
      const req = httpsRequest({ hostname: base.hostname, port: base.port, method, path, agent, headers: { 'Content-Type': type, Accept: 'application/json' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      });
      req.on('error', fail);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
}

export interface Written {
  /** resourceVersion → Date.now() when the write's response arrived, for each write that succeeded. */
  committed: Map<string, number>;
  /** resourceVersion → Date.now() when the write was sent. */
  sentAt: Map<string, number>;
  failures: number;
  /** Successful writes per second over the run. */
  achieved: number;
}

/**
 * Writes at `rate` per second for `seconds` (at most `limit` writes) from `concurrency` writers in
 * flight; `write(sent)` sends one (`sent`: Date.now(), to put into the object) and resolves to the
 * response. A rate the server cannot take leaves every writer waiting on its response: the
 * achieved rate is then what the server accepts.
 */
export async function writeAtRate(write: (sent: number) => Promise<{ status: number; body: string }>, rate: number, seconds: number, concurrency: number, limit = Infinity, opts: { clock?: boolean } = {}): Promise<Written> {
  const committed = new Map<string, number>();
  const sentAt = new Map<string, number>();
  let failures = 0;
  let issued = 0;
  const t0 = Date.now();
  const end = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const slot = t0 + (issued * 1000) / rate;
        // By default the run ends with its last slot, late if the server was slower than `rate`;
        // `clock`: when `seconds` have passed (for a rate no server takes).
        if (slot >= end || issued >= limit || (opts.clock && Date.now() >= end)) return;
        issued++;
        const wait = slot - Date.now();
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const sent = Date.now();
        const r = await write(sent);
        if (r.status !== 200) {
          failures++;
          continue;
        }
        const rv = (JSON.parse(r.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
        committed.set(rv, Date.now());
        sentAt.set(rv, sent);
      }
    }),
  );
  return { committed, sentAt, failures, achieved: committed.size / ((Date.now() - t0) / 1000) };
}

export function pct(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

export interface Lag {
  /** Response → on screen, ms, one per write shown. */
  commit: number[];
  /** Sent → on screen, ms. */
  send: number[];
  /** Writes whose event never showed. */
  missing: number;
}

/** Each write's lag to the screen, from `rendered` (resourceVersion → Date.now() of the commit that showed its MODIFIED event). */
export function lagOf(w: Written, rendered: Record<string, number>): Lag {
  const lag: Lag = { commit: [], send: [], missing: 0 };
  for (const [rv, at] of w.committed) {
    const shown = rendered[rv];
    if (shown === undefined) {
      lag.missing++;
      continue;
    }
    lag.commit.push(shown - at);
    lag.send.push(shown - w.sentAt.get(rv)!);
  }
  return lag;
}

/** The query of a streaming list from the current state (sendInitialEvents, with its bookmark), as every watch floor asks it. */
export const STREAMING_LIST_QUERY = new URLSearchParams({ watch: '1', sendInitialEvents: 'true', allowWatchBookmarks: 'true', resourceVersionMatch: 'NotOlderThan', resourceVersion: '' }).toString();

/**
 * A streaming list (sendInitialEvents=true) read by Node through the explorer's proxy, no page:
 * newline framing and JSON.parse (Protobuf: framing and the ObjectMeta head a Protobuf pane reads
 * of each event, watchStream.ts), ADDED events counted until the initial-events-end bookmark.
 * The data floor a watch pane's catch-up is compared with.
 */
export async function streamingListFloor(origin: string, token: string, path: string, encoding: 'json' | 'protobuf' = 'json'): Promise<{ rate: number; added: number; reads: number }> {
  const accept = encoding === 'protobuf' ? 'application/vnd.kubernetes.protobuf;type=watch' : 'application/json';
  const res = await fetch(new URL(`${path}?${STREAMING_LIST_QUERY}`, origin), { headers: { 'X-Explorer-Token': token, Accept: accept } });
  if (res.status !== 200) throw new Error(`streaming list floor: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  const dec = new TextDecoder();
  const framer = new ProtobufWatchFramer();
  let rest = '';
  let added = 0;
  let reads = 0;
  let first = 0;
  const seen = (type: string, annotations: Record<string, string> | undefined): boolean => {
    if (type === 'ADDED') added++;
    return type === 'BOOKMARK' && annotations?.['k8s.io/initial-events-end'] === 'true';
  };
  for (let done = false; !done; ) {
    const r = await reader.read();
    if (r.done) break;
    reads++;
    if (!first) first = performance.now();
    if (encoding === 'protobuf') {
      for (const f of framer.push(r.value)) {
        const e = readWatchFrame(f);
        if (seen(e.type, e.metadata?.annotations)) done = true;
      }
      continue;
    }
    const lines = (rest + dec.decode(r.value, { stream: true })).split('\n');
    rest = lines.pop()!;
    for (const l of lines) {
      const e = JSON.parse(l) as { type: string; object: { metadata?: { annotations?: Record<string, string> } } };
      if (seen(e.type, e.object.metadata?.annotations)) done = true;
    }
  }
  await reader.cancel().catch(() => undefined);
  return { rate: added / ((performance.now() - first) / 1000), added, reads };
}

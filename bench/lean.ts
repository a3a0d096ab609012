// The proxy measured "the lean way": each path read by the leanest client Node has (`http.get` /
// `https.get` on a keep-alive agent of one socket, no headers of ours, the body only counted), so
// that no cost of the bench's own client hides the proxy's. Direct, the explorer and kubectl proxy
// (and, when given, a bare Node pass-through: the floor of any proxy on Node) are interleaved round by round, after a warm-up, and each large list's time is taken alone.
import { Agent as HttpAgent, get as httpGet } from 'node:http';
import { Agent as HttpsAgent, get as httpsGet } from 'node:https';
import { performance } from 'node:perf_hooks';

export interface LeanPath {
  name: 'direct' | 'explorer' | 'kubectl' | 'bare';
  /** Base URL; a path is appended. */
  base: string;
  headers?: Record<string, string>;
  tls?: { ca: string; cert: string; key: string };
}

export interface LeanResult {
  /** Added p50 of a small GET over direct's p50, per proxy (ms). */
  addedP50: { explorer: number; kubectl: number; bare?: number };
  p50: Partial<Record<LeanPath['name'], number>> & Record<'direct' | 'explorer' | 'kubectl', number>;
  /** Median time of the large list per path (ms). */
  listMedian: Partial<Record<LeanPath['name'], number>> & Record<'direct' | 'explorer' | 'kubectl', number>;
  listBytes: number;
}

type Get = (path: string) => Promise<{ status: number; bytes: number }>;

function leanGet(p: LeanPath): { get: Get; close(): void } {
  const url = new URL(p.base);
  const prefix = url.pathname.replace(/\/$/, '');
  const agent = p.tls ? new HttpsAgent({ keepAlive: true, maxSockets: 1, ...p.tls }) : new HttpAgent({ keepAlive: true, maxSockets: 1 });
  const get = p.tls ? httpsGet : httpGet;
  return {
    get: (path) =>
      new Promise((ok, fail) => {
        const req = get({ hostname: url.hostname, port: url.port, path: prefix + path, agent, headers: p.headers }, (res) => {
          let bytes = 0;
          res.on('data', (c: Buffer) => (bytes += c.length));
          res.on('end', () => ok({ status: res.statusCode ?? 0, bytes }));
          res.on('error', fail);
        });
        req.on('error', fail);
      }),
    close: () => agent.destroy(),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Small GETs and large lists through each path, interleaved; `rounds` timed after `warmUp`. */
export async function measureLean(paths: LeanPath[], opts: { small: string; list: string; warmUp: number; rounds: number; lists: number; listWarmUp?: boolean }): Promise<LeanResult> {
  const clients = paths.map((p) => ({ name: p.name, ...leanGet(p) }));
  try {
    for (let i = 0; i < opts.warmUp; i++) for (const c of clients) await c.get(opts.small);
    const small = new Map(clients.map((c) => [c.name, [] as number[]]));
    for (let i = 0; i < opts.rounds; i++) {
      // Rotate the order each round, so that no path always follows the same neighbour.
      for (let j = 0; j < clients.length; j++) {
        const c = clients[(i + j) % clients.length]!;
        const t = performance.now();
        const r = await c.get(opts.small);
        small.get(c.name)!.push(performance.now() - t);
        if (r.status !== 200) throw new Error(`lean GET ${opts.small} (${c.name}): ${r.status}`);
      }
    }
    const lists = new Map(clients.map((c) => [c.name, [] as number[]]));
    let listBytes = 0;
    // One list through each path first (unless told not to: at 150,000 Pods a list is a gigabyte).
    if (opts.listWarmUp !== false) for (const c of clients) await c.get(opts.list);
    for (let i = 0; i < opts.lists; i++) {
      for (let j = 0; j < clients.length; j++) {
        const c = clients[(i + j) % clients.length]!;
        const t = performance.now();
        const r = await c.get(opts.list);
        lists.get(c.name)!.push(performance.now() - t);
        if (r.status !== 200) throw new Error(`lean GET ${opts.list} (${c.name}): ${r.status}`);
        if (c.name === 'direct') listBytes = r.bytes;
      }
    }
    const p50 = Object.fromEntries([...small].map(([k, v]) => [k, median(v)])) as LeanResult['p50'];
    const listMedian = Object.fromEntries([...lists].map(([k, v]) => [k, median(v)])) as LeanResult['listMedian'];
    const bare = p50.bare === undefined ? {} : { bare: p50.bare - p50.direct };
    return { addedP50: { explorer: p50.explorer - p50.direct, kubectl: p50.kubectl - p50.direct, ...bare }, p50, listMedian, listBytes };
  } finally {
    for (const c of clients) c.close();
  }
}

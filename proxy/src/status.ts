// GET /proxy/status: what the page's connection indicator reads. The explorer server itself (its
// start time tells a restart apart, and with it a new token), each context as the proxy last saw
// it (time to first byte, last error), the upstream requests open, and the supervised local
// control plane when this server runs one (components, restarts, recent events).
import type { ControlPlane } from '../cluster/controlplane';
import type { ContextStatus, ExplorerStatus } from '../../protocol/status';
import type { ProxyError } from './errors';
import { MAX_UPSTREAMS, type ProxyStats } from './openUpstream';
import type { Kubeconfig } from './kubeconfig';

export type { ContextStatus as ContextHealth, ExplorerStatus };
type ContextHealth = ContextStatus;

export interface StatusSource {
  snapshot(since?: number): ExplorerStatus;
  /** Called by the forwarder for every upstream outcome. */
  observe: (context: string, outcome: { ttfbMs: number } | { error: ProxyError }) => void;
  close(): void;
}

export function createStatus(opts: { stats: ProxyStats; controlPlane?: ControlPlane; kubeconfig: Kubeconfig; maxUpstreams?: number }): StatusSource {
  const startedAt = new Date().toISOString();
  // Kept as numbers on the hot path (every forwarded response); formatted when asked for.
  interface Raw { responseAt: number; ttfbMs: number | null; error: { at: number; err: ProxyError } | null }
  const contexts = new Map<string, Raw>();
  const known = new Set(opts.kubeconfig.contexts.map((c) => c.name));
  const health = (name: string): Raw => {
    let h = contexts.get(name);
    if (!h) {
      h = { responseAt: 0, ttfbMs: null, error: null };
      contexts.set(name, h);
    }
    return h;
  };
  const iso = (ms: number) => new Date(ms).toISOString();
  const format = (h: Raw): ContextHealth => ({
    lastResponseAt: h.responseAt ? iso(h.responseAt) : null,
    ttfbMs: h.ttfbMs === null ? null : Math.round(h.ttfbMs * 10) / 10,
    lastError: h.error && { at: iso(h.error.at), code: h.error.err.code, cause: h.error.err.proxyCause, message: h.error.err.message },
  });
  return {
    snapshot(since) {
      const cp = opts.controlPlane;
      let controlPlane: ExplorerStatus['controlPlane'] = null;
      if (cp) {
        const s = cp.status();
        const events = since !== undefined && Number.isFinite(since) ? s.events.filter((e) => e.seq > since) : s.events;
        controlPlane = { server: cp.server, components: s.components, events, lastSeq: s.events.at(-1)?.seq ?? 0 };
      }
      return {
        server: { startedAt, pid: process.pid },
        credentials: opts.kubeconfig.exec.snapshot(),
        upstreams: { open: opts.stats.upstreamOpen, total: opts.stats.upstreamTotal, max: opts.maxUpstreams ?? MAX_UPSTREAMS, muxPaused: opts.stats.muxPaused },
        contexts: Object.fromEntries([...contexts].map(([name, h]) => [name, format(h)])),
        controlPlane,
      };
    },
    observe(context, outcome) {
      // Only contexts of the kubeconfig: an unknown name in a URL must not grow this map.
      if (!known.has(context)) return;
      const h = health(context);
      if ('error' in outcome) {
        h.error = { at: Date.now(), err: outcome.error };
      } else {
        h.responseAt = Date.now();
        h.ttfbMs = outcome.ttfbMs;
      }
    },
    close() {},
  };
}

// /proxy/audit: the audit events of the page's exchanges, by the Audit-Id each response carried.
// Served for the contexts whose API server writes a log this server follows (the local control
// plane's); for any other context the answer says why there are none. A long poll: the page says
// how many events it holds for its IDs (`after`) and the answer waits (up to `wait` ms) until there
// are more, so that stages show as kube-apiserver writes them (a watch's ResponseStarted when the
// watch starts, its ResponseComplete when it ends). Behind the door like every /proxy/ endpoint
// (routes.ts: Host, Origin, token).
import { type AuditAnswer, type AuditEvent } from '../../protocol/audit';
import { type AuditFollower, followAuditLog } from './auditLog';
import type { Kubeconfig } from './kubeconfig';

/** An audit log and the API server (its URL as the kubeconfig names it) that writes it. */
export interface AuditSource {
  server: string;
  path: string;
}

const MAX_IDS = 200;
const MAX_WAIT_MS = 25_000;

const NO_LOG =
  'this cluster is not the local control plane: the explorer cannot read its audit log (most clusters keep it from their users). Import an exported audit log to match it here';

export interface AuditRoutes {
  answer(query: URLSearchParams, signal?: AbortSignal): AuditAnswer | Promise<AuditAnswer>;
  close(): void;
}

export function auditRoutes(sources: readonly AuditSource[], kubeconfig: Pick<Kubeconfig, 'list'>): AuditRoutes {
  const followers = new Map<string, AuditFollower>();
  for (const s of sources) if (!followers.has(s.server)) followers.set(s.server, followAuditLog(s.path));

  const followerOf = (context: string): AuditFollower | undefined => {
    const server = kubeconfig.list().contexts.find((c) => c.name === context)?.server;
    return server === undefined ? undefined : followers.get(server.replace(/\/+$/, ''));
  };

  const collect = (f: AuditFollower, ids: string[]): { events: Record<string, AuditEvent[]>; count: number } => {
    const events: Record<string, AuditEvent[]> = {};
    let count = 0;
    for (const id of ids) {
      const found = f.index.get(id);
      if (found) {
        events[id] = found;
        count += found.length;
      }
    }
    return { events, count };
  };

  const answer = (query: URLSearchParams, signal?: AbortSignal): AuditAnswer | Promise<AuditAnswer> => {
    const context = query.get('context') ?? '';
    const ids = [...new Set(query.getAll('id').filter((id) => /^[0-9A-Za-z-]{1,64}$/.test(id)))].slice(0, MAX_IDS);
    const f = followerOf(context);
    if (!f) return { source: 'none', reason: NO_LOG, events: {} };
    f.poll();
    const after = Number(query.get('after') ?? -1);
    const wait = Math.min(Math.max(Number(query.get('wait') ?? 0) || 0, 0), MAX_WAIT_MS);
    const first = collect(f, ids);
    if (wait === 0 || first.count > after) return { source: 'log', events: first.events };
    return (async () => {
      const until = Date.now() + wait;
      for (;;) {
        const left = until - Date.now();
        if (left <= 0 || signal?.aborted) break;
        await f.index.next(left, signal);
        const now = collect(f, ids);
        if (now.count > after) return { source: 'log', events: now.events } satisfies AuditAnswer;
      }
      return { source: 'log', events: collect(f, ids).events } satisfies AuditAnswer;
    })();
  };

  return {
    answer,
    close: () => {
      for (const f of followers.values()) f.stop();
    },
  };
}

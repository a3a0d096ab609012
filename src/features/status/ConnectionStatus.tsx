// One indicator for every connection the page depends on: the explorer server, the token, each
// cluster and, when the explorer runs one, the local control plane. Polls /proxy/status (which
// also keeps the token fresh after a restart) and probes the current cluster's /readyz now and then.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ExplorerStatus, SupervisorEvent } from '../../../protocol/status';
import { connectionHealth, kubeFetch, KubeApiError, proxyJson, sharedMux } from '../../k8s/client';
import { recentEvents, summarize } from './summary';
import './status.css';

const POLL_MS = 5_000;
const PROBE_MS = 15_000;

export function ConnectionStatus({ context }: { context?: string }) {
  const health = useSyncExternalStore(connectionHealth.subscribe, connectionHealth.getSnapshot);
  const since = useRef<number | undefined>(undefined);
  const [events, setEvents] = useState<SupervisorEvent[]>([]);
  const first = useRef<string | undefined>(undefined);
  const status = useQuery({
    queryKey: ['proxy', 'status'],
    queryFn: async ({ signal }) => {
      try {
        return await proxyJson<ExplorerStatus>(`status${since.current !== undefined ? `?since=${since.current}` : ''}`, { signal });
      } catch (e) {
        // An explorer server without /proxy/status: the indicator does with what the page sees.
        if (e instanceof KubeApiError && e.httpStatus === 404) return null;
        throw e;
      }
    },
    refetchInterval: POLL_MS,
    refetchIntervalInBackground: false,
    retry: false,
  });
  const data = status.data ?? undefined;
  useEffect(() => {
    if (!data) return;
    first.current ??= data.server.startedAt;
    const cp = data.controlPlane;
    if (cp) {
      // A restarted explorer numbers its events anew.
      if (since.current !== undefined && cp.lastSeq < since.current) since.current = undefined;
      else since.current = cp.lastSeq;
      if (cp.events.length) setEvents((old) => [...old, ...cp.events.filter((e) => !old.some((o) => o.seq === e.seq && o.at === e.at))].slice(-50));
    }
  }, [data]);

  // The current cluster, probed while nothing else talks to it (a pane may only watch over the mux).
  useEffect(() => {
    if (!context) return;
    const t = setInterval(() => {
      const last = connectionHealth.getSnapshot().contexts[context]?.lastOkAt ?? 0;
      if (document.visibilityState === 'visible' && Date.now() - last > PROBE_MS) {
        // /readyz is open to every user (system:public-info-viewer); its body is not needed.
        void kubeFetch({ context, path: '/readyz' })
          .then((r) => r.body?.cancel())
          .catch(() => {});
      }
    }, PROBE_MS);
    return () => clearInterval(t);
  }, [context]);

  const summary = summarize({ health, status: data, firstStartedAt: first.current, events, context, muxRttMs: sharedMux().lastRttMs, now: Date.now() });
  const recent = recentEvents(events);
  return (
    <details className={`conn-status conn-${summary.level}`}>
      <summary aria-label="Connection status" title="Connections: explorer server, token, clusters">
        <span className="conn-dot" aria-hidden="true" />
        <span className="conn-short">{summary.short}</span>
      </summary>
      <div className="conn-panel" role="region" aria-label="Connections">
        <dl>
          {summary.lines.map((l) => (
            <div key={l.label} className={`conn-line conn-${l.level}`}>
              <dt>{l.label}</dt>
              <dd>{l.text}</dd>
            </div>
          ))}
        </dl>
        {recent.length > 0 && (
          <>
            <h4>Control plane events</h4>
            <ul className="conn-events" aria-label="Control plane events">
              {recent.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </>
        )}
      </div>
    </details>
  );
}

// One indicator for every connection the page depends on: the explorer server, the token, each
// cluster and, when the explorer runs one, the local control plane. Polls /proxy/status (which
// also keeps the token fresh after a restart) and probes the current cluster's /readyz now and then.
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ExplorerStatus, SupervisorEvent } from '../../../protocol/status';
import { connectionHealth, KubeApiError, proxyJson, sharedMux } from '../../k8s/client';
import { readyzQuery } from '../../k8s/overview';
import { recentEvents, summarize, type Line } from './summary';
import './status.css';

const POLL_MS = 5_000;
/** While a credential plugin runs: its stderr (a login URL) should show up soon. */
const POLL_PLUGIN_MS = 1_000;
const READYZ_MS = 10_000;

/** /proxy/status, asked for the supervisor's events after `since` (a ref: the query follows it without a new key). */
const explorerStatusQuery = (since: { current: number | undefined }) =>
  queryOptions({
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
    refetchInterval: (q) => (q.state.data?.credentials?.some((c) => c.state === 'running') ? POLL_PLUGIN_MS : POLL_MS),
    refetchIntervalInBackground: false,
    retry: false,
  });

export function ConnectionStatus({ context }: { context?: string }) {
  const health = useSyncExternalStore(connectionHealth.subscribe, connectionHealth.getSnapshot);
  const since = useRef<number | undefined>(undefined);
  const [events, setEvents] = useState<SupervisorEvent[]>([]);
  const first = useRef<string | undefined>(undefined);
  const status = useQuery(explorerStatusQuery(since));
  // /readyz?verbose of the current cluster: "answers" is not "ready" (with etcd stopped the server
  // still answers, and writes time out). The Welcome page reads the same query.
  const readyz = useQuery({ ...readyzQuery(context), refetchInterval: READYZ_MS, refetchIntervalInBackground: false });
  const data = status.data ?? undefined;
  const queryClient = useQueryClient();
  // A plugin run of this context that ended with a credential: the views that gave up waiting
  // (their requests were answered "still waiting") read again.
  const credentialState = data?.credentials?.find((c) => context !== undefined && c.contexts.includes(context))?.state;
  const [lastCredentialState, setLastCredentialState] = useState(credentialState);
  if (credentialState !== lastCredentialState) {
    setLastCredentialState(credentialState);
    if (lastCredentialState === 'running' && credentialState === 'ready') void queryClient.invalidateQueries();
  }
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

  const summary = summarize({ health, status: data, firstStartedAt: first.current, events, context, muxRttMs: sharedMux().lastRttMs, readyz: readyz.data, now: Date.now() });
  const recent = recentEvents(events);
  // Opens by itself when the view starts waiting for a credential plugin: it may want a login.
  const waiting = summary.short.startsWith('waiting for ');
  const [open, setOpen] = useState(false);
  const [wasWaiting, setWasWaiting] = useState(false);
  if (waiting !== wasWaiting) {
    setWasWaiting(waiting);
    if (waiting) setOpen(true);
  }
  const act = (a: NonNullable<Line['action']>) => {
    void proxyJson(`credentials/${a.kind}?context=${encodeURIComponent(a.context)}`, { method: 'POST' })
      .catch(() => {})
      .then(() => {
        if (a.kind === 'retry') void queryClient.invalidateQueries();
        else void status.refetch();
      });
  };
  return (
    <details className={`conn-status conn-${summary.level}`} open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary aria-label="Connection status" title="Connections: explorer server, token, clusters">
        <span className="conn-dot" aria-hidden="true" />
        <span className="conn-short">{summary.short}</span>
      </summary>
      <div className="conn-panel" role="region" aria-label="Connections">
        <dl>
          {summary.lines.map((l) => (
            <div key={l.label} className={`conn-line conn-${l.level}`}>
              <dt>{l.label}</dt>
              <dd>
                {l.text}
                {l.detail && (
                  <pre className="conn-stderr" aria-label={`What ${l.label.replace(/^Credentials of /, 'the plugin of ')} wrote`}>
                    {l.detail}
                  </pre>
                )}
                {l.action && (
                  <button type="button" onClick={() => act(l.action!)}>
                    {l.action.kind === 'cancel' ? 'Cancel' : 'Try again now'}
                  </button>
                )}
              </dd>
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

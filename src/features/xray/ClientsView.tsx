// The Clients view: what other programs (kubectl, a controller, a script) sent through the X-ray
// endpoint, live, grouped by client and by run, one exchange at a time in the console's inspector,
// and two runs side by side. The URL keeps the choice: `client`, `run`, `x` (the exchange), `diffA`/`diffB`.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useSyncExternalStore } from 'react';
import { navigate, type Route } from '../../routing';
import { formatBytes } from '../../ui/format';
import { ConnectPanel } from './ConnectPanel';
import { ExchangePanel } from './ExchangePanel';
import { xrayJournal, type JournalSnapshot } from './journal';
import { type ClientGroup, groupByClient, type XrayExchange } from './model';
import { type RunChoice, RunDiff } from './RunDiff';
import type { XrayRun } from '../../../protocol/xray';
import './xray.css';

const ROW = 26;

function runLabel(run: XrayRun | undefined, id: string): string {
  if (!run) return id;
  const cmd = run.argv ? run.argv.join(' ') : 'long-lived endpoint';
  const end = run.endedAt === undefined ? ' (running)' : run.exitCode !== undefined && run.exitCode !== null ? ` (exit ${run.exitCode})` : run.signal ? ` (${run.signal})` : '';
  return `${cmd}${end}`;
}

export function ClientsView({ route }: { route: Route; context: string }) {
  const snap = useSyncExternalStore(xrayJournal.subscribe, xrayJournal.snapshot);
  const groups = useMemo(() => groupByClient(snap.exchanges), [snap.exchanges]);
  const { client, run, x: selectedId, diffA, diffB } = route.extra;
  const shown = useMemo(() => {
    const g = groups.find((g) => g.key === client);
    if (!g) return snap.exchanges;
    const r = g.runs.find((r) => r.run === run);
    return r ? r.exchanges : g.runs.flatMap((r) => r.exchanges);
  }, [groups, client, run, snap.exchanges]);
  const selected = selectedId ? snap.exchanges.find((e) => e.id === selectedId) : undefined;
  const runChoices = useMemo<RunChoice[]>(() => {
    const byRun = new Map<string, XrayExchange[]>();
    for (const e of snap.exchanges) {
      let l = byRun.get(e.run);
      if (!l) byRun.set(e.run, (l = []));
      l.push(e);
    }
    return [...byRun].map(([id, exchanges]) => ({ id, label: runLabel(snap.runs.get(id), id), exchanges }));
  }, [snap.exchanges, snap.runs]);
  return (
    <div className="stack xray">
      <h2>Clients</h2>
      <StreamState snap={snap} />
      <ConnectPanel />
      <div className="xray-columns">
        <ClientTree groups={groups} runs={snap.runs} client={client} run={run} total={snap.exchanges.length} />
        <ExchangeList exchanges={shown} selected={selectedId} />
        <div className="xray-detail">{selected ? <ExchangePanel key={selected.id} x={selected} all={snap.exchanges} /> : <p className="muted">Choose an exchange to see it whole.</p>}</div>
      </div>
      <RunDiff runs={runChoices} left={diffA} right={diffB} onPick={(side, id) => navigate({ extra: { [side]: id } }, { replace: true })} />
    </div>
  );
}

function StreamState({ snap }: { snap: JournalSnapshot }) {
  const text = {
    idle: 'Not connected to the journal.',
    connecting: 'Connecting to the explorer’s X-ray journal…',
    replaying: 'Reading what the journal kept…',
    live: 'Live: requests appear as clients send them.',
    unavailable: `The journal cannot be read: ${snap.problem ?? 'no answer'}. Trying again.`,
  }[snap.state];
  return (
    <p className={snap.state === 'unavailable' ? 'error-box' : 'muted'} aria-label="Journal state" data-state={snap.state}>
      {text} {snap.exchanges.length > 0 && `${snap.exchanges.length} exchanges.`}
      {snap.forgotten > 0 && ` The explorer’s journal has since forgotten ${snap.forgotten} of them (its memory budget); this tab still shows them until it reloads.`}
      {snap.state === 'live' && snap.exchanges.length === 0 && (
        <>
          {' '}
          Run a command through it: <code>kubectl api-explorer xray -- kubectl get pods</code>, or connect a client below.
        </>
      )}
    </p>
  );
}

function ClientTree({ groups, runs, client, run, total }: { groups: ClientGroup[]; runs: ReadonlyMap<string, XrayRun>; client?: string; run?: string; total: number }) {
  const pick = (c: string, r: string) => navigate({ extra: { client: c, run: r, x: '' } }, { replace: true });
  return (
    <nav aria-label="Clients and runs" className="xray-tree">
      <button type="button" aria-pressed={!client} onClick={() => pick('', '')}>
        All clients ({total})
      </button>
      <ul>
        {groups.map((g) => (
          <li key={g.key}>
            <button type="button" aria-pressed={client === g.key && !run} onClick={() => pick(g.key, '')} title={g.client.raw}>
              <strong>{g.client.product}</strong> {g.client.version} <span className="muted">({g.count})</span>
            </button>
            <ul>
              {g.runs.map((r) => (
                <li key={r.run}>
                  <button type="button" aria-pressed={client === g.key && run === r.run} onClick={() => pick(g.key, r.run)}>
                    {runLabel(runs.get(r.run), r.run)} <span className="muted">({r.exchanges.length})</span>
                  </button>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Virtualised: a controller's hours of requests are thousands of rows, of which a screenful exists in the DOM. */
function ExchangeList({ exchanges, selected }: { exchanges: readonly XrayExchange[]; selected?: string }) {
  const scroller = useRef<HTMLDivElement>(null);
  const v = useVirtualizer({ count: exchanges.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 10 });
  return (
    <div className="xray-list" ref={scroller}>
      <div role="list" aria-label="Client exchanges" style={{ height: v.getTotalSize(), position: 'relative' }}>
        {v.getVirtualItems().map((item) => {
          const e = exchanges[item.index]!;
          const status = e.response?.status;
          return (
            <div key={e.id} role="listitem" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${item.start}px)` }}>
              <button type="button" className={`xray-row${selected === e.id ? ' selected' : ''}`} aria-pressed={selected === e.id} onClick={() => navigate({ extra: { x: e.id } }, { replace: true })}>
                <span className={status !== undefined && status >= 400 ? 'warn' : undefined}>{status ?? '…'}</span> <strong>{e.request.method}</strong> <span className="xray-path">{e.request.path}</span>
                {e.watch && <span className="badge">watch</span>}
                {e.cut && <span className="badge warn">cut</span>}
                <span className="muted small"> {formatBytes(e.totals?.bytes ?? e.chunks.reduce((n, c) => n + c.bytes.length, 0))}</span>
              </button>
            </div>
          );
        })}
      </div>
      {exchanges.length === 0 && <p className="muted small">No exchanges yet.</p>}
    </div>
  );
}

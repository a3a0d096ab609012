// What the connection indicator says, from what the page saw (connectionHealth: its own requests,
// the mux, the token) and what the explorer server reports (/proxy/status). Pure.
import type { CredentialRun, ExplorerStatus, SupervisorEvent } from '../../../protocol/status';
import type { HealthSnapshot } from '../../k8s/client';
import { READYZ_ANSWER_MS, type ReadyzReport, readyzText } from '../../k8s/overview';

export type Level = 'ok' | 'warn' | 'down';

export interface Line {
  level: Level;
  label: string;
  text: string;
  /** A credential plugin's stderr (where kubelogin prints its login URL), shown as is. */
  detail?: string;
  /** What the page may do about it: stop the run under way, or run it again now. */
  action?: { kind: 'cancel' | 'retry'; context: string };
}

export interface Summary {
  level: Level;
  /** The few words on the indicator. */
  short: string;
  lines: Line[];
}

export interface StatusInputs {
  health: HealthSnapshot;
  /** The last /proxy/status answer, if any. */
  status?: ExplorerStatus;
  /** The first server start time this page saw; differs from status.server.startedAt after a restart. */
  firstStartedAt?: string;
  /** Supervisor events seen since the page opened, oldest first. */
  events: SupervisorEvent[];
  /** The context the page is on. */
  context?: string;
  /** Round-trip time of the last mux ping, ms. */
  muxRttMs?: number;
  /** The last /readyz?verbose of the context the page is on. */
  readyz?: ReadyzReport;
  now: number;
}

const worst = (a: Level, b: Level): Level => (a === 'down' || b === 'down' ? 'down' : a === 'warn' || b === 'warn' ? 'warn' : 'ok');

function clock(ms: number | string): string {
  return new Date(ms).toTimeString().slice(0, 8);
}

export function summarize(i: StatusInputs): Summary {
  const lines: Line[] = [];
  const { health, status } = i;

  // The explorer server.
  if (!health.server.reachable) {
    lines.push({ level: 'down', label: 'Explorer server', text: `not answering since ${clock(health.server.lastError?.at ?? i.now)}: ${health.server.lastError?.message ?? 'no answer'}. Is npm start still running? Open views carry on when it is back.` });
  } else {
    const restarted = status && i.firstStartedAt && status.server.startedAt !== i.firstStartedAt;
    lines.push({
      level: 'ok',
      label: 'Explorer server',
      text: `${restarted ? `restarted at ${clock(status.server.startedAt)}; ` : ''}answering${status ? ` (pid ${status.server.pid}, ${status.upstreams.open} upstream requests open)` : ''}${i.muxRttMs !== undefined ? `; watch connection round trip ${Math.round(i.muxRttMs)} ms` : ''}`,
    });
  }

  // The token.
  const t = health.token;
  if (t.state === 'rejected') lines.push({ level: 'down', label: 'Token', text: 'the explorer server refuses this page’s token and no new one could be read: reload the page.' });
  else if (t.state === 'refreshed') lines.push({ level: 'ok', label: 'Token', text: `the server was restarted; this page picked up its new token at ${clock(t.at ?? i.now)}.` });
  else lines.push({ level: 'ok', label: 'Token', text: 'accepted' });

  // Clusters: the page's own view merged with the proxy's. Another context's failure is listed
  // but does not make the page's summary "degraded": one failed request to a context the page
  // is not on (a context picker's probe, an old tab) said so on every page for the whole session.
  const aside = new Set<Line>();
  const names = new Set<string>([...Object.keys(health.contexts), ...Object.keys(status?.contexts ?? {})]);
  if (i.context) names.add(i.context);
  for (const name of [...names].sort()) {
    const mine = health.contexts[name];
    const theirs = status?.contexts[name];
    const lastOk = Math.max(mine?.lastOkAt ?? 0, theirs?.lastResponseAt ? Date.parse(theirs.lastResponseAt) : 0);
    const lastErrAt = Math.max(mine?.lastError?.at ?? 0, theirs?.lastError ? Date.parse(theirs.lastError.at) : 0);
    const lastErr = (theirs?.lastError && Date.parse(theirs.lastError.at) === lastErrAt ? theirs.lastError.message : mine?.lastError?.message) ?? '';
    const latency = theirs?.ttfbMs ?? mine?.latencyMs;
    let level: Level;
    let text: string;
    if (!lastOk && !lastErrAt) {
      level = 'ok';
      text = 'no request yet';
    } else if (lastErrAt > lastOk) {
      level = name === i.context ? 'down' : 'warn';
      text = `unreachable since ${clock(lastErrAt)}: ${lastErr}`;
    } else {
      level = 'ok';
      text = `reachable${latency !== undefined ? `, ${Math.round(latency)} ms` : ''}${lastErrAt ? `; last error at ${clock(lastErrAt)}: ${lastErr}` : ''}`;
    }
    const r = name === i.context ? i.readyz : undefined;
    if (r?.silent && level !== 'down') {
      // Connections are taken and nothing is answered: every request of the view waits.
      level = 'down';
      text = `not answering: /readyz got no answer within ${READYZ_ANSWER_MS / 1000} s at ${clock(r.at)} (the server takes connections but answers nothing: stopped or overloaded)`;
    } else if (r && r.ready === false && r.status !== 0 && level !== 'down') {
      // It answers, but says it cannot serve: writes would time out (etcd stopped), lists may be stale.
      level = 'down';
      text = `answers but is not ready (/readyz at ${clock(r.at)}: ${readyzText(r)})${latency !== undefined ? `, ${Math.round(latency)} ms` : ''}`;
    }
    const line: Line = { level, label: `Cluster ${name}${name === i.context ? ' (this view)' : ''}`, text };
    lines.push(line);
    if (i.context !== undefined && name !== i.context) aside.add(line);
  }

  // Credential plugins of the context the page is on (and runs under way for any other).
  const credentialLines = (status?.credentials ?? []).flatMap((c) => credentialLine(c, i.context, i.now));
  lines.push(...credentialLines);

  // The local control plane, when the explorer runs one.
  for (const c of status?.controlPlane?.components ?? []) {
    const level: Level = c.state === 'running' ? 'ok' : c.state === 'failed' || c.state === 'unresponsive' ? 'down' : 'warn';
    const exit = c.lastExit ? `; last exit at ${clock(c.lastExit.at)} (${c.lastExit.signal ?? `code ${c.lastExit.code}`})` : '';
    // Why it stopped answering, from the supervisor's own event (stopped, or a failing health check).
    const why = c.state === 'unresponsive' ? i.events.findLast((e) => e.component === c.name && e.type === 'unresponsive')?.message : undefined;
    lines.push({ level, label: c.name, text: `${why ?? c.state} since ${clock(c.since)}${c.restarts ? `, restarted ${c.restarts}×` : ''}${exit}` });
  }

  const counted = lines.filter((l) => !aside.has(l));
  const level = counted.reduce<Level>((l, x) => worst(l, x.level), 'ok');
  const down = counted.find((l) => l.level === 'down');
  const warn = counted.find((l) => l.level === 'warn');
  // A plugin the view waits for is what the user must act on (a login in the browser).
  const waiting = (status?.credentials ?? []).find((c) => c.state === 'running' && i.context !== undefined && c.contexts.includes(i.context));
  const notReady = i.readyz && i.readyz.ready === false && (i.readyz.status !== 0 || i.readyz.silent) ? i.readyz : undefined;
  const short = waiting
    ? `waiting for ${waiting.command.split(' ')[0]!.split('/').pop()}`
    : notReady && (!down || down.label.startsWith('Cluster '))
      ? notReady.silent
        ? 'not answering'
        : `not ready: ${readyzText(notReady)}`
      : level === 'ok'
        ? 'connected'
        : `${(down ?? warn)!.label}: ${level === 'down' ? 'down' : 'degraded'}`;
  return { level, short, lines };
}

function credentialLine(c: CredentialRun, context: string | undefined, now: number): Line[] {
  const mine = context !== undefined && c.contexts.includes(context);
  const label = `Credentials of ${c.user}${c.cluster !== undefined ? ` for cluster ${c.cluster}` : ''}`;
  if (c.state === 'running') {
    const until = c.timeoutAt ? `; it is stopped at ${clock(c.timeoutAt)} if it has not finished` : '';
    return [{ level: 'warn', label, text: `waiting for \`${c.command}\` since ${clock(c.startedAt ?? now)}${until}. Requests of ${c.contexts.join(', ')} wait for it.`, detail: c.stderr || undefined, action: { kind: 'cancel', context: context !== undefined && mine ? context : c.contexts[0]! } }];
  }
  if (c.state === 'failed' && mine && c.failure) {
    const next = c.failure.retryAt ? `tried again from ${clock(c.failure.retryAt)}` : 'not run again until you ask';
    return [{ level: 'down', label, text: `${c.failure.message} (at ${clock(c.failure.at)}; ${next})`, detail: c.stderr || undefined, action: { kind: 'retry', context: context! } }];
  }
  if (c.state === 'ready' && mine) return [{ level: 'ok', label, text: `from \`${c.command}\`${c.expiresAt ? `, valid until ${clock(c.expiresAt)}` : ''}` }];
  return [];
}

/** The last few control-plane events, newest first, as sentences. */
export function recentEvents(events: SupervisorEvent[], n = 6): string[] {
  return events
    .slice(-n)
    .reverse()
    .map((e) => `${clock(e.at)} ${e.component} ${e.type}${e.attempt ? ` (attempt ${e.attempt})` : ''}: ${e.message}`);
}

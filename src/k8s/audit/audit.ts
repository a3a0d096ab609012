// The audit events of an exchange, found by its Audit-Id: from the explorer server, which follows
// the local control plane's audit log (/proxy/audit, a long poll so that stages come as they are
// written), or from an audit log file the user imported (a remote cluster's export). No React.
import { AUDIT_ROUTE, type AuditAnswer, type AuditEvent, AuditLineSplitter, byStage, isFinal } from '../../../protocol/audit';
import { Listeners } from '../../lib/listeners';
import { sleep } from '../../lib/sleep';
import { headerValue, type HeaderList, proxyJson } from '../client';
import { activeReplay } from '../record';

export { type AuditEvent, type AuditStage, isFinal } from '../../../protocol/audit';

/** The Audit-Id the server answered with (every response of kube-apiserver carries one). */
export function auditIdOf(headers: HeaderList | undefined): string | undefined {
  return headers ? headerValue(headers, 'Audit-Id')?.trim() || undefined : undefined;
}

// --- Imported audit logs --------------------------------------------------------------------

/** What an import read: events by auditID, and the lines it could not read. */
export interface ImportedLog {
  name: string;
  requests: number;
  events: number;
  skipped: number;
  lastSkip?: string;
}

/** Bound on what imports hold in the tab (requests); older imports' requests go first. */
const MAX_IMPORTED = 50_000;
const imported = new Map<string, AuditEvent[]>();
const importedLogs: ImportedLog[] = [];
const importListeners = new Listeners();
let importVersion = 0;

export const importedAudit = {
  subscribe: importListeners.subscribe,
  version: () => importVersion,
  logs: (): readonly ImportedLog[] => importedLogs,
  get: (id: string): AuditEvent[] | undefined => {
    const found = imported.get(id);
    return found ? byStage(found) : undefined;
  },
};

/**
 * Reads an audit log (JSON lines as kube-apiserver writes them, or a managed cluster's export of
 * them) into the tab's index. Throws, having kept nothing, when no line of it is an audit event:
 * a wrong file must not look like an empty log. What was imported before stays.
 */
export function importAuditLog(name: string, text: string): ImportedLog {
  const found = new Map<string, AuditEvent[]>();
  let count = 0;
  const splitter = new AuditLineSplitter((e) => {
    count++;
    const list = found.get(e.auditID) ?? [];
    if (!list.some((x) => x.stage === e.stage)) list.push(e);
    found.set(e.auditID, list);
  });
  // A JSON array of events (some exports) is read as lines of its items.
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[')) {
    let items: unknown;
    try {
      items = JSON.parse(trimmed);
    } catch (e) {
      throw new Error(`${name}: not JSON lines and not a JSON array (${(e as Error).message})`, { cause: e });
    }
    splitter.push(`${(Array.isArray(items) ? items : []).map((i) => JSON.stringify(i)).join('\n')}\n`);
  } else splitter.push(text);
  splitter.end();
  if (count === 0) {
    throw new Error(`${name}: no audit.k8s.io/v1 events in it (${splitter.skipped} lines read${splitter.lastSkip ? `; last refused: ${splitter.lastSkip}` : ''})`);
  }
  for (const [id, list] of found) {
    imported.delete(id);
    imported.set(id, [...(imported.get(id) ?? []), ...list]);
  }
  for (const id of imported.keys()) {
    if (imported.size <= MAX_IMPORTED) break;
    imported.delete(id);
  }
  const log: ImportedLog = { name, requests: found.size, events: count, skipped: splitter.skipped, ...(splitter.lastSkip ? { lastSkip: splitter.lastSkip } : {}) };
  importedLogs.push(log);
  importVersion++;
  importListeners.emit();
  return log;
}

/** Forgets every imported log. */
export function clearImportedAudit(): void {
  imported.clear();
  importedLogs.length = 0;
  importVersion++;
  importListeners.emit();
}

// --- Live events from the explorer server -----------------------------------------------------

/** What the panel knows of one request's events. */
export interface AuditLookup {
  source: 'log' | 'import' | 'none' | 'recording';
  events: AuditEvent[];
  reason?: string;
  error?: string;
}

/**
 * How often a panel asks while its request's stages are still coming: often at first (the e2e
 * wants an event beside its exchange within a second), then rarely (a watch's last stage comes when
 * it ends). Short requests, not a long poll: a browser keeps six connections per host, and a long
 * poll per open panel (a lesson shows one per step) held all six, so the page's own requests
 * (a DELETE, /proxy/status) queued behind them and the explorer looked down (seen in CI).
 */
const pollDelay = (elapsedMs: number) => (elapsedMs < 5_000 ? 250 : 2_000);
/** No event for an ID after this long: it is not coming. */
const GIVE_UP_MS = 60_000;

/**
 * Follows one request's events: calls `onUpdate` with what is known each time it grows, until
 * the request's last stage (ResponseComplete, Panic) is in, the server has no log for the
 * context, or `signal` aborts. An imported log that has the ID answers without asking the server.
 */
export async function followAuditEvents(context: string, id: string, onUpdate: (l: AuditLookup) => void, signal: AbortSignal): Promise<void> {
  let held = -1;
  let failures = 0;
  const started = Date.now();
  // Replaying a recording: its saved events, and nothing asked of the server.
  const replay = activeReplay();
  if (replay) return onUpdate(replay.recording.audit?.[id] ? { source: 'recording', events: byStage(replay.recording.audit[id]) } : { source: 'none', events: [], reason: 'this recording holds no audit event for this request (saved before audit events were kept, or none was found when it was saved)' });
  while (!signal.aborted) {
    const fromImport = importedAudit.get(id);
    if (fromImport) return onUpdate({ source: 'import', events: fromImport });
    let answer: AuditAnswer;
    try {
      const q = new URLSearchParams({ context, id, after: String(held), wait: '0' });
      answer = await proxyJson<AuditAnswer>(`${AUDIT_ROUTE.replace('/proxy/', '')}?${q}`, { signal });
      failures = 0;
    } catch (e) {
      if (signal.aborted) return;
      failures++;
      onUpdate({ source: 'none', events: [], error: (e as Error).message });
      if (failures > 5) return;
      await sleep(1_000 * failures, signal).catch(() => {});
      continue;
    }
    if (answer.source === 'none') return onUpdate({ source: 'none', events: [], reason: answer.reason });
    const events = answer.events[id] ?? [];
    // Nothing after a minute: the event is not coming (rotated out of the bounded index, or the
    // request went to another server).
    if (events.length === 0 && Date.now() - started > GIVE_UP_MS) return onUpdate({ source: 'log', events: [], reason: 'no event with this ID in the audit log the explorer follows (it may have been rotated out)' });
    if (events.length !== held) {
      held = events.length;
      onUpdate({ source: 'log', events });
    }
    if (isFinal(events)) return;
    await sleep(pollDelay(Date.now() - started), signal).catch(() => {});
  }
}

/**
 * The audit events of a recording's exchanges, for the file (asked once, not waited for): from
 * imported logs, else from the explorer server for the contexts whose log it follows. What cannot
 * be had is left out; a save never fails for it.
 */
export async function gatherAuditEvents(exchanges: readonly { context: string; response?: { headers: HeaderList } }[]): Promise<Record<string, AuditEvent[]>> {
  const out: Record<string, AuditEvent[]> = {};
  const ask = new Map<string, string[]>();
  for (const x of exchanges) {
    const id = auditIdOf(x.response?.headers);
    if (!id || out[id]) continue;
    const fromImport = importedAudit.get(id);
    if (fromImport) out[id] = fromImport;
    else ask.set(x.context, [...(ask.get(x.context) ?? []), id]);
  }
  for (const [context, ids] of ask) {
    for (let i = 0; i < ids.length; i += 100) {
      const q = new URLSearchParams({ context });
      for (const id of ids.slice(i, i + 100)) q.append('id', id);
      try {
        const answer = await proxyJson<AuditAnswer>(`${AUDIT_ROUTE.replace('/proxy/', '')}?${q}`);
        if (answer.source === 'none') break;
        Object.assign(out, answer.events);
      } catch {
        break;
      }
    }
  }
  return out;
}

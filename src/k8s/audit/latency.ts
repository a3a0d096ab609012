// Where the time of one request went, from the apiserver.latency.k8s.io/* annotations of its
// audit event. kube-apiserver adds them when it writes the ResponseComplete stage, and only when
// the request took longer than 500 ms from RequestReceived (endpoints/filters/audit.go,
// writeLatencyToAnnotation: the same threshold as its traces of create, get, list, update, delete);
// a part it measured as zero is left out (endpoints/request/webhook_duration.go,
// AuditAnnotationsFromLatencyTrackers). Each part is measured inside the request, so none can
// exceed the total; mutating webhooks run one after another and are summed, validating webhooks run
// in parallel and the longest is kept.
import type { AuditEvent } from '../../../protocol/audit';
import { parseGoDuration } from './goDuration';

export const LATENCY_PREFIX = 'apiserver.latency.k8s.io/';
/** The server's threshold: below it the event carries no breakdown. */
export const LATENCY_THRESHOLD_MS = 500;

/** The parts in the order a request meets them, with what each measures. */
const KNOWN: [string, string][] = [
  ['authentication', 'authentication'],
  ['impersonation', 'impersonation (resolving Impersonate-* headers)'],
  ['authorization', 'authorization'],
  ['apf-queue-wait', 'API Priority and Fairness queue wait'],
  ['mutating-webhook', 'mutating webhooks (summed: they run in turn)'],
  ['validating-webhook', 'validating webhooks (the longest: they run in parallel)'],
  ['etcd', 'storage (etcd round trips)'],
  ['decode-response-object', 'decoding what storage returned'],
  ['transform-response-object', 'transforming the response (Table, fields)'],
  ['serialize-response-object', 'serializing the response (includes writing it)'],
  ['response-write', 'writing the response'],
];

export interface LatencyPart {
  /** The annotation's name after the prefix ("etcd", "mutating-webhook"). */
  key: string;
  label: string;
  ms: number;
  /** As the server wrote it ("702.1ms"). */
  text: string;
}

export interface LatencyBreakdown {
  total?: { ms: number; text: string };
  /** In the order a request meets them; parts of a newer server the explorer does not know come last, by name. */
  parts: LatencyPart[];
  /** The part that took longest. */
  largest?: LatencyPart;
  /** The request's duration as the event's timestamps say (RequestReceived to this stage), when both are there. */
  elapsedMs?: number;
  /** Why there is no breakdown. */
  absent?: string;
}

/** Milliseconds between two RFC 3339 timestamps of the server, to the microsecond they carry (Date keeps milliseconds: the fraction is read by hand). */
export function msBetween(from: string | undefined, to: string | undefined): number | undefined {
  if (!from || !to) return undefined;
  const t = (s: string) => {
    const m = /^(.*?)(?:\.(\d+))?Z$/.exec(s);
    if (!m) return NaN;
    return Date.parse(`${m[1]}Z`) + Number(`0.${m[2] ?? '0'}`) * 1000;
  };
  const d = t(to) - t(from);
  return Number.isFinite(d) ? d : undefined;
}

export function latencyBreakdown(event: AuditEvent): LatencyBreakdown {
  const ann = event.annotations ?? {};
  const elapsedMs = msBetween(event.requestReceivedTimestamp, event.stageTimestamp);
  const parts: LatencyPart[] = [];
  const labels = new Map(KNOWN);
  const order = (k: string) => {
    const i = KNOWN.findIndex(([key]) => key === k);
    return i < 0 ? KNOWN.length : i;
  };
  let total: LatencyBreakdown['total'];
  for (const [name, text] of Object.entries(ann)) {
    if (!name.startsWith(LATENCY_PREFIX)) continue;
    const key = name.slice(LATENCY_PREFIX.length);
    const ms = parseGoDuration(text);
    if (ms === undefined) continue;
    if (key === 'total') total = { ms, text };
    else parts.push({ key, label: labels.get(key) ?? key, ms, text });
  }
  parts.sort((a, b) => order(a.key) - order(b.key) || a.key.localeCompare(b.key));
  const largest = parts.reduce<LatencyPart | undefined>((m, p) => (!m || p.ms > m.ms ? p : m), undefined);
  const out: LatencyBreakdown = { parts, ...(total ? { total } : {}), ...(largest ? { largest } : {}), ...(elapsedMs !== undefined ? { elapsedMs } : {}) };
  if (!total && parts.length === 0) out.absent = absentReason(event, elapsedMs);
  return out;
}

function absentReason(event: AuditEvent, elapsedMs: number | undefined): string {
  if (event.stage !== 'ResponseComplete') return `The server writes the breakdown with the ResponseComplete stage; this is the ${event.stage} event.`;
  const took = elapsedMs === undefined ? '' : ` This one took ${elapsedMs < 1 ? elapsedMs.toFixed(3) : Math.round(elapsedMs)} ms.`;
  return `kube-apiserver records where the time went only for requests that take longer than ${LATENCY_THRESHOLD_MS} ms from RequestReceived.${took}`;
}

// What the audit panel shows of a request's events, read from the event's fields and the
// annotations kube-apiserver's filters and admission plugins add. Pure.
import type { AuditEvent, AuditStage } from '../../k8s/audit';

export interface AuditSummary {
  /** The most complete event (the last stage); what the sections read. */
  event: AuditEvent;
  stages: { stage: AuditStage; at?: string }[];
  user: { username?: string; uid?: string; groups: string[]; extra: [string, string[]][] };
  impersonatedUser?: { username?: string; groups: string[]; extra: [string, string[]][] };
  /** authorization.k8s.io/decision and /reason (endpoints/filters/authorization.go). */
  decision?: string;
  reason?: string;
  /** pod-security.kubernetes.io/* (enforce-policy, audit-violations, exempt, error). */
  podSecurity: [string, string][];
  /** k8s.io/deprecated and k8s.io/removed-release (endpoints/deprecation). */
  deprecated?: { removedRelease?: string };
  status?: { code?: number; status?: string; reason?: string; message?: string };
  level: string;
  /** Annotations shown elsewhere neither here nor in the slots: shown as they are. */
  otherAnnotations: [string, string][];
}

const SHOWN = /^(authorization\.k8s\.io\/|pod-security\.kubernetes\.io\/|k8s\.io\/(deprecated|removed-release)$|mutation\.webhook\.admission\.k8s\.io\/|patch\.webhook\.admission\.k8s\.io\/|apiserver\.latency\.k8s\.io\/|validation\.policy\.admission\.k8s\.io\/|mutation\.policy\.admission\.k8s\.io\/|patch\.policy\.admission\.k8s\.io\/)/;

const sortedExtra = (extra: Record<string, string[]> | undefined): [string, string[]][] => Object.entries(extra ?? {}).sort(([a], [b]) => a.localeCompare(b));

export function summarizeAudit(events: readonly AuditEvent[]): AuditSummary | undefined {
  const event = events[events.length - 1];
  if (!event) return undefined;
  // Annotations accumulate as stages pass; the last stage has them all, but merge to be safe.
  const annotations: Record<string, string> = {};
  for (const e of events) Object.assign(annotations, e.annotations ?? {});
  const a = (k: string) => (Object.hasOwn(annotations, k) ? annotations[k] : undefined);
  const imp = event.impersonatedUser;
  return {
    event: { ...event, annotations },
    stages: events.map((e) => ({ stage: e.stage, at: e.stageTimestamp })),
    user: { username: event.user.username, uid: event.user.uid, groups: event.user.groups ?? [], extra: sortedExtra(event.user.extra) },
    ...(imp ? { impersonatedUser: { username: imp.username, groups: imp.groups ?? [], extra: sortedExtra(imp.extra) } } : {}),
    decision: a('authorization.k8s.io/decision'),
    reason: a('authorization.k8s.io/reason'),
    podSecurity: Object.entries(annotations).filter(([k]) => k.startsWith('pod-security.kubernetes.io/')),
    ...(a('k8s.io/deprecated') === 'true' ? { deprecated: { removedRelease: a('k8s.io/removed-release') } } : {}),
    status: event.responseStatus,
    level: event.level,
    otherAnnotations: Object.entries(annotations).filter(([k]) => !SHOWN.test(k)),
  };
}

// One reader of the server's timestamps for the panel and the latency section.
export { msBetween } from '../../k8s/audit';

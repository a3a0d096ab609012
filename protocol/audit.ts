// The API server's audit events (audit.k8s.io/v1 Event), shared by the proxy (which follows the
// local control plane's audit log) and the page (which shows an exchange's events and imports a
// remote cluster's log). kube-apiserver writes one event per line, per stage of a request
// (staging/src/k8s.io/apiserver/pkg/apis/audit/v1/types.go; the log backend's json format,
// plugin/pkg/audit/log/backend.go: one `json.Marshal` + "\n" per event). The events of one request
// share its `auditID`, which the server also sends back as the `Audit-Id` response header
// (endpoints/filters/audit_init.go), so that an exchange finds its events by that header.

export const AUDIT_API_VERSION = 'audit.k8s.io/v1';

/** The stages in the order the server reaches them (a request that panics ends at Panic). */
export const AUDIT_STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type AuditStage = (typeof AUDIT_STAGES)[number];
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

/** authentication/v1 UserInfo as the event records it. */
export interface AuditUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface AuditObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** audit.k8s.io/v1 Event: the fields the explorer reads; others are kept as they came. */
export interface AuditEvent {
  kind?: string;
  apiVersion?: string;
  level: AuditLevel;
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  verb: string;
  user: AuditUser;
  impersonatedUser?: AuditUser;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectReference;
  /** metav1.Status of the response (at Metadata level: its code, status and reason only). */
  responseStatus?: { code?: number; status?: string; reason?: string; message?: string; metadata?: unknown };
  requestObject?: unknown;
  responseObject?: unknown;
  /** RFC 3339 with microseconds. */
  requestReceivedTimestamp?: string;
  stageTimestamp?: string;
  annotations?: Record<string, string>;
  [other: string]: unknown;
}

/** The events of one request, in stage order. */
export function byStage(events: readonly AuditEvent[]): AuditEvent[] {
  return [...events].sort((a, b) => AUDIT_STAGES.indexOf(a.stage) - AUDIT_STAGES.indexOf(b.stage));
}

/** The request is over: its ResponseComplete (or Panic) has been written. */
export function isFinal(events: readonly AuditEvent[]): boolean {
  return events.some((e) => e.stage === 'ResponseComplete' || e.stage === 'Panic');
}

/**
 * One parsed line: an audit.k8s.io/v1 Event, or why the line is not one. Other apiVersions
 * (audit.k8s.io/v1beta1, dropped in 1.24 but still in old exports) are refused by name rather than
 * read as if they were v1; a managed cluster's export that wraps each event (Cloud Logging's
 * `protoPayload`, CloudWatch's `message` holding the event as a string) is unwrapped.
 */
export type ParsedLine = { event: AuditEvent } | { skipped: string };

function unwrap(v: unknown): unknown {
  if (!v || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  if (typeof o.auditID === 'string') return o;
  if (typeof o.message === 'string' && o.message.trimStart().startsWith('{')) {
    try {
      return JSON.parse(o.message);
    } catch {
      return v;
    }
  }
  if (o.protoPayload && typeof o.protoPayload === 'object') return o.protoPayload;
  return v;
}

export function parseAuditLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { skipped: 'not JSON (a torn or foreign line)' };
  }
  const o = unwrap(value) as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return { skipped: 'not a JSON object' };
  if (o.apiVersion !== undefined && o.apiVersion !== AUDIT_API_VERSION) return { skipped: `apiVersion ${String(o.apiVersion)} (only ${AUDIT_API_VERSION} is read)` };
  if (o.kind !== undefined && o.kind !== 'Event') return { skipped: `kind ${String(o.kind)}` };
  if (typeof o.auditID !== 'string' || !o.auditID) return { skipped: 'no auditID' };
  if (!AUDIT_STAGES.includes(o.stage as AuditStage)) return { skipped: `unknown stage ${String(o.stage)}` };
  if (!o.user || typeof o.user !== 'object') o.user = {};
  return { event: o as AuditEvent };
}

/** What is taken from a line too long to parse whole: its ID and stage (they come first), marked. */
export function stubOfHugeLine(head: string): AuditEvent | undefined {
  const id = /"auditID":"([0-9a-fA-F-]{1,64})"/.exec(head)?.[1];
  const stage = /"stage":"(\w+)"/.exec(head)?.[1] as AuditStage | undefined;
  if (!id || !stage || !AUDIT_STAGES.includes(stage)) return undefined;
  const str = (k: string) => new RegExp(`"${k}":"([^"\\\\]{0,2048})"`).exec(head)?.[1] ?? '';
  return { level: 'Metadata', auditID: id, stage, requestURI: str('requestURI'), verb: str('verb'), user: { username: str('username') }, truncated: true };
}

/**
 * Splits JSON lines as they arrive in chunks: whole lines are parsed, the last piece (a line not
 * yet ended: the writer is mid-line, or the file was cut) is carried to the next chunk. A line
 * longer than `maxLineChars` is not kept whole (its head is, for a stub), so that one huge body
 * cannot hold the reader's memory.
 */
export class AuditLineSplitter {
  private carry = '';
  private hugeHead: string | undefined;
  skipped = 0;
  lastSkip: string | undefined;

  /** `onEvent` gets each event with the length of its line (a stub: of the head kept). */
  constructor(private readonly onEvent: (e: AuditEvent, chars: number) => void, private readonly maxLineChars = 16 * 1024 * 1024) {}

  push(chunk: string): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf('\n', start);
      if (nl < 0) break;
      const piece = chunk.slice(start, nl);
      start = nl + 1;
      if (this.hugeHead !== undefined) {
        this.endHuge();
        continue;
      }
      this.line(this.carry + piece);
      this.carry = '';
    }
    const rest = chunk.slice(start);
    if (this.hugeHead !== undefined) return;
    if (this.carry.length + rest.length > this.maxLineChars) {
      this.hugeHead = (this.carry + rest).slice(0, 64 * 1024);
      this.carry = '';
    } else this.carry += rest;
  }

  /** The end of the input: a last line without its newline is read if it parses (a torn one is counted, not kept). */
  end(): void {
    if (this.hugeHead !== undefined) this.endHuge();
    else if (this.carry.trim()) this.line(this.carry);
    this.carry = '';
  }

  private endHuge(): void {
    const head = this.hugeHead ?? '';
    const stub = stubOfHugeLine(head);
    this.hugeHead = undefined;
    if (stub) this.onEvent(stub, head.length);
    else this.skip('a line too long to read');
  }

  private line(text: string): void {
    if (!text.trim()) return;
    const parsed = parseAuditLine(text);
    if ('event' in parsed) this.onEvent(parsed.event, text.length);
    else this.skip(parsed.skipped);
  }

  private skip(why: string): void {
    this.skipped++;
    this.lastSkip = why;
  }
}

/** The proxy's answer to `/proxy/audit?context=…&id=…`. */
export interface AuditAnswer {
  /** `log`: the local control plane's audit log is followed; `none`: this context has none (see `reason`). */
  source: 'log' | 'none';
  reason?: string;
  /** Events by auditID, each list in stage order; an ID not (yet) seen is absent. */
  events: Record<string, AuditEvent[]>;
}

/** The proxy path of the audit route (long poll: `after` = events already held, `wait` = ms to wait for more). */
export const AUDIT_ROUTE = '/proxy/audit';

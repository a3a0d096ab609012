// The lesson kit: a lesson is data (id, title, a few paragraphs, steps), and one component runs
// any of them. A step sends real requests through kubeFetch, keeps each exchange exactly as sent
// and received, and checks the answer against what the lesson says: a lesson that the server
// contradicts shows it, step by step, instead of teaching it.
import { decodeCbor } from '../../codecs/cbor';
import { decodeK8sEnvelope } from '../../codecs/protobuf';
import { kubeFetch, sharedMux } from '../../k8s/client';
import { openWatch } from '../../k8s/watch';
import type { Route } from '../../routing';
import type { LessonExchange } from './exchange';
import { sleep } from '../../lib/sleep';

export interface KitExchange extends LessonExchange {
  /** Response headers the lesson may point at (lower-case names). */
  responseHeaders: Record<string, string>;
  /** Bytes of the response body as received by the page (after any transfer decoding). */
  bytes: number;
  /**
   * A watch the server refused: its answer is a Status, read by the watch client, which keeps the
   * Status and not its size (`bytes` counts watch events only, none here).
   */
  refusedWatch?: boolean;
  /** The `apiVersion` and `kind` a Protobuf (from its envelope) or CBOR answer carries, for checks on binary bodies. */
  binaryType?: { apiVersion: string; kind: string };
  /**
   * An earlier attempt of a request the step sent again (`retryUntil`): shown with the step, because
   * it was sent (and a create may have stored an object), but not what the step's check reads.
   */
  retried?: true;
  /** One of many alike (the 25 creates that fill a list): shown as one line with its status, the whole exchange one click away. */
  compact?: true;
}

export interface StepContext {
  context: string;
  /** The lesson's scratch namespace; empty for lessons that only read. */
  ns: string;
  /** Values a step leaves for later steps of the same lesson (a resourceVersion, a name). */
  memo: Record<string, string>;
  send(method: string, path: string, opts?: { body?: unknown; contentType?: string; accept?: string; headers?: Record<string, string> }): Promise<KitExchange>;
  /** The same request with the credentials of another context of this explorer (the local viewer, to show a 403). */
  sendAs(context: string, method: string, path: string, opts?: { body?: unknown; contentType?: string; accept?: string; headers?: Record<string, string> }): Promise<KitExchange>;
  /** Opens a watch, collects its events until `until` says so or `ms` pass, then closes it. */
  watch(path: string, opts?: { until?: (events: WatchSeen[]) => boolean; ms?: number; during?: () => Promise<void> }): Promise<KitExchange>;
}

export interface WatchSeen {
  type: string;
  name?: string;
  resourceVersion?: string;
  annotations?: Record<string, string>;
  code?: number;
  reason?: string;
  /** An ERROR event's Status message ("Too large resource version: …"). */
  message?: string;
}

export interface LessonStep {
  id: string;
  title: string;
  /** What the step does, in a sentence or two. `code` in backticks. */
  text: string;
  /** What to look for in the answer. */
  lookFor: string;
  run(c: StepContext): Promise<KitExchange[]>;
  /** What the server must have answered for the text to be true: a list of what differed (empty: as described). */
  check(xs: KitExchange[], c: StepContext): string[];
  /** The part of each response worth showing; the whole body folds out. */
  show?: (x: KitExchange) => unknown;
  /** Why the step cannot run here (read after earlier steps ran, from `memo`); undefined when it can. A blocked step is skipped by "Run all steps". */
  blocked?: (c: StepContext) => string | undefined;
  /** A link to the view where this request is everyday work, with the request filled in. */
  view?: (c: StepContext) => { label: string; to: Partial<Route> & { extra?: Record<string, string> } } | undefined;
}

/** A permission the lesson needs, asked with a SelfSubjectAccessReview before anything runs. */
export interface Needed {
  verb: string;
  group?: string;
  resource: string;
  subresource?: string;
  /** Asked in the scratch namespace when true. */
  namespaced?: boolean;
}

export interface KitLesson {
  id: string;
  /** Goes into the scratch namespace's name. */
  topic: string;
  title: string;
  paragraphs: string[];
  /** Reference data shown after the paragraphs (the migration table). */
  table?: { caption: string; columns: string[]; rows: string[][] };
  /** read: no writes, no namespace. namespace: writes only into its scratch namespace. cluster: also cluster-scoped objects, after confirmation. */
  scope: 'read' | 'namespace' | 'cluster';
  /** The first Kubernetes release whose server answers every step as described ("1.35"); absent: every release the explorer supports (1.33 on). */
  since?: string;
  /** For scope cluster: what will be created outside the namespace, said before asking. */
  clusterObjects?: string;
  needs: Needed[];
  steps: LessonStep[];
  /** Removes cluster-scoped objects (namespaced ones go with the namespace). */
  cleanup?: (c: StepContext) => Promise<KitExchange[]>;
}

/**
 * Sends `f` until `done` holds or `tries` run out, `ms` apart, and returns every attempt: a new
 * policy, binding or webhook reaches admission through an informer a moment after it is written, so
 * the first creates may pass (and store an object) before it is in effect. Every attempt is a
 * request the page must show; all but the last carry `retried`.
 */
export async function retryUntil(f: () => Promise<KitExchange>, done: (x: KitExchange) => boolean, tries = 60, ms = 500): Promise<KitExchange[]> {
  const out: KitExchange[] = [];
  for (let i = 0; ; i++) {
    const x = await f();
    out.push(x);
    if (done(x) || i + 1 >= tries) return out;
    // Marked in place: the exchange stays the one `send` returned (lessons.server.test.ts compares by identity).
    x.retried = true;
    await sleep(ms);
  }
}

/** Many alike requests (a fill): all returned, so the page shows every one, the first and the last whole, the rest as lines. */
export function alike(xs: KitExchange[]): KitExchange[] {
  xs.forEach((x, i) => {
    if (i > 0 && i < xs.length - 1) x.compact = true;
  });
  return xs;
}

/** A step's check, on its exchanges without the earlier attempts of a retried request (those are only shown). */
export function checkStep(s: LessonStep, xs: KitExchange[], c: StepContext): string[] {
  return s.check(
    xs.filter((x) => !x.retried),
    c,
  );
}

const TEXT_TYPES = /json|yaml|text/;

export async function kitSend(
  context: string,
  method: string,
  path: string,
  opts: { body?: unknown; contentType?: string; accept?: string; headers?: Record<string, string> } = {},
): Promise<KitExchange> {
  const headers: Record<string, string> = { Accept: opts.accept ?? 'application/json', ...opts.headers };
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body, null, 2);
    headers['Content-Type'] = opts.contentType ?? 'application/json';
  }
  const res = await kubeFetch({ context, method, path, headers, body });
  const buf = new Uint8Array(await res.arrayBuffer());
  const responseHeaders: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    responseHeaders[k] = v;
  });
  const type = responseHeaders['content-type'] ?? '';
  let response: unknown;
  if (buf.length === 0) response = '';
  else if (TEXT_TYPES.test(type) || type === '') {
    const text = new TextDecoder().decode(buf);
    response = text;
    if (type.includes('json')) {
      try {
        response = JSON.parse(text);
      } catch {
        // Not JSON after all: keep the text.
      }
    }
  } else {
    response = binaryPreview(buf);
  }
  const binaryType = typeOfBinary(type, buf);
  return { method, path, headers, body, status: res.status, response, context, responseHeaders, bytes: buf.length, ...(binaryType ? { binaryType } : {}) };
}

/** apiVersion and kind of a Protobuf or CBOR body; undefined for other types or a body that does not decode. */
function typeOfBinary(type: string, buf: Uint8Array): { apiVersion: string; kind: string } | undefined {
  if (type.startsWith('application/vnd.kubernetes.protobuf')) {
    const env = decodeK8sEnvelope(buf);
    return env.ok ? { apiVersion: env.value.apiVersion, kind: env.value.kind } : undefined;
  }
  if (type.startsWith('application/cbor')) {
    const d = decodeCbor(buf);
    const v = d.ok ? (d.value as { apiVersion?: unknown; kind?: unknown } | null) : null;
    return v && typeof v === 'object' ? { apiVersion: String(v.apiVersion ?? ''), kind: String(v.kind ?? '') } : undefined;
  }
  return undefined;
}

/** A binary body as text: its size and the first bytes in hex, printable ones shown. */
export function binaryPreview(buf: Uint8Array, n = 48): string {
  const head = Array.from(buf.slice(0, n), (b) => b.toString(16).padStart(2, '0')).join(' ');
  const printable = Array.from(buf.slice(0, n), (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
  return `(${buf.length} bytes, binary)\n${head}\n${printable}`;
}

export async function kitWatch(
  context: string,
  path: string,
  opts: { until?: (events: WatchSeen[]) => boolean; ms?: number; during?: () => Promise<void> } = {},
): Promise<KitExchange> {
  const headers = { Accept: 'application/json' };
  const seen: WatchSeen[] = [];
  let status = 200;
  let response: unknown = seen;
  let responseHeaders: Record<string, string> = {};
  let bytes = 0;
  let refusedWatch = false;
  try {
    const w = await openWatch({ mux: sharedMux(), context, path, headers });
    responseHeaders = w.headers;
    const timer = setTimeout(() => w.close(), opts.ms ?? 8000);
    const during = opts.during;
    let started = false;
    try {
      const it = w.events[Symbol.asyncIterator]();
      // The writes of `during` happen once the watch is open, so that their events arrive on it.
      if (during && !started) {
        started = true;
        void during();
      }
      for (;;) {
        const r = await it.next();
        if (r.done) break;
        const e = r.value;
        bytes += e.size;
        const o = e.object as { metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> }; code?: number; reason?: string; message?: string };
        seen.push({
          type: e.type,
          name: o.metadata?.name,
          resourceVersion: o.metadata?.resourceVersion,
          ...(e.type === 'BOOKMARK' && o.metadata?.annotations ? { annotations: o.metadata.annotations } : {}),
          ...(e.type === 'ERROR' ? { code: o.code, reason: o.reason, message: o.message } : {}),
        });
        if (opts.until?.(seen)) break;
      }
    } finally {
      clearTimeout(timer);
      w.close();
    }
  } catch (e) {
    const s = (e as { status?: unknown; httpStatus?: number }).status;
    if (typeof s === 'object' && s !== null) {
      status = (e as { httpStatus: number }).httpStatus;
      response = s;
      refusedWatch = true;
    } else throw e;
  }
  return { method: 'GET', path, headers, status, response, context, responseHeaders, bytes, ...(refusedWatch ? { refusedWatch } : {}) };
}

// --- progress, kept in this browser ---

const PROGRESS_KEY = 'kube-api-explorer.lessons.progress';

export function loadProgress(): Record<string, string[]> {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(PROGRESS_KEY) ?? '{}');
    return typeof v === 'object' && v !== null ? (v as Record<string, string[]>) : {};
  } catch {
    return {};
  }
}

export function markDone(lesson: string, step: string): Record<string, string[]> {
  const p = loadProgress();
  const done = new Set(p[lesson] ?? []);
  done.add(step);
  p[lesson] = [...done];
  try {
    localStorage.setItem(PROGRESS_KEY, JSON.stringify(p));
  } catch {
    // Storage full or disabled: progress is a convenience, the lesson works without it.
  }
  window.dispatchEvent(new Event('lessons-progress'));
  return p;
}

// --- small readers for checks ---

export function field(v: unknown, ...path: (string | number)[]): unknown {
  let cur = v;
  for (const k of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  return cur;
}

/** Collects what differs: `want(cond, what)` records `what` when cond is false. */
export function expectations(): { want: (cond: boolean, what: string) => void; result: string[] } {
  const result: string[] = [];
  return { want: (cond, what) => void (cond || result.push(what)), result };
}

export const label = (topic: string) => ({ 'explorer.lessons/lesson': topic });

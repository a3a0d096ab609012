// "What this server really serves", per resource: the checks, the request each one sends, and
// how each answer is read. Pure: the requests are planned here and the answers classified here;
// probe.ts sends them. A 401/403 tells nothing about a feature (RBAC answers before the request
// is looked at), so it gives `unknown`, never `no`.
import { baseType, mediaParams } from '../../codecs/mediaTypes';
import { apiVersionOf, resourcePath } from '../paths';
import type { StoreCheck } from './writes';

export const CHECKS = [
  'list',
  'table',
  'protobuf',
  'cbor',
  'metadata',
  'metadataWatch',
  'labelSelector',
  'fieldSelector',
  'chunking',
  'expiredContinue',
  'watch',
  'bookmarks',
  'compactedWatch',
  'streamingList',
  'dryRun',
  'apply',
] as const;
export type Check = (typeof CHECKS)[number];

/** Column titles, as the matrix and the CSV name them. */
export const CHECK_LABELS: Record<Check, string> = {
  list: 'List',
  table: 'Table',
  protobuf: 'Protobuf',
  cbor: 'CBOR',
  metadata: 'Metadata only',
  metadataWatch: 'Metadata-only watch',
  labelSelector: 'Label selector',
  fieldSelector: 'Field selector',
  chunking: 'Chunking (continue)',
  expiredContinue: 'Expired continue (410)',
  watch: 'Watch',
  bookmarks: 'Bookmarks',
  compactedWatch: 'Compacted watch (410)',
  streamingList: 'Streaming list',
  dryRun: 'Dry-run',
  apply: 'Server-side apply',
};

/** Checks that write (with dryRun=All: the server stores nothing), sent only when the user opts in. */
export const WRITE_CHECKS: readonly Check[] = ['dryRun', 'apply'];

export type Verdict = 'yes' | 'no' | 'unknown' | 'skipped';

export interface ProbeRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  accept: string;
  contentType?: string;
  body?: string;
}

export interface Cell {
  verdict: Verdict;
  /** What was learned, in one sentence. */
  detail: string;
  request?: ProbeRequest;
  httpStatus?: number;
}

export interface Target {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  /** Subresources discovery lists (`status`, `scale`), for the checks that store (writes.ts). */
  subresources?: string[];
}

export interface Row {
  target: Target;
  /** The collection probed (in `namespace` for a namespaced resource). */
  collection: string;
  cells: Record<Check, Cell>;
  /** The checks that store something (writes.ts), when the command line's --writes sent them. */
  stored?: Record<StoreCheck, Cell>;
}

export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io';
export const METADATA_ACCEPT = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
/** One object, or each watch event's object, as a PartialObjectMetadata (what client-go's metadata informers ask for). */
export const METADATA_OBJECT_ACCEPT = 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io';
/** How long a probe watch may run (timeoutSeconds): those read to their first event. */
export const WATCH_SECONDS = 4;
/**
 * Bookmarks come at the server's cadence: kube-apiserver's watch cache sends one to a watch that
 * allowed them about every minute, when the resource's resourceVersion moved since the watch
 * began (seen on 1.37: 60 s after the watch opened, after a change; none on a quiet resource).
 * The bookmark check waits that long, so only the command line's `check` sends it, all resources at once.
 */
export const BOOKMARK_WAIT_SECONDS = 65;
/**
 * A resourceVersion every long-running etcd has compacted away: kube-apiserver compacts every
 * 5 minutes by default (--etcd-compaction-interval), and its watch cache keeps only a recent window.
 */
export const COMPACTED_RV = '1';
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';
export const CBOR = 'application/cbor';
/** A label no object carries: the selector is parsed and applied, and the answer stays small. */
export const NO_MATCH_LABEL = 'kube-api-explorer-probe=none';
/** A name no object has: dry-run writes name it, and the field selector matches nothing. */
export const PROBE_NAME = 'kube-api-explorer-serving-probe';
export const PROBE_FIELD_MANAGER = 'kube-api-explorer-probe';
/** The annotation on the bookmark that ends a streaming list's initial events (KEP-3157). */
export const INITIAL_EVENTS_END = 'k8s.io/initial-events-end';

export function collectionOf(t: Target, namespace: string): string {
  return resourcePath({ group: t.group, version: t.version, resource: t.resource, namespace: t.namespaced ? namespace : undefined });
}

const q = (path: string, query: string) => `${path}?${query}`;

/** The request each read check sends: one GET with limit=1 (or a label that matches nothing). */
export function readRequest(check: Exclude<Check, 'chunking' | 'expiredContinue' | 'dryRun' | 'apply'>, collection: string, listRV?: string, waitSeconds = BOOKMARK_WAIT_SECONDS): ProbeRequest {
  const get = (path: string, accept = 'application/json'): ProbeRequest => ({ method: 'GET', path, accept });
  switch (check) {
    case 'list':
      return get(q(collection, 'limit=1'));
    case 'table':
      return get(q(collection, 'limit=1&includeObject=None'), TABLE_ACCEPT);
    case 'protobuf':
      return get(q(collection, 'limit=1'), PROTOBUF);
    case 'cbor':
      return get(q(collection, 'limit=1'), CBOR);
    case 'metadata':
      return get(q(collection, 'limit=1'), METADATA_ACCEPT);
    case 'metadataWatch':
      // resourceVersion=0: the watch starts with an ADDED event per object (or, on an empty
      // collection, the bookmark before its timeout): the first event's object shows the form.
      return get(q(collection, `watch=1&resourceVersion=0&allowWatchBookmarks=true&timeoutSeconds=${WATCH_SECONDS}`), METADATA_OBJECT_ACCEPT);
    case 'labelSelector':
      return get(q(collection, `limit=1&labelSelector=${encodeURIComponent(NO_MATCH_LABEL)}`));
    case 'fieldSelector':
      return get(q(collection, `limit=1&fieldSelector=${encodeURIComponent(`metadata.name=${PROBE_NAME}`)}`));
    case 'watch':
      // From the list's resourceVersion, with bookmarks asked for; only the response's head is read.
      return get(q(collection, `watch=1&allowWatchBookmarks=true&timeoutSeconds=${WATCH_SECONDS}${listRV ? `&resourceVersion=${encodeURIComponent(listRV)}` : ''}`));
    case 'bookmarks':
      // The same watch, kept open until the server's first periodic bookmark.
      return get(q(collection, `watch=1&allowWatchBookmarks=true&timeoutSeconds=${waitSeconds + 10}${listRV ? `&resourceVersion=${encodeURIComponent(listRV)}` : ''}`));
    case 'compactedWatch':
      // What a reflector meets when it resumes after a long disconnect: 410 Gone, as the HTTP
      // status or as the stream's first event (an ERROR whose Status has code 410), then it relists.
      return get(q(collection, `watch=1&allowWatchBookmarks=true&timeoutSeconds=${WATCH_SECONDS}&resourceVersion=${COMPACTED_RV}`));
    case 'streamingList':
      // KEP-3157's streaming list, as client-go's reflector asks it (resourceVersion empty: the
      // most recent state), over a label no object carries: the initial events are none, and the
      // end bookmark should follow at once.
      return get(q(collection, `watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=&timeoutSeconds=5&labelSelector=${encodeURIComponent(NO_MATCH_LABEL)}`));
  }
}

export function chunkRequest(collection: string, continueToken: string): ProbeRequest {
  return { method: 'GET', path: q(collection, `limit=1&continue=${encodeURIComponent(continueToken)}`), accept: 'application/json' };
}

const base64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * A continue token as kube-apiserver writes one (apiserver/pkg/storage/continue.go: base64url of
 * {"v":"meta.k8s.io/v1","rv":N,"start":KEY}), from the server's own token when the chunking check
 * got one, with the resourceVersion set to one long compacted: the server must answer 410
 * Expired, which client-go's pager meets as a list that took too long and starts again.
 */
export function expiredContinueToken(token: string | undefined): string {
  let start = `${PROBE_NAME}\u0000`;
  if (token) {
    try {
      const decoded = JSON.parse(atob(token.replace(/-/g, '+').replace(/_/g, '/'))) as { start?: unknown };
      if (typeof decoded.start === 'string' && decoded.start) start = decoded.start;
    } catch {
      // Not kube-apiserver's format: the synthetic start key is as good.
    }
  }
  return base64url(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(COMPACTED_RV), start }));
}

/** The smallest object of the resource: enough for the server to route, decode and admit it, never stored (dryRun=All). */
function probeObject(t: Target, namespace: string): string {
  const metadata: Record<string, string> = { name: PROBE_NAME };
  if (t.namespaced) metadata.namespace = namespace;
  return JSON.stringify({ apiVersion: apiVersionOf(t.group, t.version), kind: t.kind, metadata });
}

export function writeRequest(check: 'dryRun' | 'apply', t: Target, namespace: string): ProbeRequest {
  const collection = collectionOf(t, namespace);
  if (check === 'dryRun') return { method: 'POST', path: q(collection, 'dryRun=All'), accept: 'application/json', contentType: 'application/json', body: probeObject(t, namespace) };
  // An apply body may be JSON (YAML's subset).
  return {
    method: 'PATCH',
    path: q(`${collection}/${PROBE_NAME}`, `dryRun=All&fieldManager=${PROBE_FIELD_MANAGER}`),
    accept: 'application/json',
    contentType: 'application/apply-patch+yaml',
    body: probeObject(t, namespace),
  };
}

export interface Answer {
  status: number;
  contentType?: string;
  /** The Status message, when the answer was a Status. */
  message?: string;
  /** The body's kind, for the Table and metadata-only checks (kube-apiserver labels both plain application/json). */
  kind?: string;
}

function notAllowed(a: Answer, what: string): Cell | undefined {
  if (a.status === 401 || a.status === 403) return { verdict: 'unknown', detail: `could not tell: ${a.status} ${a.status === 403 ? 'Forbidden' : 'Unauthorized'} (the user may not ${what})`, httpStatus: a.status };
  if (a.status >= 500 || a.status === 0) return { verdict: 'unknown', detail: `could not tell: the server answered ${a.status || 'nothing'}${a.message ? ` (${a.message})` : ''}`, httpStatus: a.status };
  return undefined;
}

/** An Accept check: served when the answer comes in the asked representation; 406 is the refusal. */
export function classifyAccept(check: 'table' | 'protobuf' | 'cbor' | 'metadata', a: Answer): Cell {
  const pre = notAllowed(a, 'list it');
  if (pre) return pre;
  const label = CHECK_LABELS[check];
  if (a.status === 406) return { verdict: 'no', detail: `${label} refused: 406 NotAcceptable${a.message ? ` (${a.message})` : ''}`, httpStatus: 406 };
  if (a.status !== 200) return { verdict: 'unknown', detail: `could not tell: ${a.status}${a.message ? ` ${a.message}` : ''}`, httpStatus: a.status };
  const base = baseType(a.contentType);
  const as = mediaParams(a.contentType).as;
  // Table and metadata-only answers come as application/json; the body's kind (or an `as`
  // parameter, where a server sets one) tells what was served.
  // Metadata only: a PartialObjectMetadataList for a list, a PartialObjectMetadata for one object.
  const wanted = check === 'table' ? ['Table'] : ['PartialObjectMetadataList', 'PartialObjectMetadata'];
  const ok = check === 'protobuf' ? base === PROTOBUF : check === 'cbor' ? base === CBOR : wanted.includes(a.kind ?? '') || wanted.includes(as ?? '');
  const got = check === 'table' || check === 'metadata' ? `a ${a.kind ?? 'body without a kind'} (${a.contentType ?? 'no Content-Type'})` : a.contentType || 'without a Content-Type';
  return ok ? { verdict: 'yes', detail: `${label} served: ${got}`, httpStatus: 200 } : { verdict: 'no', detail: `${label} not served: the server answered ${got}`, httpStatus: 200 };
}

/**
 * A Protobuf or CBOR list served while the collection is empty says only that the list kind
 * encodes: whether the objects do is a property of their type, and an aggregated server may have
 * no Protobuf for it (wardle's Flunders: an empty FlunderList comes as Protobuf, the same list with
 * one Flunder is refused with 406). Such a verdict cannot be "served"; a refusal stays one.
 */
export function withoutObjects(check: 'protobuf' | 'cbor', cell: Cell, items: number | undefined): Cell {
  if (cell.verdict !== 'yes' || items !== 0) return cell;
  return { ...cell, verdict: 'unknown', detail: `${CHECK_LABELS[check]} of the empty collection only: the list encodes, but with no object in it nothing says whether one would (an aggregated server may refuse it with 406); ask again with an object in it` };
}

/** A plain read (list, selectors): 200 is served, 400 is the parameter refused. */
export function classifyRead(check: 'list' | 'labelSelector' | 'fieldSelector', a: Answer): Cell {
  const pre = notAllowed(a, 'list it');
  if (pre) return pre;
  const label = CHECK_LABELS[check];
  if (a.status === 200) return { verdict: 'yes', detail: check === 'list' ? 'listed (limit=1)' : `${label} accepted`, httpStatus: 200 };
  if (a.status === 405) return { verdict: 'no', detail: `${label}: 405 MethodNotAllowed`, httpStatus: 405 };
  return { verdict: 'no', detail: `${label} refused: ${a.status}${a.message ? ` (${a.message})` : ''}`, httpStatus: a.status };
}

export interface ListPage {
  items: number;
  continueToken?: string;
  remainingItemCount?: number;
  resourceVersion?: string;
}

/** Chunking, told from the first page of limit=1 and the answer to its continue token. */
export function classifyChunking(first: ListPage, next?: Answer): Cell {
  if (first.items > 1) return { verdict: 'no', detail: `limit ignored: ${first.items} items came for limit=1` };
  if (!first.continueToken) return { verdict: 'unknown', detail: first.items === 0 ? 'could not tell: the collection is empty' : 'could not tell: one object only, no continue token to follow' };
  if (!next) return { verdict: 'unknown', detail: 'could not tell: the continue token was not followed' };
  const pre = notAllowed(next, 'list it');
  if (pre) return pre;
  if (next.status === 200) return { verdict: 'yes', detail: `limit=1 gave a continue token${first.remainingItemCount !== undefined ? ` (remainingItemCount ${first.remainingItemCount})` : ''}, and following it answered 200` };
  if (next.status === 410) return { verdict: 'unknown', detail: 'could not tell: the continue token expired (410 Gone) before it was followed' };
  return { verdict: 'no', detail: `following the continue token answered ${next.status}${next.message ? ` (${next.message})` : ''}` };
}

/** A watch: served when the server answers the head with 200. */
export function classifyWatch(a: Answer): Cell {
  const pre = notAllowed(a, 'watch it');
  if (pre) return pre;
  if (a.status === 200) return { verdict: 'yes', detail: 'watch opened from the list’s resourceVersion with allowWatchBookmarks=true', httpStatus: 200 };
  return { verdict: 'no', detail: `watch refused: ${a.status}${a.message ? ` (${a.message})` : ''}`, httpStatus: a.status };
}

export interface StreamEvent {
  type: string;
  /** The event object's kind (a Status for an ERROR event). */
  kind?: string;
  annotations?: Record<string, string>;
  resourceVersion?: string;
  /** An ERROR event's Status: its code, reason and message. */
  code?: number;
  reason?: string;
  message?: string;
}

/** How a probe's stream stopped: at the event it waited for, at the server's end, or by our clock. */
export type StreamEnding = 'found' | 'end' | 'timeout';

/**
 * What client-go's reflector does with a streaming list that never ends its initial events
 * (kubernetes/kubernetes#140890): a stream that ran and ended without the bookmark is retried as
 * a streaming list again, not fallen back to list-then-watch, so the informer never syncs.
 */
export const NO_BOOKMARK_CLIENT_GO =
  'client-go’s reflector (WatchListClient) waits for this bookmark; when the stream ends without it, it opens another streaming list instead of falling back to list, then watch, so an informer never syncs (kubernetes/kubernetes#140890)';

/** A streaming list: served when the events end with the initial-events-end bookmark. */
export function classifyStream(a: Answer, events: StreamEvent[], ended: StreamEnding): Cell {
  const pre = notAllowed(a, 'watch it');
  if (pre) return pre;
  if (a.status === 422 || a.status === 400)
    return { verdict: 'no', detail: `streaming list refused: ${a.status}${a.message ? ` (${a.message})` : ''}; client-go falls back to list, then watch`, httpStatus: a.status };
  if (a.status !== 200) return { verdict: 'no', detail: `streaming list answered ${a.status}${a.message ? ` (${a.message})` : ''}`, httpStatus: a.status };
  const end = events.find((e) => e.type === 'BOOKMARK' && e.annotations?.[INITIAL_EVENTS_END] === 'true');
  if (end) return { verdict: 'yes', detail: `initial events ended with the bookmark (${INITIAL_EVENTS_END}: "true") at resourceVersion ${end.resourceVersion ?? '(none)'}`, httpStatus: 200 };
  const bookmarks = events.filter((e) => e.type === 'BOOKMARK').length;
  return {
    verdict: 'no',
    detail: `accepted (200), but the stream ${ended === 'timeout' ? 'ran on' : 'ended'} after ${events.length} events${bookmarks ? ` and ${bookmarks} bookmarks` : ''} without the ${INITIAL_EVENTS_END} bookmark: ${NO_BOOKMARK_CLIENT_GO}`,
    httpStatus: 200,
  };
}

/** A metadata-only watch: served when the first event's object is a PartialObjectMetadata. */
export function classifyMetadataWatch(a: Answer, events: StreamEvent[]): Cell {
  const pre = notAllowed(a, 'watch it');
  if (pre) return pre;
  if (a.status === 406) return { verdict: 'no', detail: `metadata-only watch refused: 406 NotAcceptable${a.message ? ` (${a.message})` : ''}`, httpStatus: 406 };
  if (a.status !== 200) return { verdict: 'no', detail: `metadata-only watch answered ${a.status}${a.message ? ` (${a.message})` : ''}`, httpStatus: a.status };
  const first = events[0];
  if (!first) return { verdict: 'unknown', detail: `could not tell: the watch sent no event in ${WATCH_SECONDS} s (no objects, and no bookmark)`, httpStatus: 200 };
  if (first.type === 'ERROR') return { verdict: 'no', detail: `the watch's first event was an ERROR: ${first.code ?? ''} ${first.message ?? ''}`.trim(), httpStatus: 200 };
  return first.kind === 'PartialObjectMetadata'
    ? { verdict: 'yes', detail: `the first event (${first.type}) carried a PartialObjectMetadata`, httpStatus: 200 }
    : { verdict: 'no', detail: `the first event (${first.type}) carried a ${first.kind ?? 'body without a kind'}, not a PartialObjectMetadata: a metadata informer cannot decode it`, httpStatus: 200 };
}

/** An expired continue token: kube-apiserver answers 410 Expired, and a pager starts its list again. */
export function classifyExpiredContinue(a: Answer): Cell {
  const pre = notAllowed(a, 'list it');
  if (pre) return pre;
  if (a.status === 410) return { verdict: 'yes', detail: `410 Gone${a.message ? ` (${a.message})` : ''}`, httpStatus: 410 };
  if (a.status === 200) return { verdict: 'unknown', detail: `could not tell: resourceVersion ${COMPACTED_RV} is not compacted on this server yet (it served the page)`, httpStatus: 200 };
  return { verdict: 'no', detail: `answered ${a.status}${a.message ? ` (${a.message})` : ''}, not 410 Gone: client-go's pager starts a list again only on 410 Expired`, httpStatus: a.status };
}

/** Bookmarks on a watch that allowed them: one (not the initial-events-end one) within the server's cadence. */
export function classifyBookmarks(a: Answer, events: StreamEvent[], ended: StreamEnding, waitSeconds = BOOKMARK_WAIT_SECONDS): Cell {
  const pre = notAllowed(a, 'watch it');
  if (pre) return pre;
  if (a.status !== 200) return skipped('the watch was not opened');
  const bookmark = events.find((e) => e.type === 'BOOKMARK' && e.annotations?.[INITIAL_EVENTS_END] !== 'true');
  if (bookmark) return { verdict: 'yes', detail: `a bookmark came within ${waitSeconds} s (resourceVersion ${bookmark.resourceVersion ?? '(none)'})`, httpStatus: 200 };
  // A quiet resource owes no bookmark: kube-apiserver sends one only when it has a newer
  // resourceVersion to tell.
  return {
    verdict: 'unknown',
    detail: `could not tell: no bookmark ${ended === 'timeout' ? `in ${waitSeconds} s` : 'before the watch ended'} (after ${events.length} events); kube-apiserver sends one about every minute, and only when the resource changed since the watch began`,
    httpStatus: 200,
  };
}

/** A watch from a compacted resourceVersion: 410, as the status or as the first event, tells a reflector to relist. */
export function classifyCompactedWatch(a: Answer, events: StreamEvent[]): Cell {
  const pre = notAllowed(a, 'watch it');
  if (pre) return pre;
  if (a.status === 410) return { verdict: 'yes', detail: `410 Gone${a.message ? ` (${a.message})` : ''}`, httpStatus: 410 };
  if (a.status !== 200) return { verdict: 'no', detail: `answered ${a.status}${a.message ? ` (${a.message})` : ''}, not 410 Gone`, httpStatus: a.status };
  const first = events[0];
  if (first?.type === 'ERROR' && first.code === 410) return { verdict: 'yes', detail: `200, then an ERROR event with 410 ${first.reason ?? ''}${first.message ? ` (${first.message})` : ''}`, httpStatus: 200 };
  if (first?.type === 'ERROR') return { verdict: 'no', detail: `200, then an ERROR event with ${first.code ?? 'no code'}${first.message ? ` (${first.message})` : ''}, not 410: a reflector retries the watch instead of relisting`, httpStatus: 200 };
  if (!first) return { verdict: 'unknown', detail: `could not tell: the watch from resourceVersion ${COMPACTED_RV} sent nothing in ${WATCH_SECONDS} s`, httpStatus: 200 };
  // kube-apiserver 1.37 was seen to answer so, with etcd compacted, for a resourceVersion older
  // than its watch cache's window: the current objects, as a watch from resourceVersion 0 sends them.
  return {
    verdict: 'unknown',
    detail: `could not tell: the server answered 200 and sent ${events.filter((e) => e.type === first.type).length > 1 ? `${first.type} events` : `an ${first.type} event`} (the objects as they are now, or history not compacted yet), not 410 Gone`,
    httpStatus: 200,
  };
}

/** A dry-run write (create, or apply): accepted when the server ran it and stored nothing. */
export function classifyWrite(check: 'dryRun' | 'apply', a: Answer): Cell {
  const pre = notAllowed(a, check === 'dryRun' ? 'create it' : 'patch it');
  if (pre) return pre;
  const label = CHECK_LABELS[check];
  if (a.status === 200 || a.status === 201) return { verdict: 'yes', detail: `${label} accepted (${a.status}, dryRun=All: nothing stored)`, httpStatus: a.status };
  // 422 and 409: the server decoded the body and ran admission and validation on it: the request
  // form is served, the minimal object is not a valid one.
  if (a.status === 422 || a.status === 409)
    return { verdict: 'yes', detail: `${label} served: the server validated the minimal object and refused it (${a.status}${a.message ? `: ${a.message}` : ''}); nothing stored`, httpStatus: a.status };
  if (a.status === 415) return { verdict: 'no', detail: `${label} refused: 415 UnsupportedMediaType${a.message ? ` (${a.message})` : ''}`, httpStatus: 415 };
  return { verdict: 'no', detail: `${label} refused: ${a.status}${a.message ? ` (${a.message})` : ''}`, httpStatus: a.status };
}

export const skipped = (detail: string): Cell => ({ verdict: 'skipped', detail });

/**
 * Why an informer (list, then watch; or a streaming list) on this resource would not work, from
 * the probes' answers. Only resources whose discovery lists both verbs are informer material: a
 * client cannot run an informer on one without watch (ComponentStatuses) or without list
 * (reviews, bindings), and client-go's generated informers exist only for those with both.
 */
export function informerProblems(row: Row): string[] {
  const v = row.target.verbs;
  if (!v.includes('list') || !v.includes('watch')) return [];
  const out: string[] = [];
  // What client-go's reflector does in each case (ListAndWatch): a failed list or watch is
  // retried after a backoff, for ever; the informer's HasSynced stays false until a list succeeds.
  if (row.cells.list.verdict === 'no') out.push(`list refused (${row.cells.list.detail}): ${NEVER_LISTS}`);
  if (row.cells.watch.verdict === 'no') out.push(`watch refused (${row.cells.watch.detail}): ${RELISTS}`);
  const s = row.cells.streamingList;
  if (s.verdict === 'no' && s.httpStatus === 200) out.push(`streaming list without the ${INITIAL_EVENTS_END} bookmark: ${NEVER_SYNCS}`);
  return out;
}

const NEVER_LISTS = 'the reflector retries the list after a backoff and the informer never syncs';
const RELISTS = 'the reflector lists, fails to watch, and lists again after each backoff, so it never follows changes';
const NEVER_SYNCS = 'the reflector opens another streaming list each time and the informer never syncs (kubernetes/kubernetes#140890)';

export function targetLabel(t: Target): string {
  return t.group ? `${t.resource}.${t.group}/${t.version}` : `${t.resource}/${t.version}`;
}

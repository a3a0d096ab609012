// "What this server really serves", per resource: the checks, the request each one sends, and
// how each answer is read. Pure: the requests are planned here and the answers classified here;
// probe.ts sends them. A 401/403 tells nothing about a feature (RBAC answers before the request
// is looked at), so it gives `unknown`, never `no`.
import { baseType, mediaParams } from '../../codecs/mediaTypes';
import { apiVersionOf, resourcePath } from '../paths';

export const CHECKS = ['list', 'table', 'protobuf', 'cbor', 'metadata', 'labelSelector', 'fieldSelector', 'chunking', 'watch', 'streamingList', 'dryRun', 'apply'] as const;
export type Check = (typeof CHECKS)[number];

/** Column titles, as the matrix and the CSV name them. */
export const CHECK_LABELS: Record<Check, string> = {
  list: 'List',
  table: 'Table',
  protobuf: 'Protobuf',
  cbor: 'CBOR',
  metadata: 'Metadata only',
  labelSelector: 'Label selector',
  fieldSelector: 'Field selector',
  chunking: 'Chunking (continue)',
  watch: 'Watch (bookmarks)',
  streamingList: 'Streaming list',
  dryRun: 'Dry-run',
  apply: 'Server-side apply',
};

/** Checks that write (with dryRun=All: the server stores nothing), sent only when the user opts in. */
export const WRITE_CHECKS: readonly Check[] = ['dryRun', 'apply'];

export type Verdict = 'yes' | 'no' | 'unknown' | 'skipped';

export interface ProbeRequest {
  method: 'GET' | 'POST' | 'PATCH';
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
}

export interface Row {
  target: Target;
  /** The collection probed (in `namespace` for a namespaced resource). */
  collection: string;
  cells: Record<Check, Cell>;
}

export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io';
export const METADATA_ACCEPT = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
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
export function readRequest(check: Exclude<Check, 'chunking' | 'dryRun' | 'apply'>, collection: string, listRV?: string): ProbeRequest {
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
    case 'labelSelector':
      return get(q(collection, `limit=1&labelSelector=${encodeURIComponent(NO_MATCH_LABEL)}`));
    case 'fieldSelector':
      return get(q(collection, `limit=1&fieldSelector=${encodeURIComponent(`metadata.name=${PROBE_NAME}`)}`));
    case 'watch':
      // From the list's resourceVersion, with bookmarks asked for; only the response's head is read.
      return get(q(collection, `watch=1&allowWatchBookmarks=true&timeoutSeconds=5${listRV ? `&resourceVersion=${encodeURIComponent(listRV)}` : ''}`));
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
  const wanted = check === 'table' ? 'Table' : 'PartialObjectMetadataList';
  const ok = check === 'protobuf' ? base === PROTOBUF : check === 'cbor' ? base === CBOR : a.kind === wanted || as === wanted;
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
  annotations?: Record<string, string>;
  resourceVersion?: string;
}

/**
 * What client-go's reflector does with a streaming list that never ends its initial events
 * (kubernetes/kubernetes#140890): a stream that ran and ended without the bookmark is retried as
 * a streaming list again, not fallen back to list-then-watch, so the informer never syncs.
 */
export const NO_BOOKMARK_CLIENT_GO =
  'client-go’s reflector (WatchListClient) waits for this bookmark; when the stream ends without it, it opens another streaming list instead of falling back to list, then watch, so an informer never syncs (kubernetes/kubernetes#140890)';

/** A streaming list: served when the events end with the initial-events-end bookmark. */
export function classifyStream(a: Answer, events: StreamEvent[], ended: 'bookmark' | 'end' | 'timeout'): Cell {
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
 * discovery's verbs and the probes' answers. Resources with neither list nor watch (reviews,
 * bindings) are not informer material and name nothing.
 */
export function informerProblems(row: Row): string[] {
  const v = row.target.verbs;
  if (!v.includes('list') && !v.includes('watch')) return [];
  const out: string[] = [];
  if (!v.includes('list')) out.push('no list verb');
  else if (row.cells.list.verdict === 'no') out.push(`list refused (${row.cells.list.detail})`);
  if (!v.includes('watch')) out.push('no watch verb');
  else if (row.cells.watch.verdict === 'no') out.push(`watch refused (${row.cells.watch.detail})`);
  const s = row.cells.streamingList;
  if (s.verdict === 'no' && s.httpStatus === 200) out.push(`streaming list without the ${INITIAL_EVENTS_END} bookmark`);
  return out;
}

export function targetLabel(t: Target): string {
  return t.group ? `${t.resource}.${t.group}/${t.version}` : `${t.resource}/${t.version}`;
}

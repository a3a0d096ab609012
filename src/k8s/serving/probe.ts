// Sends the serving checks of matrix.ts for one resource and classifies the answers. Reads are
// one GET each (limit=1, or a label that matches nothing; watches are read to their first
// bookmark or event, streaming lists to the end bookmark, at most a few seconds); the two writes
// are sent only when the caller opts in, always with dryRun=All (the command line's --writes
// adds the checks that store, writes.ts, in a scratch namespace). Resources are probed a few at a time, so that a
// cluster's hundred resources do not take every connection the page has.
import { queryOptions } from '@tanstack/react-query';
import { baseType } from '../../codecs/mediaTypes';
import { NdjsonFramer } from '../../codecs/ndjson';
import { decodeK8sProtobuf, fieldAt, fieldText } from '../../codecs/protobuf/fields';
import { errorFromResponse, kubeFetch } from '../client';
import {
  type Answer,
  type Cell,
  type Check,
  CHECKS,
  chunkRequest,
  classifyAccept,
  classifyChunking,
  classifyRead,
  classifyStream,
  classifyBookmarks,
  classifyCompactedWatch,
  classifyExpiredContinue,
  classifyMetadataWatch,
  classifyWatch,
  classifyWrite,
  BOOKMARK_WAIT_SECONDS,
  collectionOf,
  expiredContinueToken,
  INITIAL_EVENTS_END,
  type ListPage,
  METADATA_OBJECT_ACCEPT,
  type ProbeRequest,
  PROTOBUF,
  readRequest,
  type Row,
  skipped,
  type StreamEnding,
  type StreamEvent,
  type Target,
  withoutObjects,
  writeRequest,
} from './matrix';
import { type Send, storeChecks, storeSkipped } from './writes';

/** How long a probe's watch may run before we stop reading (the requests ask timeoutSeconds=WATCH_SECONDS). */
const STREAM_WAIT_MS = 8000;

interface Sent {
  answer: Answer;
  res?: Response;
}

async function send(context: string, r: ProbeRequest, signal?: AbortSignal): Promise<Sent> {
  try {
    const res = await kubeFetch({ context, method: r.method, path: r.path, headers: { Accept: r.accept, ...(r.contentType ? { 'Content-Type': r.contentType } : {}) }, body: r.body, signal });
    const contentType = res.headers.get('Content-Type') ?? undefined;
    if (res.ok) return { answer: { status: res.status, contentType }, res };
    // A server asked for Protobuf may answer its Status in Protobuf too (sample-apiserver's 406 does).
    if (baseType(contentType) === PROTOBUF) return { answer: { status: res.status, contentType, message: protobufStatusMessage(new Uint8Array(await res.arrayBuffer())) } };
    const err = await errorFromResponse(res);
    return { answer: { status: res.status, contentType, message: err.status.message } };
  } catch (e) {
    if (signal?.aborted) throw e;
    return { answer: { status: 0, message: e instanceof Error ? e.message : String(e) } };
  }
}

/** metav1.Status's message (field 3) from a Protobuf body, or why it could not be read. */
function protobufStatusMessage(bytes: Uint8Array): string {
  const decoded = decodeK8sProtobuf(bytes);
  if (!decoded.ok) return `a Protobuf body that is not a Kubernetes object (${decoded.error})`;
  return fieldText(fieldAt(decoded.value.fields, [3])) ?? `a Protobuf ${decoded.value.envelope.kind || 'body'} without a message`;
}

const drop = (res?: Response) => res?.body?.cancel().catch(() => undefined);

async function readCheck(context: string, check: 'list' | 'table' | 'protobuf' | 'cbor' | 'metadata' | 'labelSelector' | 'fieldSelector', collection: string, signal?: AbortSignal): Promise<Cell> {
  const request = readRequest(check, collection);
  const { answer, res } = await send(context, request, signal);
  if (res && (check === 'table' || check === 'metadata')) answer.kind = ((await res.json().catch(() => ({}))) as { kind?: string }).kind;
  else await drop(res);
  const cell = check === 'list' || check === 'labelSelector' || check === 'fieldSelector' ? classifyRead(check, answer) : classifyAccept(check, answer);
  return { ...cell, request };
}

interface FirstPage {
  list: Cell;
  chunking: Cell;
  rv?: string;
  continueToken?: string;
  /** A name from the first page, for the metadata-only GET of one object. */
  name?: string;
  /** How many objects the first page held (when the list was served): a Protobuf or CBOR verdict on none says little. */
  items?: number;
}

async function listAndChunk(context: string, collection: string, signal?: AbortSignal): Promise<FirstPage> {
  const request = readRequest('list', collection);
  const { answer, res } = await send(context, request, signal);
  const list = { ...classifyRead('list', answer), request };
  if (!res) return { list, chunking: { ...skipped('the list was not answered'), request } };
  const body = (await res.json().catch(() => ({}))) as { items?: { metadata?: { name?: string } }[]; metadata?: { continue?: string; remainingItemCount?: number; resourceVersion?: string } };
  const page: ListPage = { items: body.items?.length ?? 0, continueToken: body.metadata?.continue || undefined, remainingItemCount: body.metadata?.remainingItemCount, resourceVersion: body.metadata?.resourceVersion };
  const known = { rv: page.resourceVersion, continueToken: page.continueToken, name: body.items?.[0]?.metadata?.name, items: list.verdict === 'yes' ? page.items : undefined };
  if (!page.continueToken || page.items > 1) return { list, chunking: { ...classifyChunking(page), request }, ...known };
  const next = chunkRequest(collection, page.continueToken);
  const second = await send(context, next, signal);
  await drop(second.res);
  return { list, chunking: { ...classifyChunking(page, second.answer), request: next }, ...known };
}

/** Metadata only, for a list and (when the list named one) for one object: both must come as metadata. */
async function metadataCheck(context: string, collection: string, name: string | undefined, signal?: AbortSignal): Promise<Cell> {
  const list = await readCheck(context, 'metadata', collection, signal);
  if (list.verdict !== 'yes' || !name) return list;
  const request: ProbeRequest = { method: 'GET', path: `${collection}/${encodeURIComponent(name)}`, accept: METADATA_OBJECT_ACCEPT };
  const { answer, res } = await send(context, request, signal);
  if (res) answer.kind = ((await res.json().catch(() => ({}))) as { kind?: string }).kind;
  const one = classifyAccept('metadata', answer);
  if (one.verdict === 'yes') return { ...list, detail: `${list.detail}; one object as a PartialObjectMetadata too` };
  return { ...one, detail: `the list came as metadata, but one object: ${one.detail}`, request };
}

interface Streamed {
  answer: Answer;
  events: StreamEvent[];
  ended: StreamEnding;
}

/**
 * Opens a watch and reads its events until `enough` says so, the stream ends, or the wait runs
 * out; a body that is not newline-delimited JSON (a Protobuf stream) is read as one without events.
 */
async function readStream(context: string, request: ProbeRequest, enough: (events: StreamEvent[]) => boolean, signal?: AbortSignal, waitMs = STREAM_WAIT_MS): Promise<Streamed> {
  const ctrl = new AbortController();
  const stop = () => ctrl.abort();
  signal?.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(stop, waitMs);
  const events: StreamEvent[] = [];
  try {
    const { answer, res } = await send(context, request, ctrl.signal);
    if (!res?.body) return { answer, events, ended: 'end' };
    const reader = res.body.getReader();
    const framer = new NdjsonFramer();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return { answer, events, ended: 'end' };
        for (const f of framer.push(value)) {
          const e = JSON.parse(f.text) as { type: string; object?: { kind?: string; code?: number; reason?: string; message?: string; metadata?: { annotations?: Record<string, string>; resourceVersion?: string } } };
          const o = e.object;
          events.push({ type: e.type, kind: o?.kind, annotations: o?.metadata?.annotations, resourceVersion: o?.metadata?.resourceVersion, code: o?.code, reason: o?.reason, message: o?.message });
        }
        if (enough(events)) return { answer, events, ended: 'found' };
      }
    } catch (e) {
      if (signal?.aborted) throw e;
      return { answer, events, ended: 'timeout' };
    }
  } finally {
    clearTimeout(timer);
    ctrl.abort();
    signal?.removeEventListener('abort', stop);
  }
}

const isEndBookmark = (e: StreamEvent) => e.type === 'BOOKMARK' && e.annotations?.[INITIAL_EVENTS_END] === 'true';

/** A watch's head: served or not; the body is not read. */
async function headOnly(context: string, request: ProbeRequest, signal?: AbortSignal): Promise<Answer> {
  const ctrl = new AbortController();
  const stop = () => ctrl.abort();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    return (await send(context, request, ctrl.signal)).answer;
  } finally {
    ctrl.abort();
    signal?.removeEventListener('abort', stop);
  }
}

/** The watch checks, at once: a watch's head, a compacted one, a streaming list and a metadata-only watch. */
async function watchChecks(context: string, collection: string, rv: string | undefined, signal?: AbortSignal): Promise<Pick<Record<Check, Cell>, 'watch' | 'compactedWatch' | 'streamingList' | 'metadataWatch'>> {
  const requests = { watch: readRequest('watch', collection, rv), compactedWatch: readRequest('compactedWatch', collection), streamingList: readRequest('streamingList', collection), metadataWatch: readRequest('metadataWatch', collection) };
  const [watch, compacted, stream, metadata] = await Promise.all([
    headOnly(context, requests.watch, signal),
    readStream(context, requests.compactedWatch, (ev) => ev.length > 0, signal),
    readStream(context, requests.streamingList, (ev) => ev.some(isEndBookmark), signal),
    readStream(context, requests.metadataWatch, (ev) => ev.length > 0, signal),
  ]);
  return {
    watch: { ...classifyWatch(watch), request: requests.watch },
    compactedWatch: { ...classifyCompactedWatch(compacted.answer, compacted.events), request: requests.compactedWatch },
    streamingList: { ...classifyStream(stream.answer, stream.events, stream.ended), request: requests.streamingList },
    metadataWatch: { ...classifyMetadataWatch(metadata.answer, metadata.events), request: requests.metadataWatch },
  };
}

/**
 * Bookmarks at the server's cadence: a watch from a fresh list's resourceVersion, read until a
 * periodic bookmark or BOOKMARK_WAIT_SECONDS. About a minute on kube-apiserver: the command
 * line's `check` runs it for every resource at once, the page does not wait for it.
 */
export async function bookmarkCheck(context: string, collection: string, waitSeconds = BOOKMARK_WAIT_SECONDS, signal?: AbortSignal): Promise<Cell> {
  const list = await send(context, readRequest('list', collection), signal);
  const rv = list.res ? ((await list.res.json().catch(() => ({}))) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion : undefined;
  const request = readRequest('bookmarks', collection, rv, waitSeconds);
  const watch = await readStream(context, request, (ev) => ev.some((e) => e.type === 'BOOKMARK' && !isEndBookmark(e)), signal, waitSeconds * 1000);
  return { ...classifyBookmarks(watch.answer, watch.events, watch.ended, waitSeconds), request };
}

async function expiredContinueCheck(context: string, collection: string, token: string | undefined, signal?: AbortSignal): Promise<Cell> {
  const request = chunkRequest(collection, expiredContinueToken(token));
  const { answer, res } = await send(context, request, signal);
  await drop(res);
  return { ...classifyExpiredContinue(answer), request };
}

async function writeCheck(context: string, check: 'dryRun' | 'apply', t: Target, namespace: string, signal?: AbortSignal): Promise<Cell> {
  const request = writeRequest(check, t, namespace);
  const { answer, res } = await send(context, request, signal);
  await drop(res);
  return { ...classifyWrite(check, answer), request };
}

export interface ProbeOptions {
  /** Send the dry-run create and apply (dryRun=All). Off unless the user opts in. */
  writes: boolean;
  /**
   * The command line's scratch namespace: the dry runs go there, and the checks that store
   * (writes.ts) are sent there too. The page never sets it.
   */
  writeNamespace?: string;
}

/** For writes.ts: a send whose answer carries the body (JSON) and its kind. */
const sendKeepingBody = (context: string, signal?: AbortSignal): Send => async (r) => {
  const { answer, res } = await send(context, r, signal);
  const body = res ? ((await res.json().catch(() => undefined)) as { kind?: string } | undefined) : undefined;
  return { answer: { ...answer, kind: body?.kind }, body };
};

/** Every check for one resource. */
export async function probeResource(context: string, t: Target, namespace: string, opts: ProbeOptions, signal?: AbortSignal): Promise<Row> {
  const collection = collectionOf(t, namespace);
  const cells = Object.fromEntries(CHECKS.map((c) => [c, skipped('not asked')])) as Record<Check, Cell>;
  const row: Row = { target: t, collection, cells };
  if (!t.verbs.includes('list')) {
    for (const c of CHECKS) cells[c] = skipped('discovery lists no list verb');
  } else {
    const first = await listAndChunk(context, collection, signal);
    cells.list = first.list;
    cells.chunking = first.chunking;
    const reads = ['table', 'protobuf', 'cbor', 'metadata', 'metadataWatch', 'labelSelector', 'fieldSelector', 'expiredContinue', 'watch', 'compactedWatch', 'streamingList'] as const;
    if (first.list.verdict === 'unknown' && (first.list.httpStatus === 403 || first.list.httpStatus === 401)) {
      // Forbidden: every other read would be forbidden too.
      for (const c of reads) cells[c] = skipped(`the list was forbidden (${first.list.httpStatus})`);
    } else {
      const [table, protobuf, cbor, labelSelector, fieldSelector, metadata, expiredContinue, watches] = await Promise.all([
        ...(['table', 'protobuf', 'cbor', 'labelSelector', 'fieldSelector'] as const).map((c) => readCheck(context, c, collection, signal)),
        metadataCheck(context, collection, first.name, signal),
        expiredContinueCheck(context, collection, first.continueToken, signal),
        t.verbs.includes('watch') ? watchChecks(context, collection, first.rv, signal) : undefined,
      ] as const);
      Object.assign(cells, { table, protobuf: withoutObjects('protobuf', protobuf as Cell, first.items), cbor: withoutObjects('cbor', cbor as Cell, first.items), labelSelector, fieldSelector, metadata, expiredContinue });
      if (watches) Object.assign(cells, watches);
      else for (const c of ['watch', 'compactedWatch', 'streamingList', 'metadataWatch'] as const) cells[c] = skipped('discovery lists no watch verb');
      cells.bookmarks = skipped(watches ? `not waited for: kube-apiserver sends one about every minute (the command line's check waits for it, unless --bookmark-wait 0)` : 'discovery lists no watch verb');
    }
  }
  if (!opts.writes) {
    cells.dryRun = skipped('writes not opted into');
    cells.apply = skipped('writes not opted into');
  } else {
    const ns = opts.writeNamespace ?? namespace;
    cells.dryRun = t.verbs.includes('create') ? await writeCheck(context, 'dryRun', t, ns, signal) : skipped('discovery lists no create verb');
    cells.apply = t.verbs.includes('patch') ? await writeCheck(context, 'apply', t, ns, signal) : skipped('discovery lists no patch verb');
    if (opts.writeNamespace) row.stored = storeSkipped(t, true) ?? (await storeChecks(sendKeepingBody(context, signal), t, opts.writeNamespace));
  }
  return row;
}

// A few resources at a time for the whole page (the browser keeps six connections per server).
const MAX_IN_FLIGHT = 3;
let inFlight = 0;
const waiting: (() => void)[] = [];

async function limited<T>(fn: () => Promise<T>): Promise<T> {
  if (inFlight >= MAX_IN_FLIGHT) await new Promise<void>((r) => waiting.push(r));
  inFlight++;
  try {
    return await fn();
  } finally {
    inFlight--;
    waiting.shift()?.();
  }
}

/** The key every row of a context starts with ("Ask again" drops them all). */
export const servingQueryPrefix = (context: string) => ['k8s', context, 'serving'] as const;

/** One resource's row, cached for the session (asked again only on request). */
export const servingRowQuery = (context: string, t: Target, namespace: string, opts: ProbeOptions) =>
  queryOptions({
    queryKey: [...servingQueryPrefix(context), t.group, t.version, t.resource, t.namespaced ? namespace : '', opts.writes ? 'writes' : 'reads'],
    queryFn: ({ signal }) => limited(() => probeResource(context, t, namespace, opts, signal)),
    staleTime: Infinity,
    gcTime: 60 * 60_000,
    retry: false,
  });

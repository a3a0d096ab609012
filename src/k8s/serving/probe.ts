// Sends the serving checks of matrix.ts for one resource and classifies the answers. Reads are
// one GET each (limit=1, or a label that matches nothing; watches read only the head, streaming
// lists until the end bookmark, at most a few seconds); the two writes are sent only when the
// caller opts in, always with dryRun=All. Resources are probed a few at a time, so that a
// cluster's hundred resources do not take every connection the page has.
import { queryOptions } from '@tanstack/react-query';
import { NdjsonFramer } from '../../codecs/ndjson';
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
  classifyWatch,
  classifyWrite,
  collectionOf,
  type ListPage,
  type ProbeRequest,
  readRequest,
  type Row,
  skipped,
  type StreamEvent,
  type Target,
  withoutObjects,
  writeRequest,
} from './matrix';

/** How long a streaming list may run without its end bookmark (the request asks timeoutSeconds=5). */
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
    const err = await errorFromResponse(res);
    return { answer: { status: res.status, contentType, message: err.status.message } };
  } catch (e) {
    if (signal?.aborted) throw e;
    return { answer: { status: 0, message: e instanceof Error ? e.message : String(e) } };
  }
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

async function listAndChunk(context: string, collection: string, signal?: AbortSignal): Promise<{ list: Cell; chunking: Cell; rv?: string; items?: number }> {
  const request = readRequest('list', collection);
  const { answer, res } = await send(context, request, signal);
  const list = { ...classifyRead('list', answer), request };
  if (!res) return { list, chunking: { ...skipped('the list was not answered'), request } };
  const body = (await res.json().catch(() => ({}))) as { items?: unknown[]; metadata?: { continue?: string; remainingItemCount?: number; resourceVersion?: string } };
  const page: ListPage = { items: body.items?.length ?? 0, continueToken: body.metadata?.continue || undefined, remainingItemCount: body.metadata?.remainingItemCount, resourceVersion: body.metadata?.resourceVersion };
  if (!page.continueToken || page.items > 1) return { list, chunking: { ...classifyChunking(page), request }, rv: page.resourceVersion, items: list.verdict === 'yes' ? page.items : undefined };
  const next = chunkRequest(collection, page.continueToken);
  const second = await send(context, next, signal);
  await drop(second.res);
  return { list, chunking: { ...classifyChunking(page, second.answer), request: next }, rv: page.resourceVersion, items: list.verdict === 'yes' ? page.items : undefined };
}

async function watchCheck(context: string, collection: string, rv: string | undefined, signal?: AbortSignal): Promise<Cell> {
  const request = readRequest('watch', collection, rv);
  const ctrl = new AbortController();
  const stop = () => ctrl.abort();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const { answer } = await send(context, request, ctrl.signal);
    return { ...classifyWatch(answer), request };
  } finally {
    ctrl.abort();
    signal?.removeEventListener('abort', stop);
  }
}

/** Reads watch events until the initial-events-end bookmark, the end of the stream, or STREAM_WAIT_MS. */
async function streamCheck(context: string, collection: string, signal?: AbortSignal): Promise<Cell> {
  const request = readRequest('streamingList', collection);
  const ctrl = new AbortController();
  const stop = () => ctrl.abort();
  signal?.addEventListener('abort', stop, { once: true });
  const timer = setTimeout(stop, STREAM_WAIT_MS);
  const events: StreamEvent[] = [];
  let ended: 'bookmark' | 'end' | 'timeout' = 'end';
  try {
    const { answer, res } = await send(context, request, ctrl.signal);
    if (!res?.body) return { ...classifyStream(answer, events, ended), request };
    const reader = res.body.getReader();
    const framer = new NdjsonFramer();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const f of framer.push(value)) {
          const e = JSON.parse(f.text) as { type: string; object?: { metadata?: { annotations?: Record<string, string>; resourceVersion?: string } } };
          events.push({ type: e.type, annotations: e.object?.metadata?.annotations, resourceVersion: e.object?.metadata?.resourceVersion });
        }
        if (events.some((e) => e.type === 'BOOKMARK' && e.annotations?.['k8s.io/initial-events-end'] === 'true')) {
          ended = 'bookmark';
          break;
        }
      }
    } catch (e) {
      if (signal?.aborted) throw e;
      ended = 'timeout';
    }
    return { ...classifyStream(answer, events, ended), request };
  } finally {
    clearTimeout(timer);
    ctrl.abort();
    signal?.removeEventListener('abort', stop);
  }
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
}

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
    if (first.list.verdict === 'unknown' && (first.list.httpStatus === 403 || first.list.httpStatus === 401)) {
      // Forbidden: every other read would be forbidden too.
      for (const c of ['table', 'protobuf', 'cbor', 'metadata', 'labelSelector', 'fieldSelector', 'watch', 'streamingList'] as const) cells[c] = skipped(`the list was forbidden (${first.list.httpStatus})`);
    } else {
      const [table, protobuf, cbor, metadata, labelSelector, fieldSelector] = await Promise.all(
        (['table', 'protobuf', 'cbor', 'metadata', 'labelSelector', 'fieldSelector'] as const).map((c) => readCheck(context, c, collection, signal)),
      );
      Object.assign(cells, { table, protobuf: withoutObjects('protobuf', protobuf!, first.items), cbor: withoutObjects('cbor', cbor!, first.items), metadata, labelSelector, fieldSelector });
      if (t.verbs.includes('watch')) {
        cells.watch = await watchCheck(context, collection, first.rv, signal);
        cells.streamingList = await streamCheck(context, collection, signal);
      } else {
        cells.watch = skipped('discovery lists no watch verb');
        cells.streamingList = skipped('discovery lists no watch verb');
      }
    }
  }
  if (!opts.writes) {
    cells.dryRun = skipped('writes not opted into');
    cells.apply = skipped('writes not opted into');
  } else {
    cells.dryRun = t.verbs.includes('create') ? await writeCheck(context, 'dryRun', t, namespace, signal) : skipped('discovery lists no create verb');
    cells.apply = t.verbs.includes('patch') ? await writeCheck(context, 'apply', t, namespace, signal) : skipped('discovery lists no patch verb');
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

/** One resource's row, cached for the session (asked again only on request). */
export const servingRowQuery = (context: string, t: Target, namespace: string, opts: ProbeOptions) =>
  queryOptions({
    queryKey: ['k8s', context, 'serving', t.group, t.version, t.resource, t.namespaced ? namespace : '', opts.writes ? 'writes' : 'reads'],
    queryFn: ({ signal }) => limited(() => probeResource(context, t, namespace, opts, signal)),
    staleTime: Infinity,
    gcTime: 60 * 60_000,
    retry: false,
  });

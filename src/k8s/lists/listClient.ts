// One chunk of a list, in one of three representations, reduced at once to what a row needs.
// The server pins every chunk of a paginated list to the first chunk's resourceVersion and hands
// back an opaque `continue` token for the next (API concepts, "Retrieving large results sets in
// chunks"); the caller threads the token through.
import { errorFromResponse, kubeRead } from '../client';
import { type ResourceRef, resourcePath, withQuery } from '../paths';
import { type ListMode } from './chunkDecode';
import { decodeListBody } from './decoder';
import { Interner, type ListRow, type RowBlock } from './rowStore';
import type { ListMeta, TableColumnDefinition } from './types';

export { GENERIC_COLUMNS, type ListMode, pageFromBody } from './chunkDecode';

/**
 * Table first, plain JSON as a fallback: a server (or aggregated API) that cannot render a Table
 * answers with the ordinary list. The Content-Type is `application/json` either way, so the body's
 * `kind` tells which one came back.
 */
export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json';
/** Only metadata per item (PartialObjectMetadataList): no spec, status or data. */
export const METADATA_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
export const FULL_ACCEPT = 'application/json';

export const ACCEPT_BY_MODE: Record<ListMode, string> = { table: TABLE_ACCEPT, metadata: METADATA_ACCEPT, full: FULL_ACCEPT };


export interface ListPageRequest {
  context: string;
  ref: ResourceRef;
  mode: ListMode;
  limit?: number;
  continueToken?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /**
   * Table mode only. None keeps rows to cells; Metadata adds each object's metadata, which we need
   * for one thing: the namespace of rows listed across all namespaces (the Table has no column for it).
   */
  includeObject?: 'None' | 'Metadata';
  signal?: AbortSignal;
}

export interface ListPage {
  /** The body's kind: `Table`, `PartialObjectMetadataList`, `ConfigMapList`, ... */
  kind: string;
  /** True when the server rendered a Table; false for metadata/full modes and for the fallback. */
  table: boolean;
  columns: TableColumnDefinition[];
  /** The chunk's rows, column by column: `rows.length`, `rows.row(i)`. */
  rows: RowBlock;
  metadata: ListMeta;
  /** Decoded body size in bytes, what the page cost on the wire before compression. */
  bytes: number;
  /** The API path and query and the Accept header sent. */
  path: string;
  accept: string;
  /** The first item of the body as received (metadata and full modes), so the difference shows. */
  sample?: unknown;
}

export function listPath(req: Omit<ListPageRequest, 'context' | 'signal'>): string {
  return withQuery(resourcePath({ ...req.ref, name: undefined, subresource: undefined }), {
    limit: req.limit,
    continue: req.continueToken,
    labelSelector: req.labelSelector,
    fieldSelector: req.fieldSelector,
    includeObject: req.mode === 'table' ? (req.includeObject ?? 'None') : undefined,
  });
}

/**
 * Fetches one chunk. Throws KubeApiError on failure; a 410 Expired's Status carries the server's
 * inconsistent-continue token in metadata.continue. `onContinue` hears the next chunk's token as
 * soon as the body's first bytes hold it (see listMetaFromPrefix), before the rest has arrived.
 */
export async function fetchListPage(req: ListPageRequest, interner?: Interner, onContinue?: (token: string) => void): Promise<ListPage> {
  const path = listPath(req);
  const accept = ACCEPT_BY_MODE[req.mode];
  // Over the mux (kubeRead): loading all, each chunk waits for the one before, and a message on
  // the open WebSocket costs the page less than a fetch per chunk.
  const res = await kubeRead({ context: req.context, path, headers: { Accept: accept }, signal: req.signal });
  if (!res.ok) throw await errorFromResponse(res);
  const buf = onContinue && res.body ? await readPeeking(res.body, onContinue) : new Uint8Array(await res.arrayBuffer());
  const bytes = buf.byteLength;
  // Decoded off the main thread where a worker can be had (decoder.ts); `buf` is handed over.
  return { ...(await decodeListBody(buf, req.mode, interner ?? new Interner())), bytes, path, accept };
}

/** How far into a body the list's metadata is looked for; ListMeta is a few hundred bytes. */
const PREFIX_BYTES = 8 * 1024;
// kube-apiserver writes a list or Table as kind, apiVersion, metadata, then the rows or items;
// ListMeta holds only strings and a number (resourceVersion, continue, remainingItemCount), so
// it is the first brace-free object after "metadata".
const LIST_PREFIX = /^\{"kind":"[^"]*","apiVersion":"[^"]*","metadata":(\{[^{}]*\})/;

/**
 * The ListMeta of a list body from its first bytes, when they hold all of it; undefined when they
 * do not (yet), or the body is not shaped as kube-apiserver writes a list.
 */
export function listMetaFromPrefix(prefix: string): { continue?: string } | undefined {
  const m = LIST_PREFIX.exec(prefix);
  if (!m) return undefined;
  try {
    const meta = JSON.parse(m[1]!) as { continue?: unknown };
    return typeof meta.continue === 'string' && meta.continue !== '' ? { continue: meta.continue } : {};
  } catch {
    return undefined;
  }
}

/**
 * The whole body, telling `onContinue` the next token once its first bytes hold it: loading all,
 * the next chunk is then asked for while this one is still arriving, so the server prepares it
 * while the page receives, parses and renders this one.
 */
async function readPeeking(stream: ReadableStream<Uint8Array>, onContinue: (token: string) => void): Promise<Uint8Array> {
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let looking = true;
  for (;;) {
    const r = await reader.read();
    if (r.done) break;
    parts.push(r.value);
    size += r.value.byteLength;
    if (!looking) continue;
    const meta = listMetaFromPrefix(new TextDecoder().decode(concat(parts, Math.min(size, PREFIX_BYTES))));
    if (meta || size >= PREFIX_BYTES) looking = false;
    if (meta?.continue) onContinue(meta.continue);
  }
  return concat(parts, size);
}

function concat(parts: readonly Uint8Array[], n: number): Uint8Array {
  if (parts.length === 1 && parts[0]!.byteLength === n) return parts[0]!;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    if (o >= n) break;
    const take = p.subarray(0, n - o);
    out.set(take, o);
    o += take.byteLength;
  }
  return out;
}

/** Stable identity of a row within one list. */
export function rowKey(r: ListRow): string {
  return r.namespace ? `${r.namespace}/${r.name}` : r.name;
}

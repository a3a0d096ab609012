// Builds the exact write request for each mode from the editor state, and sends it through the one
// exchange recorder (k8s/client runExchange), keeping everything that went over the wire (so the
// view can show it verbatim).
import { decodeText, runExchange } from '../../k8s/client';
import { withQuery } from '../../k8s/paths';
import { PATCH_CONTENT_TYPES } from '../../k8s/patch';

export const WRITE_MODES = ['create', 'replace', 'json-patch', 'merge-patch', 'strategic-merge-patch', 'apply', 'delete'] as const;
export type WriteMode = (typeof WRITE_MODES)[number];

export const MODE_INFO: Record<WriteMode, { label: string; method: string; semantics: string }> = {
  create: { label: 'Create (POST)', method: 'POST', semantics: 'POST to the collection. The body is the whole new object; 409 AlreadyExists if the name is taken.' },
  replace: {
    label: 'Replace (PUT)',
    method: 'PUT',
    semantics: 'PUT the whole object. Its metadata.resourceVersion is an optimistic lock: if the object changed since you loaded it, the server answers 409 Conflict and nothing is written.',
  },
  'json-patch': { label: 'JSON Patch', method: 'PATCH', semantics: `${PATCH_CONTENT_TYPES.json} (RFC 6902): a list of operations on JSON Pointers; the first failing op fails the whole patch.` },
  'merge-patch': { label: 'JSON Merge Patch', method: 'PATCH', semantics: `${PATCH_CONTENT_TYPES.merge} (RFC 7386): fields replace the server's, null deletes a field, lists are replaced whole.` },
  'strategic-merge-patch': {
    label: 'Strategic Merge Patch',
    method: 'PATCH',
    semantics: `${PATCH_CONTENT_TYPES.strategic}: a merge patch where lists the schema marks (e.g. containers, by name) merge element by element. Built-in types only: custom resources answer 415.`,
  },
  apply: {
    label: 'Server-Side Apply',
    method: 'PATCH',
    semantics: `${PATCH_CONTENT_TYPES.apply}: the fields this fieldManager wants to own. A field another manager owns with another value gives 409 Conflict unless force=true. Creates the object if it does not exist.`,
  },
  delete: { label: 'Delete', method: 'DELETE', semantics: 'DELETE with DeleteOptions. Finalizers keep the object (with a deletionTimestamp) until they are removed; Foreground waits for dependents.' },
};

export type FieldValidation = '' | 'Ignore' | 'Warn' | 'Strict';

export interface WriteOptions {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  fieldManager: string;
  force: boolean;
}

export interface DeleteOptionsInput {
  propagationPolicy: '' | 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds: string;
  preconditionUid?: string;
  preconditionResourceVersion?: string;
}

export interface WireRequest {
  method: string;
  /** API path without query. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: string;
}

export interface Exchange {
  id: number;
  at: string;
  mode: WriteMode;
  request: WireRequest;
  /** Absent when the request did not complete (network error). */
  response?: { status: number; statusText: string; headers: [string, string][]; body: string };
  error?: string;
  /**
   * The write was not sent: a guarded apply whose object is gone would have created it (this
   * exchange is then the GET that found it gone).
   */
  refused?: 'would-create' | 'would-update';
  /** The checks sendWrite made before the write: a re-send of this request makes them again. */
  sentWith?: { guardedApply?: boolean; createOnly?: boolean };
}

/**
 * The request for a mode. `objectPath` names the object, `collectionPath` its collection (POST).
 * `body` is the serialized body for writes (ignored for delete, whose body is DeleteOptions).
 */
export function buildWriteRequest(mode: WriteMode, paths: { objectPath?: string; collectionPath: string }, body: string, opts: WriteOptions, del?: DeleteOptionsInput): WireRequest {
  const query: Record<string, string> = {};
  // dryRun=All is the only value the server accepts: admission and validation run, nothing is stored.
  if (opts.dryRun && mode !== 'delete') query.dryRun = 'All';
  // Delete takes no fieldValidation or fieldManager (it decodes no object).
  if (mode !== 'delete') {
    if (opts.fieldValidation) query.fieldValidation = opts.fieldValidation;
    if (opts.fieldManager) query.fieldManager = opts.fieldManager;
  }
  // force is only meaningful (and only accepted) for apply patches.
  if (mode === 'apply' && opts.force) query.force = 'true';
  const headers: Record<string, string> = { Accept: 'application/json' };
  const method = MODE_INFO[mode].method;
  const path = mode === 'create' ? paths.collectionPath : (paths.objectPath ?? paths.collectionPath);
  if (mode === 'delete') {
    const options: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1' };
    if (del?.propagationPolicy) options.propagationPolicy = del.propagationPolicy;
    if (del?.gracePeriodSeconds.trim()) options.gracePeriodSeconds = Number(del.gracePeriodSeconds);
    if (del?.preconditionUid || del?.preconditionResourceVersion) {
      options.preconditions = { ...(del.preconditionUid ? { uid: del.preconditionUid } : {}), ...(del.preconditionResourceVersion ? { resourceVersion: del.preconditionResourceVersion } : {}) };
    }
    if (opts.dryRun) options.dryRun = ['All'];
    headers['Content-Type'] = 'application/json';
    return { method, path, query, headers, body: `${JSON.stringify(options, null, 2)}\n` };
  }
  headers['Content-Type'] =
    mode === 'json-patch'
      ? PATCH_CONTENT_TYPES.json
      : mode === 'merge-patch'
        ? PATCH_CONTENT_TYPES.merge
        : mode === 'strategic-merge-patch'
          ? PATCH_CONTENT_TYPES.strategic
          : mode === 'apply'
            ? PATCH_CONTENT_TYPES.apply
            : 'application/json';
  return { method, path, query, headers, body };
}

export function requestLine(r: WireRequest): string {
  return `${r.method} ${withQuery(r.path, r.query)}`;
}

let nextId = 1;

/**
 * Sends a write. A guarded apply (one that carries the loaded resourceVersion) is first checked
 * against the server: an apply to a missing object creates it, and the server ignores the
 * resourceVersion when it creates (201 with only the apply body), so the guard would not hold.
 * When a GET of the object answers 404 the apply is not sent; the answer is that GET, marked
 * `refused`. Re-creating is a separate choice (an unguarded apply). The check and the write are
 * two requests: a delete between them still lets the apply create, which no precondition of the
 * apply endpoint can prevent.
 */
export async function sendWrite(context: string, mode: WriteMode, request: WireRequest, opts: { guardedApply?: boolean; createOnly?: boolean } = {}): Promise<Exchange> {
  const sentWith = { guardedApply: opts.guardedApply, createOnly: opts.createOnly };
  if (mode === 'apply' && opts.guardedApply) {
    const check = await sendExchange(context, mode, { method: 'GET', path: request.path, query: {}, headers: { Accept: 'application/json' } });
    if (check.response?.status === 404) return { ...check, refused: 'would-create', sentWith };
  }
  // The converse, in create mode: an apply to a name that exists changes that object (apply
  // creates or updates), which the user never loaded. Same check, same window between the two.
  if (mode === 'apply' && opts.createOnly) {
    const check = await sendExchange(context, mode, { method: 'GET', path: request.path, query: {}, headers: { Accept: 'application/json' } });
    if (check.response?.status === 200) return { ...check, refused: 'would-update', sentWith };
  }
  return { ...(await sendExchange(context, mode, request)), sentWith };
}

/** Sends through the one exchange recorder and keeps the whole exchange, in the Edit view's terms. */
export async function sendExchange(context: string, mode: WriteMode, request: WireRequest): Promise<Exchange> {
  const ex: Exchange = { id: nextId++, at: new Date().toISOString(), mode, request };
  const x = await runExchange(context, { method: request.method, path: withQuery(request.path, request.query), headers: Object.entries(request.headers), body: request.body });
  if (x.response) ex.response = { status: x.response.status, statusText: x.response.statusText, headers: x.response.headers, body: decodeText(x.response.body) };
  if (x.error) ex.error = x.error;
  return ex;
}

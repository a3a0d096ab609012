// Builds the exact write request for each mode from the editor state, and sends it through the one
// exchange recorder (k8s/client runExchange), keeping everything that went over the wire (so the
// view can show it verbatim).
import { decodeText, runExchange } from '../../k8s/client';
import { withQuery } from '../../k8s/paths';
import { WRITE_MODE_TABLE, type WriteMode } from './writeModes';

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
  // Every mode's Content-Type is its table entry's (delete's is DeleteOptions' JSON).
  const headers: Record<string, string> = { Accept: 'application/json', 'Content-Type': WRITE_MODE_TABLE[mode].contentType };
  const { method, target } = WRITE_MODE_TABLE[mode];
  const path = target === 'collection' ? paths.collectionPath : (paths.objectPath ?? paths.collectionPath);
  if (mode === 'delete') {
    const options: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1' };
    if (del?.propagationPolicy) options.propagationPolicy = del.propagationPolicy;
    if (del?.gracePeriodSeconds.trim()) options.gracePeriodSeconds = Number(del.gracePeriodSeconds);
    if (del?.preconditionUid || del?.preconditionResourceVersion) {
      options.preconditions = { ...(del.preconditionUid ? { uid: del.preconditionUid } : {}), ...(del.preconditionResourceVersion ? { resourceVersion: del.preconditionResourceVersion } : {}) };
    }
    if (opts.dryRun) options.dryRun = ['All'];
    return { method, path, query, headers, body: `${JSON.stringify(options, null, 2)}\n` };
  }
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

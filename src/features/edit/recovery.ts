// What the recovery buttons of a result send, and whether a body is guarded. Pure: no React, no fetch.
//
// A recovery button ("Re-send with force=true", "Drop these fields and re-send") answers one
// request: it re-sends that request, changed only as the button says, whatever the editor shows
// now. Built from the current mode instead, a force after switching to Delete deleted the object,
// and with JSON Merge Patch selected the apply body went out as a merge patch. The button goes
// away when its request no longer stands: another request answered since (a new result), or the
// editor moved to another version of the object (the request was built on the old one).
import { parseJsonExact } from '../../codecs/json';
import { dropFields, isObject, type JsonObject } from '../../k8s/patch';
import { metaOf, type Outcome, parseText, serialize } from './body';
import type { WireRequest } from './request';
import { WRITE_MODE_TABLE, type WriteMode } from './writeModes';
import type { EditState } from './state';

/** A request to send again, with the checks the first one went through. */
export interface Resend {
  mode: WriteMode;
  request: WireRequest;
  guardedApply: boolean;
  createOnly: boolean;
}

function resendOf(o: Outcome, request: WireRequest): Resend {
  return { mode: o.exchange.mode, request, guardedApply: !!o.exchange.sentWith?.guardedApply, createOnly: !!o.exchange.sentWith?.createOnly };
}

/** The recovery buttons' request still stands: the editor is on the version the request was built on. */
export function recoverable(s: EditState): boolean {
  const o = s.outcome;
  if (!o || o.conflicts.length === 0 || s.serverChanged) return false;
  return metaOf(o.before).resourceVersion === metaOf(s.base).resourceVersion && metaOf(o.before).uid === metaOf(s.base).uid;
}

/** "Re-send with force=true": the same apply, with force=true. */
export function forceResend(o: Outcome): Resend {
  return resendOf(o, { ...o.exchange.request, query: { ...o.exchange.request.query, force: 'true' } });
}

/**
 * "Drop these fields and re-send": the same request with the conflicting fields left out of its
 * body, written in the body's own syntax (JSON stays JSON; YAML and KYAML go out as YAML).
 */
export function dropResend(o: Outcome, fields: string[]): Resend | undefined {
  const text = o.exchange.request.body ?? '';
  const json = isJsonText(text);
  const parsed = parseText(text, json ? 'json' : 'yaml').obj;
  if (!parsed) return undefined;
  const body = serialize(dropFields(parsed, fields).body, json ? 'json' : 'yaml');
  return resendOf(o, { ...o.exchange.request, body });
}

function isJsonText(text: string): boolean {
  try {
    parseJsonExact(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a body carries the guard of "only if unchanged" for the loaded resourceVersion: a JSON
 * Patch's test op on /metadata/resourceVersion, or metadata.resourceVersion in a merge patch,
 * strategic merge patch or apply body (the server checks it like a PUT's: 409 when stale). A body
 * typed by hand may lack it; the page then says the write is unguarded instead of promising a 409.
 */
export function bodyGuarded(mode: WriteMode, body: string, resourceVersion: string | undefined): boolean {
  if (!resourceVersion) return false;
  const { guard } = WRITE_MODE_TABLE[mode];
  if (guard === 'none') return false;
  const parsed = guard === 'test-op' ? jsonOrUndefined(body) : (parseText(body, isJsonText(body) ? 'json' : 'yaml').obj as unknown);
  if (guard === 'test-op') {
    return Array.isArray(parsed) && parsed.some((op) => isObject(op) && op.op === 'test' && op.path === '/metadata/resourceVersion' && op.value === resourceVersion);
  }
  return isObject(parsed) && metaOf(parsed as JsonObject).resourceVersion === resourceVersion;
}

function jsonOrUndefined(text: string): unknown {
  try {
    return parseJsonExact(text);
  } catch {
    return undefined;
  }
}

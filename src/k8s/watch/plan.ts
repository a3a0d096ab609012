// The pure decisions of a list-watch, split the way client-go's reflector splits them: which
// request comes next (list, watch, streaming list, resume), what an ending means (410 Gone, a
// refused streaming list, 429 with Retry-After, an unauthorized page, a network failure, a clean
// end) and how long to wait before the next attempt. No I/O, no clock, no randomness of their
// own: loop.ts does the I/O and feeds them what happened; plan.test.ts tables them.
// resourceVersions are opaque here: carried and compared for equality, never ordered.
import { KubeApiError, MuxUnauthorizedError, type Status } from '../client';
import { resourcePath } from '../paths';
import type { WatchFormatId } from '../../codecs/formats';

export type StartMode = 'list-watch' | 'stream' | 'watch-unset' | 'watch-0' | 'watch-exact';

/** Each way to start, named by the semantic the API concepts doc gives it. */
export const START_MODES: { mode: StartMode; label: string; semantic: string }[] = [
  { mode: 'list-watch', label: 'List, then watch', semantic: 'list (resourceVersion unset: most recent), then watch from the list’s resourceVersion' },
  { mode: 'stream', label: 'Streaming list', semantic: 'sendInitialEvents=true, resourceVersionMatch=NotOlderThan, resourceVersion="": initial ADDED events end with the k8s.io/initial-events-end bookmark' },
  { mode: 'watch-unset', label: 'Watch, resourceVersion unset', semantic: 'Get State and Start at Most Recent: synthetic ADDED events for every object, then changes (with bookmarks allowed, the initial-events-end bookmark marks where the synthetic events end)' },
  { mode: 'watch-0', label: 'Watch, resourceVersion="0"', semantic: 'Get State and Start at Any: synthetic ADDED events from any (possibly cached, older) state, then changes (marked like the unset case)' },
  { mode: 'watch-exact', label: 'Watch from a resourceVersion', semantic: 'Start at Exact: only changes after the given resourceVersion, no synthetic events' },
];

export interface WatchSpec {
  context: string;
  group: string;
  version: string;
  resource: string;
  /** Omit for all namespaces or a cluster-scoped resource. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** One object: adds fieldSelector metadata.name=<name>. */
  name?: string;
  mode: StartMode;
  /** For 'watch-exact'. */
  resourceVersion?: string;
  bookmarks: boolean;
  timeoutSeconds?: number;
  /** Ask for Table rows (as=Table) instead of objects. */
  asTable: boolean;
  /**
   * 'protobuf': ask for Protobuf watch events (not with asTable: the server has no Protobuf
   * Table). Lists (list-then-watch, relists) stay JSON. Default JSON.
   */
  encoding?: WatchFormatId;
}

export function collectionPath(spec: Pick<WatchSpec, 'group' | 'version' | 'resource' | 'namespace'>): string {
  return resourcePath({ group: spec.group, version: spec.version, resource: spec.resource, namespace: spec.namespace || undefined });
}

function selectorParams(spec: WatchSpec): URLSearchParams {
  const p = new URLSearchParams();
  if (spec.labelSelector) p.set('labelSelector', spec.labelSelector);
  const fields = [spec.name ? `metadata.name=${spec.name}` : '', spec.fieldSelector ?? ''].filter(Boolean).join(',');
  if (fields) p.set('fieldSelector', fields);
  return p;
}

/** The watch request for a phase. `resourceVersion: null` leaves the parameter out (unset). */
export function watchPath(spec: WatchSpec, opts: { resourceVersion: string | null; streamingList?: boolean }): string {
  const p = selectorParams(spec);
  p.set('watch', '1');
  if (opts.streamingList) {
    // A streaming list: the server marks the end of the initial events with a bookmark. It accepts
    // sendInitialEvents without allowWatchBookmarks, but then sends no marker (checked against
    // kube-apiserver 1.37), so we always allow bookmarks. resourceVersion="" asks for a
    // consistent (most recent) starting point.
    p.set('sendInitialEvents', 'true');
    p.set('allowWatchBookmarks', 'true');
    p.set('resourceVersionMatch', 'NotOlderThan');
    p.set('resourceVersion', '');
  } else {
    if (spec.bookmarks) p.set('allowWatchBookmarks', 'true');
    if (opts.resourceVersion !== null) p.set('resourceVersion', opts.resourceVersion);
  }
  if (spec.timeoutSeconds !== undefined && spec.timeoutSeconds > 0) p.set('timeoutSeconds', String(spec.timeoutSeconds));
  return `${collectionPath(spec)}?${p.toString()}`;
}

export function listPath(spec: WatchSpec): string {
  const q = selectorParams(spec).toString();
  return q ? `${collectionPath(spec)}?${q}` : collectionPath(spec);
}

/**
 * Where the list-watch stands between attempts: start as configured ('initial'), watch again
 * from the last resourceVersion ('resume'), or list (or stream) anew because the history to
 * resume from is gone ('recover').
 */
export type Phase = 'initial' | 'resume' | 'recover';

export interface Cursor {
  phase: Phase;
  /** The last resourceVersion seen (a list's, an event's, a bookmark's). */
  lastRV: string | undefined;
  /** Whether there is a state already (a list after this one replaces it and reports the difference). */
  hasObjects: boolean;
}

export type NextRequest =
  /** List, then (phase 'resume') watch from the list's resourceVersion. */
  | { kind: 'list'; path: string; relist: boolean }
  /**
   * Watch. `streaming`: a streaming list, whose initial events end with the initial-events-end
   * bookmark; `synthetic`: a get-state watch whose synthetic ADDED events end with that bookmark.
   */
  | { kind: 'watch'; path: string; streaming: boolean; synthetic: boolean };

/** The next request of a list-watch in `spec.mode` standing at `c`. */
export function nextRequest(spec: WatchSpec, cursor: Cursor): NextRequest {
  // Nothing heard yet to resume from (a watch the server ended before its first event or
  // bookmark: timeoutSeconds, a restart): start again as configured. A resume with resourceVersion
  // unset would be "Get State and Start at Most Recent": a watch from resourceVersion 77 would show every object
  // as a live ADDED event and skip whatever changed between 77 and now.
  const c: Cursor = cursor.phase === 'resume' && cursor.lastRV === undefined ? { ...cursor, phase: 'initial' } : cursor;
  if (c.phase !== 'resume' && (spec.mode === 'list-watch' || (c.phase === 'recover' && spec.mode !== 'stream'))) {
    return { kind: 'list', path: listPath(spec), relist: c.phase === 'recover' || c.hasObjects };
  }
  if (c.phase !== 'resume' && spec.mode === 'stream') {
    return { kind: 'watch', path: watchPath(spec, { resourceVersion: '', streamingList: true }), streaming: true, synthetic: false };
  }
  if (c.phase === 'initial') {
    // Get-state watches (unset, "0") also end their synthetic ADDED events with the
    // initial-events-end bookmark when bookmarks are allowed (kube-apiserver 1.37, WatchList on).
    // A watch "from" resourceVersion "" is the unset case as far as the server is concerned.
    const synthetic = spec.bookmarks && (spec.mode === 'watch-unset' || spec.mode === 'watch-0' || (spec.mode === 'watch-exact' && !spec.resourceVersion));
    const rv = spec.mode === 'watch-0' ? '0' : spec.mode === 'watch-exact' ? (spec.resourceVersion ?? '') : null;
    return { kind: 'watch', path: watchPath(spec, { resourceVersion: rv }), streaming: false, synthetic };
  }
  return { kind: 'watch', path: watchPath(spec, { resourceVersion: c.lastRV ?? null }), streaming: false, synthetic: false };
}

/** How an attempt (a list, or a watch and its stream) ended. */
export type Ending =
  /**
   * The server ended the stream (its own timeout, timeoutSeconds). `empty`: not one frame or line
   * came on it; `protobuf`: the server answered it in Protobuf.
   */
  | { kind: 'end'; ranMs: number; empty?: boolean; protobuf?: boolean }
  /** An ERROR event with a 410 Status: the history to resume from is gone. */
  | { kind: 'gone' }
  /** No response headers within the connect timeout. */
  | { kind: 'connect-timeout'; ms: number }
  /** Headers came, then nothing (no event, no bookmark) within the idle timeout. */
  | { kind: 'idle'; ms: number }
  /** The request or the stream failed: a KubeApiError (non-200, or an ERROR event), the mux, the network. */
  | { kind: 'error'; error: unknown };

/** What the attempt that ended was. */
export interface AttemptContext {
  mode: StartMode;
  /** The phase the attempt started in. */
  phase: Phase;
  /** Whether it was a streaming list (or re-stream) that has not reached its initial-events-end bookmark. */
  streamingIncomplete: boolean;
  lastRV: string | undefined;
  /** Protobuf streams before this one that the server ended at once and empty, in a row. */
  emptyProtobufEnds?: number;
}

export type NoteKind = 'open' | 'end' | 'error' | 'reconnect' | 'list' | 'relist' | 'paused' | 'resumed' | 'idle';

export interface Outcome {
  /** 'retry' after the backoff; 'fallback' to list-then-watch at once; 'fatal': the user must act. */
  action: 'retry' | 'fallback' | 'fatal';
  /** The phase of the next attempt. */
  phase: Phase;
  /** Why, in the timeline's words. */
  note: { kind: NoteKind; message: string; status?: Status };
  /** The server's own wait before trying again (Retry-After, details.retryAfterSeconds), in ms. */
  retryAfterMs?: number;
  /** A stream that ran and ended cleanly: watch again at once, and start the backoff over. */
  immediate?: boolean;
}

/** A stream that ran at least this long before the server ended it cleanly is watched again at once. */
export const RAN_LONG_MS = 1000;

/** What an ending means for the next attempt (client-go reflector: ListAndWatch, watchHandler). */
export function classifyEnding(ending: Ending, at: AttemptContext): Outcome {
  // A streaming list cut short before its end marker has no complete state to resume from: it
  // starts again as it started; anything else resumes from the last resourceVersion.
  const after = at.streamingIncomplete ? at.phase : 'resume';
  switch (ending.kind) {
    case 'end':
      if (ending.protobuf && ending.empty && ending.ranMs < RAN_LONG_MS) return emptyProtobufEnd(after, at);
      return { action: 'retry', phase: after, note: { kind: 'end', message: 'the server ended the stream' }, immediate: ending.ranMs >= RAN_LONG_MS };
    case 'gone':
      return { action: 'retry', phase: 'recover', note: { kind: 'error', message: 'the server no longer has the history to resume from (410 Gone): relisting' } };
    case 'idle':
      return {
        action: 'retry',
        phase: after,
        note: { kind: 'idle', message: `nothing received (no event, no bookmark) for ${Math.round(ending.ms / 1000)} s although the server sends a bookmark about every minute: the connection is taken for dead` },
      };
    case 'connect-timeout':
      return { action: 'retry', phase: resumable(at), note: { kind: 'idle', message: `no response headers for ${Math.round(ending.ms / 1000)} s: the connection is taken for dead` } };
    case 'error':
      return classifyError(ending.error, at);
  }
}

/** How many Protobuf streams ended at once and empty, in a row, before the pane stops. */
export const EMPTY_PROTOBUF_ENDS_TO_STOP = 3;

/**
 * A Protobuf watch the server answered 200 and ended at once with nothing on it. An API server
 * whose type has no Protobuf form but which still offers Protobuf (sample-apiserver's Flunder,
 * v0.37.1) does this as soon as there is an object to send: its encoder fails and it logs "Failed
 * to encode watch event", the client sees only a clean end. Retried a few times (a server shutting
 * down also ends watches), then the pane stops and says to use JSON.
 */
function emptyProtobufEnd(after: Phase, at: AttemptContext): Outcome {
  const why = 'the server ended the Protobuf stream at once without sending a frame. An aggregated API server whose types have no Protobuf form ends a Protobuf watch this way as soon as it has an object to send (its log says "Failed to encode watch event"); JSON works for such a resource';
  if ((at.emptyProtobufEnds ?? 0) + 1 >= EMPTY_PROTOBUF_ENDS_TO_STOP) {
    return { action: 'fatal', phase: at.phase, note: { kind: 'end', message: `${why}. Stopped after ${EMPTY_PROTOBUF_ENDS_TO_STOP} such ends in a row: watch this resource as JSON.` } };
  }
  return { action: 'retry', phase: after, note: { kind: 'end', message: why } };
}

/** After a failure before anything was heard: resume needs a resourceVersion to resume from. */
function resumable(at: AttemptContext): Phase {
  return at.phase === 'resume' && at.lastRV === undefined ? 'initial' : at.phase;
}

/** HTTP answers of the API server that a retry of the same request cannot change. */
const UNFIXABLE_BY_RETRY = new Set([400, 405, 406, 415, 422]);

function classifyError(e: unknown, at: AttemptContext): Outcome {
  if (e instanceof MuxUnauthorizedError) {
    // The explorer server refuses the page's token and no fresh one was to be had: retrying would
    // go on forever.
    return { action: 'fatal', phase: at.phase, note: { kind: 'error', message: e.message } };
  }
  if (e instanceof KubeApiError && !e.fromProxy && at.mode === 'stream' && at.phase !== 'resume' && (e.httpStatus === 422 || e.httpStatus === 400)) {
    // The server refused the streaming list's parameters: with the WatchList feature gate off
    // (v1.33's default), kube-apiserver answers 422 Invalid ("sendInitialEvents is forbidden for
    // watch unless the WatchList feature gate is enabled"). Retrying cannot help; what client-go's
    // reflector does instead is list, then watch.
    return {
      action: 'fallback',
      phase: 'initial',
      note: { kind: 'error', message: `the server refused the streaming list (${e.httpStatus} ${e.status.reason ?? ''}: ${e.message}); falling back to List, then watch`, status: e.status },
    };
  }
  if (e instanceof KubeApiError && !e.fromProxy && UNFIXABLE_BY_RETRY.has(e.httpStatus)) {
    // The API server refused the request itself (a field selector it does not support: 400; a
    // resource that cannot be watched: 405; parameters it rejects: 422): the same request gets
    // the same answer, so retrying would only send it again for ever. client-go's reflector
    // retries every failure, but it serves a controller; kubectl get --watch exits, and so does a
    // pane, saying why. 401, 403 and 404 stay retried: credentials, RBAC or a CRD can change.
    return {
      action: 'fatal',
      phase: at.phase,
      note: { kind: 'error', message: `${e.httpStatus} ${e.status.reason ?? ''}: ${e.message}. The server refuses this request as it stands, so the pane stopped instead of sending it again; change what it asks for and add it anew, or start it again.`, status: e.status },
    };
  }
  if (e instanceof KubeApiError && e.code === 410) {
    return { action: 'retry', phase: 'recover', note: { kind: 'error', message: `410 Gone: ${e.message}; relisting`, status: e.status } };
  }
  // Anything else is retried after the backoff: 429 and 5xx (the server's Retry-After, or a
  // Status's details.retryAfterSeconds such as 504 "Too large resource version" while the watch
  // cache catches up, sets the least wait), 401/403 from the API server (the proxy may pick up
  // refreshed credentials), a dropped mux or network.
  const status = e instanceof KubeApiError ? e.status : undefined;
  const retryAfterSeconds = e instanceof KubeApiError ? e.retryAfterSeconds : undefined;
  const asked = retryAfterSeconds !== undefined ? ` (the server asked to wait ${retryAfterSeconds} s before trying again: Retry-After)` : '';
  return {
    action: 'retry',
    phase: resumable(at),
    note: { kind: 'error', message: `${e instanceof Error ? e.message : String(e)}${asked}`, status },
    ...(retryAfterSeconds !== undefined ? { retryAfterMs: retryAfterSeconds * 1000 } : {}),
  };
}

export interface BackoffPolicy {
  initialMs: number;
  maxMs: number;
}

/**
 * The wait before attempt number `attempt` (0 for the first retry) and the attempt count after it:
 * none after a stream that ran and ended cleanly (the count starts over), otherwise exponential,
 * jittered between half and all of the step so that many panes do not reconnect in lockstep after
 * an outage, and never shorter than what the server asked for. `random` is in [0, 1).
 */
export function backoff(policy: BackoffPolicy, attempt: number, o: Pick<Outcome, 'immediate' | 'retryAfterMs'>, random: number): { delayMs: number; attempt: number } {
  if (o.immediate) return { delayMs: 0, attempt: 0 };
  const step = Math.min(policy.maxMs, policy.initialMs * 2 ** attempt);
  return { delayMs: Math.max(o.retryAfterMs ?? 0, Math.round(step / 2 + (random * step) / 2)), attempt: attempt + 1 };
}

/** The timeline's words for the wait before the next attempt. */
export function reconnectMessage(mode: StartMode, c: Pick<Cursor, 'phase' | 'lastRV'>, delayMs: number): string {
  if (c.phase === 'recover') return `reconnecting in ${delayMs} ms with a ${mode === 'stream' ? 're-stream' : 'relist'}`;
  if (c.phase === 'resume' && c.lastRV !== undefined) return `reconnecting in ${delayMs} ms from resourceVersion ${c.lastRV}`;
  return `reconnecting in ${delayMs} ms`;
}

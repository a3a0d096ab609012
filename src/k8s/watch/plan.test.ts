// Tables of the list-watch's pure decisions: the next request for each start mode and phase,
// what each ending means, and the backoff. The phases are client-go reflector's; the server
// behaviours they rely on (410 after compaction, 422 for a streaming list with WatchList off,
// Retry-After on 429) are provoked against the real server in session*.server.test.ts.
import { describe, expect, it } from 'vitest';
import { KubeApiError, MuxStreamError, MuxUnauthorizedError, type Status } from '../client';
import { type AttemptContext, backoff, classifyEnding, type Cursor, type Ending, nextRequest, reconnectMessage, type StartMode, type WatchSpec } from './plan';

const spec = (mode: StartMode, extra: Partial<WatchSpec> = {}): WatchSpec => ({ context: 'c', group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', mode, bookmarks: true, asTable: false, ...extra });
const cursor = (phase: Cursor['phase'], lastRV?: string, hasObjects = false): Cursor => ({ phase, lastRV, hasObjects });
const query = (path: string) => Object.fromEntries(new URLSearchParams(path.split('?')[1] ?? ''));

describe('nextRequest', () => {
  const base = '/api/v1/namespaces/ns/configmaps';
  it.each<[string, StartMode, Cursor, { kind: 'list' | 'watch'; query: Record<string, string>; relist?: boolean; streaming?: boolean; synthetic?: boolean }]>([
    ['list-watch starts with a list', 'list-watch', cursor('initial'), { kind: 'list', query: {}, relist: false }],
    ['list-watch with a state lists again as a relist', 'list-watch', cursor('initial', '5', true), { kind: 'list', query: {}, relist: true }],
    ['list-watch resumes from the last resourceVersion', 'list-watch', cursor('resume', '42'), { kind: 'watch', query: { watch: '1', allowWatchBookmarks: 'true', resourceVersion: '42' }, streaming: false, synthetic: false }],
    ['list-watch after 410 relists', 'list-watch', cursor('recover', '42', true), { kind: 'list', query: {}, relist: true }],
    [
      'a streaming list asks for initial events from a consistent read',
      'stream',
      cursor('initial'),
      { kind: 'watch', query: { watch: '1', sendInitialEvents: 'true', allowWatchBookmarks: 'true', resourceVersionMatch: 'NotOlderThan', resourceVersion: '' }, streaming: true, synthetic: false },
    ],
    [
      'a streaming list after 410 streams again',
      'stream',
      cursor('recover', '9', true),
      { kind: 'watch', query: { watch: '1', sendInitialEvents: 'true', allowWatchBookmarks: 'true', resourceVersionMatch: 'NotOlderThan', resourceVersion: '' }, streaming: true, synthetic: false },
    ],
    ['a streaming list resumes as a plain watch', 'stream', cursor('resume', '9'), { kind: 'watch', query: { watch: '1', allowWatchBookmarks: 'true', resourceVersion: '9' }, streaming: false, synthetic: false }],
    ['watch with resourceVersion unset leaves it out', 'watch-unset', cursor('initial'), { kind: 'watch', query: { watch: '1', allowWatchBookmarks: 'true' }, streaming: false, synthetic: true }],
    ['watch at resourceVersion "0"', 'watch-0', cursor('initial'), { kind: 'watch', query: { watch: '1', allowWatchBookmarks: 'true', resourceVersion: '0' }, streaming: false, synthetic: true }],
    ['watch-exact from the given resourceVersion', 'watch-exact', cursor('initial'), { kind: 'watch', query: { watch: '1', allowWatchBookmarks: 'true', resourceVersion: '77' }, streaming: false, synthetic: false }],
    ['a get-state watch after 410 lists', 'watch-unset', cursor('recover', '3', true), { kind: 'list', query: {}, relist: true }],
    // The stream ended before its first event or bookmark: resourceVersion unset would be "Get State
    // and Start at Most Recent" (every object as a live ADDED, the changes since 77 skipped).
    ['resume with nothing heard starts again from the given resourceVersion', 'watch-exact', cursor('resume'), { kind: 'watch', query: { watch: '1', allowWatchBookmarks: 'true', resourceVersion: '77' }, streaming: false, synthetic: false }],
    ['a get-state watch resumed with nothing heard gets state again, marked as such', 'watch-unset', cursor('resume'), { kind: 'watch', query: { watch: '1', allowWatchBookmarks: 'true' }, streaming: false, synthetic: true }],
    ['a list-watch whose list had no resourceVersion lists again', 'list-watch', cursor('resume', undefined, true), { kind: 'list', query: {}, relist: true }],
  ])('%s', (_, mode, c, want) => {
    const r = nextRequest(spec(mode, { resourceVersion: '77' }), c);
    expect(r.kind).toBe(want.kind);
    expect(r.path.split('?')[0]).toBe(base);
    expect(query(r.path)).toEqual(want.query);
    if (r.kind === 'list') expect(r.relist).toBe(want.relist);
    else expect({ streaming: r.streaming, synthetic: r.synthetic }).toEqual({ streaming: want.streaming, synthetic: want.synthetic });
  });

  it('a watch "from" resourceVersion "" is the server\'s unset case: its ADDED events are marked as the state, not as live changes', () => {
    const r = nextRequest(spec('watch-exact', { resourceVersion: '' }), cursor('initial'));
    expect(r).toMatchObject({ kind: 'watch', synthetic: true });
  });

  it('carries selectors, one object and timeoutSeconds; no bookmarks when not asked for (except for a streaming list)', () => {
    const s = spec('list-watch', { labelSelector: 'a=b', fieldSelector: 'status.phase=Running', name: 'x', bookmarks: false, timeoutSeconds: 30 });
    expect(query(nextRequest(s, cursor('initial')).path)).toEqual({ labelSelector: 'a=b', fieldSelector: 'metadata.name=x,status.phase=Running' });
    expect(query(nextRequest(s, cursor('resume', '1')).path)).toEqual({ labelSelector: 'a=b', fieldSelector: 'metadata.name=x,status.phase=Running', watch: '1', resourceVersion: '1', timeoutSeconds: '30' });
    expect(query(nextRequest({ ...s, mode: 'stream' }, cursor('initial')).path).allowWatchBookmarks).toBe('true');
  });
});

const status = (code: number, reason: string, extra: Partial<Status> = {}): Status => ({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message: `${code} ${reason}`, ...extra });
const at = (phase: AttemptContext['phase'], extra: Partial<AttemptContext> = {}): AttemptContext => ({ mode: 'list-watch', phase, streamingIncomplete: false, lastRV: '10', ...extra });

describe('classifyEnding', () => {
  it.each<[string, Ending, AttemptContext, { action: string; phase: string; note: string; retryAfterMs?: number; immediate?: boolean }]>([
    ['a clean end after a long run: resume at once', { kind: 'end', ranMs: 60_000 }, at('resume'), { action: 'retry', phase: 'resume', note: 'end', immediate: true }],
    ['a clean end right after opening: resume after the backoff', { kind: 'end', ranMs: 10 }, at('resume'), { action: 'retry', phase: 'resume', note: 'end', immediate: false }],
    ['a Protobuf stream ended at once and empty: retried, saying what it likely means', { kind: 'end', ranMs: 5, empty: true, protobuf: true }, at('resume'), { action: 'retry', phase: 'resume', note: 'end', immediate: false }],
    ['the third such end in a row: stop', { kind: 'end', ranMs: 5, empty: true, protobuf: true }, at('resume', { emptyProtobufEnds: 2 }), { action: 'fatal', phase: 'resume', note: 'end' }],
    ['a Protobuf stream that carried frames and ended at once: an ordinary end', { kind: 'end', ranMs: 5, empty: false, protobuf: true }, at('resume', { emptyProtobufEnds: 2 }), { action: 'retry', phase: 'resume', note: 'end', immediate: false }],
    ['a JSON stream ended at once and empty: an ordinary end', { kind: 'end', ranMs: 5, empty: true, protobuf: false }, at('resume', { emptyProtobufEnds: 2 }), { action: 'retry', phase: 'resume', note: 'end', immediate: false }],
    ['a streaming list ended before its end marker: stream again', { kind: 'end', ranMs: 60_000 }, at('initial', { mode: 'stream', streamingIncomplete: true }), { action: 'retry', phase: 'initial', note: 'end', immediate: true }],
    ['410 in an ERROR event: relist', { kind: 'gone' }, at('resume'), { action: 'retry', phase: 'recover', note: 'error' }],
    ['HTTP 410: relist', { kind: 'error', error: new KubeApiError(status(410, 'Expired'), 410, false) }, at('resume'), { action: 'retry', phase: 'recover', note: 'error' }],
    ['410 in a Status of an ERROR event (HTTP 200): relist', { kind: 'error', error: new KubeApiError(status(410, 'Expired'), 200, false) }, at('resume'), { action: 'retry', phase: 'recover', note: 'error' }],
    [
      '422 to a streaming list (WatchList off): fall back to list, then watch',
      { kind: 'error', error: new KubeApiError(status(422, 'Invalid'), 422, false) },
      at('initial', { mode: 'stream', streamingIncomplete: true }),
      { action: 'fallback', phase: 'initial', note: 'error' },
    ],
    ['422 from our proxy is not the server refusing the mode', { kind: 'error', error: new KubeApiError(status(422, 'Invalid'), 422, true) }, at('initial', { mode: 'stream', streamingIncomplete: true }), { action: 'retry', phase: 'initial', note: 'error' }],
    ['422 to a resumed watch of a streaming pane: no fallback; the server refuses it as it stands, so stop', { kind: 'error', error: new KubeApiError(status(422, 'Invalid'), 422, false) }, at('resume', { mode: 'stream' }), { action: 'fatal', phase: 'resume', note: 'error' }],
    ['400 to a list (a field selector the server does not support): stop, a retry gets the same answer', { kind: 'error', error: new KubeApiError(status(400, 'BadRequest'), 400, false) }, at('initial', { lastRV: undefined }), { action: 'fatal', phase: 'initial', note: 'error' }],
    ['405 to a watch: stop', { kind: 'error', error: new KubeApiError(status(405, 'MethodNotAllowed'), 405, false) }, at('resume'), { action: 'fatal', phase: 'resume', note: 'error' }],
    ['400 from our proxy (not the API server): retried', { kind: 'error', error: new KubeApiError(status(400, 'BadRequest'), 400, true) }, at('resume'), { action: 'retry', phase: 'resume', note: 'error' }],
    ['403 from the API server: retried (RBAC may change)', { kind: 'error', error: new KubeApiError(status(403, 'Forbidden'), 403, false) }, at('resume'), { action: 'retry', phase: 'resume', note: 'error' }],
    ['404 from the API server: retried (a CRD may come)', { kind: 'error', error: new KubeApiError(status(404, 'NotFound'), 404, false) }, at('resume'), { action: 'retry', phase: 'resume', note: 'error' }],
    ['429 with Retry-After: wait at least that long', { kind: 'error', error: new KubeApiError(status(429, 'TooManyRequests'), 429, false, 7) }, at('resume'), { action: 'retry', phase: 'resume', note: 'error', retryAfterMs: 7000 }],
    ['504 with details.retryAfterSeconds', { kind: 'error', error: new KubeApiError(status(504, 'Timeout', { details: { retryAfterSeconds: 1 } }), 504, false, 1) }, at('resume'), { action: 'retry', phase: 'resume', note: 'error', retryAfterMs: 1000 }],
    ['401 from the API server: retried (credentials may be refreshed)', { kind: 'error', error: new KubeApiError(status(401, 'Unauthorized'), 401, false) }, at('resume'), { action: 'retry', phase: 'resume', note: 'error' }],
    ['the page’s token refused for good: stop and say so', { kind: 'error', error: new MuxUnauthorizedError('reload the page') }, at('resume'), { action: 'fatal', phase: 'resume', note: 'error' }],
    ['a dropped mux: resume', { kind: 'error', error: new MuxStreamError('the mux connection closed') }, at('resume'), { action: 'retry', phase: 'resume', note: 'error' }],
    ['a failure with nothing to resume from: start over', { kind: 'error', error: new TypeError('fetch failed') }, at('resume', { lastRV: undefined }), { action: 'retry', phase: 'initial', note: 'error' }],
    ['a failed list: list again', { kind: 'error', error: new TypeError('fetch failed') }, at('initial', { lastRV: undefined }), { action: 'retry', phase: 'initial', note: 'error' }],
    ['no response headers in time: try again from where it stood', { kind: 'connect-timeout', ms: 30_000 }, at('resume'), { action: 'retry', phase: 'resume', note: 'idle' }],
    ['silent past the bookmarks: resume', { kind: 'idle', ms: 90_000 }, at('resume'), { action: 'retry', phase: 'resume', note: 'idle' }],
  ])('%s', (_, ending, ctx, want) => {
    const o = classifyEnding(ending, ctx);
    expect({ action: o.action, phase: o.phase, note: o.note.kind }).toEqual({ action: want.action, phase: want.phase, note: want.note });
    expect(o.retryAfterMs).toBe(want.retryAfterMs);
    if (want.immediate !== undefined) expect(!!o.immediate).toBe(want.immediate);
  });

  it('says why a Protobuf stream may end at once and empty', () => {
    expect(classifyEnding({ kind: 'end', ranMs: 5, empty: true, protobuf: true }, at('resume')).note.message).toMatch(/no Protobuf form.*Failed to encode watch event/);
    expect(classifyEnding({ kind: 'end', ranMs: 5, empty: true, protobuf: false }, at('resume')).note.message).toBe('the server ended the stream');
  });

  it('says what the server asked for', () => {
    expect(classifyEnding({ kind: 'error', error: new KubeApiError(status(429, 'TooManyRequests'), 429, false, 7) }, at('resume')).note.message).toMatch(/asked to wait 7 s/);
  });
});

describe('backoff', () => {
  const policy = { initialMs: 500, maxMs: 10_000 };
  it.each<[string, number, { immediate?: boolean; retryAfterMs?: number }, number, { delayMs: number; attempt: number }]>([
    ['first retry, least jitter', 0, {}, 0, { delayMs: 250, attempt: 1 }],
    ['first retry, most jitter', 0, {}, 0.999999, { delayMs: 500, attempt: 1 }],
    ['doubles per attempt', 3, {}, 0, { delayMs: 2000, attempt: 4 }],
    ['capped at the maximum', 10, {}, 0.999999, { delayMs: 10_000, attempt: 11 }],
    ['never sooner than the server asked', 0, { retryAfterMs: 7000 }, 0, { delayMs: 7000, attempt: 1 }],
    ['after a long clean run: at once, and the count starts over', 5, { immediate: true }, 0.5, { delayMs: 0, attempt: 0 }],
  ])('%s', (_, attempt, o, random, want) => {
    expect(backoff(policy, attempt, o, random)).toEqual(want);
  });

  it('words the wait as the timeline shows it', () => {
    expect(reconnectMessage('list-watch', { phase: 'resume', lastRV: '5' }, 250)).toBe('reconnecting in 250 ms from resourceVersion 5');
    expect(reconnectMessage('stream', { phase: 'recover', lastRV: '5' }, 0)).toBe('reconnecting in 0 ms with a re-stream');
    expect(reconnectMessage('list-watch', { phase: 'recover', lastRV: '5' }, 0)).toBe('reconnecting in 0 ms with a relist');
    expect(reconnectMessage('list-watch', { phase: 'initial', lastRV: undefined }, 9)).toBe('reconnecting in 9 ms');
  });
});

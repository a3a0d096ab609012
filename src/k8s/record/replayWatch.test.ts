// A watch pane on a replayed recording: the loop (k8s/watch/loop.ts) reading streams that
// ReplaySession serves must tell the same story the live session told, no more notes than it had.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WatchSession, type NoteEntry, type WatchSpec } from '../watch/session';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../watch/loop';
import type { RecordingContents } from './har';
import type { RecordedExchange } from './recorder';
import { normalizedPath, ReplaySession } from './replay';

const T0 = Date.parse('2026-01-01T10:00:00Z');
const enc = (s: string) => new TextEncoder().encode(s);
const cm = (name: string, rv: string) => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: 'ns', resourceVersion: rv } });

function exchange(path: string, at: number, chunks: [number, string][], more: Partial<RecordedExchange> = {}): RecordedExchange {
  const watch = /[?&]watch=1/.test(path);
  return {
    id: path,
    context: 'c',
    startedAt: new Date(at).toISOString(),
    request: { method: 'GET', path, headers: [['Accept', 'application/json']] },
    response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'application/json']], body: new Uint8Array() },
    timings: {},
    watch,
    source: 'live',
    via: 'mux',
    chunks: chunks.map(([t, s]) => ({ at: t, bytes: enc(s) })),
    ...(watch ? {} : { endedAt: chunks.at(-1)![0] }),
    ...more,
  };
}

// The pane's defaults: list then watch, with bookmarks (a watch with bookmarks has an idle clock).
const spec: WatchSpec = { context: 'c', group: '', version: 'v1', resource: 'configmaps', namespace: 'ns', mode: 'list-watch', bookmarks: true, asTable: false };
const LIST = '/api/v1/namespaces/ns/configmaps';
const WATCH = '/api/v1/namespaces/ns/configmaps?allowWatchBookmarks=true&resourceVersion=10&watch=1';

// The live session: a list, then a watch that got one event and a bookmark, and was still open
// (as the server left it: quiet) when the recording stopped.
const recording: RecordingContents = {
  startedAt: T0,
  stoppedAt: T0 + 5_000,
  full: false,
  marks: [],
  servers: {},
  exchanges: [
    exchange(LIST, T0 + 100, [[T0 + 120, JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '10' }, items: [cm('a', '9')] })]]),
    exchange(WATCH, T0 + 200, [
      [T0 + 1_000, `${JSON.stringify({ type: 'ADDED', object: cm('b', '11') })}\n`],
      [T0 + 2_000, `${JSON.stringify({ type: 'BOOKMARK', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '12' } } })}\n`],
    ]),
  ],
};

let replay: ReplaySession | undefined;
let session: WatchSession | undefined;
afterEach(() => {
  session?.stop();
  replay?.dispose();
  vi.useRealTimers();
});

describe('a watch pane on a replay', () => {
  it('opens the recorded watch once: the silence after its last frame is the recording’s, not a dead connection to reconnect', async () => {
    // Fake timers: the idle timeout is the loop's own clock, moved here past it without waiting.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(T0 + 60_000);
    replay = new ReplaySession(recording, 'test');
    const r = replay;
    const paths: string[] = [];
    session = new WatchSession(spec, {
      mux: { open: async (req) => (paths.push(req.path), r.open({ context: req.context, path: req.path, accept: req.headers?.Accept, signal: req.signal })) },
      fetchJson: async <T,>(req: { context: string; path: string; headers?: Record<string, string> }) => (paths.push(req.path), (await r.fetch({ context: req.context, path: req.path, accept: req.headers?.Accept ?? 'application/json' }).json()) as T),
      schedule: (f) => f(),
      random: () => 0,
    });
    session.start();
    await vi.waitFor(() => expect(session!.getSnapshot().lastResourceVersion).toBe('12'));
    await vi.advanceTimersByTimeAsync(3 * DEFAULT_IDLE_TIMEOUT_MS);
    const snap = session.getSnapshot();
    const notes = snap.entries.toArray().filter((e): e is NoteEntry => e.kind === 'note').map((n) => n.message);
    expect(notes.filter((m) => /opened/.test(m))).toEqual(['watch opened from resourceVersion "10"']);
    expect(snap.state).toBe('watching');
    // Nor does the pane's badge count that silence against an idle timeout ("silent").
    expect(snap.idleTimeoutMs).toBeUndefined();
    // The list and the recorded watch, each once (query order is the loop's, not the recording's).
    expect(paths.map(normalizedPath)).toEqual([LIST, WATCH].map(normalizedPath));
  });
});

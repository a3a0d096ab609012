// A watch session fed Protobuf watch bodies exactly as kube-apiserver v1.37 sent them
// (codecs/fixtures, captured with `Accept: application/vnd.kubernetes.protobuf;type=watch`): the
// 410 ERROR event the server sent after an API server restart lost the history, and a streaming
// list of one ConfigMap ending with its initial-events-end bookmark. A 410 in Protobuf must do what
// the JSON one does: the pane re-streams and replaces its state.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MuxClient, MuxRequest, MuxStream } from '../client';
import { WatchSession } from './session';
import { untilSnapshot } from './untilSnapshot.testkit';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../codecs/fixtures/${name}`, import.meta.url)));

/** Answers each open with the next body, cut in `chunk`-byte pieces, as the server's Content-Type says. */
function replay(bodies: Uint8Array[], chunk: number, opened: MuxRequest[]): Pick<MuxClient, 'open'> {
  return {
    open: async (req: MuxRequest): Promise<MuxStream> => {
      opened.push(req);
      const body = bodies[Math.min(opened.length - 1, bodies.length - 1)]!;
      let closed = false;
      return {
        status: 200,
        headers: { 'content-type': 'application/vnd.kubernetes.protobuf;stream=watch' },
        fromProxy: false,
        body: (async function* () {
          for (let o = 0; o < body.length && !closed; o += chunk) yield body.slice(o, o + chunk);
          // The last stream stays open, as a watch does; the 410 one ends after its ERROR event.
          if (body === bodies.at(-1)) await new Promise<void>(() => {});
        })(),
        close: () => void (closed = true),
        queued: () => 0,
      };
    },
  };
}

const until = untilSnapshot;

describe('a Protobuf watch session on the server’s bytes', () => {
  for (const chunk of [1, 7, 4096]) {
    it(`on the server's 410 ERROR event re-streams and replaces its state (chunks of ${chunk} bytes)`, async () => {
      const opened: MuxRequest[] = [];
      // watch-exact recovers from a 410 with a list (JSON, through the page's fetch): the one object the server had then.
      const list = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: '235' }, items: [{ metadata: { name: 'a', namespace: 'pbx', resourceVersion: '217' } }] };
      const s = new WatchSession(
        { context: 'c', group: '', version: 'v1', resource: 'configmaps', namespace: 'pbx', mode: 'watch-exact', resourceVersion: '217', bookmarks: true, asTable: false, encoding: 'protobuf' },
        { mux: replay([fixture('watch-error-410.pb'), fixture('watch-streaming-list.pb')], chunk, opened), fetchJson: <T,>() => Promise.resolve(list as T), backoffInitialMs: 1, backoffMaxMs: 1, schedule: (f) => setTimeout(f, 0) },
      );
      s.start();
      const snap = await until(s, (x) => x.objects.size === 1 && opened.length >= 2);
      s.stop();
      expect(opened[0]!.headers?.Accept).toBe('application/vnd.kubernetes.protobuf;type=watch, application/json');
      const entries = snap.entries.toArray();
      const error = entries.find((e) => e.kind === 'event' && e.type === 'ERROR');
      expect(error?.kind === 'event' && error.status).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 217 (235)', reason: 'Expired', code: 410 });
      expect(error?.kind === 'event' && error.wire?.length).toBe(fixture('watch-error-410.pb').length);
      // A 410 is not fatal: the pane recovered with a relist, then watched from its resourceVersion.
      expect(snap.fatal).toBeUndefined();
      expect(entries.some((e) => e.kind === 'note' && e.note === 'relist')).toBe(true);
      expect(new URLSearchParams(opened[1]!.path.split('?')[1]).get('resourceVersion')).toBe('235');
      expect([...snap.objects.keys()]).toEqual(['pbx/a']);
    });
  }

  it('a streaming list read from Protobuf frames: the initial event, then the end marker', async () => {
    const opened: MuxRequest[] = [];
    const s = new WatchSession({ context: 'c', group: '', version: 'v1', resource: 'configmaps', namespace: 'pbx', mode: 'stream', bookmarks: true, asTable: false, encoding: 'protobuf' }, { mux: replay([fixture('watch-streaming-list.pb')], 13, opened), schedule: (f) => setTimeout(f, 0) });
    s.start();
    const snap = await until(s, (x) => x.initialEventsDone);
    s.stop();
    const events = snap.entries.toArray().flatMap((e) => (e.kind === 'event' ? [[e.type, e.key, e.resourceVersion, e.origin, e.initialEventsEnd ?? false]] : []));
    expect(events).toEqual([
      ['ADDED', 'pbx/a', '217', 'initial', false],
      ['BOOKMARK', '', '217', 'initial', true],
    ]);
    expect(snap.contentType).toBe('application/vnd.kubernetes.protobuf;stream=watch');
    expect(snap.lastResourceVersion).toBe('217');
    expect(new Uint8Array(s.exportFrames())).toEqual(fixture('watch-streaming-list.pb'));
  });
});

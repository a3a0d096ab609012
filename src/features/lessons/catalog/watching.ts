// Lessons about watches and fresh reads: streaming lists, the initial-events-end bookmark,
// consistent reads and the 504 for a version the server has not reached.
import { compareResourceVersions } from '../../../k8s/rv';
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext, type WatchSeen } from '../kit';

const cm = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps${name ? `/${name}` : ''}`;
const END = 'k8s.io/initial-events-end';
const events = (x: KitExchange) => (Array.isArray(x.response) ? (x.response as WatchSeen[]) : []);
const endBookmark = (e: WatchSeen) => e.type === 'BOOKMARK' && e.annotations?.[END] === 'true';
const mine = 'labelSelector=explorer.lessons%2Flesson%3Dstream';

async function two(c: StepContext, topic: string): Promise<KitExchange[]> {
  const out: KitExchange[] = [];
  for (const name of ['first', 'second']) out.push(await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: label(topic) } } }));
  return out;
}

/** ADDED for both objects, and where the first initial-events-end bookmark falls. */
function initialShape(x: KitExchange): { added: string[]; endAt: number } {
  const es = events(x);
  const endAt = es.findIndex(endBookmark);
  const added = es.slice(0, endAt < 0 ? es.length : endAt).filter((e) => e.type === 'ADDED').map((e) => e.name ?? '');
  return { added: added.sort(), endAt };
}

export const streamingLists: KitLesson = {
  id: 'streaming-lists',
  topic: 'stream',
  title: 'Streaming lists: sendInitialEvents and the initial-events-end bookmark',
  scope: 'namespace',
  // Checked on 1.37.1; on 1.33.13 a step differs (CBOR, streaming lists, feature gates are off there).
  since: '1.37',
  paragraphs: [
    'A client that lists and then watches holds the whole list in memory at once, and so does the server. A streaming list asks the watch itself to start with the current state: `watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=` sends one synthetic `ADDED` per existing object, then a `BOOKMARK` whose annotation `k8s.io/initial-events-end: "true"` says "that was all of it, as of this resourceVersion", then the changes from there on.',
    'The server does not insist on `allowWatchBookmarks` here, but the end marker is a bookmark: without it, no marker comes. A plain watch with `resourceVersion` unset (or "0") also starts with synthetic ADDED events for what exists; on this server (streaming lists are on by default), when that watch allows bookmarks, the end of those events is marked by the same bookmark.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'watch', resource: 'configmaps', namespaced: true }],
  steps: [
    { id: 'create', title: 'Make two objects', text: 'Create ConfigMaps `first` and `second`.', lookFor: 'HTTP 201 twice.', run: (c) => two(c, 'stream'), check: (xs) => xs.filter((x) => x.status !== 201).map((x) => `${x.path}: HTTP ${x.status}`) },
    {
      id: 'stream',
      title: 'A streaming list',
      text: 'The watch with `sendInitialEvents=true`, `allowWatchBookmarks=true`, `resourceVersionMatch=NotOlderThan` and an empty `resourceVersion`, until the bookmark.',
      lookFor: 'Two `ADDED` events, `first` and `second`, then one `BOOKMARK` annotated `k8s.io/initial-events-end: "true"` with the resourceVersion of that state.',
      run: async (c) => [await c.watch(`${cm(c)}?${mine}&watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=`, { until: (es) => es.some(endBookmark), ms: 15_000 })],
      check: ([x]) => {
        const { added, endAt } = initialShape(x!);
        const { want, result } = expectations();
        want(x!.status === 200, `HTTP ${x!.status}`);
        want(added.join() === 'first,second', `ADDED before the bookmark: ${added.join() || 'none'}`);
        want(endAt >= 0, 'no initial-events-end bookmark');
        return result;
      },
      view: (c) => ({ label: 'Open a streaming-list pane in the Watch view', to: { view: 'watch', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps', extra: { mode: 'stream' } } }),
    },
    {
      id: 'without-bookmarks',
      title: 'The same without allowWatchBookmarks',
      text: 'Leave `allowWatchBookmarks` out. The server does not insist on it, but the end marker is a bookmark, and bookmarks were not allowed. The step watches for six seconds.',
      lookFor: 'HTTP 200 and the same two ADDED events, and no bookmark at all: without `allowWatchBookmarks` nothing tells the client that the initial state is complete. Always ask for bookmarks with a streaming list.',
      run: async (c) => [await c.watch(`${cm(c)}?${mine}&watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=`, { ms: 6000 })],
      check: ([x]) => {
        const { added, endAt } = initialShape(x!);
        const { want, result } = expectations();
        want(x!.status === 200, `HTTP ${x!.status}`);
        want(added.join() === 'first,second', `ADDED: ${added.join() || 'none'}`);
        want(endAt < 0 && !events(x!).some((e) => e.type === 'BOOKMARK'), 'a bookmark came although bookmarks were not allowed');
        return result;
      },
    },
    {
      id: 'unset',
      title: 'A plain watch with resourceVersion unset',
      text: '`watch=1&allowWatchBookmarks=true`, nothing else.',
      lookFor: 'The two synthetic `ADDED` events, then the `BOOKMARK` with `k8s.io/initial-events-end`: the end of the initial state is marked here too (so is it with `resourceVersion=0`).',
      run: async (c) => [await c.watch(`${cm(c)}?${mine}&watch=1&allowWatchBookmarks=true`, { until: (es) => es.some(endBookmark), ms: 15_000 })],
      check: ([x]) => {
        const { added, endAt } = initialShape(x!);
        const { want, result } = expectations();
        want(added.join() === 'first,second', `ADDED before the bookmark: ${added.join() || 'none'}`);
        want(endAt >= 0, 'no initial-events-end bookmark');
        return result;
      },
    },
    {
      id: 'invalid',
      title: 'sendInitialEvents without NotOlderThan',
      text: '`sendInitialEvents=true` with `resourceVersionMatch` left out.',
      lookFor: 'A 422 Invalid `Status` for the ListOptions: "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan".',
      run: async (c) => [await c.watch(`${cm(c)}?${mine}&watch=1&sendInitialEvents=true&allowWatchBookmarks=true`, { ms: 5000 })],
      check: ([x]) => (x!.status === 422 && String(field(x!.response, 'message')).includes('sendInitialEvents requires setting resourceVersionMatch to NotOlderThan') ? [] : [`HTTP ${x!.status}`]),
    },
  ],
};

export const bookmarks: KitLesson = {
  id: 'bookmarks',
  topic: 'bookmark',
  title: 'Bookmarks: progress without changes',
  scope: 'namespace',
  paragraphs: [
    'A watch sees only the objects it selects. When those do not change, its client\'s last resourceVersion grows old while the rest of the cluster moves on, and once that version has left the watch cache\'s window of recent changes (a bounded history, sized for about 75 seconds; etcd\'s compaction is not what decides it) it can no longer resume from there: 410 Gone (background here: on a freshly started server the window still reaches back to the start, so no version is old enough to show it). With `allowWatchBookmarks=true` the server may send `BOOKMARK` events: no object, only a newer `metadata.resourceVersion` to resume from.',
    'When, and how often, is the server\'s choice: a client must rely on no interval, nor on getting a bookmark at all. On this server a watch that ends quietly before anything else happened gets none; one during which the cluster moved on gets one before it ends.',
  ],
  needs: [{ verb: 'list', resource: 'configmaps', namespaced: true }, { verb: 'watch', resource: 'configmaps', namespaced: true }, { verb: 'create', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'quiet',
      title: 'A watch that sees nothing change',
      text: 'List the ConfigMaps labelled `watched=yes` (there are none), then watch them from the list\'s version with `allowWatchBookmarks=true&timeoutSeconds=8`. While it runs, the step creates a ConfigMap *without* that label: a change the watch does not select.',
      lookFor: 'No ADDED for the unlabelled ConfigMap. Before the server ends the watch at its timeout, a `BOOKMARK` whose resourceVersion is newer than the list\'s (by the KEP-5504 rule): the client learns that the cluster moved on, without seeing anything it did not ask for.',
      run: async (c) => {
        const sel = 'labelSelector=watched%3Dyes';
        const l = await c.send('GET', `${cm(c)}?${sel}`);
        const rv = String(field(l.response, 'metadata', 'resourceVersion'));
        c.memo.bookmarkListRV = rv;
        let other: KitExchange | undefined;
        const w = await c.watch(`${cm(c)}?${sel}&watch=1&allowWatchBookmarks=true&timeoutSeconds=8&resourceVersion=${rv}`, {
          ms: 25_000,
          during: async () => {
            other = await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'unwatched-', labels: label('bookmark') } } });
          },
        });
        return other ? [l, other, w] : [l, w];
      },
      show: (x) => (Array.isArray(x.response) ? x.response : { kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name'), resourceVersion: field(x.response, 'metadata', 'resourceVersion') } }),
      check: (xs, c) => {
        const { want, result } = expectations();
        const w = xs.at(-1)!;
        want(xs.length === 3 && xs[1]!.status === 201, 'the unwatched ConfigMap was not created');
        want(w.status === 200, `watch: HTTP ${w.status}`);
        const es = events(w);
        want(es.every((e) => e.type === 'BOOKMARK'), `events other than bookmarks: ${es.map((e) => e.type).join()}`);
        want(es.some((e) => (compareResourceVersions(e.resourceVersion ?? '', c.memo.bookmarkListRV ?? '') ?? 0) > 0), 'no bookmark newer than the list');
        return result;
      },
      view: (c) => ({ label: 'Watch with bookmarks in the Watch view', to: { view: 'watch', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps', extra: { bookmarks: '1' } } }),
    },
  ],
};

export const consistentReads: KitLesson = {
  id: 'consistent-reads',
  topic: 'fresh',
  title: 'Consistent reads from the cache, and 504 for a version not yet reached',
  scope: 'namespace',
  paragraphs: [
    'A list without `resourceVersion` must be as fresh as a read from etcd. Since 1.31 kube-apiserver serves it from its watch cache anyway: it asks etcd for the current revision (a cheap request), waits until the cache has caught up with it, and answers from memory. `resourceVersion=0` skips the wait and takes whatever the cache holds.',
    'A read that names a version the server has not reached (`resourceVersion` with `NotOlderThan`) waits a few seconds for the cache, then gives up with 504 Timeout, reason `Timeout`, message "Too large resource version", and a `retryAfterSeconds` hint.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'list', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'fresh',
      title: 'Write, then read without resourceVersion',
      text: 'Create `fresh`, then list the namespace with `resourceVersion` unset.',
      lookFor: 'The list\'s `resourceVersion` is not older than the create\'s (by the KEP-5504 rule), and `fresh` is in it.',
      run: async (c) => {
        const w = await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fresh', labels: label('fresh') } } });
        c.memo.freshRV = String(field(w.response, 'metadata', 'resourceVersion'));
        return [w, await c.send('GET', cm(c))];
      },
      // The create answers the object, the list a list: each shown as what it is.
      show: (x) =>
        x.method === 'GET'
          ? { kind: field(x.response, 'kind'), metadata: { resourceVersion: field(x.response, 'metadata', 'resourceVersion') }, items: ((field(x.response, 'items') as { metadata: { name: string } }[] | undefined) ?? []).map((i) => i.metadata.name) }
          : { kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name'), resourceVersion: field(x.response, 'metadata', 'resourceVersion') } },
      check: ([w, l]) => {
        const { want, result } = expectations();
        want(w!.status === 201, `create: HTTP ${w!.status}`);
        const cmp = compareResourceVersions(String(field(l!.response, 'metadata', 'resourceVersion')), String(field(w!.response, 'metadata', 'resourceVersion')));
        want(cmp !== undefined && cmp >= 0, 'the list is older than the write');
        want(((field(l!.response, 'items') as { metadata: { name: string } }[]) ?? []).some((i) => i.metadata.name === 'fresh'), '`fresh` is missing');
        return result;
      },
    },
    {
      id: 'too-large',
      title: 'Ask for a version far ahead',
      text: 'List with `resourceVersionMatch=NotOlderThan` and a `resourceVersion` with three more digits than the current one.',
      lookFor: 'After a few seconds of waiting: 504, reason `Timeout`, "Too large resource version", with `details.retryAfterSeconds`.',
      run: async (c) => {
        const future = `${c.memo.freshRV || '1'}000`;
        return [await c.send('GET', `${cm(c)}?resourceVersion=${future}&resourceVersionMatch=NotOlderThan`)];
      },
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 504 && field(x!.response, 'reason') === 'Timeout', `HTTP ${x!.status} ${String(field(x!.response, 'reason'))}`);
        want(String(field(x!.response, 'message')).includes('Too large resource version'), `message ${String(field(x!.response, 'message'))}`);
        return result;
      },
    },
  ],
};

const fromRv = 'labelSelector=explorer.lessons%2Flesson%3Dstreamrv';
const streamFrom = (c: StepContext, rv: string) => `${cm(c)}?${fromRv}&watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=${rv}`;
const endRv = (x: KitExchange) => events(x).find(endBookmark)?.resourceVersion ?? '';
const notOlder = (a: string, b: string) => (compareResourceVersions(a, b) ?? -1) >= 0;

/** The streaming list's initial state: first, second and third ADDED, then the end bookmark, not older than `floor`. */
function checkInitialState(x: KitExchange, c: StepContext, floor: string): string[] {
  const { added, endAt } = initialShape(x);
  const { want, result } = expectations();
  want(x.status === 200, `HTTP ${x.status}`);
  want(added.join() === 'first,second,third', `ADDED before the bookmark: ${added.join() || 'none'}`);
  want(endAt >= 0, 'no initial-events-end bookmark');
  want(endAt < 0 || notOlder(endRv(x), floor), `the bookmark's resourceVersion ${endRv(x)} is older than ${floor}`);
  want(endAt < 0 || notOlder(endRv(x), c.memo.thirdRV ?? ''), `the bookmark's resourceVersion ${endRv(x)} is older than the create of third (${c.memo.thirdRV})`);
  return result;
}

export const streamingListFromRv: KitLesson = {
  id: 'streaming-list-from-rv',
  topic: 'streamrv',
  title: 'A streaming list from a given resourceVersion',
  scope: 'namespace',
  // Checked on 1.37.1; 1.33.13 (the skew run) refuses the streaming list itself with 422.
  since: '1.37',
  paragraphs: [
    'A streaming list (`sendInitialEvents=true` with `resourceVersionMatch=NotOlderThan`) may name a `resourceVersion`. It is a floor, not a point in time: the server sends the objects as they are now (or at a state at least that new), one synthetic `ADDED` each, and ends them with the `k8s.io/initial-events-end` bookmark, whose resourceVersion is not older than the one asked. A client that saw version N somewhere (a write it made, an earlier list) uses this to get a state that includes it, without a list.',
    'That is not what `resourceVersion` means in a plain watch, where it is the point to continue from: only the changes after it come. Step 2 shows the difference on the same objects. A version the server has not reached yet is waited for briefly and then refused inside the watch; a very old one is no problem for a streaming list, since the current state is newer than it (background, from the bookmarks lesson: a plain watch from a version that left the watch cache\'s window gets 410 Gone instead).',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'list', resource: 'configmaps', namespaced: true }, { verb: 'watch', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'before',
      title: 'Two objects, a list, and one more object',
      text: 'Create ConfigMaps `first` and `second`, list them (the list\'s `resourceVersion` is the version the next steps give), then create `third`.',
      lookFor: 'HTTP 201, 200 with two items, 201: `third` is newer than the list.',
      run: async (c) => {
        const [a, b] = await two(c, 'streamrv');
        const l = await c.send('GET', `${cm(c)}?${fromRv}`);
        c.memo.listRV = String(field(l.response, 'metadata', 'resourceVersion') ?? '');
        const third = await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'third', labels: label('streamrv') } } });
        c.memo.thirdRV = String(field(third.response, 'metadata', 'resourceVersion') ?? '');
        return [a!, b!, l, third];
      },
      show: (x) => (x.method === 'GET' ? { kind: field(x.response, 'kind'), metadata: field(x.response, 'metadata'), items: ((field(x.response, 'items') as { metadata: { name: string } }[] | undefined) ?? []).map((i) => i.metadata.name) } : { metadata: { name: field(x.response, 'metadata', 'name'), resourceVersion: field(x.response, 'metadata', 'resourceVersion') } }),
      check: ([a, b, l, third], c) => {
        const { want, result } = expectations();
        want(a!.status === 201 && b!.status === 201 && third!.status === 201, `creates: HTTP ${a!.status}, ${b!.status}, ${third!.status}`);
        want(l!.status === 200 && ((field(l!.response, 'items') as unknown[] | undefined) ?? []).length === 2, `list: HTTP ${l!.status}`);
        want((compareResourceVersions(c.memo.thirdRV ?? '', c.memo.listRV ?? '') ?? 0) > 0, `third (${c.memo.thirdRV}) is not newer than the list (${c.memo.listRV})`);
        return result;
      },
    },
    {
      id: 'plain-from-rv',
      title: 'A plain watch from the list\'s version',
      text: 'The watch without `sendInitialEvents`, from the list\'s `resourceVersion`, until `third` arrives (at most eight seconds).',
      lookFor: 'One `ADDED`, for `third` alone: a plain watch continues after the version it is given, so `first` and `second`, older, do not come.',
      run: async (c) => [await c.watch(`${cm(c)}?${fromRv}&watch=1&resourceVersion=${c.memo.listRV}`, { until: (es) => es.some((e) => e.name === 'third'), ms: 8000 })],
      check: ([x]) => {
        const names = events(x!).filter((e) => e.type === 'ADDED').map((e) => e.name ?? '');
        return x!.status === 200 && names.join() === 'third' ? [] : [`HTTP ${x!.status}, ADDED: ${names.join() || 'none'}`];
      },
    },
    {
      id: 'stream-from-rv',
      title: 'A streaming list from the same version',
      text: '`sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true` with the list\'s `resourceVersion`, until the end bookmark.',
      lookFor: 'Three `ADDED` events, `first`, `second` and `third` (the objects as they are now, `third` included though it is newer than the version asked), then the `BOOKMARK` annotated `k8s.io/initial-events-end: "true"`, whose resourceVersion is not older than the list\'s nor than `third`\'s create (KEP-5504 rule).',
      run: async (c) => [await c.watch(streamFrom(c, c.memo.listRV ?? ''), { until: (es) => es.some(endBookmark), ms: 15_000 })],
      check: ([x], c) => checkInitialState(x!, c, c.memo.listRV ?? ''),
      view: (c) => ({ label: 'Open a streaming-list pane in the Watch view', to: { view: 'watch', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps', extra: { mode: 'stream' } } }),
    },
    {
      id: 'old-rv',
      title: 'A very old version',
      text: 'The same streaming list with `resourceVersion=1`, the oldest version there is.',
      lookFor: 'HTTP 200 and the same three `ADDED` and the end bookmark, no error: "not older than 1" is satisfied by the current state.',
      run: async (c) => [await c.watch(streamFrom(c, '1'), { until: (es) => es.some(endBookmark), ms: 15_000 })],
      check: ([x], c) => checkInitialState(x!, c, '1'),
    },
    {
      id: 'future-rv',
      title: 'A version the server has not reached',
      text: 'The same streaming list with the list\'s `resourceVersion` followed by three more digits.',
      lookFor: 'The watch opens (HTTP 200), no `ADDED` comes; after a few seconds of waiting one `ERROR` event carrying a Status 504, reason `Timeout`, "Too large resource version", and the stream ends.',
      run: async (c) => [await c.watch(streamFrom(c, `${c.memo.listRV}000`), { until: (es) => es.some((e) => e.type === 'ERROR'), ms: 20_000 })],
      check: ([x]) => {
        const es = events(x!);
        const err = es.find((e) => e.type === 'ERROR');
        const { want, result } = expectations();
        want(x!.status === 200, `HTTP ${x!.status}`);
        want(!es.some((e) => e.type === 'ADDED'), `ADDED: ${es.filter((e) => e.type === 'ADDED').map((e) => e.name).join()}`);
        want(err?.code === 504 && err.reason === 'Timeout' && String(err.message).includes('Too large resource version'), `no ERROR 504 Timeout "Too large resource version" (${JSON.stringify(err ?? null)})`);
        return result;
      },
    },
  ],
};

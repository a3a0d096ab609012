// The four lessons that were components of their own (resourceVersion, chunked lists, watch,
// Server-Side Apply), now data for the kit: every sentence about the server is a step's check or
// said to be background. Seen on kube-apiserver 1.37.1 and 1.33.13.
import { compareResourceVersions } from '../../../k8s/rv';
import { ownership } from '../exchange';
import { alike, expectations, field, type KitExchange, type KitLesson, label, type StepContext, type WatchSeen } from '../kit';

const cm = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps${name ? `/${name}` : ''}`;
const rvOf = (x: KitExchange) => String(field(x.response, 'metadata', 'resourceVersion') ?? '');
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const newer = (a: string, b: string) => compareResourceVersions(a, b) === 1;
const notOlder = (a: string, b: string) => (compareResourceVersions(a, b) ?? -1) >= 0;
const items = (x: KitExchange) => (field(x.response, 'items') as { metadata: { name: string; resourceVersion: string }; data?: Record<string, string> }[] | undefined) ?? [];

// --- resourceVersion ---

const RV = 'rv-demo';
const rvBody = (step: string, resourceVersion?: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: RV, labels: label('rv'), ...(resourceVersion ? { resourceVersion } : {}) }, data: { step } });

export const resourceVersions: KitLesson = {
  id: 'resource-versions',
  topic: 'rv',
  title: 'resourceVersion: what it promises, and what reads do with it',
  scope: 'namespace',
  paragraphs: [
    'Every object carries `metadata.resourceVersion`, and the server replaces it on every write. Clients send it back for two reasons: to make a write conditional (a write carrying an outdated version is refused with 409), and to say how fresh a read must be.',
    'What may a client do with the value? Since Kubernetes 1.35 (KEP-5504) the resourceVersions of one resource are ordered, and a client may compare them: a shorter decimal string is older, equal lengths compare character by character (the explorer does it with `compareResourceVersions`). Before 1.35 the API promised only equality; kube-apiserver\'s values (etcd revisions) compared the same way there too, which step 1 checks on either release, but an aggregated API server may hand out values of any form, and then only equality holds. Never subtract them, nor expect them to grow by one: every write anywhere in the cluster moves the counter.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'update', resource: 'configmaps', namespaced: true }, { verb: 'list', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'writes',
      title: 'Write, and see the version change',
      text: `Create the ConfigMap \`${RV}\`, then PUT it twice, each time with the \`resourceVersion\` of the answer before.`,
      lookFor: 'A 201 and two 200s, each with a new `resourceVersion`, each newer than the one before by the KEP-5504 rule.',
      run: async (c) => {
        const out = [await c.send('POST', cm(c), { body: rvBody('created') })];
        for (const step of ['updated once', 'updated twice']) out.push(await c.send('PUT', cm(c, RV), { body: rvBody(step, rvOf(out.at(-1)!)) }));
        c.memo.firstRV = rvOf(out[0]!);
        c.memo.lastRV = rvOf(out[2]!);
        return out;
      },
      show: (x) => (x.status < 300 ? { metadata: { resourceVersion: field(x.response, 'metadata', 'resourceVersion') }, data: field(x.response, 'data') } : x.response),
      check: ([a, b, d]) => {
        const { want, result } = expectations();
        want(a!.status === 201 && b!.status === 200 && d!.status === 200, `HTTP ${a!.status}, ${b!.status}, ${d!.status}`);
        want(newer(rvOf(b!), rvOf(a!)) && newer(rvOf(d!), rvOf(b!)), `versions ${rvOf(a!)}, ${rvOf(b!)}, ${rvOf(d!)} do not grow`);
        return result;
      },
    },
    {
      id: 'reads',
      title: 'Read it back at different versions',
      text: 'GET the object with `resourceVersion` "0", unset, and the first version; then list it (by name) at the first version with `resourceVersionMatch=Exact` and `NotOlderThan`.',
      lookFor:
        '"0": any version will do (the watch cache may lag behind). Unset: the most recent state, "updated twice". A GET with the first version means "at least this new": the server answers with the current object, not the one you named. Exact (lists only): the collection as it was, "created", at exactly that version. NotOlderThan: the version as a lower bound, so the current state.',
      blocked: (c) => (c.memo.firstRV ? undefined : 'step 1 did not run.'),
      run: async (c) => {
        const first = c.memo.firstRV!;
        const list = (match: string) => `${cm(c)}?${new URLSearchParams({ fieldSelector: `metadata.name=${RV}`, resourceVersion: first, resourceVersionMatch: match }).toString()}`;
        return [
          await c.send('GET', `${cm(c, RV)}?resourceVersion=0`),
          await c.send('GET', cm(c, RV)),
          await c.send('GET', `${cm(c, RV)}?resourceVersion=${encodeURIComponent(first)}`),
          await c.send('GET', list('Exact')),
          await c.send('GET', list('NotOlderThan')),
        ];
      },
      show: (x) => (field(x.response, 'items') ? { metadata: { resourceVersion: rvOf(x) }, items: items(x).map((i) => ({ resourceVersion: i.metadata.resourceVersion, data: i.data })) } : { metadata: { resourceVersion: rvOf(x) }, data: field(x.response, 'data') }),
      check: ([zero, unset, old, exact, notOlderThan], c) => {
        const { want, result } = expectations();
        const data = (x: KitExchange) => field(x.response, 'data', 'step');
        want(zero!.status === 200, `resourceVersion=0: HTTP ${zero!.status}`);
        want(unset!.status === 200 && data(unset!) === 'updated twice', `unset: HTTP ${unset!.status}, ${String(data(unset!))}`);
        want(old!.status === 200 && notOlder(rvOf(old!), c.memo.firstRV!), `GET at the first version: HTTP ${old!.status}, version ${rvOf(old!)}`);
        want(exact!.status === 200 && rvOf(exact!) === c.memo.firstRV && items(exact!)[0]?.data?.step === 'created', `Exact: HTTP ${exact!.status} ${msg(exact!)}, ${JSON.stringify(items(exact!)[0]?.data)}`);
        want(notOlderThan!.status === 200 && notOlder(rvOf(notOlderThan!), c.memo.lastRV!) && items(notOlderThan!)[0]?.data?.step === 'updated twice', `NotOlderThan: HTTP ${notOlderThan!.status}, list version ${rvOf(notOlderThan!)}`);
        return result;
      },
      view: () => ({ label: 'Every combination in the resourceVersion lab', to: { view: 'lessons', extra: { lesson: 'rv-lab' } } }),
    },
  ],
};

// --- chunked lists ---

const COUNT = 25;
const LIMIT = 10;

/** Walks the collection LIMIT at a time, following `continue`, and returns every page. */
async function pages(c: StepContext, query: string): Promise<KitExchange[]> {
  const out: KitExchange[] = [];
  let token = '';
  do {
    const x = await c.send('GET', `${cm(c)}?limit=${LIMIT}${query}${token ? `&continue=${encodeURIComponent(token)}` : ''}`, { accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' });
    out.push(x);
    token = x.status === 200 ? String(field(x.response, 'metadata', 'continue') ?? '') : '';
  } while (token && out.length < 10);
  return out;
}
const pageShow = (x: KitExchange) => ({ items: items(x).length, metadata: field(x.response, 'metadata') });
const remaining = (x: KitExchange) => field(x.response, 'metadata', 'remainingItemCount') as number | undefined;

export const chunkedLists: KitLesson = {
  id: 'chunked-lists',
  topic: 'chunks',
  title: 'Chunked lists: limit, continue and remainingItemCount',
  scope: 'namespace',
  paragraphs: [
    `A client that sets \`limit\` gets at most that many items, plus a \`continue\` token when there are more. Passing the token back returns the next chunk. Here you create ${COUNT} ConfigMaps and walk through them ${LIMIT} at a time, watching which list metadata stays the same from page to page and which changes.`,
    'Each chunk is read at the first chunk\'s resourceVersion, so the pages fit together as one snapshot. That holds only while etcd keeps that revision; after a compaction (kube-apiserver asks for one every five minutes by default) the next page is refused with 410 Gone, reason `Expired`, and the Status carries a fresh token to read the rest at a newer version (background here: the Lists view shows it when it happens, and the explorer\'s tests compact etcd on purpose to see it).',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'list', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'fill',
      title: `Fill the namespace with ${COUNT} ConfigMaps`,
      text: `Create \`chunk-01\` … \`chunk-${COUNT}\`.`,
      lookFor: `HTTP 201, ${COUNT} times (the first and the last are shown). The namespace also holds \`kube-root-ca.crt\`, which kube-controller-manager puts into every namespace: an unfiltered list finds one object more.`,
      run: async (c) => {
        const out: KitExchange[] = [];
        for (let i = 1; i <= COUNT; i++) out.push(await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `chunk-${String(i).padStart(2, '0')}`, labels: label('chunks') }, data: { n: String(i) } } }));
        return alike(out);
      },
      show: (x) => ({ metadata: { name: field(x.response, 'metadata', 'name') } }),
      check: (xs) => (xs.every((x) => x.status === 201) ? [] : xs.filter((x) => x.status !== 201).map((x) => `HTTP ${x.status} ${msg(x)}`)),
    },
    {
      id: 'pages',
      title: `List it ${LIMIT} at a time`,
      text: `GET the collection with \`limit=${LIMIT}\` (metadata only, to keep the pages small), then again with each \`continue\` token until there is none.`,
      lookFor: `Three pages of 10, 10 and the rest. The same \`metadata.resourceVersion\` on every page: one snapshot. \`remainingItemCount\` counts down, and the last page has neither it nor a \`continue\`.`,
      run: (c) => pages(c, ''),
      show: pageShow,
      check: (xs) => {
        const { want, result } = expectations();
        const n = xs.map((x) => items(x).length);
        const total = n.reduce((a, b) => a + b, 0);
        want(xs.every((x) => x.status === 200), `HTTP ${xs.map((x) => x.status).join(', ')}`);
        want(xs.length === 3 && n[0] === LIMIT && n[1] === LIMIT && total >= COUNT, `page sizes ${n.join(', ')}`);
        want(new Set(xs.map(rvOf)).size === 1, `list versions ${xs.map(rvOf).join(', ')}`);
        want(remaining(xs[0]!) === total - LIMIT && remaining(xs[1]!) === total - 2 * LIMIT, `remainingItemCount ${xs.map(remaining).join(', ')}`);
        want(remaining(xs.at(-1)!) === undefined && !field(xs.at(-1)!.response, 'metadata', 'continue'), 'the last page has a token or a count');
        return result;
      },
      view: (c) => ({ label: 'Page through it in the Lists view', to: { view: 'lists', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps', extra: { limit: String(LIMIT) } } }),
    },
    {
      id: 'selector',
      title: 'The same with a label selector',
      text: `The same walk with \`labelSelector=explorer.lessons/lesson=chunks\`: only the lesson's own ${COUNT}.`,
      lookFor: '10, 10 and 5 items, one version, and no `remainingItemCount` at all: with a selector the server cannot know how many are left without reading them all, so it leaves the count out.',
      run: (c) => pages(c, '&labelSelector=explorer.lessons%2Flesson%3Dchunks'),
      show: pageShow,
      check: (xs) => {
        const { want, result } = expectations();
        want(xs.map((x) => items(x).length).join() === '10,10,5', `page sizes ${xs.map((x) => items(x).length).join(', ')}`);
        want(new Set(xs.map(rvOf)).size === 1, `list versions ${xs.map(rvOf).join(', ')}`);
        want(xs.every((x) => remaining(x) === undefined), `remainingItemCount ${xs.map(remaining).join(', ')}`);
        return result;
      },
    },
  ],
};

// --- watch ---

const events = (x: KitExchange) => (Array.isArray(x.response) ? (x.response as WatchSeen[]) : []);

export const watchLesson: KitLesson = {
  id: 'watch',
  topic: 'watch',
  title: 'Watch: events from a resourceVersion on',
  scope: 'namespace',
  paragraphs: [
    'A watch is a long-running GET that streams one event per change: `ADDED`, `MODIFIED`, `DELETED`, and, when asked for, `BOOKMARK`. Starting it from the resourceVersion of a list means no change between the list and the watch is lost or seen twice.',
    'A watch can start only from a version the server still holds: kube-apiserver serves watches from its watch cache, a bounded window of recent changes; an older version gets an `ERROR` event with 410 Gone, and the client lists again (background: a freshly started server still holds every change since it started, so this lesson cannot show it).',
  ],
  needs: [{ verb: 'list', resource: 'configmaps', namespaced: true }, { verb: 'watch', resource: 'configmaps', namespaced: true }, { verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'update', resource: 'configmaps', namespaced: true }, { verb: 'delete', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'changes',
      title: 'List, watch from its version, and make three changes',
      text: 'List the ConfigMaps named `watched` (none yet), watch from the list\'s `resourceVersion`, and while the watch runs create `watched`, update it and delete it.',
      lookFor: 'Three events, `ADDED`, `MODIFIED`, `DELETED`, each carrying the `resourceVersion` the write answered with (the delete: a version newer than the update\'s).',
      run: async (c) => {
        const sel = 'fieldSelector=metadata.name%3Dwatched';
        const l = await c.send('GET', `${cm(c)}?${sel}`);
        const writes: KitExchange[] = [];
        // The DELETED event can arrive before the DELETE's own answer: wait for the writes too.
        let wrote: Promise<void> = Promise.resolve();
        const w = await c.watch(`${cm(c)}?${sel}&watch=1&resourceVersion=${encodeURIComponent(rvOf(l))}`, {
          until: (es) => es.some((e) => e.type === 'DELETED'),
          ms: 20_000,
          during: () =>
            (wrote = (async () => {
              const body = (v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched', labels: label('watch') }, data: { v } });
              writes.push(await c.send('POST', cm(c), { body: body('1') }));
              writes.push(await c.send('PUT', cm(c, 'watched'), { body: body('2') }));
              writes.push(await c.send('DELETE', cm(c, 'watched')));
            })()),
        });
        await wrote;
        return [l, ...writes, w];
      },
      show: (x) => (Array.isArray(x.response) ? x.response : x.status < 300 ? { metadata: { name: field(x.response, 'metadata', 'name'), resourceVersion: field(x.response, 'metadata', 'resourceVersion') } } : x.response),
      check: (xs) => {
        const { want, result } = expectations();
        const w = xs.at(-1)!;
        const [, post, put, del] = xs;
        want(xs.length === 5 && post!.status === 201 && put!.status === 200 && del!.status === 200, `writes: ${xs.slice(1, -1).map((x) => x.status).join(', ')}`);
        const es = events(w).filter((e) => e.type !== 'BOOKMARK');
        want(es.map((e) => e.type).join() === 'ADDED,MODIFIED,DELETED', `events: ${es.map((e) => e.type).join(', ')}`);
        want(es[0]?.resourceVersion === rvOf(post!) && es[1]?.resourceVersion === rvOf(put!), `versions ${es.map((e) => e.resourceVersion).join(', ')} (writes ${rvOf(post!)}, ${rvOf(put!)})`);
        want(newer(es[2]?.resourceVersion ?? '', rvOf(put!)), `the DELETED event's version ${es[2]?.resourceVersion} is not newer than the update's`);
        return result;
      },
      view: (c) => ({ label: 'Watch them in the Watch view', to: { view: 'watch', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps' } }),
    },
  ],
};

// --- Server-Side Apply ---

const APPLIED = 'applied';
const applyBody = (c: StepContext, color: string, extra: Record<string, string> = {}) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: APPLIED, namespace: c.ns }, data: { color, ...extra } }, null, 2);
const apply = (c: StepContext, manager: string, body: string, force = false) =>
  c.send('PATCH', `${cm(c, APPLIED)}?fieldManager=${manager}${force ? '&force=true' : ''}`, { body, contentType: 'application/apply-patch+yaml' });
const owns = (x: KitExchange, manager: string) => ownership(x.response).find((e) => e.manager === manager)?.fields ?? [];
const applyShow = (x: KitExchange) => (field(x.response, 'kind') === 'Status' ? x.response : { data: field(x.response, 'data'), managedFields: ownership(x.response) });

export const serverSideApply: KitLesson = {
  id: 'server-side-apply',
  topic: 'apply',
  title: 'Server-Side Apply: field managers and conflicts',
  scope: 'namespace',
  paragraphs: [
    'With Server-Side Apply a client sends only the fields it cares about, under a name of its own (`fieldManager`), and the server records in `metadata.managedFields` which manager owns which field. Two managers who want different values for one field conflict. Here alice and bob take turns.',
  ],
  needs: [{ verb: 'patch', resource: 'configmaps', namespaced: true }, { verb: 'create', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'alice',
      title: 'alice applies',
      text: 'alice applies `color: blue` and `size: small` (the object does not exist yet: apply creates it).',
      lookFor: 'HTTP 201, and a `managedFields` entry for alice, operation `Apply`, owning `.data.color` and `.data.size`.',
      run: async (c) => [await apply(c, 'alice', applyBody(c, 'blue', { size: 'small' }))],
      show: applyShow,
      check: ([x]) => (x!.status === 201 && owns(x!, 'alice').includes('.data.color') && owns(x!, 'alice').includes('.data.size') ? [] : [`HTTP ${x!.status}, alice owns ${owns(x!, 'alice').join(', ')}`]),
    },
    {
      id: 'bob-conflict',
      title: 'bob applies another color',
      text: 'bob applies `color: green`.',
      lookFor: '409 Conflict: one cause per field, reason `FieldManagerConflict`, naming `.data.color` and alice. Rather than silently overwrite another manager\'s intent, the server refuses the whole apply; nothing changes.',
      run: async (c) => [await apply(c, 'bob', applyBody(c, 'green')), await c.send('GET', cm(c, APPLIED))],
      show: applyShow,
      check: ([x, after]) => {
        const { want, result } = expectations();
        const causes = (field(x!.response, 'details', 'causes') as { reason?: string; field?: string; message?: string }[] | undefined) ?? [];
        want(x!.status === 409 && field(x!.response, 'reason') === 'Conflict', `HTTP ${x!.status}`);
        want(causes.some((k) => k.reason === 'FieldManagerConflict' && k.field === '.data.color' && String(k.message).includes('"alice"')), `causes: ${JSON.stringify(causes)}`);
        want(field(after!.response, 'data', 'color') === 'blue', 'the color changed anyway');
        return result;
      },
    },
    {
      id: 'bob-force',
      title: 'bob applies with force',
      text: 'bob applies `color: green` again, with `force=true`.',
      lookFor: 'HTTP 200 and `color: green`. bob now owns `.data.color`; alice keeps `.data.size`, which bob did not mention. Had both applied the same value, they would share the field instead of conflicting.',
      run: async (c) => [await apply(c, 'bob', applyBody(c, 'green'), true)],
      show: applyShow,
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 200 && field(x!.response, 'data', 'color') === 'green', `HTTP ${x!.status}`);
        want(owns(x!, 'bob').includes('.data.color') && !owns(x!, 'alice').includes('.data.color'), `bob owns ${owns(x!, 'bob').join(', ')}; alice owns ${owns(x!, 'alice').join(', ')}`);
        want(owns(x!, 'alice').includes('.data.size'), 'alice lost .data.size');
        return result;
      },
      view: (c) => ({ label: 'See the object in the Ownership view', to: { view: 'ownership', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps', name: APPLIED } }),
    },
  ],
};

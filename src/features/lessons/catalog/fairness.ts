// API Priority and Fairness, seen from a client: every response names (by UID) the FlowSchema that
// classified the request and the priority level that ran it (X-Kubernetes-PF-FlowSchema-UID and
// X-Kubernetes-PF-PriorityLevel-UID, set even on a 429: apiserver/pkg/server/filters/priority-and-fairness.go,
// setResponseHeaders; UIDs and not names, so as not to tell a throttled client how it is classified).
// A priority level with no seats of its own and no borrowing rejects, or queues and then rejects,
// every request it gets: the lesson points one FlowSchema at it for the second user's reads of one
// namespace. A queued request waits at most a quarter of its deadline (the `timeout` parameter),
// priority-and-fairness.go getRequestWaitContext. Cluster-scoped objects named after the scratch
// namespace, removed at the end.
import { expectations, field, type KitExchange, type KitLesson, label, retryUntil, type StepContext } from '../kit';

const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';
const VIEWER_CONTEXT = 'local-viewer';
const FS_HEADER = 'x-kubernetes-pf-flowschema-uid';
const PL_HEADER = 'x-kubernetes-pf-prioritylevel-uid';
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? (typeof x.response === 'string' ? x.response.trim() : ''));
const cm = (c: StepContext) => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps`;
const tiny = (c: StepContext) => `${c.ns}-tiny`;
/** The names of the objects a list holds, by UID. */
const namesByUid = (x: KitExchange) => new Map(((field(x.response, 'items') as { metadata: { name: string; uid: string } }[] | undefined) ?? []).map((o) => [o.metadata.uid, o.metadata.name]));
const noSecondUser = (c: StepContext) => (c.memo.viewer ? undefined : `no second user (step 1): this explorer has no \`${VIEWER_CONTEXT}\` context.`);
const classified = (x: KitExchange) => ({ status: x.status, [FS_HEADER]: x.responseHeaders[FS_HEADER] ?? '(none)', [PL_HEADER]: x.responseHeaders[PL_HEADER] ?? '(none)', ...(x.responseHeaders['retry-after'] ? { 'retry-after': x.responseHeaders['retry-after'] } : {}) });
const names = (x: KitExchange) => (field(x.response, 'kind') === 'Status' || x.status >= 300 ? x.response : ((field(x.response, 'items') as { metadata: { name: string; uid: string } }[] | undefined)?.map((o) => `${o.metadata.name} ${o.metadata.uid}`) ?? { metadata: { name: field(x.response, 'metadata', 'name'), uid: field(x.response, 'metadata', 'uid') } }));
const show = (x: KitExchange) => (x.path.startsWith(FC) ? names(x) : classified(x));

const removeAll = async (c: StepContext) => [await c.send('DELETE', `${FC}/flowschemas/${tiny(c)}`), await c.send('DELETE', `${FC}/prioritylevelconfigurations/${tiny(c)}`)];

export const priorityAndFairness: KitLesson = {
  id: 'priority-and-fairness',
  topic: 'apf',
  title: 'API Priority and Fairness: which flow and level took a request, and a level without seats',
  scope: 'cluster',
  clusterObjects: 'a PriorityLevelConfiguration with no seats and a FlowSchema that sends it only the second user\'s reads of ConfigMaps in the scratch namespace, both named after that namespace',
  paragraphs: [
    'Before authorization, every request is classified: the FlowSchemas are tried by `matchingPrecedence` (lowest first), and the first whose subjects and rules match the request sends it to its PriorityLevelConfiguration. A level has seats (a share of the server\'s concurrency, `nominalConcurrencyShares`, plus what it may borrow); a request waits in one of its queues for a seat, or is refused with 429 Too Many Requests and a `Retry-After` header. A queued request waits at most a quarter of its deadline (its `timeout` parameter, 60 s by default) and at most a minute.',
    'The answer names the FlowSchema and the priority level by UID, in the `X-Kubernetes-PF-FlowSchema-UID` and `X-Kubernetes-PF-PriorityLevel-UID` headers; the lists of both kinds map them to names. When the total of a request exceeds 500 ms, its audit event also has `apiserver.latency.k8s.io/apf-queue-wait`: how long it waited for a seat.',
    `The second user is the \`${VIEWER_CONTEXT}\` context of the local control plane: its reads are the ones the lesson sends to the full level, so nothing else on the cluster is slowed. On other clusters the steps that need it say so and do not run.`,
  ],
  needs: [
    { verb: 'list', group: 'flowcontrol.apiserver.k8s.io', resource: 'flowschemas' },
    { verb: 'list', group: 'flowcontrol.apiserver.k8s.io', resource: 'prioritylevelconfigurations' },
    ...['flowschemas', 'prioritylevelconfigurations'].flatMap((resource) => ['create', 'delete'].map((verb) => ({ verb, group: 'flowcontrol.apiserver.k8s.io', resource }))),
    { verb: 'patch', group: 'flowcontrol.apiserver.k8s.io', resource: 'prioritylevelconfigurations' },
  ],
  steps: [
    {
      id: 'classified',
      title: 'Which FlowSchema and priority level took a request',
      text: `List the ConfigMaps of the scratch namespace as you; ask who the second user (\`${VIEWER_CONTEXT}\`) is with a SelfSubjectReview; then list the FlowSchemas and PriorityLevelConfigurations to turn the two headers' UIDs into names.`,
      lookFor: 'Both answers carry the two headers, and each UID is one of the listed objects. As a member of `system:masters` you are classified by the `exempt` FlowSchema into the `exempt` level (never queued); the second user, authenticated and nothing more, by a FlowSchema of lower priority (`global-default` on a default cluster).',
      run: async (c) => {
        const mine = await c.send('GET', cm(c));
        let theirs: KitExchange | undefined;
        try {
          theirs = await c.sendAs(VIEWER_CONTEXT, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
        } catch {
          // No such context on this explorer: the steps that need the second user are blocked.
        }
        const fs = await c.send('GET', `${FC}/flowschemas`);
        const pl = await c.send('GET', `${FC}/prioritylevelconfigurations`);
        const fsNames = namesByUid(fs);
        const plNames = namesByUid(pl);
        c.memo.mineFs = fsNames.get(mine.responseHeaders[FS_HEADER] ?? '') ?? '';
        c.memo.minePl = plNames.get(mine.responseHeaders[PL_HEADER] ?? '') ?? '';
        if (theirs) {
          c.memo.viewer = String(field(theirs.response, 'status', 'userInfo', 'username') ?? '');
          c.memo.viewerFs = fsNames.get(theirs.responseHeaders[FS_HEADER] ?? '') ?? '';
          c.memo.viewerPl = plNames.get(theirs.responseHeaders[PL_HEADER] ?? '') ?? '';
        }
        return [mine, ...(theirs ? [theirs] : []), fs, pl];
      },
      show,
      check: (_xs, c) => {
        const { want, result } = expectations();
        want(!!c.memo.mineFs && !!c.memo.minePl, `your request's UIDs name no FlowSchema or level (${c.memo.mineFs || '?'} / ${c.memo.minePl || '?'})`);
        want(!!c.memo.viewer && !!c.memo.viewerFs && !!c.memo.viewerPl, `the second user: no context, or UIDs that name nothing (${c.memo.viewerFs || '?'} / ${c.memo.viewerPl || '?'})`);
        want(c.memo.viewerFs !== c.memo.mineFs, `both classified by ${c.memo.mineFs}`);
        return result;
      },
    },
    {
      id: 'queued',
      title: 'A level with no seats: every request queues, then is refused',
      text: 'Create a PriorityLevelConfiguration with `nominalConcurrencyShares: 0`, `lendablePercent: 0` and `borrowingLimitPercent: 0` (no seats of its own, none borrowed) and one queue with room for 10, and a FlowSchema (`matchingPrecedence: 500`) that sends it the second user\'s list and get of ConfigMaps in the scratch namespace. The second user lists them with `timeout=4s` (repeated until the FlowSchema is in effect), then sends three such lists at once.',
      lookFor: '201 twice. Before the FlowSchema is in effect the list is answered as usual; then 429 Too Many Requests with a `Retry-After` header and the new FlowSchema\'s and level\'s UIDs. Each list waited in the queue for a quarter of its 4 s deadline for a seat that never came; the burst\'s three waited side by side. Their audit events carry `apiserver.latency.k8s.io/apf-queue-wait` of about 1 s.',
      blocked: noSecondUser,
      run: async (c) => {
        const name = tiny(c);
        const queuing = { queues: 1, handSize: 1, queueLengthLimit: 10 };
        const pl = await c.send('POST', `${FC}/prioritylevelconfigurations`, {
          body: { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name, labels: label('apf') }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, lendablePercent: 0, borrowingLimitPercent: 0, limitResponse: { type: 'Queue', queuing } } } },
        });
        const fs = await c.send('POST', `${FC}/flowschemas`, {
          body: {
            apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name, labels: label('apf') },
            spec: {
              priorityLevelConfiguration: { name }, matchingPrecedence: 500, distinguisherMethod: { type: 'ByUser' },
              rules: [{ subjects: [{ kind: 'User', user: { name: c.memo.viewer! } }], resourceRules: [{ verbs: ['list', 'get'], apiGroups: [''], resources: ['configmaps'], namespaces: [c.ns] }] }],
            },
          },
        });
        c.memo.tinyFs = String(field(fs.response, 'metadata', 'uid') ?? '');
        c.memo.tinyPl = String(field(pl.response, 'metadata', 'uid') ?? '');
        const list = () => c.sendAs(VIEWER_CONTEXT, 'GET', `${cm(c)}?timeout=4s`);
        const first = await retryUntil(list, (x) => x.status === 429, 40, 250);
        const burst = await Promise.all([list(), list(), list()]);
        return [pl, fs, ...first, ...burst];
      },
      show,
      check: ([pl, fs, ...lists], c) => {
        const { want, result } = expectations();
        want(pl!.status === 201 && fs!.status === 201, `level ${pl!.status} ${msg(pl!)}, FlowSchema ${fs!.status} ${msg(fs!)}`);
        want(lists.length === 4, `${lists.length} lists`);
        for (const x of lists) {
          want(x.status === 429 && !!x.responseHeaders['retry-after'], `list: HTTP ${x.status}, Retry-After ${x.responseHeaders['retry-after'] ?? '(none)'}`);
          want(x.responseHeaders[FS_HEADER] === c.memo.tinyFs && x.responseHeaders[PL_HEADER] === c.memo.tinyPl, `list classified as ${x.responseHeaders[FS_HEADER]} / ${x.responseHeaders[PL_HEADER]}`);
        }
        return result;
      },
    },
    {
      id: 'alone',
      title: 'The same level with Reject: a lone request still runs',
      text: 'Patch the level\'s `limitResponse` to `Reject` (no queue), then the second user lists the ConfigMaps once more (with `timeout=4s`, so that a list sent before the change is in effect waits no more than a second).',
      lookFor: 'The patch 200; the list 200, still classified into the new level. Without a queue, a request the level has no seat for is run anyway when none of the level\'s requests is running (kube-apiserver\'s fair-queuing code lets a request wider than the limit run alone), and refused with 429 only while another is running. With a queue, a request is taken from it only while fewer seats than the limit are in use: with a limit of zero, never.',
      blocked: noSecondUser,
      run: async (c) => {
        const patch = await c.send('PATCH', `${FC}/prioritylevelconfigurations/${tiny(c)}`, { body: { spec: { limited: { limitResponse: { type: 'Reject', queuing: null } } } }, contentType: 'application/merge-patch+json' });
        // Until the change reaches the filter, the list still queues and is refused: sent again until it is not.
        const lists = await retryUntil(() => c.sendAs(VIEWER_CONTEXT, 'GET', `${cm(c)}?timeout=4s`), (x) => x.status !== 429, 10, 250);
        return [patch, ...lists];
      },
      show,
      check: ([patch, list], c) => {
        const { want, result } = expectations();
        want(patch!.status === 200 && field(patch!.response, 'spec', 'limited', 'limitResponse', 'type') === 'Reject', `patch: HTTP ${patch!.status} ${msg(patch!)}`);
        want(list!.status === 200 && list!.responseHeaders[PL_HEADER] === c.memo.tinyPl, `list: HTTP ${list!.status}, level ${list!.responseHeaders[PL_HEADER] ?? '(none)'}`);
        return result;
      },
    },
    {
      id: 'cleanup',
      title: 'Remove the FlowSchema and the level',
      text: 'DELETE both.',
      lookFor: 'HTTP 200 twice.',
      run: removeAll,
      check: (xs) => xs.filter((x) => x.status !== 200).map((x) => `${x.path}: HTTP ${x.status} ${msg(x)}`),
    },
  ],
  cleanup: removeAll,
};

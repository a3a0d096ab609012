// Force deletion of an object the server cannot decode. The lesson makes such an object with API
// requests only, no write to etcd: a CRD of its own stores an instance as v1, then moves storage
// to v2, drops v1 from status.storedVersions and removes v1 from spec.versions. The instance's
// bytes in etcd still say v1, which the CRD no longer converts from, so kube-apiserver 1.37.1
// answers every read of it with 500 "corrupt object … object not decodable", and every list of
// the type with an error (the watch cache cannot fill itself: 429 "storage is (re)initializing").
// Only this lesson's own type is affected. Putting v1 back in spec.versions makes the object
// readable again, which is how cleanup unblocks the CRD's deletion if the lesson was abandoned
// half-way (the CRD finalizer must list the instances, and cannot while one is undecodable).
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { sleep } from '../../../lib/sleep';

const GROUP = 'lessons.explorer.dev';
const PLURAL = 'lessonrelics';
export const RELIC_CRD = `${PLURAL}.${GROUP}`;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const UNSAFE_VERB = 'unsafe-delete-ignore-read-errors';
const GATE = 'AllowUnsafeMalformedObjectDeletion';
/** The other context of the local control plane: bound to the `view` ClusterRole only. */
const VIEWER_CONTEXT = 'local-viewer';
const relics = (c: StepContext, v: string, name = '') => `/apis/${GROUP}/${v}/namespaces/${encodeURIComponent(c.ns)}/${PLURAL}${name ? `/${name}` : ''}`;

const schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { note: { type: 'string' } } } } } };
const V1 = { name: 'v1', served: true, storage: false, schema };

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: RELIC_CRD, labels: label('unsafe') },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: PLURAL, singular: 'lessonrelic', kind: 'LessonRelic', listKind: 'LessonRelicList' },
    versions: [
      { name: 'v1', served: true, storage: true, schema },
      { name: 'v2', served: true, storage: false, schema },
    ],
  },
};

/** A finalizer nobody removes: a plain deletion would wait for it forever; the unsafe one does not. */
const FINALIZER = 'lessons.explorer.dev/keep';

const msg = (x: KitExchange) => String(field(x.response, 'message') ?? (typeof x.response === 'string' ? x.response : ''));

async function poll(f: () => Promise<KitExchange>, done: (x: KitExchange) => boolean, ms = 60_000): Promise<KitExchange> {
  const end = Date.now() + ms;
  for (;;) {
    const x = await f();
    if (done(x) || Date.now() > end) return x;
    await sleep(500);
  }
}

type Send = StepContext['send'];

/**
 * Removes the lesson's CRD whatever state the lesson was left in: puts v1 back among the CRD's
 * versions first (so an instance stored as v1 decodes again and the CRD's finalizer can delete
 * it), then deletes the CRD. Used by the lesson's cleanup and by the leftovers list.
 */
export async function removeRelicCrd(send: Send): Promise<KitExchange[]> {
  const got = await send('GET', `${CRDS}/${RELIC_CRD}`);
  if (got.status === 404) return [got];
  const out: KitExchange[] = [];
  const versions = (field(got.response, 'spec', 'versions') as { name: string }[] | undefined) ?? [];
  if (got.status === 200 && !versions.some((v) => v.name === 'v1')) {
    // Verified on 1.37.1: this PATCH is accepted even while the CRD is Terminating, and unblocks it.
    out.push(await send('PATCH', `${CRDS}/${RELIC_CRD}`, { body: JSON.stringify([{ op: 'add', path: '/spec/versions/-', value: V1 }]), contentType: 'application/json-patch+json' }));
  }
  // The relic's finalizer would hold the CRD's deletion too (its finalizer waits for every instance
  // to be gone): take it off every relic that can be read now.
  const all = await poll(() => send('GET', `/apis/${GROUP}/v2/${PLURAL}`), (x) => x.status === 200 || x.status === 404 || x.status === 403, 30_000);
  out.push(all);
  for (const item of (field(all.response, 'items') as { metadata: { name: string; namespace: string; finalizers?: string[] } }[] | undefined) ?? []) {
    if (!item.metadata.finalizers?.includes(FINALIZER)) continue;
    out.push(
      await send('PATCH', `/apis/${GROUP}/v2/namespaces/${encodeURIComponent(item.metadata.namespace)}/${PLURAL}/${encodeURIComponent(item.metadata.name)}`, {
        body: JSON.stringify({ metadata: { finalizers: null } }),
        contentType: 'application/merge-patch+json',
      }),
    );
  }
  out.push(await send('DELETE', `${CRDS}/${RELIC_CRD}`));
  out.push(await poll(() => send('GET', `${CRDS}/${RELIC_CRD}`), (x) => x.status === 404, 60_000));
  return out;
}

/** The lines of a /metrics text that matter here; the rest (megabytes) is left out of what the lesson keeps. */
function metricLines(x: KitExchange, keep: RegExp): KitExchange {
  if (typeof x.response !== 'string' || x.status !== 200) return x;
  const lines = x.response.split('\n');
  const kept = lines.filter((l) => keep.test(l));
  return { ...x, response: `${kept.join('\n')}\n(${lines.length - kept.length} other lines of the ${x.bytes}-byte answer left out here)` };
}

export const gateLine = (text: unknown, gate: string): '1' | '0' | undefined => {
  const m = typeof text === 'string' ? new RegExp(`^kubernetes_feature_enabled\\{name="${gate}",stage="[A-Z]*"\\} ([01])$`, 'm').exec(text) : null;
  return (m?.[1] as '1' | '0' | undefined) ?? undefined;
};

/**
 * Why steps 4 to 6 cannot run: nothing broken yet, or nothing broken any more (step 6 removed the
 * relic, after which the steps' buttons stay disabled: the text must not say step 3 never ran).
 */
function notBroken(c: StepContext): string {
  return c.memo.forced ? 'the relic is gone: step 6 deleted it without reading it, so nothing is broken any more.' : 'nothing is broken yet: step 3 did not run.';
}

export const forceDeletion: KitLesson = {
  id: 'force-deletion',
  topic: 'unsafe',
  title: 'Force deletion of an object the server cannot decode',
  scope: 'cluster',
  // Checked on 1.37.1; on 1.33.13 a step differs (CBOR, streaming lists, feature gates are off there).
  since: '1.37',
  clusterObjects: `the CustomResourceDefinition ${RELIC_CRD} (its one instance lives in the scratch namespace; while that instance is undecodable, only lists of LessonRelics fail)`,
  paragraphs: [
    'An object can sit in storage in a form the server cannot read back: encrypted with a key the server no longer has, written by a version that is gone, or damaged. Every read of it fails, and so does a plain DELETE, since deleting starts by reading the object (for its finalizers, preconditions and the rest). Worse, every list of its type fails, and with it every controller that watches that type.',
    'The DeleteOptions field `ignoreStoreReadErrorWithClusterBreakingPotential: true` removes such an object without decoding it. It is no shortcut for readable objects: the server reads the stored bytes first and goes on only if they fail to decode or decrypt; an object that reads fine is refused with 409 Conflict and stays (background here: no step of this lesson shows it). Since the object is never decoded, nothing that needs it can happen: its finalizers, for one, are not waited for (the relic here carries one, and is gone at once). The feature gate `AllowUnsafeMalformedObjectDeletion` turns it on (alpha and off by default from 1.32, beta and on by default since 1.37: the local control plane sets no flag for it), and it needs a verb of its own on top of `delete`: `unsafe-delete-ignore-read-errors`, which only an administrator should hold.',
    'The lesson makes an undecodable object with ordinary API requests, on a type of its own: its CRD stores one LessonRelic as `v1`, then moves storage to `v2`, removes `v1` from `status.storedVersions` (the list is there so that this is only done after every stored object was rewritten: here on purpose it is not) and from the served versions. The stored bytes still say `v1`, which the CRD no longer converts from. Nothing else in the cluster is touched.',
  ],
  needs: [
    { verb: 'create', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'patch', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'patch', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions', subresource: 'status' },
    { verb: 'delete', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'create', group: GROUP, resource: PLURAL, namespaced: true },
    { verb: 'delete', group: GROUP, resource: PLURAL, namespaced: true },
    { verb: UNSAFE_VERB, group: GROUP, resource: PLURAL, namespaced: true },
    { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'roles', namespaced: true },
    { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'rolebindings', namespaced: true },
  ],
  steps: [
    {
      id: 'gate',
      title: 'Does this server have the option?',
      text: `GET \`/metrics\` (the local admin may read it) and find \`kubernetes_feature_enabled{name="${GATE}"}\`; ask which user the \`${VIEWER_CONTEXT}\` context is (a SelfSubjectReview), for the 403 later.`,
      lookFor: `The gate at 1 (stage BETA). Without it, or when /metrics is not readable to you, the step that breaks an object stays disabled: a DELETE would ignore the option and the object could not be removed that way. The viewer is \`explorer-viewer\` on the local control plane; on other clusters there is no such context and the 403 step is skipped.`,
      run: async (c) => {
        const m = metricLines(await c.send('GET', '/metrics', { accept: 'text/plain' }), /^kubernetes_feature_enabled\{name="AllowUnsafe/);
        const g = gateLine(m.response, GATE);
        c.memo.gate = g === '1' ? 'on' : g === '0' ? 'off' : 'unknown';
        const xs = [m];
        try {
          const who = await c.sendAs(VIEWER_CONTEXT, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
          const user = field(who.response, 'status', 'userInfo', 'username');
          if (who.status === 201 && typeof user === 'string') c.memo.viewer = user;
          xs.push(who);
        } catch {
          // No such context in this explorer: the 403 step says so.
        }
        return xs;
      },
      show: (x) => (x.path === '/metrics' ? x.response : x.status === 201 ? { status: { userInfo: { username: field(x.response, 'status', 'userInfo', 'username') } } } : x.response),
      check: ([m], c) => {
        const { want, result } = expectations();
        want(m!.status === 200, `/metrics: HTTP ${m!.status} (reading it needs get on the non-resource URL /metrics)`);
        want(c.memo.gate === 'on', `${GATE} is ${c.memo.gate === 'off' ? 'off' : 'not listed'} on this server`);
        return result;
      },
    },
    {
      id: 'define',
      title: 'A type of its own, and one object',
      text: `Create the CRD \`${RELIC_CRD}\` serving \`v1\` (the storage version) and \`v2\`, wait until it is Established, then create the LessonRelic \`relic\` through \`v1\`, with the finalizer \`${FINALIZER}\` that nothing will ever remove.`,
      lookFor: 'HTTP 201 for both. The relic is now stored in etcd as a `lessons.explorer.dev/v1` object, under the key `/registry/lessons.explorer.dev/lessonrelics/<namespace>/relic`, apart from every other type.',
      run: async (c) => {
        const made = await c.send('POST', CRDS, { body: crd });
        await poll(() => c.send('GET', `${CRDS}/${RELIC_CRD}`), (x) => ((field(x.response, 'status', 'conditions') as { type: string; status: string }[] | undefined) ?? []).some((k) => k.type === 'Established' && k.status === 'True'));
        // The new paths reach the handler chain a moment after Established.
        await poll(() => c.send('GET', relics(c, 'v1')), (x) => x.status === 200);
        const relic = await c.send('POST', relics(c, 'v1'), { body: { apiVersion: `${GROUP}/v1`, kind: 'LessonRelic', metadata: { name: 'relic', labels: label('unsafe'), finalizers: [FINALIZER] }, spec: { note: 'stored as v1' } } });
        return [made, relic];
      },
      show: (x) => (x.status < 300 ? { apiVersion: field(x.response, 'apiVersion'), kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name') } } : x.response),
      check: ([made, relic]) => {
        const { want, result } = expectations();
        want(made!.status === 201 || made!.status === 409, `CRD: HTTP ${made!.status}`);
        want(relic!.status === 201, `relic: HTTP ${relic!.status}`);
        return result;
      },
    },
    {
      id: 'corrupt',
      title: 'Take away the version the object is stored in',
      text: 'PATCH the CRD to store `v2`; PATCH its `status` subresource to `storedVersions: ["v2"]`; JSON Patch away `spec.versions[0]` (with a `test` that it is `v1`). Then GET the relic through `v2`, and list LessonRelics.',
      lookFor: 'Three 200s: the server takes the word of `storedVersions`. Then the GET answers 500 InternalError, `StorageError: corrupt object`, `object not decodable`, `request to convert CR from an invalid group/version: lessons.explorer.dev/v1`; the list fails too: 429 `storage is (re)initializing`, the watch cache cannot load the type (the message names the corrupt object, or, between two of the cache\'s attempts, says only that).',
      blocked: (c) =>
        c.memo.gate === 'on'
          ? undefined
          : c.memo.gate === undefined
            ? 'run step 1 first: it finds out whether this server has the option.'
            : `the feature gate \`${GATE}\` is ${c.memo.gate === 'off' ? 'off on this server' : 'not confirmed (/metrics is not readable to you)'}, so the object this step would break could not be force-deleted. Without the gate the option is ignored; an administrator turns it on with \`--feature-gates=${GATE}=true\` on kube-apiserver.`,
      run: async (c) => {
        const path = `${CRDS}/${RELIC_CRD}`;
        const storage = await c.send('PATCH', path, {
          body: JSON.stringify([
            { op: 'test', path: '/spec/versions/0/name', value: 'v1' },
            { op: 'replace', path: '/spec/versions/0/storage', value: false },
            { op: 'replace', path: '/spec/versions/1/storage', value: true },
          ]),
          contentType: 'application/json-patch+json',
        });
        const stored = await c.send('PATCH', `${path}/status`, { body: JSON.stringify({ status: { storedVersions: ['v2'] } }), contentType: 'application/merge-patch+json' });
        const removed = await c.send('PATCH', path, {
          body: JSON.stringify([
            { op: 'test', path: '/spec/versions/0/name', value: 'v1' },
            { op: 'remove', path: '/spec/versions/0' },
          ]),
          contentType: 'application/json-patch+json',
        });
        c.memo.corrupt = 'yes';
        delete c.memo.forced;
        // The CRD handler rebuilds its storage for the type a moment after the update.
        const get = await poll(() => c.send('GET', relics(c, 'v2', 'relic')), (x) => x.status === 500);
        const list = await c.send('GET', relics(c, 'v2'));
        return [storage, stored, removed, get, list];
      },
      show: (x) => (x.method === 'PATCH' ? { status: x.status, versions: (field(x.response, 'spec', 'versions') as { name: string; storage: boolean }[] | undefined)?.map((v) => `${v.name}${v.storage ? ' (storage)' : ''}`), storedVersions: field(x.response, 'status', 'storedVersions') } : x.response),
      check: ([storage, stored, removed, get, list]) => {
        const { want, result } = expectations();
        want(storage!.status === 200 && stored!.status === 200 && removed!.status === 200, `PATCHes: HTTP ${storage!.status}, ${stored!.status}, ${removed!.status}`);
        want(get!.status === 500 && field(get!.response, 'reason') === 'InternalError' && msg(get!).includes('corrupt object') && msg(get!).includes('object not decodable'), `GET: HTTP ${get!.status} ${msg(get!)}`);
        // Seen on 1.37.1: 429 whose message names the corrupt object, or only says "storage is (re)initializing" (between the watch cache's retries).
        want(list!.status === 429 && msg(list!).includes('storage is (re)initializing'), `list: HTTP ${list!.status} ${msg(list!)}`);
        return result;
      },
    },
    {
      id: 'plain-delete',
      title: 'A plain DELETE',
      text: 'DELETE the relic with no options.',
      lookFor: 'The same 500 `corrupt object`: the DELETE fails on its first read. The object stays.',
      blocked: (c) => (c.memo.corrupt ? undefined : notBroken(c)),
      run: async (c) => [await c.send('DELETE', relics(c, 'v2', 'relic'))],
      check: ([x]) => (x!.status === 500 && msg(x!).includes('corrupt object') ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'forbidden',
      title: '`delete` is not enough',
      text: `Grant the viewer (\`${VIEWER_CONTEXT}\`) \`get\` and \`delete\` on LessonRelics in the scratch namespace (a Role and a RoleBinding there), then, with the viewer's credentials, DELETE the relic with the option, and ask two SelfSubjectAccessReviews.`,
      lookFor: `403 Forbidden, "not permitted to do \\"${UNSAFE_VERB}\\"": the request passed the ordinary \`delete\` check, then the server asked for the special verb on the same resource. The viewer's reviews: \`delete\` allowed, \`${UNSAFE_VERB}\` not.`,
      blocked: (c) => (!c.memo.corrupt ? notBroken(c) : c.memo.viewer ? undefined : `this explorer has no \`${VIEWER_CONTEXT}\` context (the local control plane's second user), so there is nobody with fewer rights to show the 403 with.`),
      run: async (c) => {
        const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${encodeURIComponent(c.ns)}`;
        const role = await c.send('POST', `${rbac}/roles`, {
          body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'relic-deleter', labels: label('unsafe') }, rules: [{ apiGroups: [GROUP], resources: [PLURAL], verbs: ['get', 'delete'] }] },
        });
        const binding = await c.send('POST', `${rbac}/rolebindings`, {
          body: {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'RoleBinding',
            metadata: { name: 'relic-deleter', labels: label('unsafe') },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'relic-deleter' },
            subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: c.memo.viewer }],
          },
        });
        // The authorizer sees a new binding through an informer: until then the 403 is the plain "cannot delete".
        const denied = await poll(
          () => c.sendAs(VIEWER_CONTEXT, 'DELETE', relics(c, 'v2', 'relic'), { body: { apiVersion: 'v1', kind: 'DeleteOptions', ignoreStoreReadErrorWithClusterBreakingPotential: true } }),
          (x) => x.status !== 403 || msg(x).includes(UNSAFE_VERB),
        );
        const ask = (verb: string) =>
          c.sendAs(VIEWER_CONTEXT, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
            body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb, group: GROUP, resource: PLURAL, namespace: c.ns, name: 'relic' } } },
          });
        return [role, binding, denied, await ask('delete'), await ask(UNSAFE_VERB)];
      },
      show: (x) => (x.path.endsWith('selfsubjectaccessreviews') ? { spec: { resourceAttributes: { verb: field(x.response, 'spec', 'resourceAttributes', 'verb') } }, status: field(x.response, 'status') } : x.status < 300 ? { kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name') } } : x.response),
      check: ([role, binding, denied, del, unsafe]) => {
        const { want, result } = expectations();
        want(role!.status === 201 && binding!.status === 201, `Role ${role!.status}, RoleBinding ${binding!.status}`);
        want(denied!.status === 403 && field(denied!.response, 'reason') === 'Forbidden' && msg(denied!).includes(`not permitted to do "${UNSAFE_VERB}"`), `viewer's DELETE: HTTP ${denied!.status} ${msg(denied!)}`);
        want(field(del!.response, 'status', 'allowed') === true, 'the viewer may not delete');
        want(field(unsafe!.response, 'status', 'allowed') !== true, `the viewer may ${UNSAFE_VERB}`);
        return result;
      },
    },
    {
      id: 'force',
      title: 'DELETE with ignoreStoreReadErrorWithClusterBreakingPotential',
      text: 'DELETE the relic with the body `{"kind": "DeleteOptions", "apiVersion": "v1", "ignoreStoreReadErrorWithClusterBreakingPotential": true}`, as the admin; then GET it and list LessonRelics again.',
      lookFor: 'HTTP 200 with a `Status` of `Success` (not the object: the server never read it). Then 404 for the GET: gone at once, its finalizer ignored, and the list works again (200, no items) once the watch cache has reloaded the type (it retries with a growing pause: this may take up to a minute).',
      blocked: (c) => (c.memo.corrupt ? undefined : notBroken(c)),
      run: async (c) => {
        const del = await c.send('DELETE', relics(c, 'v2', 'relic'), { body: { apiVersion: 'v1', kind: 'DeleteOptions', ignoreStoreReadErrorWithClusterBreakingPotential: true } });
        const get = await c.send('GET', relics(c, 'v2', 'relic'));
        // The watch cache retries its failed initial list with a growing back-off (client-go reflector: 0.8 s doubling, capped at 30 s plus jitter), so the list may take up to a minute to come back.
        const list = await poll(() => c.send('GET', relics(c, 'v2')), (x) => x.status === 200, 90_000);
        if (del.status === 200) {
          delete c.memo.corrupt;
          c.memo.forced = 'yes';
        }
        return [del, get, list];
      },
      show: (x) => (x.method === 'GET' && x.status === 200 ? { kind: field(x.response, 'kind'), items: field(x.response, 'items') } : x.response),
      check: ([del, get, list]) => {
        const { want, result } = expectations();
        want(del!.status === 200 && field(del!.response, 'kind') === 'Status' && field(del!.response, 'status') === 'Success', `DELETE: HTTP ${del!.status} ${msg(del!)}`);
        want(get!.status === 404, `GET: HTTP ${get!.status}`);
        want(list!.status === 200 && Array.isArray(field(list!.response, 'items')) && (field(list!.response, 'items') as unknown[]).length === 0, `list: HTTP ${list!.status}`);
        return result;
      },
    },
    {
      id: 'cleanup',
      title: 'Remove the CRD',
      text: `Delete \`${RELIC_CRD}\` and wait until it is gone. If the lesson stopped half-way with the relic still undecodable, the CRD's deletion would hang (its finalizer lists the instances first, and cannot): so \`v1\` is put back first when it is missing, which makes the relic readable again, and the relic's finalizer is removed.`,
      lookFor: 'HTTP 200 for the DELETE, then 404: the CRD is gone. (Had the lesson stopped before step 6, the relic\'s finalizer would be taken off first, or the CRD would wait for it.) The Role and RoleBinding go with the scratch namespace.',
      run: (c) => removeRelicCrd(c.send),
      show: (x) => ({ status: x.status, kind: field(x.response, 'kind') }),
      check: (xs) => {
        const { want, result } = expectations();
        const del = xs.find((x) => x.method === 'DELETE');
        want(del !== undefined && del.status === 200, `DELETE: HTTP ${del?.status ?? '(not sent)'}`);
        want(xs[xs.length - 1]!.status === 404, 'the CRD is still there');
        return result;
      },
    },
  ],
  cleanup: (c) => removeRelicCrd(c.send),
};

// Lessons about names and creation: PUT that creates, generateName and a name used again, and a
// namespace taking its objects with it. Every claim is a step's check, seen on kube-apiserver 1.37.1
// (and 1.33.13: the skew run of lessons.server.test.ts).
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { sleep } from '../../../lib/sleep';

const cm = (c: StepContext, name = '', ns = c.ns) => `/api/v1/namespaces/${encodeURIComponent(ns)}/configmaps${name ? `/${name}` : ''}`;
const lease = (c: StepContext, name = '') => `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(c.ns)}/leases${name ? `/${name}` : ''}`;
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const name = (x: KitExchange) => String(field(x.response, 'metadata', 'name') ?? '');
const uid = (x: KitExchange) => String(field(x.response, 'metadata', 'uid') ?? '');
const brief = (x: KitExchange) => (x.status < 300 ? { metadata: { name: field(x.response, 'metadata', 'name'), uid: field(x.response, 'metadata', 'uid'), resourceVersion: field(x.response, 'metadata', 'resourceVersion') } } : x.response);

const leaseBody = (holder: string, resourceVersion?: string) => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'lock', labels: label('upsert'), ...(resourceVersion ? { resourceVersion } : {}) },
  spec: { holderIdentity: holder, leaseDurationSeconds: 15 },
});

export const createOnUpdate: KitLesson = {
  id: 'create-on-update',
  topic: 'upsert',
  title: 'PUT that creates: create-on-update, type by type',
  scope: 'namespace',
  paragraphs: [
    'A PUT names one object and replaces it. What happens when that object does not exist is up to its type: some types create it (the strategy of the type says `AllowCreateOnUpdate`: Leases, Events, Services, Endpoints, LimitRanges, RBAC roles and bindings, RuntimeClasses), the rest answer 404 and want a POST. ConfigMaps and every custom resource are of the second kind.',
    'A second rule, also per type, says whether a PUT without `metadata.resourceVersion` (an unconditional update) is allowed. ConfigMaps allow it: the last writer wins. Leases do not: a lock must never be taken over by a write that did not see the current holder.',
  ],
  needs: [
    { verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespaced: true },
    { verb: 'create', group: 'coordination.k8s.io', resource: 'leases', namespaced: true },
    { verb: 'update', resource: 'configmaps', namespaced: true },
    { verb: 'create', resource: 'configmaps', namespaced: true },
  ],
  steps: [
    {
      id: 'put-creates',
      title: 'PUT a Lease that does not exist',
      text: 'PUT `leases/lock` with a holder, where no such Lease exists; then PUT it again with the `resourceVersion` the first answer gave.',
      lookFor: 'The first PUT answers 201 Created, not 200: it created the object. The second, carrying the current version, is an ordinary update: 200.',
      run: async (c) => {
        const first = await c.send('PUT', lease(c, 'lock'), { body: leaseBody('alice') });
        const rv = String(field(first.response, 'metadata', 'resourceVersion') ?? '');
        return [first, await c.send('PUT', lease(c, 'lock'), { body: leaseBody('bob', rv) })];
      },
      show: brief,
      check: ([first, second]) => {
        const { want, result } = expectations();
        want(first!.status === 201, `first PUT: HTTP ${first!.status} ${msg(first!)}`);
        want(second!.status === 200 && field(second!.response, 'spec', 'holderIdentity') === 'bob', `second PUT: HTTP ${second!.status} ${msg(second!)}`);
        return result;
      },
    },
    {
      id: 'put-404',
      title: 'PUT a ConfigMap that does not exist',
      text: 'PUT `configmaps/never-posted`, which was never created.',
      lookFor: '404 NotFound: ConfigMaps are not created by PUT. A client that wants "create or replace" must POST, and on 409 AlreadyExists read and PUT.',
      run: async (c) => [await c.send('PUT', cm(c, 'never-posted'), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'never-posted', labels: label('upsert') }, data: { a: '1' } } })],
      check: ([x]) => (x!.status === 404 && field(x!.response, 'reason') === 'NotFound' ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'unconditional',
      title: 'PUT without a resourceVersion',
      text: 'POST the ConfigMap `plain`, then PUT it without `metadata.resourceVersion`; then PUT the Lease `lock` without one.',
      lookFor: 'The ConfigMap PUT is taken (200): an unconditional update. The Lease PUT is refused with 422 Invalid, `metadata.resourceVersion` "must be specified for an update".',
      run: async (c) => {
        const body = (v: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'plain', labels: label('upsert') }, data: { v } });
        return [await c.send('POST', cm(c), { body: body('1') }), await c.send('PUT', cm(c, 'plain'), { body: body('2') }), await c.send('PUT', lease(c, 'lock'), { body: leaseBody('mallory') })];
      },
      show: brief,
      check: ([post, put, lock]) => {
        const { want, result } = expectations();
        want(post!.status === 201 && put!.status === 200 && field(put!.response, 'data', 'v') === '2', `ConfigMap: POST ${post!.status}, PUT ${put!.status}`);
        want(lock!.status === 422 && msg(lock!).includes('metadata.resourceVersion') && msg(lock!).includes('must be specified for an update'), `Lease PUT: HTTP ${lock!.status} ${msg(lock!)}`);
        return result;
      },
    },
  ],
};

export const generateName: KitLesson = {
  id: 'generate-name',
  topic: 'genname',
  title: 'generateName, and a name used again after delete',
  scope: 'namespace',
  paragraphs: [
    'A create with `metadata.generateName` instead of `metadata.name` lets the server pick the name: the prefix plus five random characters. If that name happens to be taken, the server makes another and tries again, up to eight attempts in all (KEP-4420, on by default since 1.31 and GA in 1.32): only when all eight names are taken does the create fail with 409 `AlreadyExists`, which a client may simply send again. (Background, from kube-apiserver\'s generic registry: no request can make a collision happen on demand, so no step here shows one.)',
    'A name identifies an object only while it exists. Once deleted, the name is free, and a new object under it is another object: a new `uid` and a new `creationTimestamp`. A client that must not confuse the two compares `uid`s (delete preconditions and owner references do).',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'delete', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'generate',
      title: 'Two creates with the same generateName',
      text: 'POST two ConfigMaps with `generateName: gen-` and no name.',
      lookFor: 'Two 201s with two different names, each `gen-` and five characters; `generateName` stays on the object.',
      run: async (c) => {
        const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-', labels: label('genname') } };
        const a = await c.send('POST', cm(c), { body });
        const b = await c.send('POST', cm(c), { body });
        c.memo.generated = name(a);
        c.memo.firstUid = uid(a);
        return [a, b];
      },
      show: (x) => ({ metadata: { name: field(x.response, 'metadata', 'name'), generateName: field(x.response, 'metadata', 'generateName') } }),
      check: ([a, b]) => {
        const { want, result } = expectations();
        want(a!.status === 201 && b!.status === 201, `HTTP ${a!.status}, ${b!.status}`);
        want(/^gen-[a-z0-9]{5}$/.test(name(a!)) && /^gen-[a-z0-9]{5}$/.test(name(b!)), `names ${name(a!)}, ${name(b!)}`);
        want(name(a!) !== name(b!), 'the same name twice');
        want(field(a!.response, 'metadata', 'generateName') === 'gen-', 'generateName is not kept');
        return result;
      },
    },
    {
      id: 'taken',
      title: 'A create under a name that is taken',
      text: 'POST a ConfigMap named like the first generated one.',
      lookFor: '409 Conflict, reason `AlreadyExists`: a create never replaces.',
      blocked: (c) => (c.memo.generated ? undefined : 'step 1 did not run.'),
      run: async (c) => [await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: c.memo.generated, labels: label('genname') } } })],
      check: ([x]) => (x!.status === 409 && field(x!.response, 'reason') === 'AlreadyExists' ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'reuse',
      title: 'Delete it, and create the name again',
      text: 'DELETE the first generated ConfigMap, POST a new one under the same name, and DELETE with a `uid` precondition naming the old object.',
      lookFor: 'The DELETE 200, the new create 201 with a different `uid`; the DELETE with the old `uid` as precondition is refused with 409: "the UID in the precondition … does not match the UID in record … The object might have been deleted and then recreated". The old object is gone, whatever the name says.',
      blocked: (c) => (c.memo.generated ? undefined : 'step 1 did not run.'),
      run: async (c) => {
        const n = c.memo.generated!;
        const del = await c.send('DELETE', cm(c, n));
        const again = await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, labels: label('genname') } } });
        const old = await c.send('DELETE', cm(c, n), { body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: c.memo.firstUid } } });
        return [del, again, old];
      },
      show: brief,
      check: ([del, again, old], c) => {
        const { want, result } = expectations();
        want(del!.status === 200, `DELETE: HTTP ${del!.status}`);
        want(again!.status === 201 && name(again!) === c.memo.generated, `create again: HTTP ${again!.status}`);
        want(uid(again!) !== '' && uid(again!) !== c.memo.firstUid, `uid ${uid(again!)} (the old one was ${c.memo.firstUid})`);
        want(old!.status === 409 && msg(old!).includes('does not match the UID in record'), `DELETE with the old uid: HTTP ${old!.status} ${msg(old!)}`);
        return result;
      },
    },
  ],
};

export const namespaceDeletion: KitLesson = {
  id: 'namespace-deletion',
  topic: 'nsdel',
  title: 'Deleting a namespace deletes what is in it',
  scope: 'cluster',
  clusterObjects: 'one namespace besides the scratch one, named after it with `-inner`, deleted by the lesson',
  paragraphs: [
    'A namespace owns everything in it: deleting it sets the namespace to `Terminating`, the namespace controller (in kube-controller-manager) deletes its objects, type by type, and the namespace goes when it is empty. Meanwhile admission refuses anything new in it with 403 Forbidden, even to a user allowed to create there: that 403 is not the authorizer\'s.',
    'Objects with finalizers hold the namespace in `Terminating` until whoever set them removes them.',
  ],
  needs: [
    { verb: 'create', resource: 'namespaces' },
    { verb: 'delete', resource: 'namespaces' },
  ],
  steps: [
    {
      id: 'fill',
      title: 'A namespace with three objects',
      text: 'Create the namespace `<scratch>-inner` and three ConfigMaps in it; one, `held`, carries a finalizer.',
      lookFor: 'HTTP 201 four times.',
      run: async (c) => {
        const inner = `${c.ns}-inner`;
        c.memo.inner = inner;
        const out = [await c.send('POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: inner, labels: label('nsdel') } } })];
        for (const n of ['one', 'two', 'held'])
          out.push(await c.send('POST', cm(c, '', inner), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: n, labels: label('nsdel'), ...(n === 'held' ? { finalizers: ['explorer.lessons/hold'] } : {}) } } }));
        return out;
      },
      show: brief,
      check: (xs) => (xs.every((x) => x.status === 201) ? [] : xs.filter((x) => x.status !== 201).map((x) => `${x.path}: HTTP ${x.status} ${msg(x)}`)),
    },
    {
      id: 'terminating',
      title: 'Delete the namespace, then try to add to it',
      text: 'DELETE the namespace, wait until `one` and `two` are gone, then POST a new ConfigMap into it and GET the namespace.',
      lookFor: 'The DELETE answers 200 with `status.phase: Terminating`. `one` and `two` go (404), `held` stays for its finalizer, and the namespace with it. The POST is refused: 403 Forbidden, "unable to create new content in namespace … because it is being terminated".',
      blocked: (c) => (c.memo.inner ? undefined : 'step 1 did not run.'),
      run: async (c) => {
        const inner = c.memo.inner!;
        const del = await c.send('DELETE', `/api/v1/namespaces/${inner}`);
        let gone: KitExchange | undefined;
        for (let i = 0; i < 60; i++) {
          gone = await c.send('GET', `${cm(c, '', inner)}?labelSelector=explorer.lessons%2Flesson%3Dnsdel`);
          if (((field(gone.response, 'items') as unknown[] | undefined) ?? []).length <= 1) break;
          await sleep(500);
        }
        const post = await c.send('POST', cm(c, '', inner), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late', labels: label('nsdel') } } });
        return [del, gone!, post, await c.send('GET', `/api/v1/namespaces/${inner}`)];
      },
      show: (x) => (x.method === 'GET' && x.path.includes('configmaps') ? { items: ((field(x.response, 'items') as { metadata: { name: string } }[]) ?? []).map((i) => i.metadata.name) } : x.status < 300 ? { metadata: { name: field(x.response, 'metadata', 'name') }, status: field(x.response, 'status') } : x.response),
      check: ([del, left, post, ns]) => {
        const { want, result } = expectations();
        want(del!.status === 200 && field(del!.response, 'status', 'phase') === 'Terminating', `DELETE: HTTP ${del!.status}, phase ${String(field(del!.response, 'status', 'phase'))}`);
        const names = ((field(left!.response, 'items') as { metadata: { name: string } }[]) ?? []).map((i) => i.metadata.name);
        want(names.join() === 'held', `left in the namespace: ${names.join(', ') || '(nothing)'}`);
        want(post!.status === 403 && msg(post!).includes('because it is being terminated'), `POST: HTTP ${post!.status} ${msg(post!)}`);
        want(ns!.status === 200 && field(ns!.response, 'status', 'phase') === 'Terminating', `namespace: HTTP ${ns!.status}`);
        return result;
      },
    },
    {
      id: 'release',
      title: 'Remove the finalizer',
      text: 'PATCH `held` to remove its finalizer, and wait for the namespace to go.',
      lookFor: 'The PATCH 200; then `held` and the namespace itself answer 404.',
      blocked: (c) => (c.memo.inner ? undefined : 'step 1 did not run.'),
      run: async (c) => {
        const inner = c.memo.inner!;
        const patch = await c.send('PATCH', cm(c, 'held', inner), { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
        let ns: KitExchange | undefined;
        for (let i = 0; i < 120; i++) {
          ns = await c.send('GET', `/api/v1/namespaces/${inner}`);
          if (ns.status === 404) break;
          await sleep(500);
        }
        return [patch, await c.send('GET', cm(c, 'held', inner)), ns!];
      },
      show: brief,
      check: ([patch, held, ns]) => {
        const { want, result } = expectations();
        want(patch!.status === 200, `PATCH: HTTP ${patch!.status}`);
        want(held!.status === 404 && ns!.status === 404, `held: HTTP ${held!.status}, namespace: HTTP ${ns!.status}`);
        return result;
      },
    },
  ],
  cleanup: async (c) => {
    const inner = c.memo.inner ?? `${c.ns}-inner`;
    const out = [await c.send('PATCH', cm(c, 'held', inner), { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' })];
    out.push(await c.send('DELETE', `/api/v1/namespaces/${inner}`));
    return out;
  },
};

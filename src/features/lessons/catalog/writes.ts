// Lessons that write, all inside the lesson's scratch namespace.
import { parseWarningHeader } from '../../../codecs';
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { sleep } from '../../../lib/sleep';

const cm = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps${name ? `/${name}` : ''}`;
/** The texts of the Warning headers, unquoted (the header escapes the quotes inside them). */
const warnings = (x: KitExchange) => parseWarningHeader(x.responseHeaders.warning).map((w) => w.text).join(' | ');

/** A ConfigMap body with an unknown field and a duplicated key, written as text on purpose. */
const SLOPPY = (name: string) => `{
  "apiVersion": "v1",
  "kind": "ConfigMap",
  "metadata": {"name": "${name}", "labels": {"explorer.lessons/lesson": "validate"}},
  "data": {"a": "1"},
  "data": {"a": "2"},
  "spec": {"replicas": 3}
}`;

export const fieldValidation: KitLesson = {
  id: 'field-validation',
  topic: 'validate',
  title: 'Field validation: Ignore, Warn and Strict',
  scope: 'namespace',
  paragraphs: [
    'A body may name a field the type does not have (a typo, a field of another version) or name one field twice. `fieldValidation` on create, update and patch says what the server does then: `Ignore` drops them silently, `Warn` (the default) drops them and says so in a `Warning` header, `Strict` refuses the request with 400 BadRequest. The body below has `spec` (a ConfigMap has none) and `data` twice.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }],
  steps: ['Ignore', 'Warn', 'Strict'].map((mode) => ({
    id: mode.toLowerCase(),
    title: `fieldValidation=${mode}`,
    text: `POST the body with the unknown and the duplicate field, \`fieldValidation=${mode}\`.`,
    lookFor:
      mode === 'Ignore'
        ? 'HTTP 201 and no `warning` header: the stored object has the last `data` and no trace of `spec`.'
        : mode === 'Warn'
          ? 'HTTP 201 with a `warning` header naming `unknown field "spec"` and `duplicate field "data"`.'
          : 'HTTP 400 with a `Status` whose message starts `strict decoding error` and names both fields; nothing is stored.',
    run: async (c: StepContext) => [await c.send('POST', `${cm(c)}?fieldValidation=${mode}`, { body: SLOPPY(`v-${mode.toLowerCase()}`) })],
    show: (x: KitExchange) => (x.status < 300 ? { data: field(x.response, 'data'), spec: field(x.response, 'spec') ?? '(absent)' } : x.response),
    check: ([x]: KitExchange[]) => {
      const { want, result } = expectations();
      if (mode === 'Strict') {
        want(x!.status === 400, `HTTP ${x!.status}`);
        const msg = String(field(x!.response, 'message'));
        want(msg.includes('strict decoding error') && msg.includes('unknown field "spec"') && msg.includes('duplicate field "data"'), `message: ${msg}`);
      } else {
        want(x!.status === 201, `HTTP ${x!.status}`);
        want(field(x!.response, 'data', 'a') === '2', 'the last data did not win');
        const w = warnings(x!);
        if (mode === 'Warn') want(w.includes('unknown field "spec"') && w.includes('duplicate field "data"'), `warning: ${w || '(none)'}`);
        else want(w === '', `warning: ${w}`);
      }
      return result;
    },
  })),
};

const deployment = () => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { generateName: 'dry-', labels: label('dryrun') },
  spec: { selector: { matchLabels: { app: 'dry' } }, template: { metadata: { labels: { app: 'dry' } }, spec: { containers: [{ name: 'web', image: 'registry.k8s.io/pause:3.10' }] } } },
});

export const dryRun: KitLesson = {
  id: 'dry-run',
  topic: 'dryrun',
  title: 'Dry run, generateName and the values the server fills in',
  scope: 'namespace',
  paragraphs: [
    '`dryRun=All` runs a write through everything, defaulting, validation and admission, and stops before storage. The answer is the object as it would have been stored, so it is the way to see what the server adds: defaults for fields you left out, and a name for `generateName` (a prefix plus five random characters).',
    'A dry-run answer is not a promise: a generated name or an allocated value may differ when the write is sent for real.',
  ],
  needs: [{ verb: 'create', group: 'apps', resource: 'deployments', namespaced: true }, { verb: 'list', group: 'apps', resource: 'deployments', namespaced: true }],
  steps: [
    {
      id: 'dry-create',
      title: 'Create a Deployment with dryRun=All',
      text: 'The Deployment names only a selector, labels and one container; `metadata.generateName` is `dry-`.',
      lookFor: 'A name `dry-xxxxx`, a `uid`, a `creationTimestamp`, and defaults you did not send: `replicas: 1`, `strategy.type: RollingUpdate`, `revisionHistoryLimit: 10`, the container\'s `imagePullPolicy` and `terminationMessagePath`.',
      run: async (c) => {
        const x = await c.send('POST', `/apis/apps/v1/namespaces/${c.ns}/deployments?dryRun=All`, { body: deployment() });
        c.memo.dryName = String(field(x.response, 'metadata', 'name') ?? '');
        return [x];
      },
      show: (x) => ({
        metadata: { name: field(x.response, 'metadata', 'name'), generateName: field(x.response, 'metadata', 'generateName') },
        spec: { replicas: field(x.response, 'spec', 'replicas'), strategy: field(x.response, 'spec', 'strategy'), revisionHistoryLimit: field(x.response, 'spec', 'revisionHistoryLimit'), progressDeadlineSeconds: field(x.response, 'spec', 'progressDeadlineSeconds') },
        container: field(x.response, 'spec', 'template', 'spec', 'containers', 0),
      }),
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 201, `HTTP ${x!.status}`);
        want(/^dry-[a-z0-9]{5}$/.test(String(field(x!.response, 'metadata', 'name'))), `name ${String(field(x!.response, 'metadata', 'name'))}`);
        want(field(x!.response, 'spec', 'replicas') === 1, 'replicas not defaulted to 1');
        want(field(x!.response, 'spec', 'strategy', 'type') === 'RollingUpdate', 'strategy not defaulted');
        want(field(x!.response, 'spec', 'revisionHistoryLimit') === 10, 'revisionHistoryLimit not defaulted');
        want(field(x!.response, 'spec', 'template', 'spec', 'containers', 0, 'imagePullPolicy') === 'IfNotPresent', 'imagePullPolicy not defaulted');
        return result;
      },
    },
    {
      id: 'nothing-stored',
      title: 'Nothing was stored',
      text: 'GET the name the dry run reported, and list the Deployments of the namespace.',
      lookFor: '404 for the name, and an empty list.',
      run: async (c) => [await c.send('GET', `/apis/apps/v1/namespaces/${c.ns}/deployments/${c.memo.dryName || 'none'}`), await c.send('GET', `/apis/apps/v1/namespaces/${c.ns}/deployments`)],
      show: (x) => (x.status === 200 ? { kind: field(x.response, 'kind'), items: ((field(x.response, 'items') as unknown[]) ?? []).length } : x.response),
      check: ([one, list]) => {
        const { want, result } = expectations();
        want(one!.status === 404, `GET: HTTP ${one!.status}`);
        want(((field(list!.response, 'items') as unknown[]) ?? []).length === 0, 'the list is not empty');
        return result;
      },
    },
  ],
};

export const updates: KitLesson = {
  id: 'updates',
  topic: 'update',
  title: 'Updates: PUT against the four patch types',
  scope: 'namespace',
  paragraphs: [
    'PUT replaces the whole object and carries the `resourceVersion` it was based on: if someone wrote in between, 409 Conflict, and the client must read again. A patch sends only a change, and the server applies it to the current object; but a patch or an apply whose body carries `metadata.resourceVersion` gets the same check, and the same 409 (step 3). There are four kinds, told apart by `Content-Type`: JSON Patch (`application/json-patch+json`, a list of operations, with `test` as a precondition), JSON Merge Patch (`application/merge-patch+json`, a partial object where `null` deletes and lists are replaced whole), strategic merge patch (`application/strategic-merge-patch+json`, built-in types only, merges lists by key), and apply (`application/apply-patch+yaml`, Server-Side Apply).',
    'How to choose: apply for declaring what you own; merge patch for a small change to maps; JSON Patch when you need a precondition or to touch one list element by index; PUT when you read-modify-write the whole object (any write can ask for the conflict check by carrying `metadata.resourceVersion`).',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'update', resource: 'configmaps', namespaced: true }, { verb: 'patch', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'create',
      title: 'Create, then PUT twice from the same read',
      text: 'Create `edited`, then PUT it with the resourceVersion of the create, twice.',
      lookFor: 'The first PUT is 200; the second carries a version that is no longer current and gets 409 Conflict.',
      run: async (c) => {
        const x = await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'edited', labels: label('update') }, data: { a: '1' } } });
        const rv = String(field(x.response, 'metadata', 'resourceVersion'));
        const put = (v: string) => c.send('PUT', cm(c, 'edited'), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'edited', resourceVersion: rv, labels: label('update') }, data: { a: v } } });
        return [x, await put('2'), await put('3')];
      },
      show: (x) => (x.status < 300 ? { resourceVersion: field(x.response, 'metadata', 'resourceVersion'), data: field(x.response, 'data') } : x.response),
      check: ([c1, p1, p2]) => {
        const { want, result } = expectations();
        want(c1!.status === 201 && p1!.status === 200, `create ${c1!.status}, first PUT ${p1!.status}`);
        want(p2!.status === 409 && field(p2!.response, 'reason') === 'Conflict', `second PUT: HTTP ${p2!.status}`);
        return result;
      },
    },
    {
      id: 'patches',
      title: 'The four patch types',
      text: 'A JSON Patch with a `test` that holds, one whose `test` fails, a merge patch that deletes a key with `null`, a strategic merge patch, and an apply.',
      lookFor:
        'The failing `test` is refused with 422 `Invalid` and changes nothing, with only the generic message "the server rejected our request due to an error in our request": no cause names the `test` or its path, and nothing was validated (the patch could not be applied). Each other patch answers 200 with the change made.',
      run: async (c) => {
        const p = (type: string, body: unknown, q = '') => c.send('PATCH', cm(c, 'edited') + q, { body: typeof body === 'string' ? body : JSON.stringify(body), contentType: type });
        return [
          await p('application/json-patch+json', [{ op: 'test', path: '/data/a', value: '2' }, { op: 'add', path: '/data/b', value: 'json-patch' }]),
          await p('application/json-patch+json', [{ op: 'test', path: '/data/a', value: 'not-this' }, { op: 'add', path: '/data/c', value: 'never' }]),
          await p('application/merge-patch+json', { data: { b: null, m: 'merge' } }),
          await p('application/strategic-merge-patch+json', { data: { s: 'strategic' } }),
          await p('application/apply-patch+yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: edited\ndata:\n  applied: "yes"\n', '?fieldManager=lesson'),
        ];
      },
      show: (x) => (x.status < 300 ? { data: field(x.response, 'data') } : x.response),
      check: ([jp, jpFail, merge, smp, apply]) => {
        const { want, result } = expectations();
        want(jp!.status === 200 && field(jp!.response, 'data', 'b') === 'json-patch', `JSON Patch: HTTP ${jp!.status}`);
        want(jpFail!.status === 422 && field(jpFail!.response, 'reason') === 'Invalid', `failing test: HTTP ${jpFail!.status}`);
        want(String(field(jpFail!.response, 'message')) === 'the server rejected our request due to an error in our request' && field(jpFail!.response, 'details', 'causes') === undefined, `failing test: ${String(field(jpFail!.response, 'message'))}`);
        want(merge!.status === 200 && field(merge!.response, 'data', 'b') === undefined && field(merge!.response, 'data', 'm') === 'merge', `merge patch: HTTP ${merge!.status}`);
        want(field(merge!.response, 'data', 'c') === undefined, 'the failed patch changed something');
        want(smp!.status === 200 && field(smp!.response, 'data', 's') === 'strategic', `strategic: HTTP ${smp!.status}`);
        want(apply!.status === 200 && field(apply!.response, 'data', 'applied') === 'yes', `apply: HTTP ${apply!.status}`);
        return result;
      },
      view: (c) => ({ label: 'Edit the object yourself in the Edit view', to: { view: 'edit', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps', name: 'edited' } }),
    },
    {
      id: 'stale-patches',
      title: 'A patch and an apply that carry an old resourceVersion',
      text: 'Read `edited`, change it once with a merge patch, then send a merge patch and an apply whose bodies carry the resourceVersion of the read.',
      lookFor: 'The first merge patch 200; the two carrying the old version 409 Conflict, like the second PUT of step 1: the precondition is the `metadata.resourceVersion` in the body, whatever the verb.',
      run: async (c) => {
        const read = await c.send('GET', cm(c, 'edited'));
        const rv = String(field(read.response, 'metadata', 'resourceVersion'));
        const merge = (body: unknown) => c.send('PATCH', cm(c, 'edited'), { body, contentType: 'application/merge-patch+json' });
        return [
          read,
          await merge({ data: { moved: 'on' } }),
          await merge({ metadata: { resourceVersion: rv }, data: { late: 'merge' } }),
          await c.send('PATCH', `${cm(c, 'edited')}?fieldManager=lesson`, { body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: edited\n  resourceVersion: "${rv}"\ndata:\n  late: apply\n`, contentType: 'application/apply-patch+yaml' }),
        ];
      },
      show: (x) => (x.status < 300 ? { resourceVersion: field(x.response, 'metadata', 'resourceVersion'), data: field(x.response, 'data') } : x.response),
      check: ([read, moved, merge, apply]) => {
        const { want, result } = expectations();
        want(read!.status === 200 && moved!.status === 200, `read ${read!.status}, first merge patch ${moved!.status}`);
        want(merge!.status === 409 && field(merge!.response, 'reason') === 'Conflict', `merge patch with the old version: HTTP ${merge!.status}`);
        want(apply!.status === 409 && field(apply!.response, 'reason') === 'Conflict', `apply with the old version: HTTP ${apply!.status}`);
        return result;
      },
    },
  ],
};

/** Polls GET until `done` holds or about `ms` pass; returns the last answer. */
async function until(c: StepContext, path: string, done: (x: KitExchange) => boolean, ms = 30_000): Promise<KitExchange> {
  const end = Date.now() + ms;
  for (;;) {
    const x = await c.send('GET', path);
    if (done(x) || Date.now() > end) return x;
    await sleep(500);
  }
}

const owner = (c: StepContext, name: string) => c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: label('delete') } } });
const dependent = (c: StepContext, name: string, o: KitExchange) =>
  c.send('POST', cm(c), {
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: label('delete'), ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: field(o.response, 'metadata', 'name'), uid: field(o.response, 'metadata', 'uid') }] } },
  });

export const deletion: KitLesson = {
  id: 'deletion',
  topic: 'delete',
  title: 'Deletion: finalizers and propagation to dependents',
  scope: 'namespace',
  paragraphs: [
    'A DELETE does not always remove an object at once. While `metadata.finalizers` is not empty, the server only sets `deletionTimestamp` and waits: whoever put a finalizer there removes it when their cleanup is done, and the object goes when the last one is gone.',
    'Objects can name owners in `metadata.ownerReferences`. Deleting an owner decides what happens to them with `propagationPolicy`: `Background` (the default for most types) deletes the owner now and the garbage collector deletes the dependents afterwards; `Foreground` keeps the owner, marked with the `foregroundDeletion` finalizer, until its dependents are gone; `Orphan` leaves the dependents and removes their reference to the owner.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'delete', resource: 'configmaps', namespaced: true }, { verb: 'patch', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'finalizer',
      title: 'A finalizer holds the object',
      text: 'Create `held` with the finalizer `explorer.lessons/hold`, DELETE it, GET it, then remove the finalizer with a merge patch and GET again.',
      lookFor: 'The DELETE answers 200 with the object, now carrying `deletionTimestamp`; the GET still finds it; after the patch the GET is 404.',
      run: async (c) => {
        const made = await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', labels: label('delete'), finalizers: ['explorer.lessons/hold'] } } });
        const del = await c.send('DELETE', cm(c, 'held'));
        const still = await c.send('GET', cm(c, 'held'));
        const release = await c.send('PATCH', cm(c, 'held'), { body: JSON.stringify({ metadata: { finalizers: null } }), contentType: 'application/merge-patch+json' });
        const gone = await until(c, cm(c, 'held'), (x) => x.status === 404, 10_000);
        return [made, del, still, release, gone];
      },
      show: (x) => (x.status < 300 ? { metadata: { name: field(x.response, 'metadata', 'name'), finalizers: field(x.response, 'metadata', 'finalizers'), deletionTimestamp: field(x.response, 'metadata', 'deletionTimestamp') } } : x.response),
      check: ([made, del, still, , gone]) => {
        const { want, result } = expectations();
        want(made!.status === 201, `create: HTTP ${made!.status}`);
        want(del!.status === 200 && typeof field(del!.response, 'metadata', 'deletionTimestamp') === 'string', `DELETE: HTTP ${del!.status} without deletionTimestamp`);
        want(still!.status === 200, `GET after DELETE: HTTP ${still!.status}`);
        want(gone!.status === 404, `after the finalizer went: HTTP ${gone!.status}`);
        return result;
      },
    },
    ...(['Background', 'Foreground', 'Orphan'] as const).map((policy) => ({
      id: policy.toLowerCase(),
      title: `propagationPolicy=${policy}`,
      text: `Create owner \`owner-${policy.toLowerCase()}\` and a dependent naming it in \`ownerReferences\`; DELETE the owner with \`propagationPolicy=${policy}\`, then wait for the garbage collector (it runs in kube-controller-manager).`,
      lookFor:
        policy === 'Foreground'
          ? 'The DELETE returns the owner still present, with `deletionTimestamp` and the `foregroundDeletion` finalizer; then the dependent is gone (404), and the owner after it.'
          : policy === 'Background'
            ? 'The DELETE returns a `Status` Success: the owner is gone at once; a moment later the dependent is gone too (404).'
            : 'The dependent stays (200) and its `ownerReferences` are gone.',
      run: async (c: StepContext) => {
        const p = policy.toLowerCase();
        const o = await owner(c, `owner-${p}`);
        const d = await dependent(c, `dependent-${p}`, o);
        const del = await c.send('DELETE', cm(c, `owner-${p}`), { body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy } });
        const dep =
          policy === 'Orphan'
            ? await until(c, cm(c, `dependent-${p}`), (x) => x.status === 200 && field(x.response, 'metadata', 'ownerReferences') === undefined)
            : await until(c, cm(c, `dependent-${p}`), (x) => x.status === 404);
        const own = await until(c, cm(c, `owner-${p}`), (x) => x.status === 404);
        return [o, d, del, dep, own];
      },
      show: (x: KitExchange) =>
        x.status < 300 && field(x.response, 'kind') === 'ConfigMap'
          ? { metadata: { name: field(x.response, 'metadata', 'name'), ownerReferences: field(x.response, 'metadata', 'ownerReferences'), finalizers: field(x.response, 'metadata', 'finalizers'), deletionTimestamp: field(x.response, 'metadata', 'deletionTimestamp') } }
          : x.response,
      check: ([o, d, del, dep, own]: KitExchange[]) => {
        const { want, result } = expectations();
        want(o!.status === 201 && d!.status === 201, `create: ${o!.status}, ${d!.status}`);
        if (policy === 'Foreground') {
          const fin = (field(del!.response, 'metadata', 'finalizers') as string[] | undefined) ?? [];
          want(del!.status === 200 && fin.includes('foregroundDeletion'), `DELETE: HTTP ${del!.status}, finalizers ${fin.join()}`);
        } else if (policy === 'Background') {
          want(del!.status === 200 && field(del!.response, 'kind') === 'Status', `DELETE: HTTP ${del!.status}, kind ${String(field(del!.response, 'kind'))}`);
        } else {
          want(del!.status === 200, `DELETE: HTTP ${del!.status}`);
        }
        if (policy === 'Orphan') want(dep!.status === 200 && field(dep!.response, 'metadata', 'ownerReferences') === undefined, `dependent: HTTP ${dep!.status}, ownerReferences still set`);
        else want(dep!.status === 404, `dependent: HTTP ${dep!.status}`);
        want(own!.status === 404, `owner: HTTP ${own!.status}`);
        return result;
      },
    })),
  ],
};

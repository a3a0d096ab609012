// Lessons about request bodies: YAML as a request encoding, bodies the server cannot decode at
// all (a plain 400, whatever fieldValidation says), managedFields written and cleared, and dry
// run authorized like the real request. Every claim is a step's check or marked background.
import { parseWarningHeader } from '../../../codecs';
import { ownership } from '../exchange';
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { sleep } from '../../../lib/sleep';

const cm = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps${name ? `/${name}` : ''}`;
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const warnings = (x: KitExchange) => parseWarningHeader(x.responseHeaders.warning).map((w) => w.text).join(' | ');
const YAML = 'application/yaml';
/** Steps that act as the second user wait for step 1 to have found it. */
const noSecondUser = (c: StepContext) => (c.memo.viewer ? undefined : `no second user (step 1): this explorer has no \`${VIEWER_CONTEXT}\` context.`);

const yamlConfigMap = (name: string, extra = '') => `# A comment: YAML has them, JSON does not.
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  labels:
    explorer.lessons/lesson: yamlbody
${extra}data:
  script: |
    echo one
    echo two
  zip: "010"
`;

export const yamlBodies: KitLesson = {
  id: 'yaml-bodies',
  topic: 'yamlbody',
  title: 'YAML request bodies: create and update without JSON',
  scope: 'namespace',
  paragraphs: [
    'A request body may be YAML: `Content-Type: application/yaml` on a create or an update, and the server decodes it as it would JSON. Comments, block scalars (`|`) and the rest of YAML are fine. The answer is JSON unless `Accept` asks for YAML too.',
    'YAML types what it reads: an unquoted `8080` is a number, and a field that wants a string refuses it. Patches are the exception: a PATCH must name a patch type, and `application/yaml` is none of them (Server-Side Apply\'s `application/apply-patch+yaml` is the YAML one).',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'update', resource: 'configmaps', namespaced: true }, { verb: 'patch', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'create',
      title: 'POST a YAML body',
      text: 'POST a ConfigMap written in YAML, with a comment, a block scalar and a quoted `"010"`, `Content-Type: application/yaml`.',
      lookFor: 'HTTP 201 with a JSON answer: `script` holds both lines and a final newline, `zip` stays the string `"010"`.',
      run: async (c) => [await c.send('POST', cm(c), { body: yamlConfigMap('from-yaml'), contentType: YAML })],
      show: (x) => (x.status < 300 ? { data: field(x.response, 'data') } : x.response),
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 201 && (x!.responseHeaders['content-type'] ?? '').startsWith('application/json'), `HTTP ${x!.status}, ${x!.responseHeaders['content-type']}`);
        want(field(x!.response, 'data', 'script') === 'echo one\necho two\n' && field(x!.response, 'data', 'zip') === '010', `data ${JSON.stringify(field(x!.response, 'data'))}`);
        return result;
      },
    },
    {
      id: 'update',
      title: 'PUT a YAML body, and ask for YAML back',
      text: 'PUT the same ConfigMap as YAML with one more key and the `resourceVersion` of the create, `Accept: application/yaml`.',
      lookFor: 'HTTP 200, `content-type: application/yaml`: the stored object, written back as YAML.',
      run: async (c) => {
        const got = await c.send('GET', cm(c, 'from-yaml'));
        const rv = String(field(got.response, 'metadata', 'resourceVersion') ?? '');
        return [await c.send('PUT', cm(c, 'from-yaml'), { body: yamlConfigMap('from-yaml', `  resourceVersion: "${rv}"\n`).replace('\ndata:\n', '\ndata:\n  added: "by a YAML PUT"\n'), contentType: YAML, accept: YAML })];
      },
      show: (x) => (typeof x.response === 'string' ? x.response.slice(0, 600) : x.response),
      check: ([x]) => {
        const { want, result } = expectations();
        const text = typeof x!.response === 'string' ? x!.response : '';
        want(x!.status === 200 && (x!.responseHeaders['content-type'] ?? '').startsWith(YAML), `HTTP ${x!.status}, ${x!.responseHeaders['content-type']}`);
        want(text.includes('added: by a YAML PUT') && /^kind: ConfigMap$/m.test(text), 'the YAML answer lacks the new key');
        return result;
      },
    },
    {
      id: 'typed',
      title: 'An unquoted number where a string belongs',
      text: 'POST a YAML ConfigMap whose `data` has `port: 8080`, unquoted.',
      lookFor: '400 BadRequest: the server read a number, and `data` holds strings only. Nothing is stored.',
      run: async (c) => [await c.send('POST', cm(c), { body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: typed\ndata:\n  port: 8080\n', contentType: YAML })],
      check: ([x]) => (x!.status === 400 && msg(x!).includes('ConfigMap.data') ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'not-a-patch',
      title: 'A PATCH with a YAML body',
      text: 'PATCH the ConfigMap with `Content-Type: application/yaml`.',
      lookFor: '415 Unsupported Media Type, reason `UnsupportedMediaType`: the PATCH must name one of the four patch types.',
      run: async (c) => [await c.send('PATCH', cm(c, 'from-yaml'), { body: 'data:\n  patched: "no"\n', contentType: YAML })],
      check: ([x]) => (x!.status === 415 && field(x!.response, 'reason') === 'UnsupportedMediaType' ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
  ],
};

/** A ConfigMap body with an unknown field and a value of the wrong type, written as text on purpose. */
const BROKEN = (name: string) => `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "${name}"}, "spec": {"unknown": true}, "data": {"n": 1}}`;

export const bodyErrors: KitLesson = {
  id: 'body-errors',
  topic: 'bodyerr',
  title: 'Bodies the server cannot decode: a plain 400 before field validation',
  scope: 'namespace',
  paragraphs: [
    '`fieldValidation` decides what happens to unknown and duplicate fields in a body that otherwise decodes (the field-validation lesson). A body that does not decode at all, a value of the wrong type for one, is refused with a plain 400 BadRequest under every mode: the error is about the decoding, and the unknown field beside it is not reported, in the message or in a warning.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }],
  steps: ['Strict', 'Warn'].map((mode) => ({
    id: mode.toLowerCase(),
    title: `An unknown field plus a wrong type, fieldValidation=${mode}`,
    text: `POST a ConfigMap with an unknown \`spec\` and \`data.n\` set to the number 1, \`fieldValidation=${mode}\`.`,
    lookFor: `400 BadRequest whose message is about the number in \`data\` (\`cannot unmarshal number\`)${mode === 'Strict' ? ', not a `strict decoding error`' : ''}, and no \`warning\` header naming \`spec\`.`,
    run: async (c: StepContext) => [await c.send('POST', `${cm(c)}?fieldValidation=${mode}`, { body: BROKEN(`broken-${mode.toLowerCase()}`) })],
    check: ([x]: KitExchange[]) => {
      const { want, result } = expectations();
      want(x!.status === 400 && field(x!.response, 'reason') === 'BadRequest', `HTTP ${x!.status}`);
      want(msg(x!).includes('cannot unmarshal number') && !msg(x!).includes('strict decoding error') && !msg(x!).includes('unknown field'), `message: ${msg(x!)}`);
      want(!warnings(x!).includes('unknown field'), `warning: ${warnings(x!)}`);
      return result;
    },
  })),
};

const managers = (x: KitExchange) => ownership(x.response).map((e) => `${e.manager}/${e.operation}`);

export const managedFields: KitLesson = {
  id: 'managed-fields',
  topic: 'managed',
  title: 'managedFields: Apply against Update, and clearing them',
  scope: 'namespace',
  paragraphs: [
    'Every write records who set which fields in `metadata.managedFields`, one entry per manager and operation. Server-Side Apply writes entries with `operation: Apply`; a create, an update or a patch writes entries with `operation: Update`. The manager\'s name is `fieldManager` when the request names one; when it does not, the server takes it from the `User-Agent` header (its part before the first `/`). Background, not checked here: browsers do not let a page set `User-Agent`, so which name appears for the explorer\'s own writes depends on what its proxy sends.',
    'A client can remove the whole record: an update or patch that sets `managedFields` to a list of one empty entry, `[{}]`, clears it; the next apply starts a fresh record (an update of an object without a record adds none). The Server-Side Apply page says an empty list `[]` does not; kube-apiserver (1.37.1 and 1.33.13: `isResetManagedFields` treats a present empty list as a reset) clears it for `[]` too, and step 2 shows it. Leaving `managedFields` out of the body is what keeps the record.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'patch', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'two-operations',
      title: 'Created by one manager, applied by another',
      text: 'POST `owned` with `fieldManager=writer`, then apply one more key to it with `fieldManager=applier`.',
      lookFor: 'Two entries: `writer` with operation `Update`, owning what it created, and `applier` with operation `Apply`, owning its key.',
      run: async (c) => [
        await c.send('POST', `${cm(c)}?fieldManager=writer`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned', labels: label('managed') }, data: { a: '1' } } }),
        await c.send('PATCH', `${cm(c, 'owned')}?fieldManager=applier`, { body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: owned\ndata:\n  b: "2"\n', contentType: 'application/apply-patch+yaml' }),
      ],
      show: (x) => ({ managedFields: ownership(x.response) }),
      check: ([post, applied]) => {
        const { want, result } = expectations();
        want(post!.status === 201 && applied!.status === 200, `HTTP ${post!.status}, ${applied!.status}`);
        want(managers(applied!).sort().join() === 'applier/Apply,writer/Update', `entries: ${managers(applied!).join(', ')}`);
        return result;
      },
    },
    {
      id: 'left-out',
      title: 'A patch that leaves managedFields out',
      text: 'A merge patch that sets `data.c`, with `fieldManager=patcher`, and says nothing about `managedFields`.',
      lookFor: 'HTTP 200: the entries of step 1 are still there, and a third, `patcher` (Update), owns `.data.c`.',
      run: async (c) => [await c.send('PATCH', `${cm(c, 'owned')}?fieldManager=patcher`, { body: { data: { c: '3' } }, contentType: 'application/merge-patch+json' })],
      show: (x) => ({ managedFields: ownership(x.response) }),
      check: ([x]) => (x!.status === 200 && managers(x!).sort().join() === 'applier/Apply,patcher/Update,writer/Update' ? [] : [`HTTP ${x!.status}, entries: ${managers(x!).join(', ')}`]),
    },
    {
      id: 'empty-list',
      title: 'managedFields: []',
      text: 'A merge patch setting `metadata.managedFields` to `[]`, with `fieldManager=cleaner`; then a merge patch as `fieldManager=after` that sets `data.d`; then an apply as `fieldManager=applier` of `data.b`.',
      lookFor: 'After the first patch, no `managedFields` at all: the server took the present empty list as a reset. The merge patch after it adds none either: an update of an object with no record is not tracked. The apply starts a fresh record: `applier` (Apply) owns what it applied, and an entry named `before-first-apply` (Update) takes every other field the object had.',
      run: async (c) => [
        await c.send('PATCH', `${cm(c, 'owned')}?fieldManager=cleaner`, { body: { metadata: { managedFields: [] } }, contentType: 'application/merge-patch+json' }),
        await c.send('PATCH', `${cm(c, 'owned')}?fieldManager=after`, { body: { data: { d: '4' } }, contentType: 'application/merge-patch+json' }),
        await c.send('PATCH', `${cm(c, 'owned')}?fieldManager=applier`, { body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: owned\ndata:\n  b: "2"\n', contentType: 'application/apply-patch+yaml' }),
      ],
      show: (x) => ({ managedFields: field(x.response, 'metadata', 'managedFields') ?? '(absent)' }),
      check: ([cleared, after, applied]) => {
        const { want, result } = expectations();
        want(cleared!.status === 200 && field(cleared!.response, 'metadata', 'managedFields') === undefined, `HTTP ${cleared!.status}, entries: ${managers(cleared!).join(', ')}`);
        want(after!.status === 200 && field(after!.response, 'metadata', 'managedFields') === undefined, `after the merge patch: HTTP ${after!.status}, entries: ${managers(after!).join(', ')}`);
        want(applied!.status === 200 && managers(applied!).sort().join() === 'applier/Apply,before-first-apply/Update', `after the apply: HTTP ${applied!.status}, entries: ${managers(applied!).join(', ')}`);
        return result;
      },
    },
    {
      id: 'clear',
      title: 'managedFields: [{}]',
      text: 'The same patch with `[{}]`: one empty entry.',
      lookFor: 'HTTP 200 and no `managedFields`: the documented way to clear the record.',
      run: async (c) => [await c.send('PATCH', `${cm(c, 'owned')}?fieldManager=cleaner`, { body: { metadata: { managedFields: [{}] } }, contentType: 'application/merge-patch+json' })],
      show: (x) => ({ managedFields: field(x.response, 'metadata', 'managedFields') ?? '(absent)' }),
      check: ([x]) => (x!.status === 200 && field(x!.response, 'metadata', 'managedFields') === undefined ? [] : [`HTTP ${x!.status}, entries: ${managers(x!).join(', ')}`]),
      view: (c) => ({ label: 'See the record in the Ownership view', to: { view: 'ownership', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps', name: 'owned' } }),
    },
  ],
};

const VIEWER_CONTEXT = 'local-viewer';

/** Sends until the answer is no longer the one from before a Role change: RBAC reads Roles from an informer, so a grant takes effect a moment after its write. */
async function afterGrant(send: () => Promise<KitExchange>, stale: (x: KitExchange) => boolean): Promise<KitExchange> {
  let x = await send();
  for (let i = 0; i < 20 && stale(x); i++) {
    await sleep(250);
    x = await send();
  }
  return x;
}

export const dryRunAccess: KitLesson = {
  id: 'dry-run-access',
  topic: 'dryauth',
  title: 'Dry run is authorized like the real request',
  scope: 'namespace',
  paragraphs: [
    '`dryRun=All` stops before storage, but nothing else is skipped: authentication, authorization and admission run as for the real write. So a dry run needs the same verb as the real request (there is no "dry-run" permission), and a dry run that succeeds says the real one would be allowed.',
    'Background, not shown here: admission webhooks are called on a dry run too, with `dryRun: true` in the AdmissionReview; a webhook must declare `sideEffects: None` or `NoneOnDryRun` (the only values admissionregistration.k8s.io/v1 accepts) to promise it changes nothing outside the request.',
    `The lesson needs a second user with fewer rights: the \`${VIEWER_CONTEXT}\` context of the local control plane. On other clusters the steps that use it say so and do not run.`,
  ],
  needs: [
    { verb: 'create', resource: 'configmaps', namespaced: true },
    { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'roles', namespaced: true },
    { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'rolebindings', namespaced: true },
    { verb: 'patch', group: 'rbac.authorization.k8s.io', resource: 'roles', namespaced: true },
  ],
  steps: [
    {
      id: 'who',
      title: 'Who is the second user?',
      text: `A SelfSubjectReview with the \`${VIEWER_CONTEXT}\` context's credentials.`,
      lookFor: 'HTTP 201 with the user name (`explorer-viewer` on the local control plane).',
      run: async (c) => {
        try {
          const x = await c.sendAs(VIEWER_CONTEXT, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
          const user = field(x.response, 'status', 'userInfo', 'username');
          if (x.status === 201 && typeof user === 'string') c.memo.viewer = user;
          return [x];
        } catch {
          return [];
        }
      },
      show: (x) => field(x.response, 'status', 'userInfo') ?? x.response,
      check: (xs, c) => (c.memo.viewer ? [] : [`no \`${VIEWER_CONTEXT}\` context answered${xs[0] ? `: HTTP ${xs[0].status}` : ''}`]),
    },
    {
      id: 'denied',
      title: 'A dry-run create without the permission',
      text: 'The second user POSTs a ConfigMap with `dryRun=All`.',
      lookFor: '403 Forbidden, "cannot create resource \\"configmaps\\"": the same answer the real create would get.',
      blocked: noSecondUser,
      run: async (c) => [await c.sendAs(VIEWER_CONTEXT, 'POST', `${cm(c)}?dryRun=All`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry', labels: label('dryauth') } } })],
      check: ([x]) => (x!.status === 403 && msg(x!).includes('cannot create resource "configmaps"') ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'granted',
      title: 'Grant create, and dry-run again',
      text: 'A Role allowing `create` on ConfigMaps in this namespace, bound to the second user; then the same dry-run create, and a GET of the name.',
      lookFor: 'The dry run answers 201 with the object as it would be stored; the GET (as you) 404: nothing was stored.',
      blocked: noSecondUser,
      run: async (c) => {
        const rbac = `/apis/rbac.authorization.k8s.io/v1/namespaces/${encodeURIComponent(c.ns)}`;
        const role = await c.send('POST', `${rbac}/roles`, { body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'dry-creator', labels: label('dryauth') }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['create'] }] } });
        const binding = await c.send('POST', `${rbac}/rolebindings`, {
          body: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'dry-creator', labels: label('dryauth') }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'dry-creator' }, subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: c.memo.viewer }] },
        });
        const dry = await afterGrant(
          () => c.sendAs(VIEWER_CONTEXT, 'POST', `${cm(c)}?dryRun=All`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry', labels: label('dryauth') } } }),
          (x) => x.status === 403,
        );
        return [role, binding, dry, await c.send('GET', cm(c, 'dry'))];
      },
      check: ([role, binding, dry, get]) => {
        const { want, result } = expectations();
        want(role!.status === 201 && binding!.status === 201, `Role ${role!.status}, RoleBinding ${binding!.status}`);
        want(dry!.status === 201 && field(dry!.response, 'metadata', 'name') === 'dry', `dry run: HTTP ${dry!.status} ${msg(dry!)}`);
        want(get!.status === 404, `GET: HTTP ${get!.status}`);
        return result;
      },
    },
    {
      id: 'apply-verbs',
      title: 'Apply needs patch, and create for a new object',
      text: 'Server-Side Apply is a PATCH, so the authorizer asks for `patch`; when the object does not exist yet the apply creates it, and `create` is asked too. The second user (who may now only create) applies a new ConfigMap with `dryRun=All`; then the Role is changed to `patch` only, then to `patch` and `create`, and the same apply is sent after each change.',
      lookFor: 'With create only: 403 "cannot patch". With patch only: 403 "cannot create". With both: 201 for the dry run, and a GET (as you) 404.',
      blocked: noSecondUser,
      run: async (c) => {
        const role = `/apis/rbac.authorization.k8s.io/v1/namespaces/${encodeURIComponent(c.ns)}/roles/dry-creator`;
        const apply = () => c.sendAs(VIEWER_CONTEXT, 'PATCH', `${cm(c, 'applied')}?dryRun=All&fieldManager=viewer`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'applied', labels: label('dryauth') }, data: { k: 'v' } }, contentType: 'application/apply-patch+yaml' });
        const setVerbs = (verbs: string[]) => c.send('PATCH', role, { body: { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs }] }, contentType: 'application/merge-patch+json' });
        const createOnly = await apply();
        const patchRole = await setVerbs(['patch']);
        const patchOnly = await afterGrant(apply, (x) => x.status === 403 && msg(x).includes('cannot patch'));
        const bothRole = await setVerbs(['patch', 'create']);
        const both = await afterGrant(apply, (x) => x.status === 403);
        return [createOnly, patchRole, patchOnly, bothRole, both, await c.send('GET', cm(c, 'applied'))];
      },
      check: ([createOnly, patchRole, patchOnly, bothRole, both, get]) => {
        const { want, result } = expectations();
        want(createOnly!.status === 403 && msg(createOnly!).includes('cannot patch resource "configmaps"'), `create only: HTTP ${createOnly!.status} ${msg(createOnly!)}`);
        want(patchRole!.status === 200 && bothRole!.status === 200, `Role changes: ${patchRole!.status}, ${bothRole!.status}`);
        want(patchOnly!.status === 403 && msg(patchOnly!).includes('cannot create resource "configmaps"'), `patch only: HTTP ${patchOnly!.status} ${msg(patchOnly!)}`);
        want(both!.status === 201 && field(both!.response, 'metadata', 'name') === 'applied', `patch and create: HTTP ${both!.status} ${msg(both!)}`);
        want(get!.status === 404, `GET: HTTP ${get!.status}`);
        return result;
      },
    },
  ],
};

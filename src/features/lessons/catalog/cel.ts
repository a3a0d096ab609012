// Validation rules in CEL: a CustomResourceDefinition with x-kubernetes-validations, and a
// ValidatingAdmissionPolicy with its binding. Both are cluster-scoped: the lesson asks first,
// labels them, names them after its scratch namespace, and removes them at the end.
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { sleep } from '../../../lib/sleep';

const GROUP = 'lessons.explorer.dev';
const CRD = `lessonwidgets.${GROUP}`;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const VAPS = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies';
const VAPBS = '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings';
const widgets = (c: StepContext, v = 'v1', name = '') => `/apis/${GROUP}/${v}/namespaces/${c.ns}/lessonwidgets${name ? `/${name}` : ''}`;
const policyName = (c: StepContext) => `${c.ns}-team-label`;

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        min: { type: 'integer' },
        max: { type: 'integer' },
        // A transition rule: oldSelf is the value before an update, so the rule only runs on updates.
        size: { type: 'string', maxLength: 20, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'size cannot change once set' }] },
      },
      'x-kubernetes-validations': [
        { rule: 'self.min <= self.max', message: 'min must not be greater than max' },
        // A messageExpression is costed like a rule: `'max is ' + string(self.max)` is refused when
        // the CRD is created ("estimated messageExpression cost exceeds budget"), as string() of an
        // unbounded integer has no size bound. Choosing between fixed texts stays cheap.
        { rule: 'self.max <= 100', messageExpression: "self.max > 1000 ? 'max is more than ten times the limit of 100' : 'max is above the limit of 100'" },
      ],
    },
  },
};

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: CRD, labels: label('cel') },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'lessonwidgets', singular: 'lessonwidget', kind: 'LessonWidget', listKind: 'LessonWidgetList' },
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } },
      { name: 'v1beta1', served: true, storage: false, deprecated: true, deprecationWarning: 'lessons.explorer.dev/v1beta1 LessonWidget is deprecated; use lessons.explorer.dev/v1', schema: { openAPIV3Schema: schema } },
    ],
  },
};

const widget = (name: string, spec: Record<string, unknown>) => ({ apiVersion: `${GROUP}/v1`, kind: 'LessonWidget', metadata: { name, labels: label('cel') }, spec });
const causes = (x: KitExchange) => ((field(x.response, 'details', 'causes') as { message?: string; field?: string }[] | undefined) ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`).join(' | ');

async function poll(c: StepContext, f: () => Promise<KitExchange>, done: (x: KitExchange) => boolean, ms = 30_000): Promise<KitExchange> {
  const end = Date.now() + ms;
  for (;;) {
    const x = await f();
    if (done(x) || Date.now() > end) return x;
    await sleep(500);
  }
}

async function removeAll(c: StepContext): Promise<KitExchange[]> {
  return [
    await c.send('DELETE', `${VAPBS}/${policyName(c)}`),
    await c.send('DELETE', `${VAPS}/${policyName(c)}`),
    await c.send('DELETE', `${CRDS}/${CRD}`),
  ];
}

export const cel: KitLesson = {
  id: 'cel-validation',
  topic: 'cel',
  title: 'Validation rules in CEL: a CRD\'s x-kubernetes-validations and a ValidatingAdmissionPolicy',
  scope: 'cluster',
  clusterObjects: `the CustomResourceDefinition ${CRD}, and a ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding named after the scratch namespace (the binding matches that namespace only)`,
  paragraphs: [
    'A CustomResourceDefinition can carry rules in CEL, the Common Expression Language, right in its schema: `x-kubernetes-validations` with a `rule` (an expression over `self`, the value at that point), a fixed `message` or a `messageExpression` that computes one. A rule that mentions `oldSelf` is a transition rule: it compares the new value with the old one and runs only on updates. A failed rule is a 422 Invalid whose causes name the field and carry the message.',
    'A ValidatingAdmissionPolicy brings the same kind of rule to any type, built-in ones included, without a webhook; a ValidatingAdmissionPolicyBinding says where it applies and what a failure does (`Deny`, `Warn`, `Audit`).',
    'This lesson also serves its CRD in a second version marked `deprecated`: every request through that version gets a `Warning` header, the way built-in versions announce their removal.',
  ],
  needs: [
    { verb: 'create', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'delete', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'create', group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicies' },
    { verb: 'create', group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicybindings' },
    { verb: 'create', resource: 'configmaps', namespaced: true },
  ],
  steps: [
    {
      id: 'crd',
      title: 'Define LessonWidget with its rules',
      text: `Create the CRD \`${CRD}\` and wait until its condition \`Established\` is True (the server then serves the new paths).`,
      lookFor: 'HTTP 201, then `Established: True`. The schema holds three rules: `self.min <= self.max`, `self.max <= 100` with a `messageExpression`, and `self == oldSelf` on `size`.',
      run: async (c) => {
        const made = await c.send('POST', CRDS, { body: crd });
        const est = await poll(c, () => c.send('GET', `${CRDS}/${CRD}`), (x) => ((field(x.response, 'status', 'conditions') as { type: string; status: string }[] | undefined) ?? []).some((k) => k.type === 'Established' && k.status === 'True'));
        // The new paths take a moment to reach discovery and the handler chain after Established.
        await poll(c, () => c.send('GET', widgets(c)), (x) => x.status === 200, 30_000);
        return [made, est];
      },
      show: (x) =>
        x.status >= 300
          ? x.response
          : x.method === 'GET'
            ? { status: { conditions: ((field(x.response, 'status', 'conditions') as { type: string; status: string }[]) ?? []).map((k) => `${k.type}: ${k.status}`) } }
            : { metadata: { name: field(x.response, 'metadata', 'name') } },
      check: ([made, est]) => {
        const { want, result } = expectations();
        want(made!.status === 201 || made!.status === 409, `create: HTTP ${made!.status}`);
        want(((field(est!.response, 'status', 'conditions') as { type: string; status: string }[] | undefined) ?? []).some((k) => k.type === 'Established' && k.status === 'True'), 'not Established');
        return result;
      },
      view: () => ({ label: 'Find LessonWidget in the Discovery view', to: { view: 'discovery' } }),
    },
    {
      id: 'rules',
      title: 'One valid widget, two that break a rule',
      text: 'Create `ok` (min 1, max 5, size small), `crossed` (min 5, max 1) and `huge` (min 1, max 200).',
      lookFor: '201 for `ok`. 422 Invalid for the other two, each cause at `spec` carrying the rule\'s message: the fixed "min must not be greater than max", and the computed "max is above the limit of 100" (for a max above 1000 it would say "more than ten times"). A messageExpression is costed like a rule: one that turns the integer into text with `string(self.max)` is refused when the CRD is created, because its cost has no bound.',
      run: async (c) => [
        await c.send('POST', widgets(c), { body: widget('ok', { min: 1, max: 5, size: 'small' }) }),
        await c.send('POST', widgets(c), { body: widget('crossed', { min: 5, max: 1 }) }),
        await c.send('POST', widgets(c), { body: widget('huge', { min: 1, max: 200 }) }),
      ],
      show: (x) => (x.status < 300 ? { spec: field(x.response, 'spec') } : x.response),
      check: ([ok, crossed, huge]) => {
        const { want, result } = expectations();
        want(ok!.status === 201, `ok: HTTP ${ok!.status}`);
        want(crossed!.status === 422 && causes(crossed!).includes('min must not be greater than max'), `crossed: HTTP ${crossed!.status} ${causes(crossed!)}`);
        want(huge!.status === 422 && causes(huge!).includes('max is above the limit of 100'), `huge: HTTP ${huge!.status} ${causes(huge!)}`);
        return result;
      },
    },
    {
      id: 'transition',
      title: 'A transition rule',
      text: 'Patch `ok` to `size: large`, then to a new `max` only.',
      lookFor: 'The size change is refused (422, "size cannot change once set" at `spec.size`); the other change passes, since `size` kept its value.',
      run: async (c) => [
        await c.send('PATCH', widgets(c, 'v1', 'ok'), { body: JSON.stringify({ spec: { size: 'large' } }), contentType: 'application/merge-patch+json' }),
        await c.send('PATCH', widgets(c, 'v1', 'ok'), { body: JSON.stringify({ spec: { max: 6 } }), contentType: 'application/merge-patch+json' }),
      ],
      show: (x) => (x.status < 300 ? { spec: field(x.response, 'spec') } : x.response),
      check: ([size, max]) => {
        const { want, result } = expectations();
        want(size!.status === 422 && causes(size!).includes('size cannot change once set'), `size: HTTP ${size!.status} ${causes(size!)}`);
        want(max!.status === 200 && field(max!.response, 'spec', 'max') === 6, `max: HTTP ${max!.status}`);
        return result;
      },
    },
    {
      id: 'deprecated',
      title: 'Read through the deprecated version',
      text: 'GET `ok` as `lessons.explorer.dev/v1beta1`.',
      lookFor: 'HTTP 200, the same object with `apiVersion` v1beta1, and a `warning` header carrying the deprecation text.',
      run: async (c) => [await c.send('GET', widgets(c, 'v1beta1', 'ok'))],
      show: (x) => ({ apiVersion: field(x.response, 'apiVersion'), warning: x.responseHeaders.warning ?? '(none)' }),
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 200 && field(x!.response, 'apiVersion') === `${GROUP}/v1beta1`, `HTTP ${x!.status}`);
        want((x!.responseHeaders.warning ?? '').includes('is deprecated'), `warning: ${x!.responseHeaders.warning ?? '(none)'}`);
        return result;
      },
    },
    {
      id: 'policy',
      title: 'A ValidatingAdmissionPolicy for ConfigMaps',
      text: 'A policy that wants a `team` label on every ConfigMap, bound with `Deny` to the scratch namespace only; then a ConfigMap without the label and one with it.',
      lookFor: 'Once the policy is active (a second or two), the unlabelled ConfigMap is refused with 422 Invalid, the message naming the policy and the binding; the labelled one is created.',
      run: async (c) => {
        const name = policyName(c);
        const vap = await c.send('POST', VAPS, {
          body: {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingAdmissionPolicy',
            metadata: { name, labels: label('cel') },
            spec: {
              failurePolicy: 'Fail',
              matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
              validations: [{ expression: "has(object.metadata.labels) && 'team' in object.metadata.labels", message: 'every ConfigMap here needs a team label' }],
            },
          },
        });
        const binding = await c.send('POST', VAPBS, {
          body: {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingAdmissionPolicyBinding',
            metadata: { name, labels: label('cel') },
            spec: { policyName: name, validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': c.ns } } } },
          },
        });
        let n = 0;
        const cmPath = `/api/v1/namespaces/${c.ns}/configmaps`;
        // The policy reaches the admission plugin through an informer: retry until it bites, deleting what got through
        // meanwhile. Every attempt and every delete is shown (marked retried); the check reads the last attempt.
        const attempts: KitExchange[] = [];
        for (const end = Date.now() + 30_000; ; ) {
          const x = await c.send('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `no-team-${++n}` } } });
          attempts.push(x);
          if (x.status !== 201 || Date.now() > end) break;
          const del = await c.send('DELETE', `${cmPath}/no-team-${n}`);
          x.retried = del.retried = true;
          attempts.push(del);
          await sleep(500);
        }
        const allowed = await c.send('POST', cmPath, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'with-team', labels: { team: 'lessons' } } } });
        return [vap, binding, ...attempts, allowed];
      },
      show: (x) => (x.status < 300 ? { kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name') } } : x.response),
      check: ([vap, binding, denied, allowed]) => {
        const { want, result } = expectations();
        want(vap!.status === 201 && binding!.status === 201, `policy ${vap!.status}, binding ${binding!.status}`);
        want(denied!.status === 422 && String(field(denied!.response, 'message')).includes('every ConfigMap here needs a team label'), `unlabelled: HTTP ${denied!.status} ${String(field(denied!.response, 'message'))}`);
        want(allowed!.status === 201, `labelled: HTTP ${allowed!.status}`);
        return result;
      },
    },
    {
      id: 'cleanup',
      title: 'Remove the cluster-scoped objects',
      text: 'DELETE the binding, the policy and the CRD (deleting a CRD deletes every LessonWidget with it).',
      lookFor: 'HTTP 200 for each.',
      run: removeAll,
      show: (x) => ({ status: x.status, kind: field(x.response, 'kind') }),
      check: (xs) => xs.filter((x) => x.status !== 200).map((x) => `${x.path}: HTTP ${x.status}`),
    },
  ],
  cleanup: removeAll,
};

// The order of admission on one create, shown with policies that live inside kube-apiserver (a page
// cannot serve a webhook): a MutatingAdmissionPolicy stamps a label, the object's own validation
// checks the result, and a ValidatingAdmissionPolicy requires the stamp. The order is kube-apiserver's
// (pkg/kubeapiserver/options/plugins.go, AllOrderedPlugins: MutatingAdmissionPolicy,
// MutatingAdmissionWebhook, …, ValidatingAdmissionPolicy, ValidatingAdmissionWebhook; the registry
// runs the type's validation between the two phases, registry/generic/registry/store.go Create:
// BeforeCreate, then the validating admission function). Cluster-scoped objects named after the
// scratch namespace, bound to it alone, removed at the end.
import { expectations, field, type KitExchange, type KitLesson, label, retryUntil, type StepContext } from '../kit';

const AR = '/apis/admissionregistration.k8s.io/v1';
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const cm = (c: StepContext) => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps`;
const policyName = (c: StepContext) => `${c.ns}-order`;
const onlyHere = (c: StepContext) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': c.ns } } });
const BAD_VALUE = 'not a valid label value!';
const configMap = (name: string, labels: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { ...label('order'), ...labels } } });
const stamp = (x: KitExchange) => field(x.response, 'metadata', 'labels', 'stamped-by');
const showLabels = (x: KitExchange) => (x.status < 300 ? { metadata: { name: field(x.response, 'metadata', 'name'), labels: field(x.response, 'metadata', 'labels') } } : x.response);
/** Creates ConfigMaps named `<prefix>-<n>` until `done`: the policies reach admission a moment after they are written, and every attempt is shown. */
const createUntil = (c: StepContext, prefix: string, labels: Record<string, string>, done: (x: KitExchange) => boolean) => {
  let n = 0;
  return retryUntil(() => c.send('POST', cm(c), { body: configMap(`${prefix}-${n++}`, labels) }), done);
};

const rules = { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] };
const has = (k: string) => `has(object.metadata.labels) && '${k}' in object.metadata.labels`;

const removeAll = async (c: StepContext) => [
  await c.send('DELETE', `${AR}/mutatingadmissionpolicybindings/${policyName(c)}`),
  await c.send('DELETE', `${AR}/mutatingadmissionpolicies/${policyName(c)}`),
  await c.send('DELETE', `${AR}/validatingadmissionpolicybindings/${policyName(c)}`),
  await c.send('DELETE', `${AR}/validatingadmissionpolicies/${policyName(c)}`),
];

export const admissionOrder: KitLesson = {
  id: 'admission-order',
  topic: 'order',
  title: 'The order of admission: mutate, validate the object, then validating admission',
  scope: 'cluster',
  // MutatingAdmissionPolicy is served (admissionregistration.k8s.io/v1) from 1.36; older releases have it alpha or beta and off.
  since: '1.36',
  clusterObjects: 'a MutatingAdmissionPolicy, a ValidatingAdmissionPolicy and their bindings, named after the scratch namespace; the bindings match that namespace only',
  paragraphs: [
    'A write passes three gates after authorization, always in this order: mutating admission (MutatingAdmissionPolicies, then mutating webhooks; built-in plugins such as ServiceAccount and LimitRanger before both), then the validation of the object by its type (required fields, label syntax, a CRD\'s schema), then validating admission (ValidatingAdmissionPolicies, then validating webhooks, then ResourceQuota). So validation always judges the object as mutation left it, and a mutation that makes the object invalid is refused by the type\'s own validation before any validating policy sees it.',
    'Each create below has an audit event beside it on a cluster whose audit log the explorer reads. Compare its request object with its response object: the stamp appears between them, yet no annotation names the MutatingAdmissionPolicy that put it there (kube-apiserver records none for policies; mutating webhooks get a `mutation.webhook.admission.k8s.io/…` annotation and their patch).',
  ],
  needs: [
    ...['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings', 'validatingadmissionpolicies', 'validatingadmissionpolicybindings'].flatMap((resource) => [
      { verb: 'create', group: 'admissionregistration.k8s.io', resource },
      { verb: 'delete', group: 'admissionregistration.k8s.io', resource },
    ]),
    { verb: 'create', resource: 'configmaps', namespaced: true },
  ],
  steps: [
    {
      id: 'policies',
      title: 'A mutating and a validating policy',
      text: `A MutatingAdmissionPolicy that sets the label \`stamped-by: policy\` on every new ConfigMap (\`${BAD_VALUE}\` on one labelled \`break\`), and a ValidatingAdmissionPolicy with two rules: the label \`stamped-by\` must be \`policy\`, and no ConfigMap may be labelled \`deny\`. Both bound to the scratch namespace, the validating one with \`Deny\`.`,
      lookFor: 'HTTP 201 four times.',
      run: async (c) => {
        const name = policyName(c);
        const value = `${has('break')} ? '${BAD_VALUE}' : 'policy'`;
        const map = await c.send('POST', `${AR}/mutatingadmissionpolicies`, {
          body: {
            apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicy', metadata: { name, labels: label('order') },
            spec: { failurePolicy: 'Fail', reinvocationPolicy: 'Never', matchConstraints: rules, mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: `Object{metadata: Object.metadata{labels: {"stamped-by": ${value}}}}` } }] },
          },
        });
        const mapBinding = await c.send('POST', `${AR}/mutatingadmissionpolicybindings`, { body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name, labels: label('order') }, spec: { policyName: name, matchResources: onlyHere(c) } } });
        const vap = await c.send('POST', `${AR}/validatingadmissionpolicies`, {
          body: {
            apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicy', metadata: { name, labels: label('order') },
            spec: {
              failurePolicy: 'Fail', matchConstraints: rules,
              validations: [
                { expression: `${has('stamped-by')} && object.metadata.labels['stamped-by'] == 'policy'`, message: 'the stamped-by label is missing: validation ran before mutation' },
                { expression: `!(${has('deny')})`, message: 'labelled deny' },
              ],
            },
          },
        });
        const vapBinding = await c.send('POST', `${AR}/validatingadmissionpolicybindings`, { body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name, labels: label('order') }, spec: { policyName: name, validationActions: ['Deny'], matchResources: onlyHere(c) } } });
        return [map, mapBinding, vap, vapBinding];
      },
      show: (x) => (x.status < 300 ? { kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name') } } : x.response),
      check: (xs) => xs.filter((x) => x.status !== 201).map((x) => `${x.path}: HTTP ${x.status} ${msg(x)}`),
    },
    {
      id: 'validating',
      title: 'Validating admission refuses',
      text: 'Create a ConfigMap labelled `deny` (repeated until the policies are in effect, a moment after they are written).',
      lookFor: '422 Invalid: "ValidatingAdmissionPolicy … denied request: labelled deny". Nothing is stored.',
      run: (c) => createUntil(c, 'denied', { deny: 'yes' }, (x) => x.status === 422 && msg(x).includes('labelled deny')),
      show: showLabels,
      check: ([x]) => (x!.status === 422 && msg(x!).includes('denied request') && msg(x!).includes('labelled deny') ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'mutated-then-validated',
      title: 'One create through both policies',
      text: 'Create a ConfigMap without any `stamped-by` label (repeated until the mutating policy is in effect too).',
      lookFor: '201, and the stored ConfigMap carries `stamped-by: policy`, which the request did not send. The validating policy requires that label and let the create through: it judged the object after the mutation. The audit event beside it shows the label absent from the request object and present in the response object.',
      run: (c) => createUntil(c, 'plain', {}, (x) => x.status === 201 && stamp(x) === 'policy'),
      show: showLabels,
      check: ([x]) => (x!.status === 201 && stamp(x!) === 'policy' ? [] : [`HTTP ${x!.status}, labels ${JSON.stringify(field(x!.response, 'metadata', 'labels'))} ${msg(x!)}`]),
    },
    {
      id: 'object-validation',
      title: 'A mutation the object\'s validation refuses, before validating admission',
      text: `Create a ConfigMap labelled both \`break\` (so that the mutating policy writes the label value \`${BAD_VALUE}\`) and \`deny\` (which the validating policy refuses).`,
      lookFor: `422 Invalid with a cause at \`metadata.labels\`: the value \`${BAD_VALUE}\` is not a valid label value. The ConfigMap's own validation refused what the mutation made, and the validating policy's "labelled deny" is not in the answer: it never ran.`,
      run: async (c) => [await c.send('POST', cm(c), { body: configMap('broken', { break: 'yes', deny: 'yes' }) })],
      check: ([x]) => {
        const { want, result } = expectations();
        const causes = (field(x!.response, 'details', 'causes') as { field?: string; message?: string }[] | undefined) ?? [];
        want(x!.status === 422 && causes.some((k) => String(k.field).startsWith('metadata.labels') && String(k.message).includes(BAD_VALUE)), `HTTP ${x!.status} ${msg(x!)}`);
        want(!msg(x!).includes('labelled deny'), `the validating policy answered: ${msg(x!)}`);
        return result;
      },
    },
    {
      id: 'cleanup',
      title: 'Remove the bindings and the policies',
      text: 'DELETE all four.',
      lookFor: 'HTTP 200 four times.',
      run: removeAll,
      check: (xs) => xs.filter((x) => x.status !== 200).map((x) => `${x.path}: HTTP ${x.status} ${msg(x)}`),
    },
  ],
  cleanup: removeAll,
};

// Admission policies beyond Deny: a ValidatingAdmissionPolicy with parameters (paramKind),
// matchConditions and variables, bound first with Warn and Audit, then with Deny; and a
// MutatingAdmissionPolicy that sets a label. Cluster-scoped objects named after the scratch
// namespace, bound to it alone, removed at the end.
import { parseWarningHeader } from '../../../codecs';
import { expectations, field, type KitExchange, type KitLesson, label, retryUntil, type StepContext } from '../kit';

const AR = '/apis/admissionregistration.k8s.io/v1';
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const warnings = (x: KitExchange) => parseWarningHeader(x.responseHeaders.warning).map((w) => w.text).join(' | ');
const cm = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps${name ? `/${name}` : ''}`;
const policyName = (c: StepContext, what: string) => `${c.ns}-${what}`;
const teamConfigMap = (name: string, team?: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { ...label('policy'), ...(team ? { team } : {}) } } });
const onlyHere = (c: StepContext) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': c.ns } } });

const removeValidating = async (c: StepContext) => [await c.send('DELETE', `${AR}/validatingadmissionpolicybindings/${policyName(c, 'teams')}`), await c.send('DELETE', `${AR}/validatingadmissionpolicies/${policyName(c, 'teams')}`)];

export const admissionPolicies: KitLesson = {
  id: 'admission-policies',
  topic: 'policy',
  title: 'ValidatingAdmissionPolicy: parameters, matchConditions, variables, Warn and Audit',
  scope: 'cluster',
  clusterObjects: 'a ValidatingAdmissionPolicy and its binding, named after the scratch namespace; the binding matches that namespace only',
  paragraphs: [
    'A ValidatingAdmissionPolicy can read its settings from another object: `paramKind` names the kind (here a ConfigMap), and the binding\'s `paramRef` names the object, so one policy serves many bindings with different settings. `matchConditions` are CEL expressions that must all hold for the policy to run at all; `variables` name an expression once for the validations to use.',
    'The binding\'s `validationActions` say what a failed validation does: `Deny` refuses the request, `Warn` lets it through with a `Warning` header, `Audit` lets it through and records the failure in the audit log (background: the local control plane writes no audit log, so only the warning is seen here). Changing the binding changes the effect without touching the policy.',
  ],
  needs: [
    { verb: 'create', group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicies' },
    { verb: 'create', group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicybindings' },
    { verb: 'patch', group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicybindings' },
    { verb: 'delete', group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicies' },
    { verb: 'delete', group: 'admissionregistration.k8s.io', resource: 'validatingadmissionpolicybindings' },
    { verb: 'create', resource: 'configmaps', namespaced: true },
  ],
  steps: [
    {
      id: 'policy',
      title: 'Parameters, a policy and a Warn + Audit binding',
      text: 'A ConfigMap `allowed-teams` with `teams: red,blue`; a policy on ConfigMaps with `paramKind: ConfigMap`, a variable `team` (the `team` label, or empty), the match condition "the name does not start with `skip-`" and the validation "`variables.team` is one of the parameter\'s teams"; a binding to the scratch namespace with `paramRef: allowed-teams` and `validationActions: [Warn, Audit]`.',
      lookFor: 'HTTP 201 three times.',
      run: async (c) => {
        const name = policyName(c, 'teams');
        const params = await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'allowed-teams', labels: label('policy') }, data: { teams: 'red,blue' } } });
        const vap = await c.send('POST', `${AR}/validatingadmissionpolicies`, {
          body: {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingAdmissionPolicy',
            metadata: { name, labels: label('policy') },
            spec: {
              failurePolicy: 'Fail',
              paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
              matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }] },
              matchConditions: [{ name: 'not-skipped', expression: "!object.metadata.name.startsWith('skip-')" }, { name: 'not-the-parameters', expression: "object.metadata.name != 'allowed-teams'" }],
              variables: [{ name: 'team', expression: "has(object.metadata.labels) && 'team' in object.metadata.labels ? object.metadata.labels['team'] : ''" }],
              validations: [{ expression: "variables.team in params.data.teams.split(',')", messageExpression: "'team \"' + variables.team + '\" is not one of ' + params.data.teams" }],
            },
          },
        });
        const binding = await c.send('POST', `${AR}/validatingadmissionpolicybindings`, {
          body: {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'ValidatingAdmissionPolicyBinding',
            metadata: { name, labels: label('policy') },
            spec: { policyName: name, paramRef: { name: 'allowed-teams', namespace: c.ns, parameterNotFoundAction: 'Deny' }, validationActions: ['Warn', 'Audit'], matchResources: onlyHere(c) },
          },
        });
        return [params, vap, binding];
      },
      show: (x) => (x.status < 300 ? { metadata: { name: field(x.response, 'metadata', 'name') } } : x.response),
      check: (xs) => (xs.every((x) => x.status === 201) ? [] : xs.filter((x) => x.status !== 201).map((x) => `${x.path}: HTTP ${x.status} ${msg(x)}`)),
    },
    {
      id: 'warn',
      title: 'Writes the policy would refuse, under Warn',
      text: 'Create ConfigMaps labelled `team: green` (not allowed), `team: red` (allowed), and `skip-green` labelled `team: green` (skipped by the match condition).',
      lookFor: 'All three 201. The green one carries a `warning` header with the policy\'s message, `team "green" is not one of red,blue`; the red one and `skip-green` none.',
      run: async (c) => {
        let n = 0;
        // Until the policy is in effect the creates pass without a warning: each is stored, and shown.
        const green = await retryUntil(
          () => c.send('POST', cm(c), { body: teamConfigMap(`green-${n++}`, 'green') }),
          (x) => warnings(x).includes('is not one of'),
        );
        return [...green, await c.send('POST', cm(c), { body: teamConfigMap('red', 'red') }), await c.send('POST', cm(c), { body: teamConfigMap('skip-green', 'green') })];
      },
      show: (x) => ({ status: x.status, warning: warnings(x) || '(none)' }),
      check: ([green, red, skip]) => {
        const { want, result } = expectations();
        want(green!.status === 201 && warnings(green!).includes('team "green" is not one of red,blue'), `green: HTTP ${green!.status}, warning ${warnings(green!) || '(none)'}`);
        want(red!.status === 201 && warnings(red!) === '', `red: HTTP ${red!.status}, warning ${warnings(red!)}`);
        want(skip!.status === 201 && warnings(skip!) === '', `skip-green: HTTP ${skip!.status}, warning ${warnings(skip!)}`);
        return result;
      },
    },
    {
      id: 'deny',
      title: 'The same policy, bound with Deny',
      text: 'Patch the binding to `validationActions: [Deny]`, then create another green ConfigMap, and change the parameter to `teams: red,blue,green` and try again.',
      lookFor: 'The green create refused once the binding change reaches admission: 422 Invalid, "ValidatingAdmissionPolicy … denied request: team "green" is not one of red,blue". After the parameter change, the same create is allowed (201): the policy read its new parameters.',
      run: async (c) => {
        const name = policyName(c, 'teams');
        const patch = await c.send('PATCH', `${AR}/validatingadmissionpolicybindings/${name}`, { body: { spec: { validationActions: ['Deny'] } }, contentType: 'application/merge-patch+json' });
        let n = 0;
        // Until the binding change reaches admission a green create is still only warned about, and stored.
        const denied = await retryUntil(
          () => c.send('POST', cm(c), { body: teamConfigMap(`green-deny-${n++}`, 'green') }),
          (x) => x.status >= 400,
        );
        const params = await c.send('PATCH', cm(c, 'allowed-teams'), { body: { data: { teams: 'red,blue,green' } }, contentType: 'application/merge-patch+json' });
        const allowed = await retryUntil(
          () => c.send('POST', cm(c), { body: teamConfigMap(`green-ok-${n++}`, 'green') }),
          (x) => x.status === 201,
        );
        return [patch, ...denied, params, ...allowed];
      },
      show: (x) => (x.status < 300 ? { metadata: { name: field(x.response, 'metadata', 'name') } } : x.response),
      check: ([patch, denied, params, allowed]) => {
        const { want, result } = expectations();
        want(patch!.status === 200 && params!.status === 200, `binding patch ${patch!.status}, parameter patch ${params!.status}`);
        want(denied!.status === 422 && msg(denied!).includes('denied request') && msg(denied!).includes('team "green" is not one of red,blue'), `green under Deny: HTTP ${denied!.status} ${msg(denied!)}`);
        want(allowed!.status === 201, `green after the parameter change: HTTP ${allowed!.status} ${msg(allowed!)}`);
        return result;
      },
    },
    {
      id: 'cleanup',
      title: 'Remove the binding and the policy',
      text: 'DELETE both.',
      lookFor: 'HTTP 200 twice.',
      run: removeValidating,
      check: (xs) => (xs.every((x) => x.status === 200) ? [] : xs.map((x) => `${x.path}: HTTP ${x.status}`)),
    },
  ],
  cleanup: removeValidating,
};

const removeMutating = async (c: StepContext) => [await c.send('DELETE', `${AR}/mutatingadmissionpolicybindings/${policyName(c, 'stamp')}`), await c.send('DELETE', `${AR}/mutatingadmissionpolicies/${policyName(c, 'stamp')}`)];

export const mutatingPolicy: KitLesson = {
  id: 'mutating-admission-policy',
  topic: 'mutate',
  title: 'MutatingAdmissionPolicy: change objects on their way in, without a webhook',
  scope: 'cluster',
  since: '1.36',
  clusterObjects: 'a MutatingAdmissionPolicy and its binding, named after the scratch namespace; the binding matches that namespace only',
  paragraphs: [
    'A MutatingAdmissionPolicy changes an object during admission, as a mutating webhook would, with CEL inside kube-apiserver: each mutation is an `ApplyConfiguration` (a partial object merged as Server-Side Apply would) or a `JSONPatch`. It is GA (`admissionregistration.k8s.io/v1`) since Kubernetes 1.36; on older releases it is alpha or beta and off by default, so this lesson needs 1.36 or later.',
  ],
  needs: [
    { verb: 'create', group: 'admissionregistration.k8s.io', resource: 'mutatingadmissionpolicies' },
    { verb: 'create', group: 'admissionregistration.k8s.io', resource: 'mutatingadmissionpolicybindings' },
    { verb: 'delete', group: 'admissionregistration.k8s.io', resource: 'mutatingadmissionpolicies' },
    { verb: 'delete', group: 'admissionregistration.k8s.io', resource: 'mutatingadmissionpolicybindings' },
    { verb: 'create', resource: 'configmaps', namespaced: true },
  ],
  steps: [
    {
      id: 'stamp',
      title: 'A policy that labels every new ConfigMap',
      text: 'A MutatingAdmissionPolicy on ConfigMap creates whose mutation applies `metadata.labels.stamped-by: policy`, bound to the scratch namespace; then create a ConfigMap without that label.',
      lookFor: 'HTTP 201 for the policy and the binding; once the policy is active, the ConfigMap comes back 201 carrying `stamped-by: policy`, which the request did not send.',
      run: async (c) => {
        const name = policyName(c, 'stamp');
        const policy = await c.send('POST', `${AR}/mutatingadmissionpolicies`, {
          body: {
            apiVersion: 'admissionregistration.k8s.io/v1',
            kind: 'MutatingAdmissionPolicy',
            metadata: { name, labels: label('mutate') },
            spec: {
              failurePolicy: 'Fail',
              reinvocationPolicy: 'Never',
              matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }] },
              mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"stamped-by": "policy"}}}' } }],
            },
          },
        });
        const binding = await c.send('POST', `${AR}/mutatingadmissionpolicybindings`, {
          body: { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingAdmissionPolicyBinding', metadata: { name, labels: label('mutate') }, spec: { policyName: name, matchResources: onlyHere(c) } },
        });
        let n = 0;
        // Until the policy is in effect the creates are stored unstamped: each is shown.
        const stamped = await retryUntil(
          () => c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `plain-${n++}`, labels: label('mutate') } } }),
          (x) => field(x.response, 'metadata', 'labels', 'stamped-by') === 'policy' || x.status >= 400,
        );
        return [policy, binding, ...stamped];
      },
      show: (x) => (x.status < 300 ? { metadata: { name: field(x.response, 'metadata', 'name'), labels: field(x.response, 'metadata', 'labels') } } : x.response),
      check: ([policy, binding, stamped]) => {
        const { want, result } = expectations();
        want(policy!.status === 201 && binding!.status === 201, `policy ${policy!.status} ${msg(policy!)}, binding ${binding!.status} ${msg(binding!)}`);
        want(stamped!.status === 201 && field(stamped!.response, 'metadata', 'labels', 'stamped-by') === 'policy', `ConfigMap: HTTP ${stamped!.status}, labels ${JSON.stringify(field(stamped!.response, 'metadata', 'labels'))}`);
        return result;
      },
    },
    {
      id: 'cleanup',
      title: 'Remove the binding and the policy',
      text: 'DELETE both.',
      lookFor: 'HTTP 200 twice.',
      run: removeMutating,
      check: (xs) => (xs.every((x) => x.status === 200) ? [] : xs.map((x) => `${x.path}: HTTP ${x.status}`)),
    },
  ],
  cleanup: removeMutating,
};

// Declarative validation as kube-apiserver 1.37.1 has it. Facts checked against the server and
// the v1.37.1 sources: the gate DeclarativeValidation is GA and locked on (both validations run,
// mismatches are counted), DeclarativeValidationTakeover is deprecated and locked off, and
// DeclarativeValidationBeta (beta, on) makes rules tagged `+k8s:beta` authoritative, replacing
// the handwritten error they cover (k8s.io/apiserver pkg/registry/rest/validate.go,
// ValidateDeclarativelyWithMigrationChecks). ReplicationControllerSpec carries
// `+k8s:beta(since: "1.37")=+k8s:minimum=0` on replicas and minReadySeconds (k8s.io/api core/v1).
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { gateLine } from './unsafe';

const MISMATCH = 'apiserver_validation_declarative_validation_mismatch_total';
const PANIC = 'apiserver_validation_declarative_validation_panic_total';
const rcs = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/replicationcontrollers${name ? `/${name}` : ''}`;

const rc = (name: string, replicas: number, minReadySeconds = 0) => ({
  apiVersion: 'v1',
  kind: 'ReplicationController',
  metadata: { name, labels: label('declarative') },
  spec: {
    replicas,
    minReadySeconds,
    selector: { app: name },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'pause', image: 'registry.k8s.io/pause:3.10' }] } },
  },
});

/** A counter's value from a /metrics text (a line without labels). */
export function counter(text: unknown, name: string): string | undefined {
  const m = typeof text === 'string' ? new RegExp(`^${name} (\\S+)$`, 'm').exec(text) : null;
  return m?.[1];
}

/** Keeps the lines about declarative validation; the rest of /metrics (megabytes) is left out. */
async function readMetrics(c: StepContext): Promise<KitExchange> {
  const x = await c.send('GET', '/metrics', { accept: 'text/plain' });
  if (typeof x.response !== 'string' || x.status !== 200) return x;
  const lines = x.response.split('\n');
  const kept = lines.filter((l) => /^kubernetes_feature_enabled\{name="DeclarativeValidation/.test(l) || l.startsWith(MISMATCH) || l.startsWith(PANIC));
  // The raw text is kept in memo for the checks; what is shown is the part that matters.
  c.memo.metricsText = x.response;
  return { ...x, response: `${kept.join('\n')}\n(${lines.length - kept.length} other lines of the ${x.bytes}-byte answer left out here)` };
}

/** Counts the writes refused as invalid since step 1, for the last step's "the four invalid writes". */
function counted(c: StepContext, xs: KitExchange[]): KitExchange[] {
  c.memo.invalidWrites = String(Number(c.memo.invalidWrites ?? 0) + xs.filter((x) => x.status === 422).length);
  return xs;
}

const causes = (x: KitExchange) => (field(x.response, 'details', 'causes') as { field?: string; message?: string; reason?: string }[] | undefined) ?? [];
const hasCause = (x: KitExchange, f: string) => causes(x).some((k) => k.field === f && (k.message ?? '').includes('must be greater than or equal to 0'));

export const declarativeValidation: KitLesson = {
  id: 'declarative-validation',
  topic: 'declarative',
  title: 'Declarative validation: rules written as tags on the Go types',
  scope: 'namespace',
  // Checked on 1.37.1; on 1.33.13 a step differs (CBOR, streaming lists, feature gates are off there).
  since: '1.37',
  paragraphs: [
    'Built-in types have always been validated by handwritten Go functions. Declarative validation moves the rules into comment tags on the type definitions, such as `+k8s:minimum=0` or `+k8s:maxItems=16`, and generates the checking code from them. During the migration kube-apiserver runs both, compares their answers, and counts every difference in the metric `apiserver_validation_declarative_validation_mismatch_total`.',
    'Which answer counts is decided per rule in 1.37.1, by a lifecycle prefix on the tag: a rule without prefix is enforced; one tagged `+k8s:beta(...)` is enforced while the feature gate `DeclarativeValidationBeta` is on (beta, on by default) and replaces the handwritten error it covers; one tagged `+k8s:alpha(...)` only runs in the shadow and is counted. The older gate `DeclarativeValidationTakeover`, which the 1.34 documentation describes as the switch, is deprecated and locked off in 1.37.1; `DeclarativeValidation` itself is GA and locked on.',
    'The 1.34 documentation names a single type using it, ReplicationController, chosen as a test bed because nobody adds features to it any more. The 1.37.1 sources tag fields of many more (RBAC, networking, storage, certificates, discovery and others). This lesson tries two: `+k8s:beta(since: "1.37")=+k8s:minimum=0` on ReplicationController\'s `spec.replicas` and `spec.minReadySeconds`, and `+k8s:beta(since: "1.37")=+k8s:required` on the `verbs` of an RBAC rule. The 422 reads the same either way (the two implementations are meant to agree word for word, and a Status does not say which produced a cause); the metric is how an administrator sees that they did.',
  ],
  table: {
    caption: 'Declarative rules this lesson tries, as the v1.37.1 sources declare them (k8s.io/api core/v1 and rbac/v1 types.go)',
    columns: ['field', 'tag', 'in 1.37.1'],
    rows: [
      ['spec.replicas', '+k8s:beta(since: "1.37")=+k8s:minimum=0', 'enforced (DeclarativeValidationBeta on); the handwritten check runs beside it and is compared'],
      ['spec.minReadySeconds', '+k8s:beta(since: "1.37")=+k8s:minimum=0', 'the same'],
      ['Role and ClusterRole rules[].verbs', '+k8s:beta(since: "1.37")=+k8s:required', 'the same'],
    ],
  },
  needs: [
    { verb: 'create', resource: 'replicationcontrollers', namespaced: true },
    { verb: 'patch', resource: 'replicationcontrollers', namespaced: true },
    { verb: 'create', group: 'rbac.authorization.k8s.io', resource: 'roles', namespaced: true },
  ],
  steps: [
    {
      id: 'gates',
      title: 'What this server runs',
      text: 'GET `/metrics` (the local admin may read it) and keep the lines about declarative validation: the three feature gates and the two counters.',
      lookFor: '`DeclarativeValidation` at 1 (GA: its stage is empty), `DeclarativeValidationBeta` at 1 (BETA), `DeclarativeValidationTakeover` at 0 (DEPRECATED); the mismatch and panic counters, whatever they are now.',
      run: async (c) => {
        const x = await readMetrics(c);
        const m = counter(c.memo.metricsText, MISMATCH);
        if (m !== undefined) c.memo.mismatch = m;
        c.memo.invalidWrites = '0';
        return [x];
      },
      show: (x) => x.response,
      check: ([x], c) => {
        const { want, result } = expectations();
        const text = c.memo.metricsText;
        want(x!.status === 200, `/metrics: HTTP ${x!.status} (reading it needs get on the non-resource URL /metrics)`);
        want(gateLine(text, 'DeclarativeValidation') === '1', `DeclarativeValidation: ${gateLine(text, 'DeclarativeValidation') ?? 'not listed'}`);
        want(gateLine(text, 'DeclarativeValidationBeta') === '1', `DeclarativeValidationBeta: ${gateLine(text, 'DeclarativeValidationBeta') ?? 'not listed'}`);
        want(gateLine(text, 'DeclarativeValidationTakeover') === '0', `DeclarativeValidationTakeover: ${gateLine(text, 'DeclarativeValidationTakeover') ?? 'not listed'}`);
        want(counter(text, MISMATCH) !== undefined, `${MISMATCH} is not exposed`);
        return result;
      },
    },
    {
      id: 'create',
      title: 'Negative replicas and minReadySeconds',
      text: 'POST a ReplicationController with `replicas: -1` and `minReadySeconds: -5`; then one with `replicas: 0` (the minimum is inclusive; zero replicas start no Pod).',
      lookFor: '422 Invalid with two causes, `spec.replicas` and `spec.minReadySeconds`, each "must be greater than or equal to 0" (reason `FieldValueInvalid`). Then 201 for the one at zero.',
      run: async (c) => counted(c, [await c.send('POST', rcs(c), { body: rc('negative', -1, -5) }), await c.send('POST', rcs(c), { body: rc('zero', 0) })]),
      show: (x) => (x.status < 300 ? { metadata: { name: field(x.response, 'metadata', 'name') }, spec: { replicas: field(x.response, 'spec', 'replicas'), minReadySeconds: field(x.response, 'spec', 'minReadySeconds') } } : x.response),
      check: ([bad, zero]) => {
        const { want, result } = expectations();
        want(bad!.status === 422 && field(bad!.response, 'reason') === 'Invalid', `negative: HTTP ${bad!.status}`);
        want(hasCause(bad!, 'spec.replicas') && hasCause(bad!, 'spec.minReadySeconds'), `causes: ${JSON.stringify(causes(bad!))}`);
        want(zero!.status === 201, `zero: HTTP ${zero!.status}`);
        return result;
      },
      view: (c) => ({ label: 'Edit the ReplicationController zero yourself in the Edit view', to: { view: 'edit', namespace: c.ns, group: '', version: 'v1', resource: 'replicationcontrollers', name: 'zero' } }),
    },
    {
      id: 'update',
      title: 'The same rule on an update',
      text: 'Merge-patch `zero` to `replicas: -3`.',
      lookFor: '422 again, one cause at `spec.replicas`: the rule runs on every write, not only on create.',
      run: async (c) => counted(c, [await c.send('PATCH', rcs(c, 'zero'), { body: JSON.stringify({ spec: { replicas: -3 } }), contentType: 'application/merge-patch+json' })]),
      check: ([x]) => (x!.status === 422 && hasCause(x!, 'spec.replicas') ? [] : [`HTTP ${x!.status} ${JSON.stringify(causes(x!))}`]),
    },
    {
      id: 'role',
      title: 'Another type: an RBAC rule without verbs',
      text: 'POST a Role whose one rule names `configmaps` but no `verbs`, then one with `verbs: []`.',
      lookFor: '422 Invalid for both, one cause at `rules[0].verbs`: "Required value" (reason `FieldValueRequired`). An empty list counts as missing.',
      run: async (c) => {
        const role = (name: string, rule: Record<string, unknown>) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, labels: label('declarative') }, rules: [{ apiGroups: [''], resources: ['configmaps'], ...rule }] });
        const roles = `/apis/rbac.authorization.k8s.io/v1/namespaces/${encodeURIComponent(c.ns)}/roles`;
        return counted(c, [await c.send('POST', roles, { body: role('no-verbs', {}) }), await c.send('POST', roles, { body: role('empty-verbs', { verbs: [] }) })]);
      },
      check: (xs) =>
        xs
          .filter((x) => !(x.status === 422 && causes(x).some((k) => k.field === 'rules[0].verbs' && k.reason === 'FieldValueRequired')))
          .map((x) => `${field(x.body ? JSON.parse(x.body) : {}, 'metadata', 'name') as string}: HTTP ${x.status} ${JSON.stringify(causes(x))}`),
    },
    {
      id: 'agree',
      title: 'Did the two validations agree?',
      text: 'GET `/metrics` again and compare the mismatch counter with step 1.',
      lookFor: 'The same value as before the four invalid writes (on a fresh local control plane: 0), and no panic: the declarative and the handwritten rule gave the same answer each time. A difference would also be logged by kube-apiserver, with the field.',
      run: async (c) => [await readMetrics(c)],
      show: (x) => x.response,
      check: ([x], c) => {
        const { want, result } = expectations();
        const now = counter(c.memo.metricsText, MISMATCH);
        want(x!.status === 200, `/metrics: HTTP ${x!.status}`);
        want(c.memo.mismatch !== undefined && now === c.memo.mismatch, `mismatches: ${c.memo.mismatch ?? '(step 1 not run)'} before, ${now ?? 'not listed'} now`);
        want(counter(c.memo.metricsText, PANIC) === '0', `panics: ${counter(c.memo.metricsText, PANIC) ?? 'not listed'}`);
        want(c.memo.invalidWrites === '4', `invalid writes since step 1: ${c.memo.invalidWrites ?? 'step 1 not run'}, not four`);
        return result;
      },
    },
  ],
};

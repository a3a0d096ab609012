// Dry run and admission webhooks: `sideEffects` (only None and NoneOnDryRun are accepted by
// admissionregistration.k8s.io/v1), a dry-run request that reaches a webhook, and the webhook's
// failurePolicy deciding when it cannot be called. The webhook points at a Service that does not
// exist, and matches ConfigMap creates in the scratch namespace only, so it cannot disturb anything
// else on the cluster; it is cluster-scoped, named after the namespace, and removed at the end.
import { expectations, field, type KitExchange, type KitLesson, label, retryUntil, type StepContext } from '../kit';

const VWCS = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const HOOK = 'check.lessons.explorer.dev';
const SERVICE = 'no-such-webhook';
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const configName = (c: StepContext) => `${c.ns}-side-effects`;
const cms = (c: StepContext, ns = c.ns) => `/api/v1/namespaces/${encodeURIComponent(ns)}/configmaps`;

const configuration = (c: StepContext, sideEffects: string, failurePolicy: 'Fail' | 'Ignore') => ({
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: configName(c), labels: label('webhook') },
  webhooks: [
    {
      name: HOOK,
      admissionReviewVersions: ['v1'],
      sideEffects,
      failurePolicy,
      timeoutSeconds: 2,
      clientConfig: { service: { namespace: c.ns, name: SERVICE, path: '/validate' } },
      rules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] }],
      // Only the scratch namespace: every other namespace's writes never reach this webhook.
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': c.ns } },
    },
  ],
});

const dryCreate = (c: StepContext, name: string, ns = c.ns) => c.send('POST', `${cms(c, ns)}?dryRun=All`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: label('webhook') } } });

const show = (x: KitExchange) => (x.status >= 300 ? x.response : { kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name') }, ...(field(x.response, 'webhooks') ? { webhooks: field(x.response, 'webhooks') } : {}) });
const removeAll = async (c: StepContext) => [await c.send('DELETE', `${VWCS}/${configName(c)}`)];

export const webhookSideEffects: KitLesson = {
  id: 'webhook-side-effects',
  topic: 'webhook',
  title: 'Dry run and admission webhooks: sideEffects and failurePolicy',
  scope: 'cluster',
  clusterObjects: `a ValidatingWebhookConfiguration named after the scratch namespace, whose one webhook matches ConfigMap creates in that namespace only and points at a Service that does not exist there`,
  paragraphs: [
    'A dry run (`dryRun=All`) goes through admission like the real request, webhooks included, and stores nothing. A webhook that wrote something elsewhere (a quota in another system, a record) would make a dry run not dry, so every webhook declares `sideEffects`: `None`, or `NoneOnDryRun` (it has side effects but skips them when the AdmissionReview says `dryRun: true`). `admissionregistration.k8s.io/v1` accepts only these two, so every webhook the server can register may be called on a dry run. (Background, from kube-apiserver\'s source: a webhook with any other value would make a dry run fail with 400 "does not support dry run" without being called; the removed v1beta1 accepted `Unknown` and `Some`.)',
    'When the server cannot reach a webhook, its `failurePolicy` decides: `Fail` refuses the request, `Ignore` lets it through. Here the webhook points at a Service that does not exist, so every call fails: the server finds no such Service to send the AdmissionReview to.',
  ],
  needs: [
    { verb: 'create', group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' },
    { verb: 'patch', group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' },
    { verb: 'delete', group: 'admissionregistration.k8s.io', resource: 'validatingwebhookconfigurations' },
    { verb: 'create', resource: 'configmaps', namespaced: true },
  ],
  steps: [
    {
      id: 'unknown',
      title: 'sideEffects: Unknown and Some',
      text: 'Create the configuration with `sideEffects: Unknown`, then with `Some`.',
      lookFor: '422 Invalid both times, one cause at `webhooks[0].sideEffects`: `Unsupported value: "Unknown": supported values: "None", "NoneOnDryRun"` (and the same for `Some`). Nothing is created.',
      run: async (c) => [await c.send('POST', VWCS, { body: configuration(c, 'Unknown', 'Fail') }), await c.send('POST', VWCS, { body: configuration(c, 'Some', 'Fail') }), await c.send('GET', `${VWCS}/${configName(c)}`)],
      show,
      check: ([unknown, some, got]) => {
        const { want, result } = expectations();
        for (const [x, v] of [[unknown!, 'Unknown'], [some!, 'Some']] as const) {
          const causes = (field(x.response, 'details', 'causes') as { field?: string; message?: string }[] | undefined) ?? [];
          want(x.status === 422 && causes.some((k) => k.field === 'webhooks[0].sideEffects' && String(k.message).includes(`Unsupported value: "${v}": supported values: "None", "NoneOnDryRun"`)), `${v}: HTTP ${x.status} ${msg(x)}`);
        }
        want(got!.status === 404, `the configuration exists: HTTP ${got!.status}`);
        return result;
      },
    },
    {
      id: 'fail',
      title: 'sideEffects: None, failurePolicy: Fail, and a dry run',
      text: `Create it with \`sideEffects: None\` and \`failurePolicy: Fail\`, then dry-run a ConfigMap create in the scratch namespace (repeated until the new webhook is in effect, a moment later), and one in \`default\`.`,
      lookFor: `201 for the configuration. The dry run in the scratch namespace: 500 InternalError, "failed calling webhook \\"${HOOK}\\" … service \\"${SERVICE}\\" not found": the server tried to call the webhook for a dry run, and Fail turned the failure into a refusal. The dry run in \`default\`: 201, the namespaceSelector keeps the webhook out of it.`,
      run: async (c) => {
        const made = await c.send('POST', VWCS, { body: configuration(c, 'None', 'Fail') });
        // A new configuration reaches admission through an informer: the dry run is sent again until it does.
        const refused = await retryUntil(() => dryCreate(c, 'dry'), (x) => x.status !== 201);
        return [made, ...refused, await dryCreate(c, 'lesson-webhook-elsewhere', 'default')];
      },
      show,
      check: ([made, refused, elsewhere]) => {
        const { want, result } = expectations();
        want(made!.status === 201, `configuration: HTTP ${made!.status} ${msg(made!)}`);
        want(refused!.status === 500 && msg(refused!).includes(`failed calling webhook "${HOOK}"`) && msg(refused!).includes(`service "${SERVICE}" not found`), `dry run here: HTTP ${refused!.status} ${msg(refused!)}`);
        want(elsewhere!.status === 201, `dry run in default: HTTP ${elsewhere!.status} ${msg(elsewhere!)}`);
        return result;
      },
    },
    {
      id: 'ignore',
      title: 'failurePolicy: Ignore',
      text: 'Patch the webhook\'s `failurePolicy` to `Ignore`, dry-run the same create (until the change is in effect), then GET the ConfigMap.',
      lookFor: '200 for the patch; the dry run 201 with the ConfigMap as it would be stored; the GET 404: a dry run stores nothing.',
      run: async (c) => {
        const patched = await c.send('PATCH', `${VWCS}/${configName(c)}`, { body: JSON.stringify([{ op: 'test', path: '/webhooks/0/name', value: HOOK }, { op: 'replace', path: '/webhooks/0/failurePolicy', value: 'Ignore' }]), contentType: 'application/json-patch+json' });
        const passed = await retryUntil(() => dryCreate(c, 'dry'), (x) => x.status === 201);
        return [patched, ...passed, await c.send('GET', `${cms(c)}/dry`)];
      },
      show,
      check: ([patched, passed, got]) => {
        const { want, result } = expectations();
        want(patched!.status === 200 && field(patched!.response, 'webhooks', 0, 'failurePolicy') === 'Ignore', `patch: HTTP ${patched!.status} ${msg(patched!)}`);
        want(passed!.status === 201 && field(passed!.response, 'metadata', 'name') === 'dry', `dry run: HTTP ${passed!.status} ${msg(passed!)}`);
        want(got!.status === 404, `GET after the dry run: HTTP ${got!.status}`);
        return result;
      },
    },
    {
      id: 'cleanup',
      title: 'Remove the webhook configuration',
      text: 'DELETE the ValidatingWebhookConfiguration.',
      lookFor: 'HTTP 200.',
      run: removeAll,
      check: (xs) => xs.filter((x) => x.status !== 200).map((x) => `${x.path}: HTTP ${x.status} ${msg(x)}`),
    },
  ],
  cleanup: removeAll,
};

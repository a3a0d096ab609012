// Every data-driven lesson, run through the page against the real API server: each try-it step
// runs and the page says the server answered as the lesson describes; the table below adds what
// a learner must be able to see in each step. The last test checks that nothing is left over.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

type Kube = Parameters<Parameters<typeof test>[2]>[0]['kube'];

interface Row {
  lesson: string;
  scope: 'read' | 'namespace' | 'cluster';
  /** step id → texts the step's section must show after running. */
  shows: Record<string, string[]>;
}

const ROWS: Row[] = [
  { lesson: 'api-terminology', scope: 'read', shows: { discover: ['"name": "namespaces/status"', '"namespaced": false'], uris: ['ConfigMapList', '"kind": "Namespace"'] } },
  { lesson: 'verbs', scope: 'read', shows: { 'discovery-verbs': ['"deletecollection"'], ask: ['"verb": "frobnicate"', '"allowed": true'] } },
  { lesson: 'api-groups', scope: 'read', shows: { groups: ['"name": "apps"'], removed: ['HTTP 404', 'API version that was removed', '404 page not found', '"reason": "NotFound"', 'whose group is still served'] } },
  { lesson: 'health', scope: 'read', shows: { plain: ['ok'], verbose: ['[+]etcd excluded: ok', 'readyz check passed'], 'who-may': ['"/livez"'], 'unknown-and-old': ['HTTP 404'] } },
  { lesson: 'resource-versions', scope: 'namespace', shows: { writes: ['HTTP 201', '"step": "updated twice"'], reads: ['"step": "created"', 'resourceVersionMatch=Exact'] } },
  { lesson: 'chunked-lists', scope: 'namespace', shows: { fill: ['"chunk-25"'], pages: ['"remainingItemCount"', 'limit=10&continue='], selector: ['"items": 5'] } },
  { lesson: 'watch', scope: 'namespace', shows: { changes: ['"type": "ADDED"', '"type": "MODIFIED"', '"type": "DELETED"'] } },
  { lesson: 'server-side-apply', scope: 'namespace', shows: { alice: ['"manager": "alice"'], 'bob-conflict': ['HTTP 409', 'FieldManagerConflict', '.data.color', 'conflict with \\"alice\\"'], 'bob-force': ['"color": "green"', '"manager": "bob"'] } },
  { lesson: 'create-on-update', scope: 'namespace', shows: { 'put-creates': ['HTTP 201', 'HTTP 200'], 'put-404': ['HTTP 404'], unconditional: ['HTTP 422', 'must be specified for an update'] } },
  { lesson: 'generate-name', scope: 'namespace', shows: { generate: ['"generateName": "gen-"'], taken: ['HTTP 409', 'AlreadyExists'], reuse: ['does not match the UID in record'] } },
  { lesson: 'namespace-deletion', scope: 'cluster', shows: { fill: ['HTTP 201'], terminating: ['HTTP 403', 'because it is being terminated', 'Terminating'], release: ['HTTP 404'] } },
  { lesson: 'collections', scope: 'namespace', shows: { create: ['HTTP 201'], list: ['"kind": "ConfigMapList"'], 'no-list-kind': ['HTTP 400', 'HTTP 404'], deletecollection: ['"item2"', '"item3"'] } },
  { lesson: 'tables', scope: 'namespace', shows: { create: ['HTTP 201'], table: ['"kind": "Table"', '"Data"', '"PartialObjectMetadata"'] } },
  { lesson: 'metadata-only', scope: 'namespace', shows: { create: ['HTTP 201'], compare: ['"PartialObjectMetadataList"', '"name": "meta0"', 'which has no data, is'] } },
  { lesson: 'media-types', scope: 'namespace', shows: { create: ['HTTP 201'], 'four-ways': ['content-type: application/yaml', 'content-type: application/vnd.kubernetes.protobuf', 'content-type: application/cbor'], unsupported: ['HTTP 406'], 'yaml-list': ['kind: ConfigMapList'] } },
  { lesson: 'compression', scope: 'namespace', shows: { create: ['"big-39"'], compare: ['"content-encoding": "gzip"', '"content-encoding": "(none)"'] } },
  { lesson: 'streaming-lists', scope: 'namespace', shows: { create: ['HTTP 201'], stream: ['k8s.io/initial-events-end'], 'without-bookmarks': ['"type": "ADDED"'], unset: ['k8s.io/initial-events-end'], invalid: ['HTTP 422', 'sendInitialEvents requires', 'a Status instead of a watch stream'] } },
  { lesson: 'streaming-list-from-rv', scope: 'namespace', shows: { before: ['HTTP 201', '"third"'], 'plain-from-rv': ['"type": "ADDED"', '"name": "third"'], 'stream-from-rv': ['k8s.io/initial-events-end', '"name": "first"'], 'old-rv': ['resourceVersion=1', 'k8s.io/initial-events-end'], 'future-rv': ['"type": "ERROR"', 'Too large resource version'] } },
  { lesson: 'metadata-preferences', scope: 'namespace', shows: { create: ['HTTP 201'], 'q-preferences': ['"PartialObjectMetadataList"', '"ConfigMapList"'], encodings: ['application/cbor', 'application/vnd.kubernetes.protobuf', '"kind": "PartialObjectMetadataList"'], 'wrong-shape': ['HTTP 406', 'but the requested object is a list'], aggregated: ['"FlunderList"', '"status": 406'] } },
  { lesson: 'encoding-memory', scope: 'namespace', shows: { fill: ['"big-39"'], sizes: ['pretty=true', 'application/yaml'], memory: ['"form": "pretty JSON"', 'allocated, smallest of 4'], gates: ['StreamingCollectionEncodingToJSON'] } },
  { lesson: 'pruning', scope: 'cluster', shows: { define: ['Established: True'], warn: ['unknown field', 'spec.colour', '"extra": "(absent)"'], ignore: ['"warning": "(none)"'], strict: ['HTTP 400', 'strict decoding error'], patch: ['"more": true'], cleanup: ['HTTP 200'] } },
  { lesson: 'ssa-scale-and-migration', scope: 'namespace', shows: { alice: ['"manager": "alice"'], 'scale-conflict': ['HTTP 409'], 'scale-force': ['"subresource": "scale"'], 'alice-conflict': ['HTTP 409', 'with subresource'], 'client-side': ['kubectl-client-side-apply'], 'other-manager': ['HTTP 409'], 'kubectl-edited': ['HTTP 409', 'editor'], 'kubectl-takes-over': ['"manager": "kubectl"'] } },
  { lesson: 'bookmarks', scope: 'namespace', shows: { quiet: ['timeoutSeconds=8', '"type": "BOOKMARK"'] } },
  { lesson: 'consistent-reads', scope: 'namespace', shows: { fresh: ['"name": "fresh"'], 'too-large': ['HTTP 504', 'Too large resource version', 'has not reached yet'] } },
  { lesson: 'field-validation', scope: 'namespace', shows: { ignore: ['HTTP 201'], warn: ['warning: ', 'unknown field'], strict: ['HTTP 400', 'strict decoding error', 'fieldValidation=Strict refused'] } },
  { lesson: 'dry-run', scope: 'namespace', shows: { 'dry-create': ['"generateName": "dry-"', '"revisionHistoryLimit": 10'], 'nothing-stored': ['HTTP 404'] } },
  { lesson: 'updates', scope: 'namespace', shows: { create: ['HTTP 409', 'changed since the resourceVersion'], patches: ['HTTP 422', '"applied": "yes"'], 'stale-patches': ['HTTP 409'] } },
  { lesson: 'cel-validation', scope: 'cluster', shows: { crd: ['Established: True'], rules: ['min must not be greater than max', 'max is above the limit of 100', 'HTTP 422'], transition: ['size cannot change once set'], deprecated: ['is deprecated'], policy: ['denied request', 'with-team', 'A ValidatingAdmissionPolicy refused the request'], cleanup: ['HTTP 200'] } },
  { lesson: 'merge-strategy', scope: 'namespace', shows: { alice: ['HTTP 201'], 'bob-sidecar': ['"name": "sidecar"'], 'atomic-conflict': ['HTTP 409', 'containers[name=\\"web\\"].args'], share: ['"manager": "bob"'], 'hand-over': ['"--x"'] } },
  { lesson: 'single-resource-api', scope: 'namespace', shows: { 'two-writes': ['HTTP 201', '"name": "one"', '"name": "two"'], 'list-body': ['HTTP 400', 'cannot be handled as a ConfigMap', 'Kind=List', 'HTTP 404'], 'no-rollback': ['HTTP 422', 'lowercase RFC 1123', 'HTTP 200'], collection: ['HTTP 405', 'MethodNotAllowed', '"ConfigMapList"', '"first"'] } },
  { lesson: 'declarative-validation', scope: 'namespace', shows: { gates: ['name="DeclarativeValidationBeta",stage="BETA"} 1', 'name="DeclarativeValidationTakeover",stage="DEPRECATED"} 0', 'apiserver_validation_declarative_validation_mismatch_total'], create: ['HTTP 422', 'spec.replicas', 'spec.minReadySeconds', 'must be greater than or equal to 0', 'HTTP 201'], update: ['HTTP 422'], role: ['HTTP 422', 'rules[0].verbs', 'FieldValueRequired'], agree: ['apiserver_validation_declarative_validation_panic_total 0', 'before the four invalid writes'] } },
  {
    lesson: 'force-deletion',
    scope: 'cluster',
    shows: {
      gate: ['name="AllowUnsafeMalformedObjectDeletion",stage="BETA"} 1', '"username": "explorer-viewer"'],
      define: ['HTTP 201', '"kind": "LessonRelic"'],
      corrupt: ['HTTP 500', 'corrupt object', 'object not decodable', 'invalid group/version: lessons.explorer.dev/v1', 'HTTP 429', 'storage is (re)initializing', 'stored in a form the server cannot read'],
      'plain-delete': ['HTTP 500', 'corrupt object'],
      forbidden: ['HTTP 403', 'not permitted to do \\"unsafe-delete-ignore-read-errors\\"', '"allowed": true', 'needs the verb unsafe-delete-ignore-read-errors on this resource, on top of delete'],
      force: ['"status": "Success"', 'HTTP 404', '"items": []'],
      cleanup: ['HTTP 404'],
    },
  },
  { lesson: 'ssa-controller', scope: 'namespace', shows: { user: ['HTTP 201', '"manager": "alice"'], 'no-force': ['HTTP 409', 'FieldManagerConflict'], force: ['"manager": "lesson-scaler"'], again: ['HTTP 200'], 'user-again': ['HTTP 409', 'conflict with \\"lesson-scaler\\"'] } },
  { lesson: 'deprecated-apis', scope: 'read', shows: { warning: ['v1 Endpoints is deprecated in v1.33+'], metric: ['"apiserver_requested_deprecated_apis"', 'endpoints'], beta: ['HTTP 404'] } },
  { lesson: 'storage-version-migration', scope: 'cluster', shows: { define: ['HTTP 201'], switch: ['HTTP 422', 'must remain in spec.versions'], migrate: ['StorageVersionMigrationSucceeded'], stored: ['the stored versions have been updated'], cleanup: ['HTTP 200'] } },
  { lesson: 'webhook-side-effects', scope: 'cluster', shows: { unknown: ['HTTP 422', 'NoneOnDryRun'], fail: ['HTTP 500', 'failed calling webhook'], ignore: ['HTTP 201', 'HTTP 404'], cleanup: ['HTTP 200'] } },
  { lesson: 'cel-libraries', scope: 'cluster', shows: { define: ['HTTP 201'], values: ['HTTP 422', 'green is not one of red, blue'], unknown: ['undeclared reference to'], cleanup: ['HTTP 200'] } },
  { lesson: 'deletion', scope: 'namespace', shows: { finalizer: ['deletionTimestamp', 'HTTP 404'], background: ['HTTP 404'], foreground: ['foregroundDeletion'], orphan: ['dependent-orphan'] } },
];

async function open(page: Page, explorerUrl: string, lesson: string): Promise<void> {
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'lessons', lesson }).toString()}`);
  await expect(page.locator('#lesson-title')).toBeVisible();
}

async function scratch(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Create scratch namespace' }).click();
  const name = page.getByTestId('scratch-namespace');
  await expect(name).toHaveText(/^lesson-[a-z]+-[a-z0-9]{5}$/);
  return (await name.textContent())!;
}

for (const row of ROWS) {
  test(`lesson ${row.lesson}: every step runs and the server answers as the lesson says`, async ({ page, explorerUrl, kube }) => {
    // force-deletion waits for a watch cache to recover from its back-off (up to a minute).
    test.setTimeout(300_000);
    await open(page, explorerUrl, row.lesson);
    const ns = row.scope === 'read' ? undefined : await scratch(page);
    // Permissions are asked first, and all granted to the admin.
    const access = page.getByTestId('access');
    await expect(access.first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Permissions' })).not.toContainText('denied');
    const run = page.getByRole('button', { name: 'Run all steps' });
    if (row.scope === 'cluster') {
      // Nothing cluster-scoped runs before the learner confirms.
      await expect(run).toBeDisabled();
      await page.getByRole('checkbox', { name: /I understand that this lesson creates cluster-scoped objects/ }).check();
    }
    await run.click();
    for (const [step, texts] of Object.entries(row.shows)) {
      const section = page.getByTestId(`step-${step}`);
      await expect(section.getByTestId('verdict')).toHaveText('The server answered as described.', { timeout: 150_000 });
      for (const t of texts) await expect(section).toContainText(t);
    }
    // After a full run no step says an earlier one did not run (force-deletion's steps 4 to 6 did, once).
    await expect(page.getByTestId('blocked').filter({ hasText: 'did not run' })).toHaveCount(0);
    // Every step of the lesson ran (the table names them all) and the index counts them done.
    await expect(page.locator('[data-testid^="step-"]')).toHaveCount(Object.keys(row.shows).length);
    const n = Object.keys(row.shows).length;
    await expect(page.getByTestId(`progress-${row.lesson}`)).toHaveText(`${n}/${n}`);
    if (ns) {
      await page.getByRole('button', { name: 'Delete scratch namespace' }).click();
      await expect(page.getByRole('button', { name: 'Create scratch namespace' })).toBeVisible();
      const r = await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}`);
      expect([404, 200]).toContain(r.status);
    }
  });
}

test('force-deletion abandoned with its object still undecodable: the leftovers list still removes the CRD, and the namespace goes', async ({ page, explorerUrl, kube }) => {
  test.setTimeout(180_000);
  await open(page, explorerUrl, 'force-deletion');
  const ns = await scratch(page);
  await page.getByRole('checkbox', { name: /I understand that this lesson creates cluster-scoped objects/ }).check();
  for (const [i, step] of ['gate', 'define', 'corrupt'].entries()) {
    const section = page.getByTestId(`step-${step}`);
    await section.getByRole('button', { name: `Run step ${i + 1}` }).click();
    await expect(section.getByTestId('verdict')).toHaveText('The server answered as described.', { timeout: 90_000 });
  }
  const crd = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/lessonrelics.lessons.explorer.dev';
  // The learner walks away: deletes the scratch namespace, which cannot finish while the relic is undecodable.
  await page.getByRole('button', { name: 'Delete scratch namespace' }).click();
  const leftovers = page.getByRole('region', { name: 'Lesson namespaces' });
  await leftovers.getByRole('button', { name: 'Delete lessonrelics.lessons.explorer.dev' }).click();
  await expect.poll(async () => (await kube.request('admin', 'GET', crd)).status, { timeout: 90_000, intervals: [1000] }).toBe(404);
  await expect.poll(async () => (await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}`)).status, { timeout: 120_000, intervals: [2000] }).toBe(404);
});

test('a Status shown anywhere says what happened and links to its lesson', async ({ page, explorerUrl }) => {
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'console', m: 'GET', p: '/api/v1/namespaces/default/configmaps/no-such-configmap' }).toString()}`);
  await page.getByRole('button', { name: /^Send/ }).first().click();
  const explain = page.getByTestId('status-explain').first();
  await expect(explain).toContainText('No configmaps "no-such-configmap" exists here');
  await expect(explain.getByRole('link', { name: 'Lesson: why this happens' })).toHaveAttribute('href', /view=lessons&lesson=api-terminology/);
});

async function leftovers(kube: Kube): Promise<string[]> {
  const r = await kube.request('admin', 'GET', '/api/v1/namespaces?labelSelector=explorer.lessons%2Flesson');
  const items = (JSON.parse(r.body) as { items: { metadata: { name: string } }[] }).items;
  return items.map((i) => i.metadata.name);
}

test('after the lessons no namespace or object they created is left', async ({ kube }) => {
  test.setTimeout(180_000);
  // Namespaces take a moment to finish terminating (their content is deleted first).
  await expect.poll(() => leftovers(kube), { timeout: 150_000, intervals: [2000] }).toEqual([]);
  for (const path of ['/apis/apiextensions.k8s.io/v1/customresourcedefinitions', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations', '/apis/storagemigration.k8s.io/v1/storageversionmigrations']) {
    const r = await kube.request('admin', 'GET', `${path}?labelSelector=explorer.lessons%2Flesson`);
    expect(r.status).toBe(200);
    expect((JSON.parse(r.body) as { items: unknown[] }).items).toEqual([]);
  }
});

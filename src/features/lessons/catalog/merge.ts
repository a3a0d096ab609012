// Server-Side Apply beyond conflicts: how lists merge (by key, atomically) and how a field's
// ownership moves from one manager to another without a conflict.
import { ownership } from '../exchange';
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';

const path = (c: StepContext) => `/apis/apps/v1/namespaces/${c.ns}/deployments/merged`;
const apply = (c: StepContext, manager: string, containers: unknown[], extra: Record<string, unknown> = {}, podLabels?: Record<string, string>) =>
  c.send('PATCH', `${path(c)}?fieldManager=${manager}`, {
    contentType: 'application/apply-patch+yaml',
    // JSON is YAML: the apply body is sent as JSON text.
    body: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'merged', labels: label('merge') }, spec: { ...extra, template: { ...(podLabels ? { metadata: { labels: podLabels } } : {}), spec: { containers } } } }, null, 2),
  });
const ALICE_BASE = { replicas: 0, selector: { matchLabels: { app: 'merged' } } };
const aliceWeb = (args?: string[]) => [{ name: 'web', image: 'registry.k8s.io/pause:3.10', ...(args ? { args } : {}) }];
const sidecar = { name: 'sidecar', image: 'registry.k8s.io/pause:3.10' };

const owned = (x: KitExchange, manager: string) => ownership(x.response).filter((e) => e.manager === manager && e.operation === 'Apply').flatMap((e) => e.fields);
const containerNames = (x: KitExchange) => ((field(x.response, 'spec', 'template', 'spec', 'containers') as { name: string }[] | undefined) ?? []).map((k) => k.name);
const shown = (x: KitExchange) =>
  x.status < 300
    ? { containers: field(x.response, 'spec', 'template', 'spec', 'containers'), managedFields: ownership(x.response).filter((e) => e.operation === 'Apply').map((e) => ({ manager: e.manager, fields: e.fields.filter((f) => f.includes('containers')) })) }
    : x.response;
const ARGS = '.spec.template.spec.containers[name="web"].args';

export const mergeStrategy: KitLesson = {
  id: 'merge-strategy',
  topic: 'merge',
  title: 'Server-Side Apply: how lists merge, and handing a field over',
  scope: 'namespace',
  paragraphs: [
    'When two managers apply to the same list, the schema decides what happens. A list marked `x-kubernetes-list-type: map` (a Deployment\'s `containers`, keyed by `name`) merges element by element: each manager owns the elements it applied. An `atomic` list (a container\'s `args`) is one value: whoever applied it owns all of it, and a different value from someone else is a conflict. A `set` merges by value, and a `map` type (`x-kubernetes-map-type`) by key or atomically.',
    'Ownership can move without force: the new manager applies the same value (the field is then shared), and the old one applies its configuration without the field. The value stays, now owned by the new manager alone.',
  ],
  needs: [{ verb: 'patch', group: 'apps', resource: 'deployments', namespaced: true }, { verb: 'create', group: 'apps', resource: 'deployments', namespaced: true }],
  steps: [
    {
      id: 'alice',
      title: 'alice applies a Deployment with container web',
      text: 'alice applies `merged` (0 replicas, so nothing runs) with one container, `web`, and its `args: ["--x"]`.',
      lookFor: 'HTTP 201; alice owns `containers[name="web"]` and its `args`.',
      run: async (c) => [await apply(c, 'alice', aliceWeb(['--x']), ALICE_BASE, { app: 'merged' })],
      show: shown,
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 201, `HTTP ${x!.status}`);
        want(owned(x!, 'alice').includes(ARGS), 'alice does not own the args');
        return result;
      },
      view: (c) => ({ label: 'See who owns what in the Ownership view', to: { view: 'ownership', namespace: c.ns, group: 'apps', version: 'v1', resource: 'deployments', name: 'merged' } }),
    },
    {
      id: 'bob-sidecar',
      title: 'bob applies a second container',
      text: 'bob applies only `sidecar`. `containers` is a map keyed by `name`, so this adds an element instead of replacing the list.',
      lookFor: 'Both containers, `web` and `sidecar`; bob owns `containers[name="sidecar"]`, alice still owns `web`.',
      run: async (c) => [await apply(c, 'bob', [sidecar])],
      show: shown,
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 200, `HTTP ${x!.status}`);
        want(containerNames(x!).sort().join() === 'sidecar,web', `containers: ${containerNames(x!).join()}`);
        want(owned(x!, 'bob').some((f) => f.startsWith('.spec.template.spec.containers[name="sidecar"]')), 'bob does not own the sidecar');
        return result;
      },
    },
    {
      id: 'atomic-conflict',
      title: 'bob wants other args for web',
      text: 'bob applies `sidecar` and `web` with `args: ["--y"]`. `args` is atomic and alice owns it.',
      lookFor: '409 Conflict, the cause naming alice and `.spec.template.spec.containers[name="web"].args`.',
      run: async (c) => [await apply(c, 'bob', [sidecar, { name: 'web', args: ['--y'] }])],
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 409, `HTTP ${x!.status}`);
        const causes = (field(x!.response, 'details', 'causes') as { field?: string; message?: string }[] | undefined) ?? [];
        want(causes.some((k) => k.field === ARGS && (k.message ?? '').includes('alice')), `causes: ${JSON.stringify(causes)}`);
        return result;
      },
    },
    {
      id: 'share',
      title: 'bob applies the same args',
      text: 'bob applies `web` with alice\'s value, `args: ["--x"]`.',
      lookFor: 'HTTP 200: the same value is no conflict. The args now appear under both alice and bob.',
      run: async (c) => [await apply(c, 'bob', [sidecar, { name: 'web', args: ['--x'] }])],
      show: shown,
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 200, `HTTP ${x!.status}`);
        want(owned(x!, 'alice').includes(ARGS) && owned(x!, 'bob').includes(ARGS), 'the args are not shared');
        return result;
      },
    },
    {
      id: 'hand-over',
      title: 'alice lets go',
      text: 'alice applies her configuration without `args`.',
      lookFor: 'HTTP 200, `args` still `["--x"]`, and only bob owns them now.',
      run: async (c) => [await apply(c, 'alice', aliceWeb(), ALICE_BASE, { app: 'merged' })],
      show: shown,
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 200, `HTTP ${x!.status}`);
        const web = ((field(x!.response, 'spec', 'template', 'spec', 'containers') as { name: string; args?: string[] }[] | undefined) ?? []).find((k) => k.name === 'web');
        want(JSON.stringify(web?.args) === '["--x"]', `args: ${JSON.stringify(web?.args)}`);
        want(!owned(x!, 'alice').includes(ARGS) && owned(x!, 'bob').includes(ARGS), 'bob is not the only owner of the args');
        return result;
      },
    },
  ],
};

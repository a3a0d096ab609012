// Server-Side Apply beyond one object's fields: an apply to the /scale subresource (tracked in
// the Deployment's managedFields, with the subresource named), and what the server does when
// `kubectl` starts applying server-side to an object that client-side apply made.
import { ownership } from '../exchange';
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { WRITE_MODE_TABLE } from '../../edit';

const APPLY = WRITE_MODE_TABLE.apply.contentType;
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const CSA = 'kubectl-client-side-apply';
const deploy = (c: StepContext, sub = '') => `/apis/apps/v1/namespaces/${encodeURIComponent(c.ns)}/deployments/web${sub}`;
const cm = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps${name ? `/${name}` : ''}`;
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');

const web = (replicas: number) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: label('ssascale') },
  spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'registry.k8s.io/pause:3.10' }] } } },
});
const scale = (replicas: number) => ({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas } });

interface Entry {
  manager?: string;
  operation?: string;
  subresource?: string;
  apiVersion?: string;
}
const entries = (x: KitExchange) => (field(x.response, 'metadata', 'managedFields') as Entry[] | undefined) ?? [];
/** Who owns a field path (as `ownership` formats it), with the subresource when there is one. */
const ownersOf = (x: KitExchange, path: string) =>
  ownership(x.response)
    .map((o, i) => ({ ...o, subresource: entries(x)[i]?.subresource ?? '' }))
    .filter((o) => o.fields.includes(path))
    .map((o) => `${o.manager}/${o.operation}${o.subresource ? `/${o.subresource}` : ''}`);
const records = (x: KitExchange) => ({ managedFields: ownership(x.response).map((o, i) => ({ ...o, subresource: entries(x)[i]?.subresource, apiVersion: entries(x)[i]?.apiVersion })) });

const csaBody = (data: Record<string, string>) => {
  // What client-side `kubectl apply` sends on create: the object, with its own JSON in the annotation.
  const config = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { annotations: {}, name: 'migrating' }, data };
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'migrating', labels: label('ssascale'), annotations: { [LAST_APPLIED]: `${JSON.stringify(config)}\n` } }, data };
};
const applyCm = (c: StepContext, manager: string, data: Record<string, string>) =>
  c.send('PATCH', `${cm(c, 'migrating')}?fieldManager=${manager}`, { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'migrating' }, data }), contentType: APPLY });
const causes = (x: KitExchange) => ((field(x.response, 'details', 'causes') as { field?: string; message?: string }[] | undefined) ?? []).map((k) => `${k.field}: ${k.message}`).join('; ');

export const ssaScaleAndMigration: KitLesson = {
  id: 'ssa-scale-and-migration',
  topic: 'ssascale',
  title: 'Server-Side Apply on /scale, and moving from client-side apply',
  scope: 'namespace',
  paragraphs: [
    'The `/scale` subresource shows a Deployment\'s `spec.replicas` as a `Scale` object (`autoscaling/v1`). An apply to it is recorded in the Deployment\'s own `managedFields`, in an entry that names the subresource (`subresource: scale`), and it conflicts with whoever applied `spec.replicas` to the Deployment, both ways.',
    'Client-side `kubectl apply` (the default before `--server-side`) records its view of an object in the annotation `kubectl.kubernetes.io/last-applied-configuration`, and its writes are recorded under the manager `kubectl-client-side-apply`. When an apply comes from the manager `kubectl` (what `kubectl apply --server-side` uses by default), the server lets it take fields from `kubectl-client-side-apply` without a conflict and rewrites the annotation to what was applied; an apply under any other manager name gets the ordinary conflict. Fields someone else changed since still conflict. (Background: `kubectl` itself may also rewrite the managed fields before it applies; this lesson sends plain requests, so what it shows is the server\'s part.)',
  ],
  needs: [
    { verb: 'create', group: 'apps', resource: 'deployments', namespaced: true },
    { verb: 'patch', group: 'apps', resource: 'deployments', namespaced: true },
    { verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale', namespaced: true },
    { verb: 'create', resource: 'configmaps', namespaced: true },
    { verb: 'patch', resource: 'configmaps', namespaced: true },
  ],
  steps: [
    {
      id: 'alice',
      title: 'alice applies a Deployment with 2 replicas',
      text: 'Apply Deployment `web` (`replicas: 2`) with `fieldManager=alice`.',
      lookFor: 'HTTP 201; `managedFields` says alice (Apply) owns `.spec.replicas`.',
      run: async (c) => [await c.send('PATCH', `${deploy(c)}?fieldManager=alice`, { body: JSON.stringify(web(2)), contentType: APPLY })],
      show: records,
      check: ([x]) => (x!.status === 201 && ownersOf(x!, '.spec.replicas').join() === 'alice/Apply' ? [] : [`HTTP ${x!.status} ${msg(x!)}; .spec.replicas owned by ${ownersOf(x!, '.spec.replicas').join() || 'nobody'}`]),
    },
    {
      id: 'scale-conflict',
      title: 'scaler applies 5 replicas to /scale',
      text: 'Apply a `Scale` with `spec.replicas: 5` to `deployments/web/scale` with `fieldManager=scaler`.',
      lookFor: '409 Conflict: `.spec.replicas` belongs to alice. The scale subresource is no way around her ownership.',
      run: async (c) => [await c.send('PATCH', `${deploy(c, '/scale')}?fieldManager=scaler`, { body: JSON.stringify(scale(5)), contentType: APPLY })],
      check: ([x]) => (x!.status === 409 && msg(x!).includes('conflict with "alice"') && msg(x!).includes('.spec.replicas') ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'scale-force',
      title: 'The same with force=true, then the Deployment',
      text: 'The same apply with `force=true`; then GET the Deployment.',
      lookFor:
        'HTTP 200 with a `Scale` of 5 replicas, which carries no `managedFields` of its own. The Deployment has them: an entry for scaler, operation Apply, `subresource: scale`, `apiVersion: apps/v1` (not the Scale\'s `autoscaling/v1`), owning `.spec.replicas`; alice no longer owns it.',
      run: async (c) => [await c.send('PATCH', `${deploy(c, '/scale')}?fieldManager=scaler&force=true`, { body: JSON.stringify(scale(5)), contentType: APPLY }), await c.send('GET', deploy(c))],
      show: (x) => (field(x.response, 'kind') === 'Scale' ? { kind: 'Scale', spec: field(x.response, 'spec'), managedFields: field(x.response, 'metadata', 'managedFields') ?? '(none)' } : records(x)),
      check: ([s, d]) => {
        const { want, result } = expectations();
        want(s!.status === 200 && field(s!.response, 'kind') === 'Scale' && field(s!.response, 'spec', 'replicas') === 5, `scale: HTTP ${s!.status} ${msg(s!)}`);
        want(field(s!.response, 'metadata', 'managedFields') === undefined, 'the Scale carries managedFields');
        const entry = entries(d!).find((e) => e.manager === 'scaler');
        want(entry?.operation === 'Apply' && entry.subresource === 'scale' && entry.apiVersion === 'apps/v1', `scaler's entry: ${JSON.stringify(entry ?? null)}`);
        want(ownersOf(d!, '.spec.replicas').join() === 'scaler/Apply/scale', `.spec.replicas owned by ${ownersOf(d!, '.spec.replicas').join() || 'nobody'}`);
        want(field(d!.response, 'spec', 'replicas') === 5, `replicas ${String(field(d!.response, 'spec', 'replicas'))}`);
        return result;
      },
      view: (c) => ({ label: 'See the Deployment\'s managers in the Ownership view', to: { view: 'ownership', namespace: c.ns, group: 'apps', version: 'v1', resource: 'deployments', name: 'web' } }),
    },
    {
      id: 'alice-conflict',
      title: 'alice applies her manifest again',
      text: 'alice applies the same Deployment, `replicas: 2`, without force.',
      lookFor: '409: the conflict names scaler "with subresource \\"scale\\"" on `.spec.replicas`.',
      run: async (c) => [await c.send('PATCH', `${deploy(c)}?fieldManager=alice`, { body: JSON.stringify(web(2)), contentType: APPLY })],
      check: ([x]) => (x!.status === 409 && msg(x!).includes('conflict with "scaler" with subresource "scale"') && msg(x!).includes('.spec.replicas') ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'client-side',
      title: 'An object made by client-side apply, then edited',
      text: `Create ConfigMap \`migrating\` as client-side \`kubectl apply\` would: \`data\` \`a: "1"\`, \`b: "2"\`, the same JSON in \`${LAST_APPLIED}\`, \`fieldManager=${CSA}\`. Then \`editor\` changes \`b\` with a merge patch.`,
      lookFor: `HTTP 201 and 200; \`${CSA}\` (Update) owns \`.data.a\` and the annotation, \`editor\` owns \`.data.b\`.`,
      run: async (c) => [
        await c.send('POST', `${cm(c)}?fieldManager=${CSA}`, { body: csaBody({ a: '1', b: '2' }) }),
        await c.send('PATCH', `${cm(c, 'migrating')}?fieldManager=editor`, { body: { data: { b: 'edited' } }, contentType: 'application/merge-patch+json' }),
      ],
      show: (x) => ({ data: field(x.response, 'data'), ...records(x) }),
      check: ([made, edited]) => {
        const { want, result } = expectations();
        want(made!.status === 201 && edited!.status === 200, `HTTP ${made!.status}, ${edited!.status}`);
        want(ownersOf(edited!, '.data.a').join() === `${CSA}/Update`, `.data.a owned by ${ownersOf(edited!, '.data.a').join()}`);
        want(ownersOf(edited!, '.data.b').join() === 'editor/Update', `.data.b owned by ${ownersOf(edited!, '.data.b').join()}`);
        return result;
      },
    },
    {
      id: 'other-manager',
      title: 'Server-side apply under another name',
      text: 'Apply `data: {a: "9"}` with `fieldManager=my-manager`.',
      lookFor: `409: conflict with "${CSA}" on \`.data.a\`. Nothing changes.`,
      run: async (c) => [await applyCm(c, 'my-manager', { a: '9' })],
      check: ([x]) => (x!.status === 409 && msg(x!).includes(`conflict with "${CSA}"`) && causes(x!).includes('.data.a') ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'kubectl-edited',
      title: 'Server-side apply as kubectl, over an edited field',
      text: 'Apply `data: {a: "9", b: "2"}` with `fieldManager=kubectl`.',
      lookFor: '409 naming only editor on `.data.b`: `b` was changed by someone else since. `.data.a` raises no conflict.',
      run: async (c) => [await applyCm(c, 'kubectl', { a: '9', b: '2' })],
      check: ([x]) => (x!.status === 409 && msg(x!).includes('conflict with "editor"') && !msg(x!).includes(CSA) && causes(x!).includes('.data.b') && !causes(x!).includes('.data.a') ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'kubectl-takes-over',
      title: 'Server-side apply as kubectl, leaving b out',
      text: 'Apply `data: {a: "9"}` with `fieldManager=kubectl`.',
      lookFor: `HTTP 200: \`a\` is 9 and now belongs to kubectl (Apply) alone, \`${CSA}\` keeps the annotation, editor keeps \`b\`. The annotation now holds the configuration just applied, \`{"apiVersion":"v1","data":{"a":"9"},"kind":"ConfigMap","metadata":{"name":"migrating"}}\`.`,
      run: async (c) => [await applyCm(c, 'kubectl', { a: '9' })],
      show: (x) => (x.status < 300 ? { annotation: field(x.response, 'metadata', 'annotations', LAST_APPLIED), data: field(x.response, 'data'), ...records(x) } : x.response),
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 200 && field(x!.response, 'data', 'a') === '9' && field(x!.response, 'data', 'b') === 'edited', `HTTP ${x!.status} ${msg(x!)} data ${JSON.stringify(field(x!.response, 'data'))}`);
        want(ownersOf(x!, '.data.a').join() === 'kubectl/Apply', `.data.a owned by ${ownersOf(x!, '.data.a').join()}`);
        want(ownersOf(x!, '.data.b').join() === 'editor/Update', `.data.b owned by ${ownersOf(x!, '.data.b').join()}`);
        want(ownersOf(x!, `.metadata.annotations.${LAST_APPLIED}`).join() === `${CSA}/Update`, `the annotation owned by ${ownersOf(x!, `.metadata.annotations.${LAST_APPLIED}`).join()}`);
        let applied: unknown;
        try {
          applied = JSON.parse(String(field(x!.response, 'metadata', 'annotations', LAST_APPLIED)));
        } catch {
          applied = undefined;
        }
        want(JSON.stringify(applied) === JSON.stringify({ apiVersion: 'v1', data: { a: '9' }, kind: 'ConfigMap', metadata: { name: 'migrating' } }), `annotation: ${String(field(x!.response, 'metadata', 'annotations', LAST_APPLIED))}`);
        return result;
      },
      view: (c) => ({ label: 'See the ConfigMap\'s managers in the Ownership view', to: { view: 'ownership', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps', name: 'migrating' } }),
    },
  ],
};

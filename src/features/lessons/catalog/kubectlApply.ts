// What `kubectl apply` actually sends, client-side and server-side. A page cannot run kubectl, so
// each step sends the requests kubectl v1.37 sends for the same manifest, byte for byte as the
// X-ray endpoint records them from kubectl itself (e2e/xray.spec.ts runs the real kubectl through
// it and checks the method, Content-Type, fieldManager and body this lesson names), under kubectl's
// own User-Agent; every sentence is then checked against what the server answered.
import { clientsLink } from '../../xray';
import { ownership } from '../exchange';
import { expectations, field, type KitExchange, type KitLesson, type StepContext } from '../kit';

/** kubectl's User-Agent (client-go's `<binary>/<version> (<os>/<arch>) kubernetes/<commit>`). */
const KUBECTL = 'kubectl/v1.37.1 (linux/amd64) kubernetes/$Format';
const NAME = 'applied';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
const cm = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps${name ? `/${name}` : ''}`;
const as = { headers: { 'User-Agent': KUBECTL } };

/** The manifest as kubectl serialises it (keys sorted, as Go's encoding of an unstructured object writes them). */
const manifest = (c: StepContext, color: string) => ({ apiVersion: 'v1', data: { color }, kind: 'ConfigMap', metadata: { name: NAME, namespace: c.ns } });
/** The annotation client-side apply keeps: the manifest as applied, with an empty annotations map, and a final newline. */
const lastApplied = (c: StepContext, color: string) => `${JSON.stringify({ apiVersion: 'v1', data: { color }, kind: 'ConfigMap', metadata: { annotations: {}, name: NAME, namespace: c.ns } })}\n`;

const managers = (x: KitExchange) => ownership(x.response).map((e) => `${e.manager}/${e.operation}`);
const owns = (x: KitExchange, manager: string, operation: string) => ownership(x.response).find((e) => e.manager === manager && e.operation === operation)?.fields ?? [];
const show = (x: KitExchange) => (field(x.response, 'kind') === 'Status' ? x.response : { annotations: field(x.response, 'metadata', 'annotations'), managedFields: ownership(x.response) });

/** FieldsV1 sets merged (kubectl's csaupgrade: the client-side manager's fields become the apply manager's). */
function mergeFields(a: unknown, b: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(a as Record<string, unknown>) };
  for (const [k, v] of Object.entries((b ?? {}) as Record<string, unknown>)) out[k] = k in out ? mergeFields(out[k], v) : v;
  return out;
}

export const kubectlApply: KitLesson = {
  id: 'kubectl-apply',
  topic: 'kapply',
  title: 'What kubectl apply actually sends',
  scope: 'namespace',
  paragraphs: [
    '`kubectl apply -f` (client-side) reads the object first, then creates it or sends a strategic merge patch computed on your machine from three versions: the manifest, the live object and the `kubectl.kubernetes.io/last-applied-configuration` annotation it wrote last time. Its writes are recorded under the field manager `kubectl-client-side-apply`, as an Update.',
    '`kubectl apply --server-side -f` sends the manifest itself, as `application/apply-patch+yaml` (the body is JSON, which is YAML), with `fieldManager=kubectl&force=false`; the server merges it and records what `kubectl` owns, as an Apply. The first server-side apply of an object that client-side apply managed also moves the old manager’s fields to `kubectl`, in two more requests. Run `kubectl api-explorer xray -- kubectl apply …` to see your own kubectl send these in the Clients view.',
  ],
  needs: [{ verb: 'get', resource: 'configmaps', namespaced: true }, { verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'patch', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'csa-create',
      title: 'kubectl apply: the object is new',
      text: 'kubectl reads `applied` (404), then creates it with `POST …/configmaps?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`, the manifest carrying the last-applied annotation.',
      lookFor: 'HTTP 404 then 201; the annotation holds the manifest; `managedFields` has `kubectl-client-side-apply`, operation `Update`.',
      run: async (c) => {
        const get = await c.send('GET', cm(c, NAME), as);
        const body = manifest(c, 'blue');
        const create = await c.send('POST', `${cm(c)}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`, { ...as, body: JSON.stringify({ ...body, metadata: { annotations: { [LAST_APPLIED]: lastApplied(c, 'blue') }, name: NAME, namespace: c.ns } }) });
        return [get, create];
      },
      show,
      check: ([get, create], c) => {
        const { want, result } = expectations();
        want(get!.status === 404, `GET: HTTP ${get!.status}`);
        want(create!.status === 201, `POST: HTTP ${create!.status}`);
        want(field(create!.response, 'metadata', 'annotations', LAST_APPLIED) === lastApplied(c, 'blue'), 'the annotation is not the manifest');
        want(managers(create!).join() === 'kubectl-client-side-apply/Update', `managers: ${managers(create!).join(', ')}`);
        return result;
      },
    },
    {
      id: 'csa-change',
      title: 'kubectl apply: a changed manifest',
      text: 'The manifest now says `color: green`. kubectl reads the object, and sends `PATCH` with `Content-Type: application/strategic-merge-patch+json`: only what changed, and the new annotation.',
      lookFor: 'HTTP 200 twice; `color: green`; the manager is still `kubectl-client-side-apply`, an `Update`.',
      run: async (c) => {
        const get = await c.send('GET', cm(c, NAME), as);
        const patch = { data: { color: 'green' }, metadata: { annotations: { [LAST_APPLIED]: lastApplied(c, 'green') } } };
        return [get, await c.send('PATCH', `${cm(c, NAME)}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`, { ...as, body: JSON.stringify(patch), contentType: 'application/strategic-merge-patch+json' })];
      },
      show,
      check: ([get, patch]) => {
        const { want, result } = expectations();
        want(get!.status === 200 && patch!.status === 200, `HTTP ${get!.status}, ${patch!.status}`);
        want(field(patch!.response, 'data', 'color') === 'green', 'color is not green');
        want(managers(patch!).join() === 'kubectl-client-side-apply/Update', `managers: ${managers(patch!).join(', ')}`);
        return result;
      },
    },
    {
      id: 'ssa',
      title: 'kubectl apply --server-side',
      text: 'The same manifest, server-side: one `PATCH …?fieldManager=kubectl&fieldValidation=Strict&force=false` with `Content-Type: application/apply-patch+yaml` and the manifest as its body; no read first.',
      lookFor: 'HTTP 200. `kubectl` now owns `.data.color` as an `Apply`, and so does `kubectl-client-side-apply` still: the same value from two managers is shared, not a conflict.',
      run: async (c) => [await c.send('PATCH', `${cm(c, NAME)}?fieldManager=kubectl&fieldValidation=Strict&force=false`, { ...as, body: JSON.stringify(manifest(c, 'green')), contentType: 'application/apply-patch+yaml' })],
      show,
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 200, `HTTP ${x!.status}`);
        want(owns(x!, 'kubectl', 'Apply').includes('.data.color'), `kubectl owns ${owns(x!, 'kubectl', 'Apply').join(', ')}`);
        want(owns(x!, 'kubectl-client-side-apply', 'Update').includes('.data.color'), `kubectl-client-side-apply owns ${owns(x!, 'kubectl-client-side-apply', 'Update').join(', ')}`);
        return result;
      },
    },
    {
      id: 'upgrade',
      title: 'The hand-over from client-side apply',
      text: 'kubectl then keeps the annotation up to date under its own manager (`fieldManager=kubectl-last-applied`, an apply of the annotation alone), and sends a JSON Patch (`application/json-patch+json`) that replaces `managedFields`: the client-side manager’s fields merged into `kubectl`’s, with the object’s `resourceVersion` as a precondition. Then it applies the manifest once more.',
      lookFor: 'HTTP 200 four times; at the end the managers are `kubectl` and `kubectl-last-applied`, both `Apply`, and `kubectl-client-side-apply` is gone. A later client-side apply would not fight over these fields.',
      run: async (c) => {
        const annotation = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { annotations: { [LAST_APPLIED]: `${JSON.stringify(manifest(c, 'green'))}\n` }, name: NAME, namespace: c.ns } };
        const last = await c.send('PATCH', `${cm(c, NAME)}?fieldManager=kubectl-last-applied&fieldValidation=Strict`, { ...as, body: JSON.stringify(annotation), contentType: 'application/apply-patch+yaml' });
        const entries = (field(last.response, 'metadata', 'managedFields') as { manager: string; operation: string; fieldsV1?: unknown }[] | undefined) ?? [];
        const csa = entries.find((e) => e.manager === 'kubectl-client-side-apply');
        const managedFields = entries.filter((e) => e !== csa).map((e) => (e.manager === 'kubectl' && e.operation === 'Apply' ? { ...e, fieldsV1: mergeFields(e.fieldsV1, csa?.fieldsV1) } : e));
        const ops = [
          { op: 'replace', path: '/metadata/managedFields', value: managedFields },
          { op: 'replace', path: '/metadata/resourceVersion', value: String(field(last.response, 'metadata', 'resourceVersion')) },
        ];
        const upgrade = await c.send('PATCH', `${cm(c, NAME)}?fieldManager=kubectl&fieldValidation=Strict`, { ...as, body: JSON.stringify(ops), contentType: 'application/json-patch+json' });
        const again = await c.send('PATCH', `${cm(c, NAME)}?fieldManager=kubectl&fieldValidation=Strict&force=false`, { ...as, body: JSON.stringify(manifest(c, 'green')), contentType: 'application/apply-patch+yaml' });
        return [last, upgrade, again];
      },
      show,
      check: (xs) => {
        const { want, result } = expectations();
        want(xs.every((x) => x.status === 200), `HTTP ${xs.map((x) => x.status).join(', ')}`);
        const final = xs[xs.length - 1]!;
        want(managers(final).sort().join() === 'kubectl-last-applied/Apply,kubectl/Apply', `managers: ${managers(final).join(', ')}`);
        want(owns(final, 'kubectl', 'Apply').includes('.data.color'), `kubectl owns ${owns(final, 'kubectl', 'Apply').join(', ')}`);
        return result;
      },
      view: () => ({ label: 'See kubectl itself send these in the Clients view', to: clientsLink() }),
    },
  ],
};

// The single-resource API: get, create, update, patch and delete name one object; there is no
// request that writes several objects together, and nothing a client sends as "a batch" is one.
// Every claim below was checked against kube-apiserver 1.37.1.
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';

const cm = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps${name ? `/${name}` : ''}`;
const configMap = (name: string, data: Record<string, string> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: label('single') }, data });
const rv = (x: KitExchange) => field(x.response, 'metadata', 'resourceVersion') as string | undefined;
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const SELECTOR = `labelSelector=${encodeURIComponent('explorer.lessons/lesson=single')}`;

export const singleResource: KitLesson = {
  id: 'single-resource-api',
  topic: 'single',
  title: 'The single-resource API: one object per write, no transactions',
  scope: 'namespace',
  paragraphs: [
    'The verbs get, create, update, patch and delete each act on exactly one object (the API Concepts page adds proxy to the list). There is no request that writes several objects at once, in order or all-or-nothing: a client that applies ten manifests, kubectl included, sends ten requests and sums up the answers itself. If the fourth fails, the first three stay written.',
    'Only list and watch return many objects, and deletecollection removes many in one request: those act on a collection, the path without a name.',
  ],
  needs: [
    { verb: 'create', resource: 'configmaps', namespaced: true },
    { verb: 'list', resource: 'configmaps', namespaced: true },
    { verb: 'deletecollection', resource: 'configmaps', namespaced: true },
  ],
  steps: [
    {
      id: 'two-writes',
      title: 'Two objects are two writes',
      text: 'POST the ConfigMap `one`, then `two`, then list the ConfigMaps of the lesson.',
      lookFor: 'Two 201s, each with its own `resourceVersion`: every write is a transaction of its own in etcd. The list shows both objects carrying exactly those versions, and a list `resourceVersion` of its own.',
      run: async (c) => {
        const one = await c.send('POST', cm(c), { body: configMap('one', { n: '1' }) });
        const two = await c.send('POST', cm(c), { body: configMap('two', { n: '2' }) });
        return [one, two, await c.send('GET', `${cm(c)}?${SELECTOR}`)];
      },
      show: (x) =>
        x.method === 'POST'
          ? { metadata: { name: field(x.response, 'metadata', 'name'), resourceVersion: rv(x) } }
          : { metadata: field(x.response, 'metadata'), items: ((field(x.response, 'items') as { metadata: { name: string; resourceVersion: string } }[] | undefined) ?? []).map((i) => ({ name: i.metadata.name, resourceVersion: i.metadata.resourceVersion })) },
      check: ([one, two, list]) => {
        const { want, result } = expectations();
        want(one!.status === 201 && two!.status === 201, `creates: HTTP ${one!.status}, ${two!.status}`);
        want(rv(one!) !== undefined && rv(one!) !== rv(two!), `resourceVersions ${rv(one!)} and ${rv(two!)}`);
        const items = (field(list!.response, 'items') as { metadata: { name: string; resourceVersion: string } }[] | undefined) ?? [];
        const seen = Object.fromEntries(items.map((i) => [i.metadata.name, i.metadata.resourceVersion]));
        want(seen.one === rv(one!) && seen.two === rv(two!), `listed versions: ${JSON.stringify(seen)}`);
        return result;
      },
      view: (c) => ({ label: 'List them in the Lists view', to: { view: 'lists', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps' } }),
    },
    {
      id: 'list-body',
      title: 'A `kind: List` is not a batch',
      text: 'POST one body of `kind: List` holding the ConfigMaps `batch-a` and `batch-b` to the ConfigMap collection; then apply the same List to a single name with Server-Side Apply; then GET `batch-a`.',
      lookFor: 'The POST is refused with 400 BadRequest ("List in version \\"v1\\" cannot be handled as a ConfigMap"), the apply with 400 too ("invalid object type: /v1, Kind=List"), and `batch-a` does not exist (404). `List` is a client-side wrapper: kubectl unpacks it and sends each item on its own.',
      run: async (c) => {
        const list = { apiVersion: 'v1', kind: 'List', items: [configMap('batch-a'), configMap('batch-b')] };
        const post = await c.send('POST', cm(c), { body: list });
        const apply = await c.send('PATCH', `${cm(c, 'batch-a')}?fieldManager=lesson`, { body: JSON.stringify(list), contentType: 'application/apply-patch+yaml' });
        return [post, apply, await c.send('GET', cm(c, 'batch-a'))];
      },
      check: ([post, apply, get]) => {
        const { want, result } = expectations();
        want(post!.status === 400 && msg(post!).includes('cannot be handled as a ConfigMap'), `POST: HTTP ${post!.status} ${msg(post!)}`);
        want(apply!.status === 400 && msg(apply!).includes('Kind=List'), `apply: HTTP ${apply!.status} ${msg(apply!)}`);
        want(get!.status === 404, `batch-a: HTTP ${get!.status}`);
        return result;
      },
    },
    {
      id: 'no-rollback',
      title: 'Half a batch stays written',
      text: 'Send what a client would call one batch: POST `first`, then `Second` (an invalid name: upper case), then GET `first`.',
      lookFor: '201 for `first`, 422 Invalid for `Second` (`metadata.name` must be a lowercase RFC 1123 subdomain), and `first` is still there (200): nothing rolls back the write that succeeded. A client that wants all-or-nothing has to undo by itself.',
      run: async (c) => [
        await c.send('POST', cm(c), { body: configMap('first') }),
        await c.send('POST', cm(c), { body: configMap('Second') }),
        await c.send('GET', cm(c, 'first')),
      ],
      show: (x) => (x.status < 300 ? { metadata: { name: field(x.response, 'metadata', 'name'), resourceVersion: rv(x) } } : x.response),
      check: ([first, second, get]) => {
        const { want, result } = expectations();
        want(first!.status === 201, `first: HTTP ${first!.status}`);
        want(second!.status === 422 && field(second!.response, 'reason') === 'Invalid', `Second: HTTP ${second!.status}`);
        want(get!.status === 200, `first afterwards: HTTP ${get!.status}`);
        return result;
      },
    },
    {
      id: 'collection',
      title: 'What the collection path accepts',
      text: 'PUT and PATCH the collection path `…/configmaps` itself (no name), then DELETE it with the lesson\'s label selector: that DELETE is the verb deletecollection.',
      lookFor: 'PUT and PATCH: 405 MethodNotAllowed, no update or patch of many objects exists. The DELETE answers 200 with a `ConfigMapList` of what it deleted (`one`, `two`, `first`): deletecollection is the one write that acts on many objects (the server lists them and deletes each with a delete of its own, not as one transaction).',
      run: async (c) => [
        await c.send('PUT', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMapList', items: [] } }),
        await c.send('PATCH', cm(c), { body: JSON.stringify({ metadata: { labels: { patched: 'yes' } } }), contentType: 'application/merge-patch+json' }),
        await c.send('DELETE', `${cm(c)}?${SELECTOR}`),
      ],
      show: (x) => (x.method === 'DELETE' && x.status === 200 ? { kind: field(x.response, 'kind'), items: ((field(x.response, 'items') as { metadata: { name: string } }[] | undefined) ?? []).map((i) => i.metadata.name) } : x.response),
      check: ([put, patch, del]) => {
        const { want, result } = expectations();
        want(put!.status === 405 && field(put!.response, 'reason') === 'MethodNotAllowed', `PUT: HTTP ${put!.status}`);
        want(patch!.status === 405, `PATCH: HTTP ${patch!.status}`);
        const names = ((field(del!.response, 'items') as { metadata: { name: string } }[] | undefined) ?? []).map((i) => i.metadata.name).sort();
        want(del!.status === 200 && field(del!.response, 'kind') === 'ConfigMapList', `DELETE: HTTP ${del!.status}`);
        want(['first', 'one', 'two'].every((n) => names.includes(n)), `deleted: ${names.join(', ')}`);
        return result;
      },
    },
  ],
};

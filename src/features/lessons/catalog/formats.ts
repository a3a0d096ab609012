// Lessons about how an answer is shaped: media types, Table, metadata only, collections.
import { alike, expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';

const cmPath = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps${name ? `/${name}` : ''}`;

async function seed(c: StepContext, topic: string, names: string[]): Promise<KitExchange[]> {
  const out: KitExchange[] = [];
  for (const name of names) {
    out.push(await c.send('POST', cmPath(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { ...label(topic), tier: name.endsWith('1') ? 'one' : 'other' } }, data: { greeting: 'hello', padding: 'x'.repeat(200) } } }));
  }
  return out;
}
const created = (xs: KitExchange[]) => (xs.every((x) => x.status === 201 || x.status === 409) ? [] : xs.filter((x) => x.status !== 201).map((x) => `${x.path}: HTTP ${x.status}`));

const TYPES = [
  ['JSON', 'application/json'],
  ['YAML', 'application/yaml'],
  ['Protobuf', 'application/vnd.kubernetes.protobuf'],
  ['CBOR', 'application/cbor'],
] as const;

export const mediaTypes: KitLesson = {
  id: 'media-types',
  topic: 'media',
  title: 'Media types: one object as JSON, YAML, Protobuf and CBOR',
  scope: 'namespace',
  // Checked on 1.37.1; on 1.33.13 a step differs (CBOR, streaming lists, feature gates are off there).
  since: '1.37',
  paragraphs: [
    'The `Accept` header picks the encoding of the answer, `Content-Type` that of a request body. JSON is always there, and YAML too, for single objects and for lists alike (step 3). Built-in types also speak Protobuf (`application/vnd.kubernetes.protobuf`: a 4-byte magic `k8s\\0`, then an envelope), which is smaller; custom resources do not. Background, not checked here: Protobuf is faster to decode for Go clients, which have generated code for every type; in the browser this explorer\'s own benchmark measures its decoder at about twice the time of `JSON.parse` (the decode benchmark, `npm run bench`). CBOR (`application/cbor`) is a binary form of JSON, still behind a feature gate (this local control plane turns it on).',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'get', resource: 'configmaps', namespaced: true }],
  steps: [
    { id: 'create', title: 'Make an object', text: 'Create one ConfigMap, `shapes`.', lookFor: 'HTTP 201.', run: (c) => seed(c, 'media', ['shapes']), check: created },
    {
      id: 'four-ways',
      title: 'Read it four ways',
      text: 'The same GET four times, only `Accept` changes.',
      lookFor: 'The `content-type` of each answer and its size in bytes: Protobuf is the smallest and starts with the bytes `6b 38 73 00` (`k8s` and a zero); CBOR starts with the self-describing tag `d9 d9 f7`.',
      run: async (c) => {
        const out: KitExchange[] = [];
        for (const [, t] of TYPES) out.push(await c.send('GET', cmPath(c, 'shapes'), { accept: t }));
        return out;
      },
      show: (x) => (typeof x.response === 'string' ? x.response.slice(0, 400) : { kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name') } }),
      check: (xs) => {
        const { want, result } = expectations();
        xs.forEach((x, i) => want(x.status === 200 && (x.responseHeaders['content-type'] ?? '').startsWith(TYPES[i]![1]), `${TYPES[i]![0]}: HTTP ${x.status}, ${x.responseHeaders['content-type']}`));
        const [json, , pb, cbor] = xs;
        want(String(pb!.response).includes('\n6b 38 73 00'), 'Protobuf does not start with k8s\\0');
        want(String(cbor!.response).includes('\nd9 d9 f7'), 'CBOR does not start with the self-described tag');
        want(pb!.bytes < json!.bytes, `Protobuf (${pb!.bytes} bytes) is not smaller than JSON (${json!.bytes})`);
        return result;
      },
      view: (c) => ({ label: 'Open it in the console, where every encoding is decoded', to: { view: 'console', extra: { m: 'GET', p: cmPath(c, 'shapes'), 'h.Accept': 'application/vnd.kubernetes.protobuf' } } }),
    },
    {
      id: 'unsupported',
      title: 'An encoding the server does not offer',
      text: 'Ask for `application/xml`.',
      lookFor: 'HTTP 406 Not Acceptable, with a `Status` listing what the server does accept.',
      run: async (c) => [await c.send('GET', cmPath(c, 'shapes'), { accept: 'application/xml' })],
      check: ([x]) => (x!.status === 406 ? [] : [`HTTP ${x!.status}`]),
    },
    {
      id: 'yaml-list',
      title: 'A whole list as YAML',
      text: 'GET the collection with `Accept: application/yaml`.',
      lookFor: 'HTTP 200, `content-type: application/yaml`, and a YAML document of `kind: ConfigMapList` with its `items`: YAML is not only for single objects.',
      run: async (c) => [await c.send('GET', cmPath(c), { accept: 'application/yaml' })],
      show: (x) => (typeof x.response === 'string' ? x.response.slice(0, 400) : x.response),
      check: ([x]) => {
        const { want, result } = expectations();
        want(x!.status === 200 && (x!.responseHeaders['content-type'] ?? '').startsWith('application/yaml'), `HTTP ${x!.status}, ${x!.responseHeaders['content-type']}`);
        const text = typeof x!.response === 'string' ? x!.response : '';
        want(/^kind: ConfigMapList$/m.test(text) && /^items:$/m.test(text), 'the body is not a YAML ConfigMapList with items');
        return result;
      },
    },
  ],
};

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const META_LIST = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';
const META = 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io';

export const tables: KitLesson = {
  id: 'tables',
  topic: 'table',
  title: 'Table fetches: the server formats the columns',
  scope: 'namespace',
  paragraphs: [
    'kubectl get does not know the columns of every type: it asks the server for a `Table` (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`). The answer has `columnDefinitions` and `rows` of cells, each row with the object alongside, by default as metadata only (`includeObject=Metadata`; `None` and `Object` are the other choices).',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'list', resource: 'configmaps', namespaced: true }],
  steps: [
    { id: 'create', title: 'Make two objects', text: 'Create ConfigMaps `row1` and `row2`.', lookFor: 'HTTP 201 twice.', run: (c) => seed(c, 'table', ['row1', 'row2']), check: created },
    {
      id: 'table',
      title: 'List as a Table, three ways',
      text: 'The same list with the Table `Accept`, then with `includeObject=None` and `includeObject=Object`.',
      lookFor: '`kind: Table`, the columns `Name`, `Data`, `Age`; each row\'s `object` is a PartialObjectMetadata by default, absent with None, the whole ConfigMap with Object.',
      run: async (c) => [
        await c.send('GET', cmPath(c) + '?labelSelector=explorer.lessons%2Flesson%3Dtable', { accept: TABLE }),
        await c.send('GET', cmPath(c) + '?labelSelector=explorer.lessons%2Flesson%3Dtable&includeObject=None', { accept: TABLE }),
        await c.send('GET', cmPath(c) + '?labelSelector=explorer.lessons%2Flesson%3Dtable&includeObject=Object', { accept: TABLE }),
      ],
      show: (x) => ({
        kind: field(x.response, 'kind'),
        columns: ((field(x.response, 'columnDefinitions') as { name: string }[]) ?? []).map((d) => d.name),
        rows: ((field(x.response, 'rows') as { cells: unknown[]; object?: { kind?: string } }[]) ?? []).map((r) => ({ cells: r.cells, object: r.object ? r.object.kind : '(none)' })),
      }),
      check: ([meta, none, obj]) => {
        const { want, result } = expectations();
        const cols = ((field(meta!.response, 'columnDefinitions') as { name: string }[]) ?? []).map((d) => d.name);
        want(field(meta!.response, 'kind') === 'Table', 'not a Table');
        want(['Name', 'Data', 'Age'].every((n) => cols.includes(n)), `columns are ${cols.join(', ')}`);
        const rowKind = (x: KitExchange) => (field(x.response, 'rows', 0, 'object', 'kind') as string | undefined) ?? '(none)';
        want(rowKind(meta!) === 'PartialObjectMetadata', `default row object is ${rowKind(meta!)}`);
        want(rowKind(none!) === '(none)', `includeObject=None row object is ${rowKind(none!)}`);
        want(rowKind(obj!) === 'ConfigMap', `includeObject=Object row object is ${rowKind(obj!)}`);
        return result;
      },
      view: (c) => ({ label: 'The Lists view shows this Table', to: { view: 'lists', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps' } }),
    },
  ],
};

export const metadataOnly: KitLesson = {
  id: 'metadata-only',
  topic: 'meta',
  title: 'Metadata-only fetches',
  scope: 'namespace',
  paragraphs: [
    'A controller that only needs names, labels or owners can ask for metadata alone, for any type kube-apiserver serves itself (built-in types and custom resources), without knowing its schema: `Accept: application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io` for a list, `as=PartialObjectMetadata` for one object. The server strips everything but `metadata`, which saves the bytes of `data`, `spec` and `status`. An aggregated API server answers with its own code and offers only the encodings it was built with: the `metadata-preferences` lesson shows one that serves metadata only in JSON and Protobuf but answers 406 for CBOR, with `q=` preferences and the 406 in every encoding.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'list', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'create',
      title: 'Make two objects',
      text: 'Create ConfigMap `meta1` with some data (a greeting and 200 bytes of padding), and `meta0` with none.',
      lookFor: 'HTTP 201 twice.',
      run: async (c) => [...(await seed(c, 'meta', ['meta1'])), await c.send('POST', cmPath(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'meta0', labels: label('meta') } } })],
      check: created,
    },
    {
      id: 'compare',
      title: 'Full, then metadata only',
      text: 'Each object in full, then as PartialObjectMetadata; then the collection as PartialObjectMetadataList.',
      lookFor:
        'The same `metadata` both times and no `data` in the second. `meta1` is smaller as metadata, by about its data; `meta0`, which has no data, is *larger*: the answer\'s `kind` and `apiVersion` (`PartialObjectMetadata`, `meta.k8s.io/v1`) are longer than `ConfigMap` and `v1`. Metadata alone saves what an object carries besides its metadata, and nothing more.',
      run: async (c) => [
        await c.send('GET', cmPath(c, 'meta1')),
        await c.send('GET', cmPath(c, 'meta1'), { accept: META }),
        await c.send('GET', cmPath(c, 'meta0')),
        await c.send('GET', cmPath(c, 'meta0'), { accept: META }),
        await c.send('GET', cmPath(c), { accept: META_LIST }),
      ],
      show: (x) => ({ kind: field(x.response, 'kind'), name: field(x.response, 'metadata', 'name'), hasData: field(x.response, 'data') !== undefined, items: ((field(x.response, 'items') as unknown[] | undefined) ?? []).length || undefined, bytes: x.bytes }),
      check: ([full1, meta1, full0, meta0, list]) => {
        const { want, result } = expectations();
        for (const [full, meta] of [[full1!, meta1!], [full0!, meta0!]] as const) {
          want(field(meta.response, 'kind') === 'PartialObjectMetadata', `kind ${String(field(meta.response, 'kind'))}`);
          want(field(meta.response, 'data') === undefined, 'data is still there');
          want(field(meta.response, 'metadata', 'uid') === field(full.response, 'metadata', 'uid'), 'another object');
        }
        want(meta1!.bytes < full1!.bytes, `meta1: ${meta1!.bytes} bytes as metadata, not fewer than ${full1!.bytes} in full`);
        want(meta0!.bytes > full0!.bytes, `meta0: ${meta0!.bytes} bytes as metadata, not more than ${full0!.bytes} in full`);
        want(field(list!.response, 'kind') === 'PartialObjectMetadataList', `list kind ${String(field(list!.response, 'kind'))}`);
        return result;
      },
    },
  ],
};

export const collections: KitLesson = {
  id: 'collections',
  topic: 'coll',
  title: 'Collections, and why kubectl\'s List is not an API kind',
  scope: 'namespace',
  paragraphs: [
    'A collection is answered with a list kind named after its type (`ConfigMapList`), holding `items` and list metadata (`resourceVersion`, `continue`). `kubectl get -o yaml` prints `kind: List`, even for one type (background: that is kubectl rebuilding the answer on the client, not something the server sends; step 2 shows what the server sends). The server has no `List` resource, and a POST carries one object, never a list.',
    'A collection can be deleted in one request (`deletecollection`, optionally with a selector); the server deletes the objects one by one, not atomically.',
  ],
  needs: [
    { verb: 'create', resource: 'configmaps', namespaced: true },
    { verb: 'list', resource: 'configmaps', namespaced: true },
    { verb: 'deletecollection', resource: 'configmaps', namespaced: true },
  ],
  steps: [
    { id: 'create', title: 'Make three objects', text: 'Create `item1`, `item2`, `item3`.', lookFor: 'HTTP 201 three times.', run: (c) => seed(c, 'coll', ['item1', 'item2', 'item3']), check: created },
    {
      id: 'list',
      title: 'List them',
      text: 'A GET of the collection with a label selector.',
      lookFor: '`kind: ConfigMapList`, and the items without their own `kind` and `apiVersion`: the list\'s tell them.',
      run: async (c) => [await c.send('GET', `${cmPath(c)}?labelSelector=explorer.lessons%2Flesson%3Dcoll`)],
      show: (x) => ({ kind: field(x.response, 'kind'), metadata: field(x.response, 'metadata'), items: ((field(x.response, 'items') as { kind?: string; metadata: { name: string } }[]) ?? []).map((i) => ({ kind: i.kind, name: i.metadata.name })) }),
      check: ([x]) => {
        const items = (field(x!.response, 'items') as { kind?: string }[]) ?? [];
        const { want, result } = expectations();
        want(field(x!.response, 'kind') === 'ConfigMapList', 'not a ConfigMapList');
        want(items.length === 3, `${items.length} items`);
        want(items.every((i) => i.kind === undefined), 'items carry their own kind');
        return result;
      },
      view: (c) => ({ label: 'The same collection in the Lists view', to: { view: 'lists', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps' } }),
    },
    {
      id: 'no-list-kind',
      title: 'Try to create a List',
      text: 'POST a `kind: List` holding one ConfigMap to the collection, and GET `/api/v1/lists`.',
      lookFor: 'The POST is refused with 400 BadRequest, the server wanted a ConfigMap; `lists` is not a resource (404).',
      run: async (c) => [
        await c.send('POST', cmPath(c), { body: { apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'item4' } }] } }),
        await c.send('GET', '/api/v1/lists'),
      ],
      check: ([post, get]) => {
        const { want, result } = expectations();
        want(post!.status === 400, `POST List: HTTP ${post!.status}`);
        want(get!.status === 404, `GET lists: HTTP ${get!.status}`);
        return result;
      },
    },
    {
      id: 'deletecollection',
      title: 'Delete a part of the collection',
      text: 'DELETE on the collection with `labelSelector=tier=one`, then list again.',
      lookFor: 'The answer lists what was deleted (`item1`); two items are left.',
      run: async (c) => [await c.send('DELETE', `${cmPath(c)}?labelSelector=tier%3Done`), await c.send('GET', `${cmPath(c)}?labelSelector=explorer.lessons%2Flesson%3Dcoll`)],
      show: (x) => ({ kind: field(x.response, 'kind'), items: ((field(x.response, 'items') as { metadata: { name: string } }[]) ?? []).map((i) => i.metadata.name) }),
      check: ([del, after]) => {
        const { want, result } = expectations();
        want(del!.status === 200, `DELETE: HTTP ${del!.status}`);
        const left = ((field(after!.response, 'items') as { metadata: { name: string } }[]) ?? []).map((i) => i.metadata.name);
        want(left.join() === 'item2,item3', `left: ${left.join()}`);
        return result;
      },
    },
  ],
};

export const compression: KitLesson = {
  id: 'compression',
  topic: 'gzip',
  title: 'Response compression',
  scope: 'namespace',
  paragraphs: [
    'A client that sends `Accept-Encoding: gzip` (browsers always do, and the page cannot change it) may get a gzip-compressed answer, marked `Content-Encoding: gzip`. kube-apiserver compresses only large answers, above a threshold of 128 KiB, since compressing small ones costs more than it saves. Here one list is made large on purpose.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'list', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'create',
      title: 'Forty ConfigMaps of 4 KiB each',
      text: 'Create `big-0` … `big-39`, each with 4096 characters of data.',
      lookFor: 'HTTP 201, forty times (only the first and last are shown).',
      run: async (c) => {
        const out: KitExchange[] = [];
        for (let i = 0; i < 40; i++) out.push(await c.send('POST', cmPath(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}`, labels: label('gzip') }, data: { blob: 'z'.repeat(4096) } } }));
        return alike(out);
      },
      show: (x) => ({ metadata: { name: field(x.response, 'metadata', 'name') } }),
      check: created,
    },
    {
      id: 'compare',
      title: 'A large answer and a small one',
      text: 'List all forty (about 170 KiB of JSON), then GET one of them.',
      lookFor: 'The list comes with `content-encoding: gzip`; the single object, well under the threshold, without. The sizes shown are after the browser decompressed: the console shows the bytes on the wire.',
      run: async (c) => [await c.send('GET', `${cmPath(c)}?labelSelector=explorer.lessons%2Flesson%3Dgzip`), await c.send('GET', cmPath(c, 'big-0'))],
      show: (x) => ({ 'content-encoding': x.responseHeaders['content-encoding'] ?? '(none)', bytes: x.bytes }),
      check: ([list, one]) => {
        const { want, result } = expectations();
        want(list!.status === 200 && list!.bytes > 128 * 1024, `list: HTTP ${list!.status}, ${list!.bytes} bytes`);
        want(list!.responseHeaders['content-encoding'] === 'gzip', `list content-encoding: ${list!.responseHeaders['content-encoding'] ?? '(none)'}`);
        want(one!.status === 200 && one!.responseHeaders['content-encoding'] === undefined, `one object content-encoding: ${one!.responseHeaders['content-encoding']}`);
        return result;
      },
      view: (c) => ({ label: 'Send the list from the console to see its size on the wire', to: { view: 'console', extra: { m: 'GET', p: cmPath(c), 'q.labelSelector': 'explorer.lessons/lesson=gzip' } } }),
    },
  ],
};

// Lessons about what an Accept header gets: metadata-only forms with q= preferences in every
// encoding (and on an aggregated server), and what pretty and non-JSON encodings of a large list
// cost the server in memory. Every claim is a step's check or marked background.
import { minorOf } from '../releases';
import { alike, expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';

const cm = (c: StepContext) => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps`;
const META_LIST = 'as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const META_ONE = 'as=PartialObjectMetadata;g=meta.k8s.io;v=v1';
const WARDLE = '/apis/wardle.example.com/v1alpha1';
const flunders = (c: StepContext) => `${WARDLE}/namespaces/${encodeURIComponent(c.ns)}/flunders`;
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const type = (x: KitExchange) => x.responseHeaders['content-type'] ?? '';

/** The kind an answer carries, whatever its encoding (JSON, YAML text, Protobuf envelope, CBOR). */
function kindOf(x: KitExchange): string {
  if (x.binaryType) return x.binaryType.kind;
  if (typeof x.response === 'string') return /^kind: (\S+)$/m.exec(x.response)?.[1] ?? '';
  return String(field(x.response, 'kind') ?? '');
}

const ENCODINGS = [
  ['JSON', 'application/json'],
  ['YAML', 'application/yaml'],
  ['Protobuf', 'application/vnd.kubernetes.protobuf'],
  ['CBOR', 'application/cbor'],
] as const;

const shown = (x: KitExchange) => ({ status: x.status, 'content-type': type(x), kind: kindOf(x), bytes: x.bytes, ...(x.status >= 400 ? { message: msg(x) } : {}) });

export const metadataPreferences: KitLesson = {
  id: 'metadata-preferences',
  topic: 'metaprefs',
  title: 'Metadata only: q= preferences, every encoding, the 406, and an aggregated server',
  scope: 'namespace',
  // Checked on 1.37.1 with the local control plane's CBOR gate on; 1.33.13 is not checked (the skew run skips it).
  since: '1.37',
  paragraphs: [
    'An `Accept` header may list several media types, each with a weight `q=` between 0 and 1 (1 when left out). A client that would like metadata only, but can live with the full objects, says so in one request: `application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1;q=0.9, application/json;q=0.5`. The server answers with the most preferred form it can serve.',
    'The metadata-only parameters combine with any encoding the server offers for the type: YAML, Protobuf and CBOR as well as JSON. They must fit the shape of the answer, though: `as=PartialObjectMetadata` is for one object, `as=PartialObjectMetadataList` for a collection.',
    'An aggregated API server (its own process behind kube-apiserver, registered with an APIService) answers these requests with its own code and offers only the encodings it was built with. The local control plane runs the Kubernetes sample server for `wardle.example.com`; the last step shows what it serves. Background: other aggregated servers (metrics-server, for one) may answer otherwise; try them in the console.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'list', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'create',
      title: 'Make objects, and look for the aggregated server',
      text: 'Create ConfigMap `prefs` with some data. Then GET `/apis/wardle.example.com/v1alpha1`; where that group is served, create Flunder `f1` (a type of the sample aggregated server) in the namespace too.',
      lookFor: 'HTTP 201 for the ConfigMap. On the local control plane the discovery answers 200 listing `flunders`, and the Flunder is created (201); elsewhere the discovery 404 and the last step stays disabled.',
      run: async (c) => {
        const made = await c.send('POST', cm(c), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'prefs', labels: label('metaprefs') }, data: { padding: 'p'.repeat(500) } } });
        const disc = await c.send('GET', WARDLE);
        const served = disc.status === 200 && ((field(disc.response, 'resources') as { name: string }[] | undefined) ?? []).some((r) => r.name === 'flunders');
        if (!served) return [made, disc];
        const f = await c.send('POST', flunders(c), { body: { apiVersion: 'wardle.example.com/v1alpha1', kind: 'Flunder', metadata: { name: 'f1', labels: label('metaprefs') } } });
        if (f.status === 201) c.memo.wardle = 'served';
        return [made, disc, f];
      },
      show: (x) => ({ status: x.status, kind: field(x.response, 'kind'), name: field(x.response, 'metadata', 'name') ?? field(x.response, 'groupVersion') }),
      check: ([made, disc, f]) => {
        const { want, result } = expectations();
        want(made!.status === 201, `ConfigMap: HTTP ${made!.status} ${msg(made!)}`);
        want(disc!.status === 404 || f !== undefined, `discovery of wardle.example.com: HTTP ${disc!.status} without flunders`);
        want(f === undefined || f.status === 201, `Flunder: HTTP ${f?.status} ${f ? msg(f) : ''}`);
        return result;
      },
    },
    {
      id: 'q-preferences',
      title: 'The weights decide',
      text: 'List the ConfigMaps twice with the same two media types: metadata-only at `q=0.9` and plain JSON at `q=0.5`, then the weights swapped.',
      lookFor: 'First a `PartialObjectMetadataList`, then a full `ConfigMapList` (with `data`): the higher weight wins each time.',
      run: async (c) => [
        await c.send('GET', `${cm(c)}?labelSelector=explorer.lessons%2Flesson%3Dmetaprefs`, { accept: `application/json;${META_LIST};q=0.9, application/json;q=0.5` }),
        await c.send('GET', `${cm(c)}?labelSelector=explorer.lessons%2Flesson%3Dmetaprefs`, { accept: `application/json;${META_LIST};q=0.5, application/json;q=0.9` }),
      ],
      show: (x) => ({ kind: kindOf(x), items: ((field(x.response, 'items') as { metadata: { name: string }; data?: unknown }[] | undefined) ?? []).map((i) => ({ name: i.metadata.name, hasData: i.data !== undefined })) }),
      check: ([meta, full]) => {
        const { want, result } = expectations();
        want(meta!.status === 200 && kindOf(meta!) === 'PartialObjectMetadataList', `metadata at 0.9: HTTP ${meta!.status} ${kindOf(meta!)}`);
        want(full!.status === 200 && kindOf(full!) === 'ConfigMapList' && field(full!.response, 'items', 0, 'data', 'padding') !== undefined, `JSON at 0.9: HTTP ${full!.status} ${kindOf(full!)}`);
        return result;
      },
      view: (c) => ({ label: 'Try other Accept headers in the console', to: { view: 'console', extra: { m: 'GET', p: cm(c), 'h.Accept': `application/json;${META_LIST};q=0.9, application/json;q=0.5` } } }),
    },
    {
      id: 'encodings',
      title: 'Metadata only in four encodings',
      text: 'The metadata-only list with `application/json`, `application/yaml`, `application/vnd.kubernetes.protobuf` and `application/cbor`, each with `;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1`.',
      lookFor: 'HTTP 200 four times, each in the encoding asked for, each a `PartialObjectMetadataList` (read from the JSON, the YAML text, the Protobuf envelope and the CBOR map).',
      run: async (c) => {
        const out: KitExchange[] = [];
        for (const [, t] of ENCODINGS) out.push(await c.send('GET', `${cm(c)}?labelSelector=explorer.lessons%2Flesson%3Dmetaprefs`, { accept: `${t};${META_LIST}` }));
        return out;
      },
      show: shown,
      check: (xs) => {
        const { want, result } = expectations();
        xs.forEach((x, i) => {
          const [name, t] = ENCODINGS[i]!;
          want(x.status === 200 && type(x).startsWith(t), `${name}: HTTP ${x.status}, ${type(x)}`);
          want(kindOf(x) === 'PartialObjectMetadataList', `${name}: kind ${kindOf(x) || '(none)'}`);
        });
        return result;
      },
    },
    {
      id: 'wrong-shape',
      title: 'The one-object form for a collection',
      text: 'List with `application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1` (the form for one object), and `application/json;q=0.5` as a fallback.',
      lookFor: 'HTTP 406 NotAcceptable: "you requested PartialObjectMetadata, but the requested object is a list". The acceptable fallback does not help: the answer is an error, not the full list.',
      run: async (c) => [await c.send('GET', cm(c), { accept: `application/json;${META_ONE}, application/json;q=0.5` })],
      check: ([x]) => (x!.status === 406 && field(x!.response, 'reason') === 'NotAcceptable' && msg(x!).includes('you requested PartialObjectMetadata, but the requested object is a list') ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'aggregated',
      title: 'The same on an aggregated server',
      text: 'List the Flunders of `wardle.example.com`: metadata-only as JSON and as Protobuf; the full list as Protobuf; metadata-only as CBOR; then metadata-only as CBOR at `q=0.9` with plain JSON at `q=0.5`.',
      lookFor:
        'Metadata only works there in JSON and in Protobuf, although the full FlunderList as Protobuf is refused (406: the type has no Protobuf form). CBOR is not offered at all: metadata-only CBOR alone is 406, and with the JSON fallback the server skips it and sends the full `FlunderList` as JSON.',
      blocked: (c) => (c.memo.wardle ? undefined : 'wardle.example.com is not served here (step 1 found no flunders); the local control plane runs it.'),
      run: async (c) => {
        const out: KitExchange[] = [];
        for (const accept of [`application/json;${META_LIST}`, `application/vnd.kubernetes.protobuf;${META_LIST}`, 'application/vnd.kubernetes.protobuf', `application/cbor;${META_LIST}`, `application/cbor;${META_LIST};q=0.9, application/json;q=0.5`]) {
          out.push(await c.send('GET', flunders(c), { accept }));
        }
        return out;
      },
      show: shown,
      check: ([json, pb, pbFull, cbor, fallback]) => {
        const { want, result } = expectations();
        want(json!.status === 200 && kindOf(json!) === 'PartialObjectMetadataList', `metadata JSON: HTTP ${json!.status} ${kindOf(json!)}`);
        want(pb!.status === 200 && type(pb!).startsWith('application/vnd.kubernetes.protobuf') && kindOf(pb!) === 'PartialObjectMetadataList', `metadata Protobuf: HTTP ${pb!.status} ${type(pb!)} ${kindOf(pb!)}`);
        want(pbFull!.status === 406, `full Protobuf: HTTP ${pbFull!.status}`);
        want(cbor!.status === 406, `metadata CBOR: HTTP ${cbor!.status}`);
        want(fallback!.status === 200 && type(fallback!).startsWith('application/json') && kindOf(fallback!) === 'FlunderList', `CBOR with JSON fallback: HTTP ${fallback!.status} ${type(fallback!)} ${kindOf(fallback!)}`);
        return result;
      },
    },
  ],
};

// --- what an encoding costs the server ---

const ALLOC = 'go_memstats_alloc_bytes_total';
const GATES = ['StreamingCollectionEncodingToJSON', 'StreamingCollectionEncodingToProtobuf'];
const mem = (c: StepContext) => `${cm(c)}?labelSelector=explorer.lessons%2Flesson%3Dencmem`;
const FORMS = [
  ['compact JSON', '', 'application/json'],
  ['pretty JSON', '&pretty=true', 'application/json'],
  ['YAML', '', 'application/yaml'],
  ['Protobuf', '', 'application/vnd.kubernetes.protobuf'],
] as const;

/** Bytes the server process has allocated since it started, from its /metrics (a Go runtime counter). */
async function allocated(c: StepContext): Promise<number | undefined> {
  const x = await c.send('GET', '/metrics', { accept: 'text/plain' });
  const m = typeof x.response === 'string' ? new RegExp(`^${ALLOC} (\\S+)$`, 'm').exec(x.response) : null;
  return m ? Number(m[1]) : undefined;
}

const items = (x: KitExchange) => JSON.stringify(field(x.response, 'items') ?? null);

export const encodingMemory: KitLesson = {
  id: 'encoding-memory',
  topic: 'encmem',
  title: 'What pretty and non-JSON encodings of a large list cost the server',
  scope: 'namespace',
  paragraphs: [
    'Every list the server sends it must encode. Background, from the API concepts page: for JSON and Protobuf, kube-apiserver (1.33 on) writes a collection item by item, so it never holds the whole encoded answer at once; other forms, YAML and pretty-printed JSON among them, are built whole in memory first, and the page advises against them for collections of more than about 100 MB.',
    'This lesson shows what can be seen from outside: the sizes of one list of about 4 MB in each form, and how many bytes the server allocated to answer each, read from the Go runtime\'s counter `go_memstats_alloc_bytes_total` in `/metrics` before and after. That counter covers everything the server does meanwhile (the `/metrics` read itself is several megabytes), so each form is measured four times and the smallest figure kept.',
  ],
  needs: [{ verb: 'create', resource: 'configmaps', namespaced: true }, { verb: 'list', resource: 'configmaps', namespaced: true }],
  steps: [
    {
      id: 'fill',
      title: 'Forty ConfigMaps of 100 KB',
      text: 'Create `big-0` … `big-39`, each with 100,000 characters of data.',
      lookFor: 'HTTP 201, forty times (the first and last are shown).',
      run: async (c) => {
        const out: KitExchange[] = [];
        for (let i = 0; i < 40; i++) out.push(await c.send('POST', cm(c), { body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `big-${i}`, labels: label('encmem') }, data: { blob: 'm'.repeat(100_000) } }) }));
        return alike(out);
      },
      show: (x) => ({ status: x.status, name: field(x.response, 'metadata', 'name') }),
      check: (xs) => xs.filter((x) => x.status !== 201).map((x) => `${x.path}: HTTP ${x.status} ${msg(x)}`),
    },
    {
      id: 'sizes',
      title: 'One list, five forms',
      text: 'List the forty as compact JSON, with `pretty=true`, as YAML, as YAML with `pretty=true`, and as Protobuf.',
      lookFor: 'Pretty JSON is larger than compact JSON (indentation and line breaks) with the same items; `pretty=true` does not change YAML by a byte; Protobuf is the smallest.',
      run: async (c) => [
        await c.send('GET', mem(c)),
        await c.send('GET', `${mem(c)}&pretty=true`),
        await c.send('GET', mem(c), { accept: 'application/yaml' }),
        await c.send('GET', `${mem(c)}&pretty=true`, { accept: 'application/yaml' }),
        await c.send('GET', mem(c), { accept: 'application/vnd.kubernetes.protobuf' }),
      ],
      show: (x) => ({ request: x.path.includes('pretty') ? 'pretty=true' : 'plain', 'content-type': type(x), bytes: x.bytes }),
      check: ([json, pretty, yaml, yamlPretty, pb]) => {
        const { want, result } = expectations();
        want([json, pretty, yaml, yamlPretty, pb].every((x) => x!.status === 200), 'a list failed');
        want(pretty!.bytes > json!.bytes, `pretty JSON ${pretty!.bytes} bytes, compact ${json!.bytes}`);
        want(items(pretty!) === items(json!), 'pretty JSON holds other items');
        want(yamlPretty!.bytes === yaml!.bytes, `YAML ${yaml!.bytes} bytes, with pretty=true ${yamlPretty!.bytes}`);
        want(pb!.bytes < json!.bytes && pb!.bytes < yaml!.bytes, `Protobuf ${pb!.bytes} bytes is not the smallest`);
        return result;
      },
    },
    {
      id: 'memory',
      title: 'What each form cost the server',
      text: `Read \`${ALLOC}\` from \`/metrics\`, list the forty in one form, read it again: for compact JSON, pretty JSON, YAML and Protobuf, four rounds.`,
      lookFor: 'The smallest allocation of each form. Pretty JSON and YAML each cost the server more than compact JSON by more than the whole list\'s size: they were built in memory, and YAML more than once over. Compact JSON and Protobuf stay near what the `/metrics` read alone costs.',
      run: async (c) => {
        const seen: number[][] = FORMS.map(() => []);
        const last: KitExchange[] = [];
        for (let round = 0; round < 4; round++) {
          for (const [i, [, query, accept]] of FORMS.entries()) {
            const before = await allocated(c);
            const x = await c.send('GET', `${mem(c)}${query}`, { accept });
            const after = await allocated(c);
            if (before !== undefined && after !== undefined && x.status === 200) seen[i]!.push(after - before);
            last[i] = x;
          }
        }
        return FORMS.map(([form], i) => {
          const x = last[i]!;
          const least = seen[i]!.length === 4 ? Math.min(...seen[i]!) : NaN;
          // The 4 MB answer itself is not kept: the figures are the point (the console sends it again).
          return { ...x, response: { form, 'answer bytes': x.bytes, 'allocated, smallest of 4 (bytes)': least, readings: seen[i] } };
        });
      },
      show: (x) => x.response,
      check: (xs) => {
        const { want, result } = expectations();
        const least = xs.map((x) => Number(field(x.response, 'allocated, smallest of 4 (bytes)')));
        const [compact, pretty, yaml] = least;
        const size = xs[0]!.bytes;
        want(least.every((n) => Number.isFinite(n)), `no reading of ${ALLOC} (HTTP ${xs.map((x) => x.status).join(', ')})`);
        want(pretty! - compact! > size, `pretty JSON allocated ${pretty} bytes, compact ${compact}: not more by the list's ${size} bytes`);
        want(yaml! - compact! > size, `YAML allocated ${yaml} bytes, compact JSON ${compact}: not more by the list's ${size} bytes`);
        return result;
      },
      view: (c) => ({ label: 'Send the pretty list from the console', to: { view: 'console', extra: { m: 'GET', p: cm(c), 'q.labelSelector': 'explorer.lessons/lesson=encmem', 'q.pretty': 'true' } } }),
    },
    {
      id: 'gates',
      title: 'The feature gates behind item-by-item encoding',
      text: `GET \`/version\` and \`/metrics\`, and look for \`kubernetes_feature_enabled\` of ${GATES.map((g) => `\`${g}\``).join(' and ')}.`,
      lookFor: 'On 1.33 both are listed, beta and on (1). On 1.37 neither is listed any more (a release between may list them, on). Background, from the Kubernetes feature-gate reference: both became GA and locked on in 1.34, and gates are dropped some releases after GA.',
      run: async (c) => {
        const v = await c.send('GET', '/version');
        const m = await c.send('GET', '/metrics', { accept: 'text/plain' });
        const text = typeof m.response === 'string' ? m.response : '';
        c.memo.gateLines = GATES.map((g) => new RegExp(`^kubernetes_feature_enabled\\{name="${g}",.*$`, 'm').exec(text)?.[0] ?? `(${g} not listed)`).join('\n');
        return [v, { ...m, response: c.memo.gateLines }];
      },
      show: (x) => (x.path === '/version' ? { gitVersion: field(x.response, 'gitVersion') } : x.response),
      check: ([v, m], c) => {
        const { want, result } = expectations();
        const minor = minorOf(String(field(v!.response, 'gitVersion') ?? ''))?.[1];
        const lines = (c.memo.gateLines ?? '').split('\n');
        want(m!.status === 200 && minor !== undefined, `/version ${v!.status}, /metrics ${m!.status}`);
        if (minor === 33) want(lines.every((l) => l.endsWith(' 1') && l.includes('stage="BETA"')), `on 1.33: ${lines.join('; ')}`);
        else if (minor !== undefined && minor >= 37) want(lines.every((l) => l.includes('not listed')), `on 1.${minor}: ${lines.join('; ')}`);
        else want(lines.every((l) => l.endsWith(' 1') || l.includes('not listed')), `gates reported off: ${lines.join('; ')}`);
        return result;
      },
    },
  ],
};

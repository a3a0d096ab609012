// The User-Agent as a fact of the API: the same GET answered pretty-printed for a browser-like agent,
// and the field manager of a write that names none taken from the agent. The explorer's proxy sends
// its own agent; a step sends another through the console's User-Agent header (X-Explorer-User-Agent,
// protocol/userAgent.ts), which the proxy puts in place of its own.
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';

const cm = (c: StepContext, name = '') => `/api/v1/namespaces/${encodeURIComponent(c.ns)}/configmaps${name ? `/${name}` : ''}`;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64)';
const CURL = 'curl/8.5.0';
/** The proxy's own agent is `kube-api-explorer/<version> (<os>/<arch>)` (proxy/src/headers.ts). */
const OWN_MANAGER = 'kube-api-explorer';

/** `manager/operation` of each managedFields entry. */
const managers = (x: KitExchange): string[] =>
  ((field(x.response, 'metadata', 'managedFields') as { manager?: string; operation?: string }[] | undefined) ?? []).map((m) => `${m.manager}/${m.operation}`);

/** The size of the object written as JSON with no whitespace at all, and the final newline the server's encoder adds. */
const compactBytes = (x: KitExchange) => new TextEncoder().encode(JSON.stringify(x.response)).length + 1;

export const userAgent: KitLesson = {
  id: 'user-agent',
  topic: 'agent',
  title: 'The User-Agent: pretty JSON and the field manager’s name',
  scope: 'namespace',
  paragraphs: [
    'Every request carries a `User-Agent` header, and kube-apiserver reads it twice. When it starts with `Mozilla/5.0`, `curl` or `Wget` and the request has no `pretty` parameter, the JSON answer is indented, for a human reading it in a browser or a terminal; any other agent gets compact JSON. And a create, update or patch that names no `fieldManager` is recorded in `managedFields` under a manager named after the agent: its part before the first `/`.',
    'A browser does not let a page set `User-Agent`, and sends its own (`Mozilla/5.0 …`). The explorer’s proxy therefore replaces it with the explorer’s own, `kube-api-explorer/<version> (<os>/<arch>)`, as kubectl sends `kubectl/<version> …`: sizes shown here are what a client program gets. These steps send a browser’s and curl’s agent on purpose, through the console’s `User-Agent` header, which the proxy sends instead of its own.',
  ],
  needs: [
    { verb: 'create', resource: 'configmaps', namespaced: true },
    { verb: 'update', resource: 'configmaps', namespaced: true },
    { verb: 'patch', resource: 'configmaps', namespaced: true },
  ],
  steps: [
    {
      id: 'pretty',
      title: 'One GET, three agents',
      text: `Create the ConfigMap \`agent\` (with \`fieldManager=lesson\`), then GET it with the explorer’s own agent, with \`User-Agent: ${BROWSER}\`, with \`User-Agent: ${CURL}\`, and with the browser’s agent and \`pretty=false\`.`,
      lookFor:
        'The four answers hold the same object (same `resourceVersion`). The explorer’s is compact: its size is the object written with no whitespace, plus the final newline. The browser’s and curl’s are larger, the same size as each other (indented). With `pretty=false` the browser’s agent gets the compact size again: the parameter, when present, decides.',
      run: async (c) => {
        const get = (agent?: string, q = '') => c.send('GET', cm(c, 'agent') + q, agent ? { headers: { 'User-Agent': agent } } : {});
        return [
          await c.send('POST', `${cm(c)}?fieldManager=lesson`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'agent', labels: label('agent') }, data: { a: '1', b: '2' } } }),
          await get(),
          await get(BROWSER),
          await get(CURL),
          await get(BROWSER, '?pretty=false'),
        ];
      },
      show: (x) => (x.method === 'GET' ? { 'User-Agent': x.headers['User-Agent'] ?? '(the explorer’s own)', bytes: x.bytes } : { status: x.status }),
      check: ([created, own, browser, curl, notPretty]) => {
        const { want, result } = expectations();
        want(created!.status === 201, `create: HTTP ${created!.status}`);
        const gets = [own!, browser!, curl!, notPretty!];
        want(gets.every((x) => x.status === 200), `GETs: HTTP ${gets.map((x) => x.status).join(', ')}`);
        want(gets.every((x) => JSON.stringify(x.response) === JSON.stringify(own!.response)), 'the four answers hold different objects');
        want(own!.bytes === compactBytes(own!), `own agent: ${own!.bytes} bytes, compact would be ${compactBytes(own!)}`);
        want(browser!.bytes > own!.bytes && curl!.bytes === browser!.bytes, `browser ${browser!.bytes} bytes, curl ${curl!.bytes}, own ${own!.bytes}`);
        want(notPretty!.bytes === own!.bytes, `browser with pretty=false: ${notPretty!.bytes} bytes, own ${own!.bytes}`);
        return result;
      },
    },
    {
      id: 'manager',
      title: 'Writes without fieldManager: the manager is the agent',
      text: `A PUT of \`agent\` with \`User-Agent: ${BROWSER}\` and a merge patch with the explorer’s own agent, neither naming \`fieldManager\`; then a merge patch with the browser’s agent and \`fieldManager=named\`.`,
      lookFor: `Each write answers 200. After the PUT, \`managedFields\` has an entry \`Mozilla\` (Update); after the first patch, one \`${OWN_MANAGER}\` (Update); after the last, one \`named\` (Update): a \`fieldManager\` given wins over the agent.`,
      run: async (c) => [
        await c.send('PUT', cm(c, 'agent'), { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'agent', labels: label('agent') }, data: { a: '1', b: 'browser' } }, headers: { 'User-Agent': BROWSER } }),
        await c.send('PATCH', cm(c, 'agent'), { body: { data: { c: 'own' } }, contentType: 'application/merge-patch+json' }),
        await c.send('PATCH', `${cm(c, 'agent')}?fieldManager=named`, { body: { data: { d: 'named' } }, contentType: 'application/merge-patch+json', headers: { 'User-Agent': BROWSER } }),
      ],
      show: (x) => ({ managedFields: managers(x) }),
      check: ([put, own, named]) => {
        const { want, result } = expectations();
        want(put!.status === 200 && managers(put!).includes('Mozilla/Update'), `PUT: HTTP ${put!.status}, entries ${managers(put!).join(', ')}`);
        want(own!.status === 200 && managers(own!).includes(`${OWN_MANAGER}/Update`), `patch: HTTP ${own!.status}, entries ${managers(own!).join(', ')}`);
        want(named!.status === 200 && managers(named!).includes('named/Update'), `named patch: HTTP ${named!.status}, entries ${managers(named!).join(', ')}`);
        return result;
      },
      view: (c) => ({ label: 'See the managers in the Ownership view', to: { view: 'ownership', namespace: c.ns, group: '', version: 'v1', resource: 'configmaps', name: 'agent' } }),
    },
    {
      id: 'apply',
      title: 'Apply does not fall back on the agent',
      text: `A Server-Side Apply of \`agent\` with \`User-Agent: ${BROWSER}\` and no \`fieldManager\`; then the same apply with \`fieldManager=applier\`.`,
      lookFor: 'The first is refused with 422 `Invalid`, its cause naming `fieldManager` as required for an apply patch; the second answers 200 with an entry `applier` (Apply).',
      run: async (c) => {
        const body = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: agent\ndata:\n  e: applied\n';
        return [
          await c.send('PATCH', cm(c, 'agent'), { body, contentType: 'application/apply-patch+yaml', headers: { 'User-Agent': BROWSER } }),
          await c.send('PATCH', `${cm(c, 'agent')}?fieldManager=applier`, { body, contentType: 'application/apply-patch+yaml', headers: { 'User-Agent': BROWSER } }),
        ];
      },
      show: (x) => (x.status < 300 ? { managedFields: managers(x) } : x.response),
      check: ([refused, applied]) => {
        const { want, result } = expectations();
        const causes = (field(refused!.response, 'details', 'causes') as { field?: string; reason?: string }[] | undefined) ?? [];
        want(refused!.status === 422 && field(refused!.response, 'reason') === 'Invalid', `without fieldManager: HTTP ${refused!.status} ${String(field(refused!.response, 'reason'))}`);
        want(causes.some((x) => x.field === 'fieldManager' && x.reason === 'FieldValueRequired'), `causes: ${JSON.stringify(causes)}`);
        want(applied!.status === 200 && managers(applied!).includes('applier/Apply') && field(applied!.response, 'data', 'e') === 'applied', `with fieldManager: HTTP ${applied!.status}, entries ${managers(applied!).join(', ')}`);
        return result;
      },
    },
  ],
};

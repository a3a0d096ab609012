// Custom resources under Server-Side Apply (lists are atomic unless the schema says otherwise),
// and the cost limit on CEL rules. Both define CRDs of their own: cluster-scoped, confirmed first,
// labelled, and removed by the last step or the cleanup.
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';

const GROUP = 'lessons.explorer.dev';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const LISTS_CRD = `lessonlists.${GROUP}`;
const COST_CRD = `lessoncosts.${GROUP}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const established = (x: KitExchange) => ((field(x.response, 'status', 'conditions') as { type: string; status: string }[] | undefined) ?? []).some((k) => k.type === 'Established' && k.status === 'True');

async function waitEstablished(c: StepContext, name: string): Promise<KitExchange> {
  for (let i = 0; ; i++) {
    const x = await c.send('GET', `${CRDS}/${name}`);
    if (established(x) || i > 60) return x;
    await sleep(500);
  }
}

const crd = (plural: string, kind: string, spec: Record<string, unknown>) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${plural}.${GROUP}`, labels: label(plural === 'lessonlists' ? 'crdssa' : 'celcost') },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List` },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } } }],
  },
});

const LISTS = {
  // No x-kubernetes-list-type: atomic, the whole list belongs to whoever set it.
  plain: { type: 'array', items: { type: 'string' } },
  set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
  keyed: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, value: { type: 'string' } } } },
};

const lists = (c: StepContext) => `/apis/${GROUP}/v1/namespaces/${encodeURIComponent(c.ns)}/lessonlists/shared`;
const applyAs = (c: StepContext, manager: string, spec: Record<string, unknown>) =>
  c.send('PATCH', `${lists(c)}?fieldManager=${manager}`, { body: JSON.stringify({ apiVersion: `${GROUP}/v1`, kind: 'LessonList', metadata: { name: 'shared', labels: label('crdssa') }, spec }), contentType: 'application/apply-patch+yaml' });

export const crdApply: KitLesson = {
  id: 'crd-apply',
  topic: 'crdssa',
  title: 'Custom resources under Server-Side Apply: lists are atomic unless marked',
  scope: 'cluster',
  clusterObjects: `the CustomResourceDefinition ${LISTS_CRD}`,
  paragraphs: [
    'Server-Side Apply merges what two managers apply field by field, and a list is one field unless its schema says how to merge it. Built-in types carry that in their Go definitions; a CustomResourceDefinition says it in its schema: `x-kubernetes-list-type: set` (items are scalars, merged by value), `map` with `x-kubernetes-list-map-keys` (items are objects, merged by key), or `atomic`, the default for a list with no mark: whoever applies it owns it whole.',
    'Here one CRD has three lists, `plain` (unmarked), `set` and `keyed`, and alice and bob both apply items to each.',
  ],
  needs: [
    { verb: 'create', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'delete', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'patch', group: GROUP, resource: 'lessonlists', namespaced: true },
    { verb: 'create', group: GROUP, resource: 'lessonlists', namespaced: true },
  ],
  steps: [
    {
      id: 'define',
      title: 'A CRD with three kinds of list',
      text: `Create the CRD \`${LISTS_CRD}\` and wait until it is Established.`,
      lookFor: 'HTTP 201, then the condition `Established: True`.',
      run: async (c) => [await c.send('POST', CRDS, { body: crd('lessonlists', 'LessonList', LISTS) }), await waitEstablished(c, LISTS_CRD)],
      show: (x) => ({ metadata: { name: field(x.response, 'metadata', 'name') }, conditions: ((field(x.response, 'status', 'conditions') as { type: string; status: string }[] | undefined) ?? []).map((k) => `${k.type}: ${k.status}`) }),
      check: ([post, got]) => (post!.status === 201 && established(got!) ? [] : [`HTTP ${post!.status} ${msg(post!)}; established: ${established(got!)}`]),
    },
    {
      id: 'merge',
      title: 'alice and bob apply items to the set and the keyed list',
      text: 'alice applies `set: [a]` and `keyed: [{name: a}]`; bob applies `set: [b]` and `keyed: [{name: b}]`.',
      lookFor: 'Both 200 (the first 201): the stored lists hold both items, `[a, b]`, each owned by the manager that applied it.',
      run: async (c) => [await applyAs(c, 'alice', { set: ['a'], keyed: [{ name: 'a', value: '1' }] }), await applyAs(c, 'bob', { set: ['b'], keyed: [{ name: 'b', value: '2' }] })],
      show: (x) => (x.status < 300 ? { spec: field(x.response, 'spec') } : x.response),
      check: ([a, b]) => {
        const { want, result } = expectations();
        want(a!.status === 201 && b!.status === 200, `HTTP ${a!.status}, ${b!.status} ${msg(b!)}`);
        want(JSON.stringify(field(b!.response, 'spec', 'set')) === '["a","b"]', `set: ${JSON.stringify(field(b!.response, 'spec', 'set'))}`);
        want(((field(b!.response, 'spec', 'keyed') as { name: string }[] | undefined) ?? []).map((i) => i.name).join() === 'a,b', `keyed: ${JSON.stringify(field(b!.response, 'spec', 'keyed'))}`);
        return result;
      },
    },
    {
      id: 'atomic',
      title: 'alice and bob apply items to the unmarked list',
      text: 'alice applies `plain: [a]` (with her other items); bob then applies `plain: [b]` (with his).',
      lookFor: 'alice 200. bob 409 Conflict naming `.spec.plain` and alice: the unmarked list is one field, alice owns it, and bob\'s value differs. With `force=true` bob would replace the whole list, alice\'s item included.',
      run: async (c) => [await applyAs(c, 'alice', { set: ['a'], keyed: [{ name: 'a', value: '1' }], plain: ['a'] }), await applyAs(c, 'bob', { set: ['b'], keyed: [{ name: 'b', value: '2' }], plain: ['b'] })],
      show: (x) => (x.status < 300 ? { spec: field(x.response, 'spec') } : x.response),
      check: ([a, b]) => {
        const { want, result } = expectations();
        const causes = (field(b!.response, 'details', 'causes') as { field?: string; message?: string }[] | undefined) ?? [];
        want(a!.status === 200, `alice: HTTP ${a!.status} ${msg(a!)}`);
        want(b!.status === 409 && causes.some((k) => k.field === '.spec.plain' && String(k.message).includes('"alice"')), `bob: HTTP ${b!.status} ${JSON.stringify(causes)}`);
        return result;
      },
    },
    {
      id: 'cleanup',
      title: 'Remove the CRD',
      text: 'DELETE the CRD; its LessonLists go with it.',
      lookFor: 'HTTP 200.',
      run: async (c) => [await c.send('DELETE', `${CRDS}/${LISTS_CRD}`)],
      check: ([x]) => (x!.status === 200 ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
  ],
  cleanup: async (c) => [await c.send('DELETE', `${CRDS}/${LISTS_CRD}`)],
};

// Quadratic over an unbounded list: CEL's cost estimator cannot bound it.
const COSTLY = 'self.all(x, self.all(y, x == y || x != y))';
const costSpec = (bounded: boolean) => ({
  tags: {
    type: 'array',
    items: { type: 'string', ...(bounded ? { maxLength: 16 } : {}) },
    ...(bounded ? { maxItems: 10 } : {}),
    'x-kubernetes-validations': [{ rule: COSTLY, message: 'never false' }],
  },
});

export const celCost: KitLesson = {
  id: 'cel-cost',
  topic: 'celcost',
  title: 'The CEL cost limit: a rule refused for what it might cost',
  scope: 'cluster',
  clusterObjects: `the CustomResourceDefinition ${COST_CRD}`,
  paragraphs: [
    'A CEL rule in a CRD runs on every write of every object, inside kube-apiserver. Before accepting the CRD the server estimates each rule\'s worst-case cost from the schema: how long a list or a string can be. A rule over a list with no `maxItems` (of strings with no `maxLength`) has no bound, and a rule that loops over it twice is refused outright. Bounding the schema makes the same rule affordable. (The CEL libraries a rule may call, strings, lists, regex, URLs, quantities, are listed in the Kubernetes CEL reference: background here.)',
  ],
  needs: [
    { verb: 'create', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'delete', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
  ],
  steps: [
    {
      id: 'unbounded',
      title: 'A nested loop over an unbounded list',
      text: `Create a CRD whose \`spec.tags\` (strings, no limits) carries the rule \`${COSTLY}\`.`,
      lookFor: '422 Invalid: "estimated rule cost exceeds budget", naming the rule\'s field. Nothing is created.',
      run: async (c) => [await c.send('POST', CRDS, { body: crd('lessoncosts', 'LessonCost', costSpec(false)) })],
      check: ([x]) => (x!.status === 422 && msg(x!).includes('estimated rule cost exceeds budget') ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
    {
      id: 'bounded',
      title: 'The same rule with limits',
      text: 'The same CRD with `maxItems: 10` on the list and `maxLength: 16` on its strings; then DELETE it.',
      lookFor: 'HTTP 201: ten strings of sixteen characters make the rule cheap enough; then 200 for the DELETE.',
      run: async (c) => [await c.send('POST', CRDS, { body: crd('lessoncosts', 'LessonCost', costSpec(true)) }), await c.send('DELETE', `${CRDS}/${COST_CRD}`)],
      check: ([x, del]) => (x!.status === 201 && del!.status === 200 ? [] : [`HTTP ${x!.status} ${msg(x!)}; DELETE ${del!.status}`]),
    },
  ],
  cleanup: async (c) => [await c.send('DELETE', `${CRDS}/${COST_CRD}`)],
};

// Custom resources under Server-Side Apply (lists are atomic unless the schema says otherwise),
// and the cost limit on CEL rules. Both define CRDs of their own: cluster-scoped, confirmed first,
// labelled, and removed by the last step or the cleanup.
import { parseWarningHeader } from '../../../codecs';
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { sleep } from '../../../lib/sleep';

const GROUP = 'lessons.explorer.dev';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const LISTS_CRD = `lessonlists.${GROUP}`;
const COST_CRD = `lessoncosts.${GROUP}`;
/** A CRD's status conditions as `Type: Status` lines, for the step's shown answer. */
const conditionLines = (x: KitExchange) => ((field(x.response, 'status', 'conditions') as { type: string; status: string }[] | undefined) ?? []).map((k) => `${k.type}: ${k.status}`);
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
      show: (x) => ({ metadata: { name: field(x.response, 'metadata', 'name') }, conditions: conditionLines(x) }),
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

// --- pruning ---

const PRUNE_CRD = `lessonprunes.${GROUP}`;
const prunes = (c: StepContext, name = '') => `/apis/${GROUP}/v1/namespaces/${encodeURIComponent(c.ns)}/lessonprunes${name ? `/${name}` : ''}`;
const PRUNE_SCHEMA = {
  size: { type: 'integer' },
  // This subtree keeps whatever it is given.
  free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
};
const pruneCrd = () => {
  const def = crd('lessonprunes', 'LessonPrune', PRUNE_SCHEMA);
  return { ...def, metadata: { ...def.metadata, labels: label('prune') } };
};
const unknownBody = (name: string) => ({
  apiVersion: `${GROUP}/v1`,
  kind: 'LessonPrune',
  metadata: { name, labels: label('prune') },
  extra: 'at the top',
  spec: { size: 3, colour: 'red', free: { anything: { goes: [1, 2] } } },
});
const warned = (x: KitExchange) => parseWarningHeader(x.responseHeaders.warning).map((w) => w.text).join(' | ');

/** The stored object has lost `extra` and `spec.colour`, and kept `spec.size` and all of `spec.free`. */
function pruned(x: KitExchange, free: unknown = { anything: { goes: [1, 2] } }): string[] {
  const { want, result } = expectations();
  want(field(x.response, 'extra') === undefined && field(x.response, 'spec', 'colour') === undefined, `unknown fields stored: extra=${String(field(x.response, 'extra'))}, spec.colour=${String(field(x.response, 'spec', 'colour'))}`);
  want(field(x.response, 'spec', 'size') === 3, `spec.size ${String(field(x.response, 'spec', 'size'))}`);
  want(JSON.stringify(field(x.response, 'spec', 'free')) === JSON.stringify(free), `spec.free ${JSON.stringify(field(x.response, 'spec', 'free'))}`);
  return result;
}

export const pruning: KitLesson = {
  id: 'pruning',
  topic: 'prune',
  title: 'Pruning: unknown fields of a custom resource are dropped, unless the schema keeps them',
  scope: 'cluster',
  clusterObjects: `the CustomResourceDefinition ${PRUNE_CRD}`,
  paragraphs: [
    'A CustomResourceDefinition in `apiextensions.k8s.io/v1` has a structural schema, and the server stores only what that schema describes: a field it does not know is removed ("pruned") before the object is stored, on every create, update and patch. Where a schema marks a subtree `x-kubernetes-preserve-unknown-fields: true`, everything under it is kept as it came.',
    '`fieldValidation` decides what the client hears about it: by default (`Warn`) a `Warning` header per dropped field, with `Ignore` nothing, with `Strict` a 400 and nothing stored. The field is dropped either way.',
    'This lesson\'s CRD has `spec.size` (an integer) and `spec.free` (an object that preserves unknown fields). Each body also carries `spec.colour` and a top-level `extra`, which the schema does not know.',
  ],
  needs: [
    { verb: 'create', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'delete', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'create', group: GROUP, resource: 'lessonprunes', namespaced: true },
    { verb: 'patch', group: GROUP, resource: 'lessonprunes', namespaced: true },
  ],
  steps: [
    {
      id: 'define',
      title: 'A CRD with a structural schema',
      text: `Create the CRD \`${PRUNE_CRD}\` and wait until it is Established.`,
      lookFor: 'HTTP 201, then the condition `Established: True`.',
      run: async (c) => [await c.send('POST', CRDS, { body: pruneCrd() }), await waitEstablished(c, PRUNE_CRD)],
      show: (x) => ({ metadata: { name: field(x.response, 'metadata', 'name') }, schema: field(x.response, 'spec', 'versions', 0, 'schema'), conditions: conditionLines(x) }),
      check: ([post, got]) => (post!.status === 201 && established(got!) ? [] : [`HTTP ${post!.status} ${msg(post!)}; established: ${established(got!)}`]),
    },
    {
      id: 'warn',
      title: 'Create with unknown fields, fieldValidation unset',
      text: 'POST `warned` with `extra`, `spec.colour`, `spec.size: 3` and `spec.free.anything.goes: [1, 2]`; then GET it.',
      lookFor: 'HTTP 201 with two `Warning`s, `unknown field "extra"` and `unknown field "spec.colour"`. The answer and the stored object have neither; `spec.size` and the whole of `spec.free` are there.',
      run: async (c) => [await c.send('POST', prunes(c), { body: unknownBody('warned') }), await c.send('GET', prunes(c, 'warned'))],
      show: (x) => (x.status < 300 ? { warning: warned(x) || '(none)', extra: field(x.response, 'extra') ?? '(absent)', spec: field(x.response, 'spec') } : x.response),
      check: ([post, got]) => {
        const { want, result } = expectations();
        want(post!.status === 201, `POST: HTTP ${post!.status} ${msg(post!)}`);
        want(warned(post!).includes('unknown field "extra"') && warned(post!).includes('unknown field "spec.colour"'), `warning: ${warned(post!) || '(none)'}`);
        return [...result, ...pruned(post!), ...pruned(got!)];
      },
      view: (c) => ({ label: 'See it in the Edit view', to: { view: 'edit', namespace: c.ns, group: GROUP, version: 'v1', resource: 'lessonprunes', name: 'warned' } }),
    },
    {
      id: 'ignore',
      title: 'The same with fieldValidation=Ignore',
      text: 'POST `quiet`, the same body, with `fieldValidation=Ignore`.',
      lookFor: 'HTTP 201 and no `Warning`: the unknown fields are pruned all the same, silently.',
      run: async (c) => [await c.send('POST', `${prunes(c)}?fieldValidation=Ignore`, { body: unknownBody('quiet') })],
      show: (x) => ({ warning: warned(x) || '(none)', extra: field(x.response, 'extra') ?? '(absent)', spec: field(x.response, 'spec') }),
      check: ([x]) => [...(x!.status === 201 && !warned(x!) ? [] : [`HTTP ${x!.status}, warning: ${warned(x!)}`]), ...pruned(x!)],
    },
    {
      id: 'strict',
      title: 'The same with fieldValidation=Strict',
      text: 'POST `strict`, the same body, with `fieldValidation=Strict`; then GET it.',
      lookFor: '400 BadRequest, "strict decoding error" naming `extra` and `spec.colour`; the GET 404: nothing was stored.',
      run: async (c) => [await c.send('POST', `${prunes(c)}?fieldValidation=Strict`, { body: unknownBody('strict') }), await c.send('GET', prunes(c, 'strict'))],
      check: ([post, got]) => {
        const { want, result } = expectations();
        want(post!.status === 400 && msg(post!).includes('strict decoding error') && msg(post!).includes('unknown field "extra"') && msg(post!).includes('unknown field "spec.colour"'), `POST: HTTP ${post!.status} ${msg(post!)}`);
        want(got!.status === 404, `GET: HTTP ${got!.status}`);
        return result;
      },
    },
    {
      id: 'patch',
      title: 'A patch is pruned too',
      text: 'A merge patch on `warned`: `{"spec": {"colour": "blue", "free": {"more": true}}}`.',
      lookFor: 'HTTP 200 with the warning `unknown field "spec.colour"`; no `colour` in the answer, and `spec.free` now holds `more: true` beside what it had.',
      run: async (c) => [await c.send('PATCH', prunes(c, 'warned'), { body: { spec: { colour: 'blue', free: { more: true } } }, contentType: 'application/merge-patch+json' })],
      show: (x) => (x.status < 300 ? { warning: warned(x) || '(none)', spec: field(x.response, 'spec') } : x.response),
      check: ([x]) => [
        ...(x!.status === 200 && warned(x!).includes('unknown field "spec.colour"') ? [] : [`HTTP ${x!.status}, warning: ${warned(x!) || '(none)'} ${msg(x!)}`]),
        ...pruned(x!, { anything: { goes: [1, 2] }, more: true }),
      ],
    },
    {
      id: 'cleanup',
      title: 'Remove the CRD',
      text: 'DELETE the CRD; its LessonPrunes go with it.',
      lookFor: 'HTTP 200.',
      run: async (c) => [await c.send('DELETE', `${CRDS}/${PRUNE_CRD}`)],
      check: ([x]) => (x!.status === 200 ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
  ],
  cleanup: async (c) => [await c.send('DELETE', `${CRDS}/${PRUNE_CRD}`)],
};

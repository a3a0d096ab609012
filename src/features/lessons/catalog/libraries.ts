// CEL libraries in CRD validation rules: strings (lowerAscii, format), quantity(), url(), ip() and
// cidr(), regex matches(), each in a rule of its own field so that each 422 cause names its rule;
// and a function the server does not know, refused when the CRD is created. The cost limit is the
// cel-cost lesson's subject, not this one's.
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { sleep } from '../../../lib/sleep';

const GROUP = 'lessons.explorer.dev';
const PLURAL = 'lessonlibs';
const LIB_CRD = `${PLURAL}.${GROUP}`;
const UNKNOWN_CRD = `lessonlibxs.${GROUP}`;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const libs = (c: StepContext) => `/apis/${GROUP}/v1/namespaces/${encodeURIComponent(c.ns)}/${PLURAL}`;

/** One string field per library, each with one rule (maxLength keeps every rule's cost bounded). */
const RULES: Record<string, { rule: string; message?: string; messageExpression?: string; maxLength: number; good: string; bad: string; says: string }> = {
  name: { rule: 'self == self.lowerAscii()', message: 'must be lower case', maxLength: 63, good: 'web', bad: 'Web', says: 'must be lower case' },
  memory: { rule: "isQuantity(self) && quantity(self).isLessThan(quantity('1Gi'))", message: 'must be a quantity below 1Gi', maxLength: 20, good: '512Mi', bad: '2Gi', says: 'must be a quantity below 1Gi' },
  endpoint: { rule: "isURL(self) && url(self).getScheme() == 'https'", message: 'must be an https URL', maxLength: 200, good: 'https://example.com/hook', bad: 'http://example.com/hook', says: 'must be an https URL' },
  address: { rule: "isIP(self) && cidr('10.0.0.0/8').containsIP(ip(self))", message: 'must be an IP address in 10.0.0.0/8', maxLength: 50, good: '10.1.2.3', bad: '192.168.1.1', says: 'must be an IP address in 10.0.0.0/8' },
  version: { rule: "self.matches('^v[0-9]+$')", message: 'must look like v1, v2, …', maxLength: 10, good: 'v2', bad: '1.0', says: 'must look like v1, v2, …' },
  team: { rule: "self in ['red', 'blue']", messageExpression: "'%s is not one of red, blue'.format([self])", maxLength: 20, good: 'red', bad: 'green', says: 'green is not one of red, blue' },
};

const crd = (name: string, plural: string, kind: string, properties: Record<string, unknown>) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name, labels: label('cellib') },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List` },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties } } } } }],
  },
});

const libCrd = crd(
  LIB_CRD,
  PLURAL,
  'LessonLib',
  Object.fromEntries(
    Object.entries(RULES).map(([k, r]) => [k, { type: 'string', maxLength: r.maxLength, 'x-kubernetes-validations': [{ rule: r.rule, ...(r.message ? { message: r.message } : { messageExpression: r.messageExpression }) }] }]),
  ),
);

const object = (name: string, spec: Record<string, string>) => ({ apiVersion: `${GROUP}/v1`, kind: 'LessonLib', metadata: { name, labels: label('cellib') }, spec });
const causes = (x: KitExchange) => (field(x.response, 'details', 'causes') as { field?: string; message?: string }[] | undefined) ?? [];
const removeAll = async (c: StepContext) => [await c.send('DELETE', `${CRDS}/${LIB_CRD}`), await c.send('DELETE', `${CRDS}/${UNKNOWN_CRD}`)];

export const celLibraries: KitLesson = {
  id: 'cel-libraries',
  topic: 'cellib',
  title: 'CEL libraries in validation rules: strings, quantities, URLs, IPs, regular expressions, format',
  scope: 'cluster',
  clusterObjects: `the CustomResourceDefinition ${LIB_CRD} (and, refused, ${UNKNOWN_CRD})`,
  paragraphs: [
    'A CEL rule may call more than comparisons: kube-apiserver adds libraries to the language. This lesson puts one in each rule of a CRD: the strings library (`lowerAscii()`, `format()` in a `messageExpression`), `quantity()` with `isQuantity()` and `isLessThan()`, `url()` with `isURL()` and `getScheme()`, `ip()` and `cidr()` with `containsIP()`, and the regular expression test `matches()`. Every rule is compiled when the CRD is written: a function the server does not know is refused there, not when an object arrives.',
    'Which functions exist depends on the release (the Kubernetes CEL reference lists when each arrived; background here). Every rule below was accepted by 1.37.1 and by 1.33.13. The estimated cost of a rule is the `cel-cost` lesson\'s subject.',
  ],
  needs: [
    { verb: 'create', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'delete', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'create', group: GROUP, resource: PLURAL, namespaced: true },
  ],
  steps: [
    {
      id: 'define',
      title: 'A CRD with one library per rule',
      text: `Create \`${LIB_CRD}\` whose \`spec\` has six strings, each with a rule: ${Object.entries(RULES)
        .map(([k, r]) => `\`${k}\`: \`${r.rule}\``)
        .join('; ')}. Wait until it is served.`,
      lookFor: 'HTTP 201: every rule compiled, every library function known to this server.',
      run: async (c) => {
        const made = await c.send('POST', CRDS, { body: libCrd });
        let ready = await c.send('GET', libs(c));
        for (let i = 0; ready.status !== 200 && i < 60; i++) {
          await sleep(500);
          ready = await c.send('GET', libs(c));
        }
        return [made, ready];
      },
      show: (x) => (x.status >= 300 ? x.response : { kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name') } }),
      check: ([made, ready]) => (made!.status === 201 && ready!.status === 200 ? [] : [`CRD: HTTP ${made!.status} ${msg(made!)}; list: HTTP ${ready!.status}`]),
    },
    {
      id: 'values',
      title: 'Values that pass and values that do not',
      text: `Create \`good\` (${Object.entries(RULES)
        .map(([k, r]) => `${k} \`${r.good}\``)
        .join(', ')}), then \`bad\` (${Object.entries(RULES)
        .map(([k, r]) => `${k} \`${r.bad}\``)
        .join(', ')}), then \`garbled\` with a memory of \`lots\` and an address of \`nope\`.`,
      lookFor: `201 for \`good\`. 422 for \`bad\` with six causes, one per field, each "Invalid value" and its rule's message (1.37.1 quotes the value, \`Invalid value: "Web"\`; 1.33.13 quoted the type, \`Invalid value: "string"\`); \`team\`'s is computed with \`format()\`: "green is not one of red, blue". 422 for \`garbled\`: \`isQuantity()\` and \`isIP()\` are false for text that is not one, so the rules fail with their message instead of an error.`,
      run: async (c) => [
        await c.send('POST', libs(c), { body: object('good', Object.fromEntries(Object.entries(RULES).map(([k, r]) => [k, r.good]))) }),
        await c.send('POST', libs(c), { body: object('bad', Object.fromEntries(Object.entries(RULES).map(([k, r]) => [k, r.bad]))) }),
        await c.send('POST', libs(c), { body: object('garbled', { memory: 'lots', address: 'nope' }) }),
      ],
      show: (x) => (x.status >= 300 ? { code: x.status, causes: causes(x) } : { spec: field(x.response, 'spec') }),
      check: ([good, bad, garbled]) => {
        const { want, result } = expectations();
        want(good!.status === 201, `good: HTTP ${good!.status} ${msg(good!)}`);
        want(bad!.status === 422 && causes(bad!).length === Object.keys(RULES).length, `bad: HTTP ${bad!.status}, ${causes(bad!).length} causes`);
        for (const [k, r] of Object.entries(RULES)) {
          want(causes(bad!).some((x) => x.field === `spec.${k}` && [`Invalid value: "${r.bad}": ${r.says}`, `Invalid value: "string": ${r.says}`].some((t) => String(x.message).includes(t))), `bad: no cause at spec.${k} saying "${r.says}": ${JSON.stringify(causes(bad!).find((x) => x.field === `spec.${k}`))}`);
        }
        want(garbled!.status === 422, `garbled: HTTP ${garbled!.status}`);
        for (const k of ['memory', 'address']) want(causes(garbled!).some((x) => x.field === `spec.${k}` && String(x.message).includes(RULES[k]!.says)), `garbled: spec.${k}: ${JSON.stringify(causes(garbled!))}`);
        return result;
      },
    },
    {
      id: 'unknown',
      title: 'A function the server does not know',
      text: `Create \`${UNKNOWN_CRD}\` with one rule, \`self.toSnakeCase() == self\`.`,
      lookFor: '422 Invalid at the rule (`…x-kubernetes-validations[0].rule`): "compilation failed: ERROR: <input>:1:17: undeclared reference to \'toSnakeCase\'", with a caret under the call. Nothing is created.',
      run: async (c) => [
        await c.send('POST', CRDS, { body: crd(UNKNOWN_CRD, 'lessonlibxs', 'LessonLibX', { word: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: 'self.toSnakeCase() == self', message: 'never checked' }] } }) }),
        await c.send('GET', `${CRDS}/${UNKNOWN_CRD}`),
      ],
      show: (x) => x.response,
      check: ([x, got]) => {
        const { want, result } = expectations();
        want(x!.status === 422 && msg(x!).includes("compilation failed: ERROR: <input>:1:17: undeclared reference to 'toSnakeCase'") && causes(x!).some((k) => String(k.field).endsWith('x-kubernetes-validations[0].rule')), `HTTP ${x!.status} ${msg(x!)}`);
        want(got!.status === 404, `the CRD exists: HTTP ${got!.status}`);
        return result;
      },
    },
    {
      id: 'cleanup',
      title: 'Remove the CRD',
      text: `DELETE \`${LIB_CRD}\` (its objects go with it).`,
      lookFor: 'HTTP 200.',
      run: async (c) => [await c.send('DELETE', `${CRDS}/${LIB_CRD}`)],
      check: ([x]) => (x!.status === 200 ? [] : [`HTTP ${x!.status} ${msg(x!)}`]),
    },
  ],
  cleanup: removeAll,
};

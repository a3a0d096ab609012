// The editors' JSON schemas, made from the real /openapi/v3 of the local control plane and checked
// with a JSON Schema validator (Ajv) on objects the real server returned: a stored object must pass
// untouched (no false marks), and each kind of mistake the editor promises to mark must fail.
import Ajv from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson } from '../client';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { fetchGroupVersionDocument, fieldsOf, findKindSchema, schemaAt, type JsonSchema, kindJsonSchema, type OpenApiIndex } from '.';

const ns = `jsonschema-${Math.random().toString(36).slice(2, 8)}`;
const crdGroup = `${ns}.example.com`;
let index: OpenApiIndex;

function validator(schema: JsonSchema) {
  // Kubernetes patterns are Go regular expressions, read here without the u flag, as the editor's worker does.
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false, validateFormats: false });
  const validate = ajv.compile(schema);
  return (obj: unknown) => (validate(obj) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}${e.params && 'additionalProperty' in e.params ? ` ${String(e.params.additionalProperty)}` : ''}`));
}

async function kindSchema(group: string, version: string, kind: string, apiVersion: string): Promise<JsonSchema> {
  const doc = await fetchGroupVersionDocument(TEST_CONTEXT, index, group, version);
  const found = findKindSchema(doc, group, version, kind);
  return kindJsonSchema(doc, found!.refName!, apiVersion, kind);
}

beforeAll(async () => {
  useRealProxy();
  index = await kubeJson<OpenApiIndex>({ context: TEST_CONTEXT, path: '/openapi/v3' });
  await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
});
afterAll(async () => {
  await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/api/v1/namespaces/${ns}` });
  await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${crdGroup}` }).catch(() => undefined);
});

describe('JSON schemas from OpenAPI v3', () => {
  it('accepts a Deployment as the server stores it and marks unknown fields, wrong types and missing required fields', async () => {
    const schema = await kindSchema('apps', 'v1', 'Deployment', 'apps/v1');
    const check = validator(schema);
    const created = await kubeJson<Record<string, unknown>>({
      context: TEST_CONTEXT,
      method: 'POST',
      path: `/apis/apps/v1/namespaces/${ns}/deployments`,
      body: JSON.stringify({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web', labels: { app: 'web' } },
        spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }], resources: { limits: { cpu: 1, memory: '64Mi' } } }] } } },
      }),
    });
    // managedFields, creationTimestamp, defaults, status: all of it valid.
    expect(check(created)).toEqual([]);
    const spec = created.spec as Record<string, unknown>;
    expect(check({ ...created, spec: { ...spec, replicaz: 3 } })).toContain('/spec must NOT have additional properties replicaz');
    expect(check({ ...created, spec: { ...spec, replicas: 'three' } }).some((e) => e.startsWith('/spec/replicas must be integer'))).toBe(true);
    const { selector: _s, ...noSelector } = spec;
    expect(check({ ...created, spec: noSelector })).toContain("/spec must have required property 'selector'");
    expect(check({ ...created, kind: 'Pod' })).toContain('/kind must be equal to one of the allowed values');
  });

  it('carries descriptions, required and the merge extensions into the hover text', async () => {
    const schema = await kindSchema('apps', 'v1', 'Deployment', 'apps/v1');
    const defs = schema.definitions!;
    const spec = defs['io.k8s.api.apps.v1.DeploymentSpec']!;
    expect(spec.properties!.replicas!.markdownDescription).toMatch(/^\*\*replicas\*\* `<integer>`/);
    expect(spec.properties!.selector!.markdownDescription).toContain('**required**');
    const containers = defs['io.k8s.api.core.v1.PodSpec']!.properties!.containers!;
    expect(containers.markdownDescription).toContain('patch merge key `name`');
    expect(containers.markdownDescription).toContain('list-map-keys `name`');
    expect(containers.markdownDescription).toContain('`<[]Container>`');
  });

  it("follows a CRD's own schema: enum, minimum and unknown fields", async () => {
    await kubeJson({
      context: TEST_CONTEXT,
      method: 'POST',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body: JSON.stringify({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: `widgets.${crdGroup}` },
        spec: {
          group: crdGroup,
          scope: 'Namespaced',
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', required: ['size'], properties: { size: { type: 'integer', minimum: 1, maximum: 10 }, color: { type: 'string', enum: ['red', 'blue'] } } } } } },
            },
          ],
        },
      }),
    });
    // The CRD's document appears in the index once the CRD is established.
    let schema: JsonSchema | undefined;
    for (let i = 0; i < 60 && !schema; i++) {
      index = await kubeJson<OpenApiIndex>({ context: TEST_CONTEXT, path: '/openapi/v3' });
      if (index.paths[`apis/${crdGroup}/v1`]) {
        try {
          schema = await kindSchema(crdGroup, 'v1', 'Widget', `${crdGroup}/v1`);
        } catch {
          schema = undefined;
        }
      }
      if (!schema) await new Promise((r) => setTimeout(r, 500));
    }
    expect(schema).toBeDefined();
    const check = validator(schema!);
    const ok = { apiVersion: `${crdGroup}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3, color: 'red' } };
    expect(check(ok)).toEqual([]);
    expect(check({ ...ok, spec: { size: 0, color: 'red' } })).toContain('/spec/size must be >= 1');
    expect(check({ ...ok, spec: { size: 3, color: 'green' } })).toContain('/spec/color must be equal to one of the allowed values');
    expect(check({ ...ok, spec: { size: 3, shape: 'round' } })).toContain('/spec must NOT have additional properties shape');
    const size = schema!.properties!.spec!.properties!.size!;
    expect(size.markdownDescription).toContain('minimum `1`');
    // The schema browser lists the same constraints.
    const doc = await fetchGroupVersionDocument(TEST_CONTEXT, index, crdGroup, 'v1');
    const widget = findKindSchema(doc, crdGroup, 'v1', 'Widget')!;
    const fields = fieldsOf(doc, schemaAt(doc, widget.schema, ['spec'])!);
    expect(fields.find((f) => f.name === 'size')?.constraints).toEqual([
      { name: 'minimum', value: 1 },
      { name: 'maximum', value: 10 },
    ]);
  });
});

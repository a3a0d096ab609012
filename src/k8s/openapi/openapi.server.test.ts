// Against the real /openapi/v3 of the local control plane, through the real proxy.
import { beforeAll, describe, expect, it } from 'vitest';
import { kubeJson } from '../client';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { describeSchema, fetchGroupVersionDocument, fieldsOf, findKindSchema, groupVersionKey, type OpenApiDocument, type OpenApiIndex, resolve, schemaAt, typeLabel } from './openapi';

let index: OpenApiIndex;
let apps: OpenApiDocument;

beforeAll(async () => {
  useRealProxy();
  index = await kubeJson<OpenApiIndex>({ context: TEST_CONTEXT, path: '/openapi/v3' });
  apps = await fetchGroupVersionDocument(TEST_CONTEXT, index, 'apps', 'v1');
});

describe('OpenAPI v3 schemas', () => {
  it('finds group-version documents through the index, by hashed URL', () => {
    expect(groupVersionKey('', 'v1')).toBe('api/v1');
    expect(index.paths['api/v1']?.serverRelativeURL).toMatch(/^\/openapi\/v3\/api\/v1\?hash=[0-9A-F]+$/);
    expect(index.paths['apis/apps/v1']?.serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/apps\/v1\?hash=/);
  });

  it('finds a kind by x-kubernetes-group-version-kind and lists its fields like kubectl explain', () => {
    const dep = findKindSchema(apps, 'apps', 'v1', 'Deployment');
    expect(dep?.refName).toBe('io.k8s.api.apps.v1.Deployment');
    const fields = fieldsOf(apps, dep!.schema);
    // Required fields first (the server marks Deployment.spec required), then by name.
    expect(fields.map((f) => f.name)).toEqual(['spec', 'apiVersion', 'kind', 'metadata', 'status']);
    expect(fields[0]?.required).toBe(true);
    expect(fields.find((f) => f.name === 'metadata')?.type).toBe('ObjectMeta');
    expect(fields.find((f) => f.name === 'spec')).toMatchObject({ type: 'DeploymentSpec', hasFields: true });
  });

  it('resolves allOf-wrapped references and keeps the field’s own description', () => {
    const template = schemaAt(apps, findKindSchema(apps, 'apps', 'v1', 'Deployment')!.schema, ['spec', 'template']);
    expect(template?.allOf?.[0]?.$ref).toBe('#/components/schemas/io.k8s.api.core.v1.PodTemplateSpec');
    const r = resolve(apps, template!);
    expect(r.refName).toBe('io.k8s.api.core.v1.PodTemplateSpec');
    expect(r.schema.description).toMatch(/^Template describes the pods/);
    expect(r.schema.properties?.spec).toBeDefined();
  });

  it('reports the merge extensions, required fields, enums and map types of nested fields', () => {
    const root = findKindSchema(apps, 'apps', 'v1', 'Deployment')!.schema;
    const podSpec = schemaAt(apps, root, ['spec', 'template', 'spec'])!;
    const containers = fieldsOf(apps, podSpec, '.spec.template.spec').find((f) => f.name === 'containers')!;
    expect(containers).toMatchObject({
      path: '.spec.template.spec.containers',
      type: '[]Container',
      required: true,
      extensions: { listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name' },
    });
    const container = schemaAt(apps, root, ['spec', 'template', 'spec', 'containers'])!;
    const fields = fieldsOf(apps, container);
    expect(fields[0]).toMatchObject({ name: 'name', required: true, type: 'string' });
    expect(fields.find((f) => f.name === 'imagePullPolicy')?.enum).toEqual(['Always', 'IfNotPresent', 'Never']);
    const labels = schemaAt(apps, root, ['metadata', 'labels'])!;
    expect(typeLabel(apps, labels)).toBe('map[string]string');
    const maxSurge = schemaAt(apps, root, ['spec', 'strategy', 'rollingUpdate', 'maxSurge'])!;
    expect(typeLabel(apps, maxSurge)).toBe('IntOrString');
  });

  it('shows the CEL rules of x-kubernetes-validations from a real schema', async () => {
    // ValidatingAdmissionPolicy's own types carry no CEL rules; custom resources do. Use a CRD.
    const name = `widgets.cel${Date.now().toString(36)}.example.com`;
    const group = name.split('.').slice(1).join('.');
    await kubeJson({
      context: TEST_CONTEXT,
      method: 'POST',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      body: JSON.stringify({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name },
        spec: {
          group,
          names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
          scope: 'Namespaced',
          versions: [
            {
              name: 'v1',
              served: true,
              storage: true,
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: {
                    spec: {
                      type: 'object',
                      'x-kubernetes-validations': [{ rule: 'self.min <= self.max', message: 'min must not exceed max' }],
                      properties: { min: { type: 'integer', default: 0 }, max: { type: 'integer' } },
                    },
                  },
                },
              },
            },
          ],
        },
      }),
    });
    try {
      let doc: OpenApiDocument | undefined;
      // The CRD's schema is published asynchronously after the CRD is established; poll the index.
      for (let i = 0; i < 100 && !doc; i++) {
        const idx = await kubeJson<OpenApiIndex>({ context: TEST_CONTEXT, path: '/openapi/v3' });
        if (idx.paths[groupVersionKey(group, 'v1')]) doc = await fetchGroupVersionDocument(TEST_CONTEXT, idx, group, 'v1');
        else await new Promise((r) => setTimeout(r, 200));
      }
      const widget = findKindSchema(doc!, group, 'v1', 'Widget')!;
      const spec = schemaAt(doc!, widget.schema, ['spec'])!;
      expect(describeSchema(doc!, spec).validations).toEqual([{ rule: 'self.min <= self.max', message: 'min must not exceed max' }]);
      expect(fieldsOf(doc!, spec).find((f) => f.name === 'min')).toMatchObject({ type: 'integer', default: 0 });
    } finally {
      await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}` });
    }
  });
});

// Shared by the write tests against the real server (*.server.test.ts): requests through the
// explorer's proxy, the schema hints of a kind as the server publishes them, and a CRD whose schema
// has every kind of list (keyed by two fields, set, atomic), an int64 and a preserve-unknown field.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, inject } from 'vitest';
import { kubeJson } from '../client';
import { fetchGroupVersionDocument, fieldHintsFrom, findKindSchema, type OpenApiIndex } from '../openapi';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import type { FieldHints } from './hints';
import { type JsonObject, PATCH_CONTENT_TYPES, type PatchType } from './patch';

export const kube = <T = JsonObject>(method: string, path: string, body?: unknown, headers?: Record<string, string>, query?: Record<string, string>) =>
  kubeJson<T>({ context: TEST_CONTEXT, method, path, query, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });

/** The file's tests go through the real proxy, in namespace `ns`: created before them, deleted after. */
export function withTestNamespace(ns: string): void {
  beforeAll(async () => {
    useRealProxy();
    await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  });
  afterAll(async () => {
    await kube('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
  });
}

export const patchAs = (path: string, type: PatchType, body: unknown, query: Record<string, string> = {}) =>
  kube('PATCH', path, body, { 'Content-Type': PATCH_CONTENT_TYPES[type] }, query);

/** The hints of a kind, waiting for a new CRD's schema to reach /openapi/v3 (a moment after it is served). */
export async function hintsFor(group: string, version: string, kind: string): Promise<FieldHints> {
  for (let i = 0; ; i++) {
    try {
      const index = await kube<OpenApiIndex>('GET', '/openapi/v3');
      const doc = await fetchGroupVersionDocument(TEST_CONTEXT, index, group, version);
      return fieldHintsFrom(doc, findKindSchema(doc, group, version, kind)!.schema);
    } catch (e) {
      if (i > 100) throw e;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

/** A namespaced CRD `<plural>.<group>` (version v1) whose objects' `spec` has the given properties, once Established. */
export async function createCrd(group: string, names: { plural: string; kind: string }, spec: Record<string, unknown>): Promise<void> {
  await kube('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    metadata: { name: `${names.plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: names.plural, singular: names.kind.toLowerCase(), kind: names.kind, listKind: `${names.kind}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: spec } } } } }],
    },
  });
  // Served once Established; its schema reaches /openapi/v3 a moment later (hintsFor waits).
  for (let i = 0; i < 100; i++) {
    const crd = await kube<{ status?: { conditions?: { type: string; status: string }[] } }>('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${names.plural}.${group}`);
    if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A CRD `routes.<group>` (kind Route): spec.routes keyed by [host, port], spec.tags a set, spec.args atomic. */
export async function createRouteCrd(group: string): Promise<FieldHints> {
  await createCrd(group, { plural: 'routes', kind: 'Route' }, {
    routes: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['host', 'port'],
      items: { type: 'object', required: ['host', 'port'], properties: { host: { type: 'string' }, port: { type: 'integer' }, weight: { type: 'integer' }, note: { type: 'string' } } },
    },
    tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    args: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: { type: 'string' } },
    count: { type: 'integer', format: 'int64' },
    free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
  });
  return hintsFor(group, 'v1', 'Route');
}

/**
 * Runs the kubectl built with the control plane (the same release) against it, as the admin user:
 * the reference the differential tests compare the explorer's bodies with. Returns stdout.
 */
export function kubectl(args: string[], stdin?: string): string {
  const cp = inject('controlPlane');
  if (!cp.kubectl) throw new Error('no kubectl was built with this control plane');
  return execFileSync(cp.kubectl, [...args, '--kubeconfig', cp.kubeconfig, '--context', TEST_CONTEXT], { input: stdin, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

/** kubectl when the control plane has one (KUBEBUILDER_ASSETS may bring none): tests that compare skip otherwise. */
export const hasKubectl = (): boolean => !!inject('controlPlane').kubectl;

/**
 * A Deployment (or any object with status.observedGeneration) once its controller has observed the
 * latest generation and nothing wrote for 300 ms: the Deployment controller writes status and an
 * annotation after each change, which would be one more concurrent change in a test.
 */
export async function settled<T = JsonObject>(path: string): Promise<T> {
  let last: (JsonObject & { metadata: { resourceVersion?: string; generation?: number }; status?: { observedGeneration?: number } }) | undefined;
  for (let i = 0; i < 100; i++) {
    const d = await kube<NonNullable<typeof last>>('GET', path);
    if (d.status?.observedGeneration === d.metadata.generation && last?.metadata.resourceVersion === d.metadata.resourceVersion) return d as T;
    last = d;
    await new Promise((r) => setTimeout(r, 300));
  }
  return last as T;
}

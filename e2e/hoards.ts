// The hostile objects of hostile-objects.spec.ts and main-thread.spec.ts: a namespaced custom
// resource kind (Hoard) that keeps whatever its spec holds, and objects anyone who may create one
// can make: one nested 9,990 levels deep and one with a 1.4 MiB string.
import { expect, type test } from './fixtures';

type Kube = Parameters<Parameters<typeof test>[2]>[0]['kube'];

/**
 * 9,990 levels in all: the object, spec, 9,987 levels of {"d": …} and the innermost {"end": true}.
 * Not 10,000: kube-apiserver 1.37 takes a custom resource 10,000 levels deep (its JSON decoder's
 * limit) and stores it as CBOR, but then cannot read it back ("cbor: exceeded max nested level
 * 10000": 500 StorageError, corrupt object) on a GET or a list of the resource. Built as text:
 * JSON.stringify itself overflows on it.
 */
const DEPTH = 9_990 - 3;

export interface Hoards {
  group: string;
  /** The collection's path in `namespace`. */
  path(namespace: string): string;
  /** Creates the 9,990-level object `deep` in `namespace`. */
  createDeep(namespace: string): Promise<void>;
  /** Creates `name` with a string of `bytes` in its spec. */
  createLong(namespace: string, name: string, bytes: number): Promise<void>;
  remove(): Promise<void>;
}

/** Defines the Hoard kind in a group of its own (named after `ns`). */
export async function defineHoards(kube: Kube, ns: string): Promise<Hoards> {
  const group = `${ns}.example.com`;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `hoards.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'hoards', singular: 'hoard', kind: 'Hoard' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
    },
  };
  expect((await kube.request('admin', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status).toBe(201);
  const path = (namespace: string) => `/apis/${group}/v1/namespaces/${namespace}/hoards`;
  // Created once the CRD is served. On a loaded machine the server may answer a big body after the
  // client gave up (10 s) and have stored it: 409 AlreadyExists on the next attempt.
  const create = (p: string, body: unknown) => expect.poll(async () => kube.request('admin', 'POST', p, body).then((r) => [201, 409].includes(r.status), () => false), { timeout: 60_000 }).toBe(true);
  return {
    group,
    path,
    createDeep: (namespace) => create(path(namespace), `{"apiVersion":"${group}/v1","kind":"Hoard","metadata":{"name":"deep"},"spec":${'{"d":'.repeat(DEPTH)}{"end":true}${'}'.repeat(DEPTH)}}`),
    createLong: (namespace, name, bytes) => create(path(namespace), { apiVersion: `${group}/v1`, kind: 'Hoard', metadata: { name }, spec: { blob: 'k'.repeat(bytes) } }),
    remove: async () => void (await kube.request('admin', 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/hoards.${group}`)),
  };
}

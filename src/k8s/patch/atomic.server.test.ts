// Atomic maps and structs (x-kubernetes-map-type: atomic) in apply configurations, against the
// real server and kubectl: a PodSpec's nodeSelector and a custom resource's atomic map and atomic
// struct, owned by another manager; the user adds a key or changes one field. The explorer's apply
// and `kubectl apply --server-side` of the same edit go to twin objects, first unforced (both meet
// the other manager's ownership: 409) then forced; both twins must end with the same values, every
// key of the map kept. (Sent by keys, the forced apply made the changed key the whole map.)
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toYaml } from '../../codecs/yaml';
import { useRealProxy } from '../proxy.testkit';
import { applyConfiguration } from './apply';
import type { FieldHints } from './hints';
import { type JsonObject, withoutManagedFields } from './patch';
import { createCrd, hasKubectl, hintsFor, kube, kubectl, patchAs } from './server.testkit';

const ns = `atomic-${randomBytes(3).toString('hex')}`;
const group = `at${randomBytes(3).toString('hex')}.example.com`;
const M = 'kube-api-explorer';
const SERVER_SET = ['managedFields', 'resourceVersion', 'uid', 'creationTimestamp', 'generation'];

function asManifest(o: JsonObject): JsonObject {
  const meta = Object.fromEntries(Object.entries(o.metadata as JsonObject).filter(([k]) => !SERVER_SET.includes(k)));
  return { ...o, metadata: meta };
}

interface Twin {
  path: (name: string) => string;
  /** The other manager's object. */
  theirs: (name: string) => JsonObject;
  /** The user's edit of it. */
  edit: (o: JsonObject) => JsonObject;
  hints: () => Promise<FieldHints>;
}

const TWINS: Record<string, Twin> = {
  'PodTemplate nodeSelector': {
    path: (name) => `/api/v1/namespaces/${ns}/podtemplates/${name}`,
    theirs: (name) => ({ apiVersion: 'v1', kind: 'PodTemplate', metadata: { name, namespace: ns }, template: { spec: { nodeSelector: { disk: 'ssd', zone: 'a' }, containers: [{ name: 'c', image: 'nginx' }] } } }),
    edit: (o) => {
      const e = structuredClone(o) as { template: { spec: { nodeSelector: Record<string, string> } } };
      e.template.spec.nodeSelector.gpu = 'yes';
      return e as unknown as JsonObject;
    },
    hints: () => hintsFor('', 'v1', 'PodTemplate'),
  },
  'custom resource: atomic map and atomic struct': {
    path: (name) => `/apis/${group}/v1/namespaces/${ns}/targets/${name}`,
    theirs: (name) => ({ apiVersion: `${group}/v1`, kind: 'Target', metadata: { name, namespace: ns }, spec: { selector: { disk: 'ssd', zone: 'a' }, ref: { kind: 'Service', name: 'web' }, open: { x: '1' } } }),
    edit: (o) => {
      const e = structuredClone(o) as { spec: { selector: Record<string, string>; ref: Record<string, string>; open: Record<string, string> } };
      e.spec.selector.gpu = 'yes';
      e.spec.ref.name = 'api';
      e.spec.open.y = '2';
      return e as unknown as JsonObject;
    },
    hints: () => hintsFor(group, 'v1', 'Target'),
  },
};

beforeAll(async () => {
  useRealProxy();
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await createCrd(group, { plural: 'targets', kind: 'Target' }, {
    selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
    ref: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { kind: { type: 'string' }, name: { type: 'string' } } },
    // Granular (the default): stays per key.
    open: { type: 'object', additionalProperties: { type: 'string' } },
  });
});

afterAll(async () => {
  await kube('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/targets.${group}`).catch(() => undefined);
  await kube('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

describe.skipIf(!hasKubectl())('atomic maps and structs: the explorer’s apply against kubectl apply --server-side on twins', () => {
  for (const [name, twin] of Object.entries(TWINS)) {
    it(name, async () => {
      const hints = await twin.hints();
      for (const n of ['explorer', 'kubectl']) await patchAs(twin.path(n), 'apply', toYaml(twin.theirs(n)), { fieldManager: 'other' });
      const live = await kube('GET', twin.path('explorer'));
      const body = applyConfiguration(live, twin.edit(withoutManagedFields(live)), M, { hints });
      const kubectlManifest = toYaml(asManifest(twin.edit(withoutManagedFields(await kube('GET', twin.path('kubectl'))))));

      // Unforced: both meet the other manager's ownership of the atomic value.
      await expect(patchAs(twin.path('explorer'), 'apply', toYaml(body), { fieldManager: M })).rejects.toMatchObject({ httpStatus: 409 });
      expect(() => kubectl(['apply', '--server-side', `--field-manager=${M}`, '-f', '-'], kubectlManifest)).toThrow(/conflict/i);

      // Forced: the same values on both twins, every key kept.
      const ours = await patchAs(twin.path('explorer'), 'apply', toYaml(body), { fieldManager: M, force: 'true' });
      kubectl(['apply', '--server-side', '--force-conflicts', `--field-manager=${M}`, '-f', '-'], kubectlManifest);
      const theirs = await kube('GET', twin.path('kubectl'));
      const specOf = (o: JsonObject) => o.spec ?? o.template;
      expect(specOf(ours)).toEqual(specOf(theirs));
      expect(specOf(ours)).toEqual(specOf(twin.edit(withoutManagedFields(live))));
    });
  }
});

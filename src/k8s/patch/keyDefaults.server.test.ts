// A keyed list whose key has a default (issue 41, low): a container's ports are keyed by
// containerPort and protocol, and protocol defaults to TCP on the server, which keys an element
// without it by the default. Adding a port without `protocol` must send that port alone, keyed,
// so that the other manager keeps sole ownership of port 80, as `kubectl apply --server-side` of
// the same edit on a twin does. (It sent the whole list: the element without its key field made
// the list look atomic, and the explorer co-owned port 80.)
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toYaml } from '../../codecs/yaml';
import type { ManagedFieldsEntry } from '../fields';
import { applyConfiguration, unkeyedLists } from './apply';
import { type JsonObject, withoutManagedFields } from './patch';
import { hasKubectl, hintsFor, kube, kubectl, patchAs, withTestNamespace } from './server.testkit';

const ns = `keydef-${randomBytes(3).toString('hex')}`;
const M = 'kube-api-explorer';
const path = (name: string) => `/api/v1/namespaces/${ns}/podtemplates/${name}`;
const theirs = (name: string): JsonObject => ({
  apiVersion: 'v1',
  kind: 'PodTemplate',
  metadata: { name, namespace: ns },
  template: { spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] } },
});
type Ports = { template: { spec: { containers: { ports: JsonObject[] }[] } } };
const portsOf = (o: JsonObject) => (o as unknown as Ports).template.spec.containers[0]!.ports;
function edit(o: JsonObject): JsonObject {
  const e = structuredClone(o);
  portsOf(e).push({ containerPort: 8080 });
  return e;
}

/** The managers that own the port `k:{...}` of container c. */
function portOwners(o: JsonObject, port: number): string[] {
  const key = `k:{"containerPort":${port},"protocol":"TCP"}`;
  return ((o.metadata as JsonObject).managedFields as ManagedFieldsEntry[])
    .filter((e) => {
      const f = e.fieldsV1 as Record<string, Record<string, Record<string, Record<string, Record<string, Record<string, unknown>>>>>> | undefined;
      return !!f?.['f:template']?.['f:spec']?.['f:containers']?.['k:{"name":"c"}']?.['f:ports']?.[key];
    })
    .map((e) => e.manager ?? '?')
    .sort();
}

withTestNamespace(ns);

describe.skipIf(!hasKubectl())('a key field with a default (ports without protocol)', () => {
  it('a new port without protocol is sent alone, keyed, and port 80 stays the other manager’s, as with kubectl', async () => {
    const hints = await hintsFor('', 'v1', 'PodTemplate');
    for (const n of ['explorer', 'kubectl']) await patchAs(path(n), 'apply', toYaml(theirs(n)), { fieldManager: 'other' });
    const live = await kube('GET', path('explorer'));
    const edited = edit(withoutManagedFields(live));
    const body = applyConfiguration(live, edited, M, { hints });
    const ours = await patchAs(path('explorer'), 'apply', toYaml(body), { fieldManager: M });
    // kubectl's manifest is the same intent as written by hand: the new port, without protocol.
    const manifest = { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'kubectl', namespace: ns }, template: { spec: { containers: [{ name: 'c', ports: [{ containerPort: 8080 }] }] } } };
    kubectl(['apply', '--server-side', `--field-manager=${M}`, '-f', '-'], toYaml(manifest));
    const ref = await kube('GET', path('kubectl'));
    expect(portsOf(ours)).toEqual(portsOf(ref));
    expect(portOwners(ours, 80)).toEqual(['other']);
    expect(portOwners(ours, 80)).toEqual(portOwners(ref, 80));
    expect(portOwners(ours, 8080)).toEqual(portOwners(ref, 8080));
    // The body and the page's note: the new port alone, keyed; no list called unkeyed.
    expect(portsOf(body)).toEqual([{ containerPort: 8080, protocol: 'TCP' }]);
    expect(unkeyedLists(live, edited, hints)).toEqual([]);
  });
});

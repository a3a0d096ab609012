import { describe, expect, it } from 'vitest';
import type { ApiResource, Discovery } from '../../k8s/discovery';
import { candidateTypes, dependentTypeKeys } from './dependents';

const res = (group: string, version: string, resource: string, namespaced: boolean, verbs = ['list', 'watch', 'get']): ApiResource => ({ group, version, resource, kind: resource, singular: resource, namespaced, verbs, shortNames: [], categories: [], subresources: [] });

const discovery: Discovery = {
  source: 'aggregated',
  groups: [
    { name: '', preferredVersion: 'v1', versions: [{ version: 'v1', resources: [res('', 'v1', 'configmaps', true), res('', 'v1', 'nodes', false), res('', 'v1', 'bindings', true, ['create'])] }] },
    { name: 'example.com', preferredVersion: 'v2', versions: [{ version: 'v2', resources: [res('example.com', 'v2', 'things', true)] }, { version: 'v1', resources: [res('example.com', 'v1', 'things', true)] }] },
  ],
};

describe('candidateTypes', () => {
  it("lists a namespaced owner's possible dependents: namespaced, listable and watchable, one version per group", () => {
    expect(candidateTypes(discovery, true).map((r) => `${r.group}/${r.version}/${r.resource}`)).toEqual(['/v1/configmaps', 'example.com/v2/things']);
  });
  it('adds cluster-scoped types for a cluster-scoped owner', () => {
    expect(candidateTypes(discovery, false).map((r) => r.resource)).toEqual(['configmaps', 'nodes', 'things']);
  });
});

describe('dependentTypeKeys', () => {
  it('follows ownerReferences at any depth, whatever the order the types were listed in', () => {
    const keys = dependentTypeKeys(
      [
        { type: 'pods', items: [{ uid: 'p1', ownerUids: ['rs1'] }, { uid: 'p2', ownerUids: ['other'] }] },
        { type: 'replicasets', items: [{ uid: 'rs1', ownerUids: ['d1'] }] },
        { type: 'secrets', items: [{ uid: 's1', ownerUids: [] }] },
      ],
      'd1',
    );
    expect([...keys].sort()).toEqual(['pods', 'replicasets']);
  });
  it('finds nothing for an owner nothing points at', () => {
    expect(dependentTypeKeys([{ type: 'pods', items: [{ uid: 'p1', ownerUids: ['x'] }] }], 'd1').size).toBe(0);
  });
});

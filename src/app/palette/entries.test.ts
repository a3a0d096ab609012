import { describe, expect, it } from 'vitest';
import type { Discovery } from '../../k8s/discovery';
import { objectQuery, paletteEntries, rankEntries } from './entries';

const res = (resource: string, kind: string, shortNames: string[] = [], group = '') => ({ group, version: 'v1', resource, kind, singular: kind.toLowerCase(), namespaced: true, verbs: ['list', 'get'], shortNames, categories: [], subresources: [] });
const discovery: Discovery = {
  source: 'aggregated',
  groups: [
    { name: '', preferredVersion: 'v1', versions: [{ version: 'v1', resources: [res('configmaps', 'ConfigMap', ['cm']), res('pods', 'Pod', ['po']), res('events', 'Event', ['ev'])] }] },
    { name: 'apps', preferredVersion: 'v1', versions: [{ version: 'v1', resources: [res('deployments', 'Deployment', ['deploy'], 'apps')] }] },
  ],
};
const sources = {
  views: [
    { view: 'lists' as const, label: 'Lists' },
    { view: 'lessons' as const, label: 'Lessons' },
    { view: 'serving' as const, label: 'Serving' },
  ],
  discovery,
  lessons: [
    { id: 'health', title: 'Health endpoints: livez, readyz' },
    { id: 'watch', title: 'Watch from a list' },
  ],
  contexts: ['local-admin', 'local-viewer'],
  context: 'local-admin',
};

describe('the command palette', () => {
  it('offers views, resources, lessons and the other contexts, matched fuzzily', () => {
    const all = paletteEntries(sources);
    expect(all.filter((e) => e.kind === 'context').map((e) => e.label)).toEqual(['local-viewer']);
    expect(rankEntries(all, 'hea')[0]).toMatchObject({ kind: 'lesson', to: { view: 'lessons', extra: { lesson: 'health' } } });
    expect(rankEntries(all, 'dep')[0]).toMatchObject({ kind: 'resource', label: 'deployments.apps', to: { view: 'lists', group: 'apps', resource: 'deployments' } });
    expect(rankEntries(all, 'srv')[0]).toMatchObject({ kind: 'view', to: { view: 'serving' } });
    expect(rankEntries(all, 'viewer')[0]).toMatchObject({ kind: 'context', to: { context: 'local-viewer' } });
    expect(rankEntries(all, 'zzzz')).toEqual([]);
  });

  it('reads "<resource> <name>" as a resource, as kubectl names it, and ranks its objects by the name', () => {
    expect(objectQuery(discovery, 'cm web')).toMatchObject({ resource: { resource: 'configmaps' }, name: 'web' });
    expect(objectQuery(discovery, 'deploy ')).toMatchObject({ resource: { resource: 'deployments' }, name: '' });
    expect(objectQuery(discovery, 'health')).toBeUndefined();
    expect(objectQuery(discovery, 'nothing here')).toBeUndefined();
    const all = paletteEntries({ ...sources, objects: { resource: discovery.groups[0]!.versions[0]!.resources[0]!, items: [{ name: 'api-config', namespace: 'a' }, { name: 'web', namespace: 'b' }] } });
    expect(rankEntries(all, 'cm web', 'web')[0]).toMatchObject({ kind: 'object', label: 'configmaps/web', to: { view: 'edit', resource: 'configmaps', name: 'web', namespace: 'b' } });
  });
});

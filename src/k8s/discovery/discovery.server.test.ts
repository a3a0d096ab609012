// Against the real local control plane, through the real proxy.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { fetchDiscovery, findResource, resolveResource } from './discovery';

beforeAll(() => {
  useRealProxy();
});

describe('discovery', () => {
  it('reads aggregated discovery: pods in core v1, deployments in apps/v1, with their verbs', async () => {
    const d = await fetchDiscovery(TEST_CONTEXT);
    expect(d.source).toBe('aggregated');
    const pods = findResource(d, '', 'v1', 'pods');
    expect(pods).toMatchObject({ kind: 'Pod', namespaced: true, shortNames: ['po'] });
    expect(pods?.verbs).toEqual(expect.arrayContaining(['get', 'list', 'watch', 'create', 'delete', 'patch', 'update']));
    expect(pods?.subresources.map((s) => s.name)).toEqual(expect.arrayContaining(['status', 'log', 'exec', 'eviction']));
    expect(findResource(d, 'apps', 'v1', 'deployments')?.kind).toBe('Deployment');
    expect(d.groups.find((g) => g.name === '')?.preferredVersion).toBe('v1');
  });

  it('resolves short names and kinds the way kubectl does', async () => {
    const d = await fetchDiscovery(TEST_CONTEXT);
    expect(resolveResource(d, 'deploy').map((r) => `${r.group}/${r.resource}`)).toEqual(['apps/deployments']);
    expect(resolveResource(d, 'cm')[0]?.resource).toBe('configmaps');
    expect(resolveResource(d, 'Pod')[0]?.resource).toBe('pods');
  });
});

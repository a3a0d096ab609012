// Against discovery read from the real server through the real proxy.
import { beforeAll, describe, expect, it } from 'vitest';
import { allResources, type Discovery, fetchDiscovery } from '../../k8s/discovery';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { matchesResource } from './filter';

let d: Discovery;
beforeAll(async () => {
  useRealProxy();
  d = await fetchDiscovery(TEST_CONTEXT);
});

const names = (text: string) => allResources(d).filter((r) => matchesResource(r, text)).map((r) => `${r.group}/${r.version}/${r.resource}`);

describe('matchesResource', () => {
  it('matches short names exactly, as kubectl does', () => {
    expect(names('deploy')).toContain('apps/v1/deployments');
    expect(names('po')).toContain('/v1/pods');
  });
  it('matches kinds and categories', () => {
    expect(names('Deployment')).toContain('apps/v1/deployments');
    const all = names('all');
    expect(all).toEqual(expect.arrayContaining(['/v1/pods', 'apps/v1/deployments', '/v1/services']));
    expect(all).not.toContain('/v1/configmaps');
  });
});

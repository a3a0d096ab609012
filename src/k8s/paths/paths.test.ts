import { describe, expect, it } from 'vitest';
import { parseResourcePath, resourcePath, withQuery } from './paths';

describe('resourcePath', () => {
  it('puts the core group under /api and others under /apis', () => {
    expect(resourcePath({ group: '', version: 'v1', resource: 'pods', namespace: 'default', name: 'p' })).toBe('/api/v1/namespaces/default/pods/p');
    expect(resourcePath({ group: 'apps', version: 'v1', resource: 'deployments' })).toBe('/apis/apps/v1/deployments');
    expect(resourcePath({ group: '', version: 'v1', resource: 'namespaces', name: 'kube-system', subresource: 'status' })).toBe('/api/v1/namespaces/kube-system/status');
  });

  it('round-trips through parseResourcePath', () => {
    for (const ref of [
      { group: '', version: 'v1', resource: 'configmaps', namespace: 'a', name: 'b', subresource: undefined },
      { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'x', name: 'y', subresource: 'scale' },
      { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles', namespace: undefined, name: 'view', subresource: undefined },
    ]) {
      expect(parseResourcePath(resourcePath(ref))).toEqual(ref);
    }
  });

  it('adds query parameters, leaving out empty ones', () => {
    expect(withQuery('/api/v1/pods?limit=5', { continue: 'abc', labelSelector: '' })).toBe('/api/v1/pods?limit=5&continue=abc');
  });
});

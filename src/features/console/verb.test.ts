import { describe, expect, it } from 'vitest';
import { requestAttributes } from './verb';

describe('requestAttributes', () => {
  it('maps method and path to the verb the authorizer sees', () => {
    expect(requestAttributes('GET', '/api/v1/namespaces/a/pods')).toEqual({ verb: 'list', group: '', resource: 'pods', namespace: 'a' });
    expect(requestAttributes('GET', '/api/v1/namespaces/a/pods?watch=true')).toMatchObject({ verb: 'watch' });
    expect(requestAttributes('GET', '/apis/apps/v1/namespaces/a/deployments/web')).toEqual({ verb: 'get', group: 'apps', resource: 'deployments', namespace: 'a', name: 'web' });
    expect(requestAttributes('POST', '/api/v1/namespaces/a/configmaps')).toEqual({ verb: 'create', group: '', resource: 'configmaps', namespace: 'a' });
    expect(requestAttributes('PATCH', '/apis/apps/v1/namespaces/a/deployments/web/scale')).toMatchObject({ verb: 'patch', subresource: 'scale', name: 'web' });
    expect(requestAttributes('DELETE', '/api/v1/namespaces/a/configmaps')).toMatchObject({ verb: 'deletecollection' });
    expect(requestAttributes('DELETE', '/api/v1/namespaces/a')).toEqual({ verb: 'delete', group: '', resource: 'namespaces', name: 'a' });
    expect(requestAttributes('GET', '/version')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { parseRoute, serializeRoute } from './route';

describe('route', () => {
  it('round-trips every known key and keeps unknown ones', () => {
    const search = '?context=local-admin&view=lists&namespace=kube-system&group=apps&version=v1&resource=deployments&name=x&limit=500';
    const r = parseRoute(search);
    expect(r).toMatchObject({ context: 'local-admin', view: 'lists', namespace: 'kube-system', group: 'apps', version: 'v1', resource: 'deployments', name: 'x', extra: { limit: '500' } });
    expect(parseRoute(serializeRoute(r))).toEqual(r);
  });

  it('keeps the core group as an empty string, distinct from no group', () => {
    expect(parseRoute('?group=&version=v1').group).toBe('');
    expect(parseRoute('?version=v1').group).toBeUndefined();
  });

  it('falls back to discovery for an unknown view', () => {
    expect(parseRoute('?view=nope').view).toBe('discovery');
  });
});

// SelfSubjectAccessReview against the real server: the answer depends on who asks.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_CONTEXT, TEST_VIEWER_CONTEXT, useRealProxy } from '../proxy.testkit';
import { reviewAccess } from './access';

beforeAll(() => {
  useRealProxy();
});

describe('reviewAccess', () => {
  it('tells the viewer it may list but not create configmaps in a namespace', async () => {
    const list = await reviewAccess(TEST_VIEWER_CONTEXT, { verb: 'list', group: '', resource: 'configmaps', namespace: 'default' });
    const create = await reviewAccess(TEST_VIEWER_CONTEXT, { verb: 'create', group: '', resource: 'configmaps', namespace: 'default' });
    expect(list.allowed).toBe(true);
    expect(create.allowed).toBe(false);
  });

  it('tells the admin it may create', async () => {
    const create = await reviewAccess(TEST_CONTEXT, { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default' });
    expect(create.allowed).toBe(true);
  });
});

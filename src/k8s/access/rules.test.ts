import { describe, expect, it } from 'vitest';
import { accessMark, rulesAllow, verbsFromRules } from './rules';

// Rules as a real SelfSubjectRulesReview returned them for a ServiceAccount with a Role in one
// namespace, plus the rules every authenticated user gets (system:basic-user and friends).
const RESTRICTED = [
  { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
  { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps', 'pods', 'services', 'events'] },
  { verbs: ['get', 'list', 'watch'], apiGroups: ['apps'], resources: ['deployments'] },
  { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['only-this'] },
  { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] },
];

describe('verbs from a rules review', () => {
  it('matches group and resource exactly', () => {
    expect(verbsFromRules(RESTRICTED, '', 'configmaps')).toEqual({ verbs: ['get', 'list', 'watch'], namedOnly: [] });
    expect(verbsFromRules(RESTRICTED, 'apps', 'deployments').verbs).toEqual(['get', 'list', 'watch']);
    // Same resource name, another group: not granted.
    expect(verbsFromRules(RESTRICTED, 'events.k8s.io', 'events').verbs).toEqual([]);
    expect(verbsFromRules(RESTRICTED, '', 'deployments').verbs).toEqual([]);
  });

  it('keeps rules with resourceNames apart: they never allow a list', () => {
    expect(verbsFromRules(RESTRICTED, '', 'secrets')).toEqual({ verbs: [], namedOnly: ['get'] });
    expect(rulesAllow(RESTRICTED, '', 'secrets', 'get')).toBe(false);
    expect(accessMark(verbsFromRules(RESTRICTED, '', 'secrets'))).toBe('named objects only');
  });

  it('does not take a subresource rule for the resource', () => {
    expect(verbsFromRules(RESTRICTED, '', 'pods').verbs).toEqual(['get', 'list', 'watch']);
    expect(verbsFromRules(RESTRICTED, '', 'nodes').verbs).toEqual([]);
  });

  it('reads * as every verb, group and resource (cluster-admin)', () => {
    const admin = [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }];
    expect(verbsFromRules(admin, 'wardle.example.com', 'flunders')).toEqual({ verbs: ['*'], namedOnly: [] });
    expect(rulesAllow(admin, '', 'nodes', 'deletecollection')).toBe(true);
    expect(accessMark(verbsFromRules(admin, '', 'nodes'))).toBe('read, write');
  });

  it('marks what a list needs', () => {
    expect(accessMark(verbsFromRules(RESTRICTED, '', 'pods'))).toBe('read');
    expect(accessMark({ verbs: ['get'], namedOnly: [] })).toBe('get only');
    expect(accessMark({ verbs: ['create'], namedOnly: [] })).toBe('write only');
    expect(accessMark(verbsFromRules(RESTRICTED, '', 'nodes'))).toBe('');
  });
});

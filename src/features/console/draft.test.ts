import { describe, expect, it } from 'vitest';
import { parseRoute, serializeRoute } from '../../routing';
import { DEFAULT_DRAFT, draftFromExtra, draftToExtra, draftToRequest, requestToDraft } from './draft';

describe('console draft in the URL', () => {
  it('survives a trip through the URL query string, including an empty-string parameter value dropped', () => {
    const draft = {
      method: 'POST',
      path: '/api/v1/namespaces/demo/configmaps',
      params: [['fieldValidation', 'Strict'], ['dryRun', 'All']] as [string, string][],
      headers: [['Content-Type', 'application/json'], ['Accept', 'application/yaml']] as [string, string][],
      body: '{"a": "b & c"}',
    };
    const search = serializeRoute({ view: 'console', context: 'local-admin', extra: draftToExtra(draft) });
    expect(draftFromExtra(parseRoute(search).extra)).toEqual(draft);
  });

  it('moves a query string pasted into the path into parameter rows', () => {
    expect(draftFromExtra({ m: 'get', p: '/api/v1/pods?limit=5&labelSelector=app%3Dweb' })).toMatchObject({
      method: 'GET',
      path: '/api/v1/pods',
      params: [['limit', '5'], ['labelSelector', 'app=web']],
    });
    expect(draftFromExtra({})).toEqual(DEFAULT_DRAFT);
  });

  it('builds the exact request: encoded query, named headers only, no body on GET', () => {
    const req = draftToRequest({ method: 'GET', path: '/api/v1/pods', params: [['labelSelector', 'app in (a,b)']], headers: [['Accept', 'application/json'], ['', 'x']], body: 'ignored' });
    expect(req).toEqual({ method: 'GET', path: '/api/v1/pods?labelSelector=app+in+%28a%2Cb%29', headers: [['Accept', 'application/json']] });
    expect(requestToDraft(req).params).toEqual([['labelSelector', 'app in (a,b)']]);
  });
});

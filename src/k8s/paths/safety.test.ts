// Paths the browser would rewrite before sending are refused (pure).
import { describe, expect, it } from 'vitest';
import { pathAsSent, pathProblem } from './safety';

describe('pathProblem', () => {
  it.each(['/api/v1/namespaces/../configmaps', '/api/v1/namespaces/%2e%2e/configmaps', '/api/v1/namespaces/%2E./configmaps', '/api/v1/./pods', '/api/v1/namespaces/a%2fb/pods', '/api/v1/namespaces/a%5Cb/pods', '//evil.example/api', '/api/v1\\pods', '/api/v1/pods#x', '/api/v1/namespaces/%252e/pods', '/api/%zz'])(
    'refuses %s with a reason',
    (p) => {
      expect(pathProblem(p)).toMatch(/\w/);
    },
  );

  it.each(['/api/v1/namespaces/default/configmaps', '/api/', '/', '/api/v1/pods?fieldSelector=metadata.name%3D..', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:aggregate-to-edit'])('accepts %s', (p) => {
    expect(pathProblem(p)).toBeUndefined();
  });

  it.each([
    ['/api/v1/namespaces/d/configmaps/prod\t-db', 'a tab (U+0009) at character 37'],
    ['/api/v1/namespaces/d/configmaps/prod\n', 'a line feed'],
    ['/api/v1/pods\u0000', 'a NUL'],
    ['/api/v1/pods\u007f', 'DEL'],
    ['/api/v1/namespaces/d\u0085/pods', 'NEL'],
    ['/api/v1/pods\u2028', 'LINE SEPARATOR'],
    ['/api/v1/pods?labelSelector=a\u2029', 'PARAGRAPH SEPARATOR'],
    ['/api/v1/pods\u001b', 'U+001B'],
  ])('refuses a control character in %j, naming it', (p, why) => {
    expect(pathProblem(p)).toContain(why);
  });

  it('says what the browser would have sent instead', () => {
    expect(pathProblem('/api/v1/namespaces/%2e%2e/configmaps')).toContain('cluster-wide');
  });
});

describe('pathAsSent', () => {
  it('adds the percent-encoding the browser adds', () => {
    expect(pathAsSent('/api/v1/pods?labelSelector=app in (a,b)')).toBe('/api/v1/pods?labelSelector=app%20in%20(a,b)');
    expect(pathAsSent('/api/v1/namespaces/default')).toBe('/api/v1/namespaces/default');
  });
});

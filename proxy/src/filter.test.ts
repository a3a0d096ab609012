import { describe, expect, it } from 'vitest';
import { ProxyError } from './errors';
import { encodeSegment, normalizeApiPath, parseK8sUrl, refusal } from './filter';

function rejection(fn: () => unknown): ProxyError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ProxyError) return e;
    throw e;
  }
  throw new Error('expected a ProxyError');
}

describe('normalizeApiPath', () => {
  it.each([
    ['/api/v1/namespaces', '/api/v1/namespaces', ''],
    ['/api/v1/namespaces?limit=5&continue=abc%3D', '/api/v1/namespaces', '?limit=5&continue=abc%3D'],
    ['/apis/rbac.authorization.k8s.io/v1/clusterroles/system:controller:foo', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:controller:foo', ''],
    ['/apis/rbac.authorization.k8s.io/v1/clusterroles/system%3Acontroller%3Afoo', '/apis/rbac.authorization.k8s.io/v1/clusterroles/system:controller:foo', ''],
    ['/api/v1/', '/api/v1/', ''],
    ['/', '/', ''],
    ['/%61pi/v1', '/api/v1', ''],
    ['/api/v1/namespaces/a%20b', '/api/v1/namespaces/a%20b', ''],
  ])('keeps %s as %s', (input, path, query) => {
    const r = normalizeApiPath(input);
    expect(r.path).toBe(path);
    expect(r.query).toBe(query);
  });

  it.each([
    ['a dot-dot segment', '/api/v1/namespaces/default/pods/../../../nodes'],
    ['a single dot segment', '/api/./v1'],
    ['an encoded dot-dot (%2e%2e)', '/api/v1/namespaces/%2e%2e/%2E%2E/nodes'],
    ['a half-encoded dot-dot (.%2e)', '/api/v1/.%2e/nodes'],
    ['an encoded slash (%2f)', '/api/v1/namespaces/default%2fpods'],
    ['an encoded backslash (%5c)', '/api/v1/namespaces/a%5c..'],
    ['a raw backslash', '/api/v1\\..\\nodes'],
    ['double encoding (%252e)', '/api/v1/%252e%252e/nodes'],
    ['an empty segment (//)', '/api//v1'],
    ['a leading double slash', '//evil.example/api'],
    ['an absolute URL after the context', '/https://evil.example/api'],
    ['an encoded absolute URL', '/https:%2f%2fevil.example/api'],
    ['no leading slash', 'api/v1'],
    ['malformed percent-encoding', '/api/v1/%zz'],
    ['a NUL byte', '/api/v1/%00'],
    ['a raw space', '/api/v1/a b'],
    ['non-ASCII', '/api/v1/é'],
    ['a space in the query', '/api/v1/pods?labelSelector=a b'],
    ['a "#" in the query', '/api/v1/pods?watch=1#x'],
    ['non-ASCII in the query', '/api/v1/pods?x=é'],
  ])('rejects %s', (_name, input) => {
    const e = rejection(() => normalizeApiPath(input));
    expect(e.code).toBe(400);
    expect(e.proxyCause).toBe('InvalidPath');
  });

  it.each([
    '/api/v1/namespaces/default/configmaps/',
    '/apis/apps/v1/namespaces/a.b/deployments/c..d',
    '/api/v1/namespaces/x/configmaps/...',
    '/api/v1/namespaces/x/configmaps/.hidden',
    '/api/v1/namespaces/x/configmaps/[a]',
    "/apis/rbac.authorization.k8s.io/v1/clusterroles/system:a~b!$&'()*+,;=@",
    '/api/v1/pods?',
    '/api?watch=1&labelSelector=a%3Db',
    '/api/v1/namespaces/x/configmaps/a.b./c',
  ])('treats plain %s as the full check does (the same path with an encoded letter takes the full check)', (input) => {
    const fullCheck = normalizeApiPath(input.replace('/api', '/%61pi'));
    expect(normalizeApiPath(input)).toEqual(fullCheck);
  });

  it('encodes what is not pchar even without a percent sign', () => {
    expect(normalizeApiPath('/api/v1/namespaces/[a]').path).toBe('/api/v1/namespaces/%5Ba%5D');
  });

  it('forwards exactly the segments it checked', () => {
    const r = normalizeApiPath('/api/v1/namespaces/x%3Fy/configmaps');
    expect(r.segments).toEqual(['api', 'v1', 'namespaces', 'x?y', 'configmaps']);
    expect(r.path).toBe('/api/v1/namespaces/x%3Fy/configmaps');
  });
});

describe('encodeSegment', () => {
  it('leaves pchar alone and escapes the rest', () => {
    expect(encodeSegment("a-b_c.d~e!$&'()*+,;=:@")).toBe("a-b_c.d~e!$&'()*+,;=:@");
    expect(encodeSegment('a b/c?d#e%é')).toBe('a%20b%2Fc%3Fd%23e%25%C3%A9');
  });
});

describe('parseK8sUrl', () => {
  it('decodes the context segment once, slashes included', () => {
    const r = parseK8sUrl('/k8s/arn%3Aaws%3Aeks%3Aeu-west-1%3A1%3Acluster%2Fprod/api/v1/pods?watch=1');
    expect(r.context).toBe('arn:aws:eks:eu-west-1:1:cluster/prod');
    expect(r.path).toBe('/api/v1/pods');
    expect(r.query).toBe('?watch=1');
  });

  it.each([
    ['no path after the context', '/k8s/local-admin'],
    ['an empty context', '/k8s//api/v1'],
    ['a query in the context', '/k8s/ctx?x=/api'],
    ['an absolute URL after the context', '/k8s/ctx/https://evil.example/'],
  ])('rejects %s', (_name, url) => {
    expect(rejection(() => parseK8sUrl(url)).code).toBe(400);
  });
});

describe('refusal', () => {
  const segs = (p: string) => normalizeApiPath(p).segments;
  it.each([
    ['pod exec', '/api/v1/namespaces/default/pods/web/exec'],
    ['pod exec with a query', '/api/v1/namespaces/default/pods/web/exec'],
    ['pod attach', '/api/v1/namespaces/default/pods/web/attach'],
    ['pod port-forward', '/api/v1/namespaces/default/pods/web/portforward'],
    ['pod proxy', '/api/v1/namespaces/default/pods/web/proxy'],
    ['pod proxy with a sub-path', '/api/v1/namespaces/default/pods/web/proxy/metrics'],
    ['pod proxy with a port', '/api/v1/namespaces/default/pods/web:8080/proxy/'],
    ['pod proxy with scheme and port', '/api/v1/namespaces/default/pods/https:web:8443/proxy/x'],
    ['service proxy', '/api/v1/namespaces/default/services/web/proxy'],
    ['service proxy with a port name', '/api/v1/namespaces/default/services/http:web:http/proxy/healthz'],
    ['node proxy', '/api/v1/nodes/n1/proxy'],
    ['node proxy to the kubelet', '/api/v1/nodes/n1/proxy/configz'],
    ['node proxy with a port', '/api/v1/nodes/n1:10250/proxy/pods'],
    ['legacy /api/v1/proxy', '/api/v1/proxy/namespaces/default/pods/web'],
    ['legacy watch prefix', '/api/v1/watch/namespaces/default/pods/web/exec'],
    ['an aggregated API console-like subresource', '/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachineinstances/vm/portforward'],
    ['mixed case', '/api/v1/namespaces/default/pods/web/Exec'],
    ['pod ephemeral containers (runs any image and command in the pod)', '/api/v1/namespaces/default/pods/web/ephemeralcontainers'],
  ])('refuses %s', (_name, path) => {
    const e = refusal(segs(path));
    expect(e?.code).toBe(403);
    expect(e?.proxyCause).toBe('RefusedSubresource');
  });

  it('names what it refuses', () => {
    expect(refusal(segs('/api/v1/namespaces/default/pods/web/Exec'))?.message).toMatch(/refuses pods\/exec: it runs commands inside containers.*kubectl proxy refuses it by default too/);
    expect(refusal(segs('/API/v1/watch/proxy/nodes/n1'))?.message).toMatch(/refuses proxy \(legacy \/api\/v1\/proxy\/\.\.\.\)/);
    expect(refusal(segs('/apis/example.io/v1/redirect/x'))?.message).toMatch(/refuses redirect \(legacy \/apis\/example\.io\/v1\/redirect\/\.\.\.\)/);
    expect(refusal(segs('/api/v1/nodes/n1/proxy/configz'))?.message).toMatch(/refuses nodes\/proxy:/);
  });

  it.each([
    ['a pod', '/api/v1/namespaces/default/pods/web'],
    ['pod logs', '/api/v1/namespaces/default/pods/web/log'],
    ['a pod named exec', '/api/v1/namespaces/default/pods/exec'],
    ['a namespace named proxy', '/api/v1/namespaces/proxy/pods'],
    ['a configmap named proxy', '/api/v1/namespaces/default/configmaps/proxy'],
    ['namespace finalize', '/api/v1/namespaces/default/finalize'],
    ['deployment scale', '/apis/apps/v1/namespaces/default/deployments/web/scale'],
    ['discovery', '/apis'],
    ['version', '/version'],
    ['openapi', '/openapi/v3/api/v1'],
  ])('lets %s pass', (_name, path) => {
    expect(refusal(segs(path))).toBeNull();
  });
});

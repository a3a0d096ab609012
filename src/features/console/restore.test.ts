import { describe, expect, it } from 'vitest';
import { heldNote, refetchable, restorePlan, sameRequest } from './restore';

describe('what a console link restores', () => {
  it('sends again only a read the URL marks as sent; never a write, whatever the URL says', () => {
    expect(restorePlan({ m: 'GET', p: '/api/v1/namespaces', 'h.Accept': 'application/json', send: '1' })).toEqual({
      kind: 'refetch',
      request: { method: 'GET', path: '/api/v1/namespaces', headers: [['Accept', 'application/json']] },
    });
    expect(restorePlan({ m: 'GET', p: '/api/v1/namespaces' })).toEqual({ kind: 'form' });
    expect(restorePlan({})).toEqual({ kind: 'form' });
    for (const m of ['PATCH', 'DELETE', 'POST', 'PUT']) {
      for (const send of [{ send: '1' }, {}] as Record<string, string>[]) expect(restorePlan({ m, p: '/api/v1/namespaces/x/configmaps/y', ...send })).toEqual({ kind: 'held', method: m, why: 'write' });
    }
    expect(restorePlan({ m: 'GET', p: '/api/v1/pods', 'q.watch': 'true', send: '1' })).toEqual({ kind: 'held', method: 'GET', why: 'watch' });
    expect(heldNote({ kind: 'held', method: 'DELETE', why: 'write' })).toContain('never sends a write on its own');
    // A GET past the API server (into a service, a pod, a node) is whatever the endpoint makes of it.
    expect(restorePlan({ m: 'GET', p: '/api/v1/namespaces/x/services/web:80/proxy/admin/reset', send: '1' })).toEqual({ kind: 'held', method: 'GET', why: 'passthrough' });
    expect(restorePlan({ m: 'GET', p: '/api/v1/namespaces/x/pods/p/exec', 'q.command': 'ls', send: '1' })).toMatchObject({ kind: 'held', why: 'passthrough' });
    // Percent-encoded, as the API server decodes it before routing: still past the API server.
    expect(restorePlan({ m: 'GET', p: '/api/v1/namespaces/x/services/web:80/%70roxy/admin/reset', send: '1' })).toMatchObject({ kind: 'held', why: 'passthrough' });
    expect(restorePlan({ m: 'GET', p: '/api/v1/namespaces/x/pods/p/%65%78%65%63', 'q.command': 'ls', send: '1' })).toMatchObject({ kind: 'held', why: 'passthrough' });
  });

  it('refetches reads that are not watches, and compares requests as the server sees them', () => {
    expect(refetchable({ method: 'get', path: '/api/v1/pods?limit=5', headers: [] })).toBe(true);
    expect(refetchable({ method: 'HEAD', path: '/api/v1/pods', headers: [] })).toBe(true);
    expect(refetchable({ method: 'GET', path: '/api/v1/pods?watch=1', headers: [] })).toBe(false);
    expect(refetchable({ method: 'DELETE', path: '/api/v1/pods/x', headers: [] })).toBe(false);
    const a = { method: 'GET', path: '/api/v1/pods', headers: [['Accept', 'application/yaml']] as [string, string][] };
    expect(sameRequest(a, { ...a, method: 'get' })).toBe(true);
    expect(sameRequest(a, { ...a, headers: [['Accept', 'application/json']] })).toBe(false);
    expect(sameRequest(a, { ...a, path: '/api/v1/pods?limit=1' })).toBe(false);
  });
});

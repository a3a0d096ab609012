import { describe, expect, it } from 'vitest';
import { statusOf } from './kubeFetch';

describe('statusOf', () => {
  it("keeps the server's own Status, reason and causes included", () => {
    const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'configmaps "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'configmaps' }, code: 404 });
    expect(statusOf(404, body)).toEqual(JSON.parse(body));
  });
  it('describes a body that is not a Status by the HTTP code and the start of the body', () => {
    const s = statusOf(502, '<html>bad gateway</html>' + 'x'.repeat(1000));
    expect(s).toMatchObject({ kind: 'Status', status: 'Failure', code: 502 });
    expect(s.message).toHaveLength(500);
  });
  it('falls back to the status text, then to the code, for an empty body', () => {
    expect(statusOf(503, '', 'Service Unavailable').message).toBe('Service Unavailable');
    expect(statusOf(503, '').message).toBe('HTTP 503');
  });
});

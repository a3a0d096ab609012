// Warning headers as the real API server sends them, through the explorer's proxy and directly.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from '../../proxy/cluster/cluster.testkit';
import { kubeFetch } from '../k8s/client';
import { TEST_CONTEXT, useRealProxy } from '../k8s/proxy.testkit';
import { parseWarningHeader } from './warnings';

describe('Warning headers from the real API server', () => {
  beforeAll(() => {
    useRealProxy();
  });

  it("parses each of the server's warnings through the proxy, with a comma and quotes in a field name", async () => {
    const res = await kubeFetch({
      context: TEST_CONTEXT,
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps?dryRun=All&fieldValidation=Warn',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'warn-test' }, 'odd, "name': 1, bogus: true }),
    });
    expect(res.status).toBe(201);
    const warnings = parseWarningHeader(res.headers.get('Warning'));
    // The server escapes the quote inside the field name itself, then quotes the whole text.
    expect(warnings.map((w) => w.text).sort()).toEqual(['unknown field "bogus"', 'unknown field "odd, \\"name"']);
    expect(warnings.every((w) => w.code === 299 && w.agent === '-')).toBe(true);
  });
});

describe('several Warning headers straight from the API server', () => {
  it('parses each of them once joined (as fetch and Node join repeated headers)', async () => {
    const cluster = testCluster(inject('controlPlane'));
    const r = await cluster.request('admin', 'POST', '/api/v1/namespaces/default/configmaps?dryRun=All&fieldValidation=Warn', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'warn-many' },
      'odd, "name': 1,
      bogus: true,
      other: 2,
    });
    expect(r.status).toBe(201);
    const joined = r.headers.warning;
    expect(typeof joined).toBe('string');
    expect(parseWarningHeader(joined as string).map((w) => w.text).sort()).toEqual(['unknown field "bogus"', 'unknown field "odd, \\"name"', 'unknown field "other"'].sort());
  });
});

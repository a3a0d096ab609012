// Two real exchanges compared: JSON vs YAML of the same object.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { compareExchanges } from './compare';
import { runExchange } from '../../k8s/client';

beforeAll(() => {
  useRealProxy();
});

describe('compareExchanges', () => {
  it('lists the differing request line, Content-Type and body, and not what is equal', async () => {
    const a = await runExchange(TEST_CONTEXT, { method: 'GET', path: '/api/v1/namespaces/default', headers: [['Accept', 'application/json']] });
    const b = await runExchange(TEST_CONTEXT, { method: 'GET', path: '/api/v1/namespaces/default', headers: [['Accept', 'application/yaml']] });
    const diff = compareExchanges(a, b);
    const what = diff.map((d) => d.what);
    expect(diff.find((d) => d.what === 'content-type')).toEqual({ what: 'content-type', left: 'application/json', right: 'application/yaml' });
    expect(what).toContain('body');
    expect(what).toContain('audit-id');
    expect(what).not.toContain('status');
    expect(what).not.toContain('request');
    expect(compareExchanges(a, a)).toEqual([]);
  });
});

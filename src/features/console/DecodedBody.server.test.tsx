// The Decoded body view, rendered from real CBOR and protobuf exchanges: it is the first view for
// those types, shows the object's content, and keeps markup in the object as text.
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadK8sSchema } from '../../codecs/protobuf';
import { kubeJson } from '../../k8s/client';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { runExchange } from '../../k8s/client';
import { ExchangeView } from './ExchangeView';

const ns = `decoded-${Date.now().toString(36)}`;
const name = 'shown-decoded';
const SCRIPT = '<script>window.__pwned=1</script>';
const path = `/api/v1/namespaces/${ns}/configmaps/${name}`;

beforeAll(async () => {
  useRealProxy();
  // The view renders protobuf with the schemas once they are loaded (the browser loads them lazily).
  await loadK8sSchema();
  await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
  await kubeJson({
    context: TEST_CONTEXT,
    method: 'POST',
    path: `/api/v1/namespaces/${ns}/configmaps`,
    body: JSON.stringify({ metadata: { name }, data: { page: SCRIPT } }),
  });
});

afterAll(async () => {
  await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/api/v1/namespaces/${ns}` });
});

describe('Decoded body view', () => {
  it('shows a CBOR object as its JSON tree, markup escaped', async () => {
    const exchange = await runExchange(TEST_CONTEXT, { method: 'GET', path, headers: [['Accept', 'application/cbor']] });
    const html = renderToStaticMarkup(<ExchangeView exchange={exchange} />);
    expect(html).toMatch(/aria-selected="true"[^>]*>Decoded</);
    expect(html).toContain('>Hex<');
    expect(html).toContain(`&quot;${name}&quot;`);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
  });

  it('shows a protobuf object as the JSON its schema gives, with apiVersion and kind', async () => {
    const exchange = await runExchange(TEST_CONTEXT, { method: 'GET', path, headers: [['Accept', 'application/vnd.kubernetes.protobuf']] });
    const html = renderToStaticMarkup(<ExchangeView exchange={exchange} />);
    expect(html).toMatch(/aria-selected="true"[^>]*>Decoded</);
    expect(html).toContain('v1 ConfigMap');
    expect(html).toContain('k8s.io.api.core.v1.ConfigMap');
    expect(html).toContain('&quot;page&quot;');
    expect(html).toContain(`&quot;${name}&quot;`);
    expect(html).not.toMatch(/<script/i);
  });
});

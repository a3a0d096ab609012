// Object content is data, never markup: a real exchange carrying HTML and script, rendered to
// HTML by React (no DOM needed), must come out escaped in every body view.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson } from '../../k8s/client';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { JsonTree } from '../../ui/JsonTree';
import { type Exchange, runExchange } from '../../k8s/client';
import { ExchangeView } from './ExchangeView';

const SCRIPT = '<script>window.__pwned=1</script>';
const IMG = '<img src=x onerror="alert(1)">';
const name = `markup-${Date.now().toString(36)}`;
let exchange: Exchange;

beforeAll(async () => {
  useRealProxy();
  await kubeJson({
    context: TEST_CONTEXT,
    method: 'POST',
    path: '/api/v1/namespaces/default/configmaps',
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, annotations: { note: IMG } }, data: { page: SCRIPT } }),
  });
  exchange = await runExchange(TEST_CONTEXT, { method: 'GET', path: `/api/v1/namespaces/default/configmaps/${name}`, headers: [['Accept', 'application/json']] });
});

afterAll(async () => {
  await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/api/v1/namespaces/default/configmaps/${name}` });
});

describe('markup in object content', () => {
  it('is escaped in the exchange inspector', () => {
    const html = renderToStaticMarkup(<ExchangeView exchange={exchange} />);
    expect(html).toContain('HTTP 200');
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;script&gt;window.__pwned=1&lt;/script&gt;');
  });

  it('is escaped in the JSON tree', () => {
    const html = renderToStaticMarkup(<JsonTree value={{ [IMG]: SCRIPT }} openDepth={3} />);
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain('&lt;img src=x onerror=');
  });

  it('renders a real Table response as a table first, its cells as text', async () => {
    const x = await runExchange(TEST_CONTEXT, {
      method: 'GET',
      path: `/api/v1/namespaces/default/configmaps?fieldSelector=metadata.name%3D${name}`,
      headers: [['Accept', 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json']],
    });
    const html = renderToStaticMarkup(<ExchangeView exchange={x} />);
    expect(html).toMatch(/<button[^>]*aria-selected="true"[^>]*>Table<\/button>/);
    expect(html).toMatch(/<th[^>]*>Name<\/th>/);
    expect(html).toContain(`<td>${name}</td>`);
  });

  it('sends an Impersonate-User header the console adds, and shows the server\'s answer as that user', async () => {
    // The proxy passes it as kubectl --as does (proxy/src/headers.ts); the admin may impersonate.
    const x = await runExchange(TEST_CONTEXT, {
      method: 'POST',
      path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
      headers: [['Content-Type', 'application/json'], ['Impersonate-User', 'explorer-viewer']],
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });
    expect(x.response?.status).toBe(201);
    expect(JSON.parse(new TextDecoder().decode(x.response!.body)).status.userInfo.username).toBe('explorer-viewer');
    const html = renderToStaticMarkup(<ExchangeView exchange={x} />);
    expect(html).toContain('Impersonate-User');
    expect(html).toContain('explorer-viewer');
  });

  it('no source file of the SPA sets inner HTML', () => {
    const banned = ['dangerously', 'SetInnerHTML'].join('');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const p = join(dir, entry);
        if (statSync(p).isDirectory()) walk(p);
        else if (/\.(tsx?|jsx?)$/.test(p) && (readFileSync(p, 'utf8').includes(banned) || /\.innerHTML\s*=/.test(readFileSync(p, 'utf8')))) offenders.push(p);
      }
    };
    walk('src');
    expect(offenders).toEqual([]);
  });
});

// HAR export and import of real exchanges, run through the real proxy against the real server.
import { beforeAll, describe, expect, it } from 'vitest';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import type { ContextList } from '../../../protocol/contexts';
import { decodeText, type Exchange, proxyJson, rememberProxyUserAgent, runExchange } from '../../k8s/client';
import { fromHar, toHar } from './har';

let exchanges: Exchange[];

beforeAll(async () => {
  useRealProxy();
  exchanges = [
    await runExchange(TEST_CONTEXT, { method: 'GET', path: '/api/v1/namespaces?limit=2', headers: [['Accept', 'application/json']] }),
    await runExchange(TEST_CONTEXT, {
      method: 'POST',
      path: '/api/v1/namespaces/default/configmaps?dryRun=All&fieldValidation=Strict',
      headers: [['Content-Type', 'application/json']],
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'har' }, bogus: 1 }),
    }),
    // Protobuf: a binary body, which HAR carries base64-encoded.
    await runExchange(TEST_CONTEXT, { method: 'GET', path: '/api/v1/namespaces/default', headers: [['Accept', 'application/vnd.kubernetes.protobuf']] }),
  ];
});

describe('HAR', () => {
  it('records real exchanges: statuses, Server-Timing, bodies', () => {
    expect(exchanges.map((x) => x.response?.status)).toEqual([200, 400, 200]);
    expect(exchanges[0]!.timings.upstreamMs).toBeGreaterThanOrEqual(0);
    expect(JSON.parse(decodeText(exchanges[1]!.response!.body))).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(Array.from(exchanges[2]!.response!.body.subarray(0, 4))).toEqual([0x6b, 0x38, 0x73, 0x00]);
  });

  it('round-trips: exported and imported exchanges have the same requests, statuses, headers and body bytes', () => {
    const har = toHar(exchanges, { [TEST_CONTEXT]: 'https://127.0.0.1:6443' });
    // Through JSON text, as a file would be.
    const back = fromHar(JSON.parse(JSON.stringify(har)), 'other');
    expect(back).toHaveLength(exchanges.length);
    back.forEach((b, i) => {
      const a = exchanges[i]!;
      expect(b.context).toBe(TEST_CONTEXT);
      expect(b.request).toEqual(a.request);
      expect(b.response?.status).toBe(a.response?.status);
      expect(b.response?.headers).toEqual(a.response?.headers);
      expect(Buffer.from(b.response!.body).equals(Buffer.from(a.response!.body))).toBe(true);
      expect(b.source).toBe('har');
    });
  });

  it('writes HAR 1.2 with the cluster URL, query string, postData and base64 for binary content', () => {
    const har = toHar(exchanges, { [TEST_CONTEXT]: 'https://127.0.0.1:6443' });
    expect(har.log.version).toBe('1.2');
    const [get, post, proto] = har.log.entries;
    expect(get!.request.url).toBe('https://127.0.0.1:6443/api/v1/namespaces?limit=2');
    expect(get!.request.queryString).toEqual([{ name: 'limit', value: '2' }]);
    expect(post!.request.postData?.mimeType).toBe('application/json');
    expect(post!.response.content.encoding).toBeUndefined();
    expect(proto!.response.content.encoding).toBe('base64');
    expect(proto!.response.content.mimeType).toBe('application/vnd.kubernetes.protobuf');
  });

  it('reads a browser HAR of the explorer, taking context and path from proxy URLs', () => {
    const har = toHar(exchanges.slice(0, 1));
    const e = har.log.entries[0]!;
    const browserLike = { log: { entries: [{ ...e, _context: undefined, _apiPath: undefined, request: { ...e.request, url: 'http://127.0.0.1:7780/k8s/local-viewer/api/v1/pods?limit=1' } }] } };
    const [x] = fromHar(JSON.parse(JSON.stringify(browserLike)), 'fallback');
    expect(x).toMatchObject({ context: 'local-viewer', request: { path: '/api/v1/pods?limit=1' } });
    expect(() => fromHar({ nope: 1 }, 'x')).toThrow(/not a HAR file/);
  });

  it("leaves out a browser HAR's page requests (index, JS, CSS, favicon, /proxy/), keeping the API calls", () => {
    const e = toHar(exchanges.slice(0, 1)).log.entries[0]!;
    const at = (url: string) => ({ ...e, _context: undefined, _apiPath: undefined, request: { ...e.request, url } });
    const page = ['/', '/?context=local-admin&view=console', '/assets/index-D5d3arpK.js', '/assets/index-gXpMP0-X.css', '/favicon.svg', '/proxy/contexts'];
    const api = ['/k8s/local-admin/api/v1/namespaces', '/api/v1/pods', '/apis/apps/v1/deployments', '/version', '/readyz?verbose'];
    const har = { log: { entries: [...page, ...api].map((p) => at(`http://127.0.0.1:7780${p}`)) } };
    const paths = fromHar(JSON.parse(JSON.stringify(har)), 'fallback').map((x) => x.request.path);
    expect(paths).toEqual(['/api/v1/namespaces', '/api/v1/pods', '/apis/apps/v1/deployments', '/version', '/readyz?verbose']);
  });
});

describe('HAR and the User-Agent', () => {
  it('names the User-Agent the proxy sent, and does not send a recorded one again', async () => {
    rememberProxyUserAgent((await proxyJson<ContextList>('contexts')).userAgent);
    const own = await runExchange(TEST_CONTEXT, { method: 'GET', path: '/api/v1/namespaces/default', headers: [['Accept', 'application/json']] });
    const asked = await runExchange(TEST_CONTEXT, { method: 'GET', path: '/api/v1/namespaces/default', headers: [['Accept', 'application/json'], ['User-Agent', 'curl/8.5.0']] });
    expect(own.userAgent).toMatch(/^kube-api-explorer\/\S+ \(\w+\/\w+\)$/);
    expect(asked.userAgent).toBe('curl/8.5.0');
    // The server's own answer to each: indented JSON for curl (kube-apiserver's isPrettyPrint), compact for the explorer.
    expect(decodeText(own.response!.body)).not.toContain('\n  ');
    expect(decodeText(asked.response!.body)).toContain('\n  ');
    const har = toHar([own, asked]);
    expect(har.log.entries.map((e) => e.request.headers.find((h) => h.name === 'User-Agent')?.value)).toEqual([own.userAgent, 'curl/8.5.0']);
    const back = fromHar(JSON.parse(JSON.stringify(har)), 'x');
    expect(back.map((x) => x.userAgent)).toEqual([own.userAgent, 'curl/8.5.0']);
    // Sending an imported exchange again goes out with the explorer's own User-Agent.
    expect(back.map((x) => x.request.headers.some(([k]) => k.toLowerCase() === 'user-agent'))).toEqual([false, false]);
  });
});

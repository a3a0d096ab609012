// The proxy against the real local control plane (vitest global setup), on real sockets.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Decoder as CborDecoder, Tag } from 'cbor-x';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from '../cluster/cluster.testkit';
import { MuxClient, createNamespace, deleteNamespace, direct, json, openWatches, raw, type RawResponse, uniqueName, waitUntil } from './explorer.testkit';
import { type ExplorerServer, startExplorerServer } from './server';
import type { MuxResponse } from '../../protocol/mux';

const cluster = testCluster(inject('controlPlane'));

/** CBOR decoded to JSON with sorted keys; Kubernetes encodes strings and field names as byte strings. */
function canonicalCbor(bytes: Buffer): string {
  const toPlain = (v: unknown): unknown => {
    if (v instanceof Map) {
      const entries = [...v.entries()].map(([k, x]) => [k instanceof Uint8Array ? Buffer.from(k).toString('utf8') : String(k), toPlain(x)] as const);
      return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
    if (Array.isArray(v)) return v.map(toPlain);
    if (v instanceof Tag) return { tag: Number(v.tag), value: toPlain(v.value) };
    return v;
  };
  return JSON.stringify(toPlain(new CborDecoder({ mapsAsObjects: false, useRecords: false }).decode(bytes)));
}
let srv: ExplorerServer;
let staticDir: string;
let ns: string;
const seen: RawResponse[] = [];

/** Every proxy response goes through here so the credential check at the end sees them all. */
async function viaProxy(r: Parameters<typeof raw>[1], opts: { token?: boolean } = {}): Promise<RawResponse> {
  const res = await raw(srv.port, { ...r, headers: { ...(opts.token === false ? {} : { 'X-Explorer-Token': srv.token }), ...r.headers } });
  seen.push(res);
  return res;
}

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'explorer-static-'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><meta name="explorer-token" content="__EXPLORER_TOKEN__" /><script type="module" src="/assets/app-1.js"></script>');
  mkdirSync(join(staticDir, 'assets'));
  writeFileSync(join(staticDir, 'assets', 'app-1.js'), 'console.log(1)');
  srv = await startExplorerServer({ port: 0, kubeconfigPath: cluster.kubeconfig, staticDir, log: () => undefined });
  ns = await createNamespace(cluster, 'proxy-test');
});

afterAll(async () => {
  await srv?.close();
  await deleteNamespace(cluster, ns);
  rmSync(staticDir, { recursive: true, force: true });
});

describe('GET /proxy/contexts', () => {
  it('lists every context of the kubeconfig with the current one marked', async () => {
    const res = await viaProxy({ path: '/proxy/contexts' });
    expect(res.status).toBe(200);
    const body = json(res);
    expect(body.current).toBe('local-admin');
    expect(body.contexts).toEqual([
      // kubeconfig: the server was started with an explicit file, which kubectl commands must name.
      { name: 'local-admin', cluster: 'kube-api-explorer-local', server: cluster.server, user: 'explorer-admin', namespace: 'default', current: true, kubeconfig: cluster.kubeconfig },
      { name: 'local-viewer', cluster: 'kube-api-explorer-local', server: cluster.server, user: 'explorer-viewer', namespace: 'default', current: false, kubeconfig: cluster.kubeconfig },
    ]);
  });
});

describe('forwarding', () => {
  it.each([
    ['protobuf', 'application/vnd.kubernetes.protobuf'],
    ['JSON', 'application/json'],
    ['YAML', 'application/yaml'],
  ])('passes a %s response through byte for byte', async (_name, accept) => {
    const path = '/api/v1/namespaces/default';
    const [viaP, viaD] = await Promise.all([viaProxy({ path: `/k8s/local-admin${path}`, headers: { Accept: accept } }), direct(cluster, 'admin', { path, headers: { Accept: accept } })]);
    expect(viaP.status).toBe(200);
    expect(viaP.headers['content-type']).toBe(viaD.headers['content-type']);
    expect(viaP.headers['content-type']).toContain(accept);
    expect(viaP.body.equals(viaD.body)).toBe(true);
    expect(viaP.headers['server-timing']).toMatch(/^upstream;dur=\d+(\.\d+)?$/);
    expect(viaP.headers['x-explorer-proxy-error']).toBeUndefined();
  });

  it('passes a CBOR response through unchanged (same bytes up to the order the server writes map keys in)', async () => {
    // The API server's CBOR encoder does not fix map key order: two direct requests already differ
    // in bytes. Same length, same self-described prefix, and the same content decoded.
    const path = '/api/v1/namespaces/default';
    const headers = { Accept: 'application/cbor' };
    const [viaP, viaD] = await Promise.all([viaProxy({ path: `/k8s/local-admin${path}`, headers }), direct(cluster, 'admin', { path, headers })]);
    expect(viaP.status).toBe(200);
    expect(viaP.headers['content-type']).toBe(viaD.headers['content-type']);
    expect(viaP.headers['content-type']).toContain('application/cbor');
    expect(viaP.body.subarray(0, 3).toString('hex')).toBe('d9d9f7');
    expect(viaP.body.length).toBe(viaD.body.length);
    expect(canonicalCbor(viaP.body)).toBe(canonicalCbor(viaD.body));
    expect(canonicalCbor(viaP.body)).toContain('"name":"default"');
  });

  it('passes a gzip-encoded list through without decompressing it', async () => {
    // The API server compresses responses above 128 KiB; 200 ConfigMaps of 1 KiB make sure of it.
    const gz = await createNamespace(cluster, 'proxy-gzip');
    try {
      const data = { blob: 'x'.repeat(1024) };
      for (let i = 0; i < 200; i += 20) {
        await Promise.all(
          Array.from({ length: 20 }, (_, j) => cluster.request('admin', 'POST', `/api/v1/namespaces/${gz}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i + j}` }, data })),
        );
      }
      const rv = JSON.parse((await cluster.request('admin', 'GET', `/api/v1/namespaces/${gz}/configmaps?limit=1`)).body).metadata.resourceVersion as string;
      // An exact resourceVersion makes both responses the same list, so the bytes can be compared.
      const path = `/api/v1/namespaces/${gz}/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact`;
      const headers = { Accept: 'application/json', 'Accept-Encoding': 'gzip' };
      const [viaP, viaD] = await Promise.all([viaProxy({ path: `/k8s/local-admin${path}`, headers }), direct(cluster, 'admin', { path, headers })]);
      expect(viaP.status).toBe(200);
      expect(viaD.headers['content-encoding']).toBe('gzip');
      expect(viaP.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(viaP.body).equals(gunzipSync(viaD.body))).toBe(true);
      expect(viaP.body.equals(viaD.body)).toBe(true);
      // 200 plus kube-root-ca.crt, which kube-controller-manager adds to every namespace.
      expect(JSON.parse(gunzipSync(viaP.body).toString()).items.length).toBeGreaterThanOrEqual(200);
    } finally {
      await deleteNamespace(cluster, gz);
    }
  });

  it('passes a list of many 4 KiB chunks through unchanged, and the kept-alive connection then serves the next request', async () => {
    // Uncompressed, kube-apiserver writes a large list in 4 KiB chunks, each its own TLS record;
    // the proxy writes the pieces of one turn of its event loop together (forward.ts): every byte
    // must still arrive, in order, and the connection must be left fit for the next exchange.
    const big = await createNamespace(cluster, 'proxy-chunks');
    const agent = new HttpAgent({ keepAlive: true, maxSockets: 1 });
    try {
      const data = { blob: 'y'.repeat(2048) };
      for (let i = 0; i < 300; i += 30) {
        await Promise.all(
          Array.from({ length: 30 }, (_, j) => cluster.request('admin', 'POST', `/api/v1/namespaces/${big}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i + j}` }, data })),
        );
      }
      const rv = JSON.parse((await cluster.request('admin', 'GET', `/api/v1/namespaces/${big}/configmaps?limit=1`)).body).metadata.resourceVersion as string;
      const path = `/api/v1/namespaces/${big}/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact`;
      const headers = { Accept: 'application/json', 'Accept-Encoding': 'identity', 'X-Explorer-Token': srv.token };
      const get = (p: string) =>
        new Promise<{ status: number; body: Buffer; reused: boolean }>((ok, fail) => {
          const req = httpRequest({ host: '127.0.0.1', port: srv.port, path: `/k8s/local-admin${p}`, headers, agent }, (res) => {
            const parts: Buffer[] = [];
            res.on('data', (c: Buffer) => parts.push(c));
            res.on('end', () => ok({ status: res.statusCode ?? 0, body: Buffer.concat(parts), reused: req.reusedSocket }));
            res.on('error', fail);
          });
          req.on('error', fail);
          req.end();
        });
      const viaD = await direct(cluster, 'admin', { path, headers: { Accept: 'application/json', 'Accept-Encoding': 'identity' } });
      expect(viaD.headers['content-length']).toBeUndefined();
      for (let round = 0; round < 3; round++) {
        const viaP = await get(path);
        expect(viaP.status).toBe(200);
        expect(viaP.body.length).toBe(viaD.body.length);
        expect(viaP.body.equals(viaD.body)).toBe(true);
        const next = await get(`/api/v1/namespaces/${big}`);
        expect(next.status).toBe(200);
        expect(next.reused).toBe(true);
        expect(JSON.parse(next.body.toString()).metadata.name).toBe(big);
      }
    } finally {
      agent.destroy();
      await deleteNamespace(cluster, big);
    }
  });

  it('passes a request body and the created object through', async () => {
    const res = await viaProxy({
      method: 'POST',
      path: `/k8s/local-admin/api/v1/namespaces/${ns}/configmaps?fieldValidation=Warn`,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'created-via-proxy' }, data: { a: '1' }, bogus: true }),
    });
    expect(res.status).toBe(201);
    expect(json(res).metadata.name).toBe('created-via-proxy');
    expect(res.headers.warning).toContain('unknown field');
  });

  it('passes every Warning header through, not only the last one', async () => {
    // One `Warning: 299 - "unknown field ..."` header per problem (fieldValidation=Warn).
    const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'three-warnings' }, bogusA: 1, bogusB: 2, bogusC: 3 });
    const path = `/api/v1/namespaces/${ns}/configmaps?fieldValidation=Warn&dryRun=All`;
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const viaDirect = await direct(cluster, 'admin', { method: 'POST', path, headers, body });
    const res = await viaProxy({ method: 'POST', path: `/k8s/local-admin${path}`, headers, body });
    expect(res.status).toBe(201);
    // Node joins repeated headers with ", "; count the warn-code prefixes.
    const count = (h: string | string[] | undefined) => String(h ?? '').match(/299 - "/g)?.length ?? 0;
    expect(count(viaDirect.headers.warning)).toBe(3);
    expect(count(res.headers.warning)).toBe(3);
    expect(res.headers.warning).toEqual(viaDirect.headers.warning);
  });

  it('passes a chunked request body through', async () => {
    const res = await viaProxy({
      method: 'POST',
      path: `/k8s/local-admin/api/v1/namespaces/${ns}/configmaps`,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'created-chunked' }, data: { a: 'x'.repeat(100_000) } }),
      chunked: 8192,
    });
    expect(res.status).toBe(201);
  });

  it("passes the server's own 403 to the viewer unchanged, without the proxy marker", async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps`;
    const r = { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'nope' } }) };
    const [viaP, viaD] = await Promise.all([viaProxy({ ...r, path: `/k8s/local-viewer${path}` }), direct(cluster, 'viewer', { ...r, path })]);
    expect(viaP.status).toBe(403);
    expect(viaP.headers['x-explorer-proxy-error']).toBeUndefined();
    expect(viaP.body.equals(viaD.body)).toBe(true);
    expect(json(viaP).message).toContain('explorer-viewer');
    // The viewer can still read.
    expect((await viaProxy({ path: `/k8s/local-viewer${path}` })).status).toBe(200);
  });

  it('answers an unknown context with a proxy Status', async () => {
    const res = await viaProxy({ path: '/k8s/no-such-context/api' });
    expect(res.status).toBe(404);
    expect(res.headers['x-explorer-proxy-error']).toBe('1');
    expect(json(res)).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404, details: { kind: 'proxy', name: 'no-such-context', causes: [{ reason: 'UnknownContext' }] } });
  });

  it("sends the server's redirect from a stale OpenAPI hash back through the proxy, to the current document", async () => {
    // kube-openapi answers `?hash=<old>` with 301 and `Location: /openapi/v3/...?hash=<new>`: a path
    // on the API server, which the browser would otherwise resolve against the explorer's origin.
    const group = `${ns}.redirect.example.com`;
    const crd = (props: Record<string, unknown>) => ({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: `things.${group}` },
      spec: { group, scope: 'Namespaced', names: { plural: 'things', singular: 'thing', kind: 'Thing' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: props } } } } }] },
    });
    const key = `apis/${group}/v1`;
    const current = async () => (JSON.parse((await cluster.request('admin', 'GET', '/openapi/v3')).body) as { paths: Record<string, { serverRelativeURL: string }> }).paths[key]?.serverRelativeURL;
    expect((await cluster.request('admin', 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd({ size: { type: 'integer' } }))).status).toBe(201);
    try {
      await waitUntil('the CRD has an OpenAPI document', async () => (await current()) !== undefined, 30_000);
      const stale = (await current())!;
      const crdPath = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.${group}`;
      const live = JSON.parse((await cluster.request('admin', 'GET', crdPath)).body);
      live.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.color = { type: 'string', enum: ['red', 'blue'] };
      expect((await cluster.request('admin', 'PUT', crdPath, live)).status).toBe(200);
      await waitUntil('the document has a new hash', async () => (await current()) !== stale, 30_000);
      const fresh = (await current())!;

      const res = await viaProxy({ path: `/k8s/local-admin${stale}`, headers: { Accept: 'application/json' } });
      expect(res.status).toBe(301);
      expect(res.headers.location).toBe(`/k8s/local-admin${fresh}`);
      const followed = await viaProxy({ path: res.headers.location as string, headers: { Accept: 'application/json' } });
      expect(followed.status).toBe(200);
      expect(JSON.stringify(json(followed))).toContain('"red"');
    } finally {
      await cluster.request('admin', 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.${group}`);
    }
  });
});

/** Opens a watch through the proxy over plain HTTP; resolves once the response headers are in. */
function httpWatch(path: string): Promise<{ status: number; text: () => string; ended: () => boolean; close: () => void }> {
  return new Promise((ok, fail) => {
    const req = httpRequest({ host: '127.0.0.1', port: srv.port, path, headers: { 'X-Explorer-Token': srv.token, Accept: 'application/json' }, agent: false }, (res) => {
      let text = '';
      let ended = false;
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => (ended = true));
      res.on('error', () => undefined);
      ok({ status: res.statusCode ?? 0, text: () => text, ended: () => ended, close: () => req.destroy() });
    });
    req.on('error', (e) => (req.destroyed ? undefined : fail(e)));
    req.end();
  });
}

async function listRv(path: string): Promise<string> {
  return JSON.parse((await cluster.request('admin', 'GET', path)).body).metadata.resourceVersion as string;
}

describe('watches over HTTP', () => {
  it('delivers an event for an object created after the watch started, while the stream is open', async () => {
    const rv = await listRv(`/api/v1/namespaces/${ns}/configmaps`);
    const w = await httpWatch(`/k8s/local-admin/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${rv}`);
    try {
      expect(w.status).toBe(200);
      const name = uniqueName('watched');
      const created = await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
      expect(created.status).toBe(201);
      await waitUntil('the ADDED event arrives', () => w.text().includes(`"name":"${name}"`));
      const event = w.text().split('\n').find((l) => l.includes(`"name":"${name}"`))!;
      expect(JSON.parse(event).type).toBe('ADDED');
      expect(w.ended()).toBe(false);
    } finally {
      w.close();
    }
  });

  it('closes the upstream watch when the browser disconnects', async () => {
    // An earlier test's upstream may still be closing (its 'close' comes after the response ended).
    await waitUntil('earlier upstreams have closed', () => srv.stats().upstreamOpen === 0);
    const before = await openWatches(cluster, 'podtemplates');
    const openBefore = srv.stats().upstreamOpen;
    const w = await httpWatch(`/k8s/local-admin/api/v1/namespaces/${ns}/podtemplates?watch=1`);
    expect(w.status).toBe(200);
    await waitUntil('the API server counts the watch', async () => (await openWatches(cluster, 'podtemplates')) === before + 1);
    expect(srv.stats().upstreamOpen).toBe(openBefore + 1);
    w.close();
    await waitUntil('the API server no longer counts the watch', async () => (await openWatches(cluster, 'podtemplates')) === before);
    await waitUntil('the proxy has no upstream left open', () => srv.stats().upstreamOpen === openBefore);
  });
});

describe('watches over /proxy/mux', () => {
  it('delivers an event for an object created after the watch started, framed with the stream id', async () => {
    const rv = await listRv(`/api/v1/namespaces/${ns}/configmaps`);
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    try {
      mux.send({ type: 'auth', token: srv.token });
      mux.send({ type: 'open', id: 7, context: 'local-admin', path: `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${rv}`, headers: { Accept: 'application/json' } });
      await waitUntil('the response message', () => !!mux.message(7, 'response'));
      const response = mux.message(7, 'response') as MuxResponse;
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json');
      expect(response.headers['server-timing']).toMatch(/upstream;dur=/);
      const name = uniqueName('mux-watched');
      await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
      await waitUntil('the ADDED event arrives', () => mux.body(7).toString().includes(`"name":"${name}"`));
      expect(mux.message(7, 'end')).toBeUndefined();
    } finally {
      mux.ws.close();
    }
  });

  it('carries protobuf watch bytes unchanged', async () => {
    const rv = await listRv(`/api/v1/namespaces/${ns}/configmaps`);
    const name = uniqueName('pb');
    await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
    // A watch from a past resourceVersion with a timeout: a finite stream both ways can compare.
    const path = `/api/v1/namespaces/${ns}/configmaps?watch=1&resourceVersion=${rv}&timeoutSeconds=1`;
    const accept = 'application/vnd.kubernetes.protobuf;stream=watch';
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    mux.send({ type: 'auth', token: srv.token });
    mux.send({ type: 'open', id: 1, context: 'local-admin', path, headers: { Accept: accept } });
    const viaD = await direct(cluster, 'admin', { path, headers: { Accept: accept } });
    await waitUntil('the stream ends', () => !!mux.message(1, 'end'), 20_000);
    mux.ws.close();
    expect((mux.message(1, 'response') as MuxResponse).headers['content-type']).toBe(viaD.headers['content-type']);
    expect(mux.message(1, 'end')).toEqual({ type: 'end', id: 1 });
    expect(mux.body(1).equals(viaD.body)).toBe(true);
    expect(mux.body(1).includes(Buffer.from(name))).toBe(true);
  });

  it('closes the upstream on a close message, and all upstreams when the socket closes', async () => {
    const before = await openWatches(cluster, 'podtemplates');
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    mux.send({ type: 'auth', token: srv.token });
    for (const id of [1, 2, 3]) mux.send({ type: 'open', id, context: 'local-admin', path: `/api/v1/namespaces/${ns}/podtemplates?watch=1` });
    await waitUntil('three watches are open', async () => (await openWatches(cluster, 'podtemplates')) === before + 3);
    mux.send({ type: 'close', id: 2 });
    await waitUntil('one watch closed', async () => (await openWatches(cluster, 'podtemplates')) === before + 2);
    mux.ws.close();
    await waitUntil('all watches closed', async () => (await openWatches(cluster, 'podtemplates')) === before);
  });

  it('closes with 4401 on a wrong token', async () => {
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    mux.send({ type: 'auth', token: 'x'.repeat(64) });
    expect(await mux.closed).toBe(4401);
  });

  it('closes with 4401 when an open comes before auth', async () => {
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    mux.send({ type: 'open', id: 1, context: 'local-admin', path: '/api' });
    expect(await mux.closed).toBe(4401);
  });

  it('closes with 4401 when no auth arrives in time', async () => {
    const quick = await startExplorerServer({ port: 0, kubeconfigPath: cluster.kubeconfig, staticDir, log: () => undefined, timeouts: { muxAuthMs: 200 } });
    try {
      const mux = MuxClient.connect(quick.port);
      await mux.opened;
      expect(await mux.closed).toBe(4401);
    } finally {
      await quick.close();
    }
  });

  it.each([
    ['a foreign Origin', { Origin: 'http://evil.example' }],
    ['a foreign Host', { Host: 'evil.example' }],
  ])('refuses the upgrade from %s', async (_name, headers) => {
    const port = srv.port;
    const mux = MuxClient.connect(port, { Origin: `http://127.0.0.1:${port}`, ...headers });
    await expect(mux.opened).rejects.toThrow(/403/);
  });

  it.each([
    ['an unknown context', { context: 'nope', path: '/api' }, 404, 'UnknownContext'],
    ['pod exec', { context: 'local-admin', path: '/api/v1/namespaces/default/pods/p/exec?command=sh' }, 403, 'RefusedSubresource'],
    ['a node proxy', { context: 'local-admin', path: '/api/v1/nodes/n/proxy/configz' }, 403, 'RefusedSubresource'],
    ['a dot-dot path', { context: 'local-admin', path: '/api/v1/namespaces/../nodes' }, 400, 'InvalidPath'],
    ['a non-GET method', { context: 'local-admin', path: '/api', method: 'DELETE' }, 405, 'MethodNotAllowed'],
  ])('answers %s with a proxy Status frame', async (_name, open, code, cause) => {
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    mux.send({ type: 'auth', token: srv.token });
    mux.send({ type: 'open', id: 9, ...open });
    await waitUntil('the stream ends', () => !!mux.message(9, 'end'));
    mux.ws.close();
    const response = mux.message(9, 'response') as MuxResponse;
    expect(response.status).toBe(code);
    expect(response.headers['x-explorer-proxy-error']).toBe('1');
    const status = JSON.parse(mux.body(9).toString());
    expect(status).toMatchObject({ kind: 'Status', code, details: { kind: 'proxy', causes: [{ reason: cause }] } });
    seen.push({ status: code, headers: response.headers, body: mux.body(9) });
  });
});

interface RefusalCase {
  name: string;
  request: Parameters<typeof raw>[1];
  token?: boolean;
  status: number;
  cause: string;
  /** The body is refused while streaming, so an upstream request had already started. */
  streamed?: boolean;
}

describe('refusals', () => {
  const big = 'x'.repeat(3 * 1024 * 1024 + 1);
  const cm = (name: string, data: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { d: data } });
  const cases: RefusalCase[] = [
    { name: 'a foreign Host (DNS rebinding)', request: { path: '/k8s/local-admin/api', headers: { Host: 'evil.example:80' } }, status: 403, cause: 'ForbiddenHost' },
    { name: 'a loopback Host with another port', request: { path: '/k8s/local-admin/api', headers: { Host: 'localhost:1' } }, status: 403, cause: 'ForbiddenHost' },
    { name: 'a foreign Host on the page itself', request: { path: '/', headers: { Host: 'rebind.evil.example' } }, status: 403, cause: 'ForbiddenHost' },
    { name: 'a foreign Origin, even with the token', request: { path: '/k8s/local-admin/api', headers: { Origin: 'http://evil.example' } }, status: 403, cause: 'ForbiddenOrigin' },
    { name: 'Origin null', request: { path: '/proxy/contexts', headers: { Origin: 'null' } }, status: 403, cause: 'ForbiddenOrigin' },
    { name: 'Sec-Fetch-Site cross-site, even with the token', request: { path: '/k8s/local-admin/api', headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors' } }, status: 403, cause: 'CrossSiteRequest' },
    { name: 'a missing token', request: { path: '/k8s/local-admin/api' }, token: false, status: 401, cause: 'MissingToken' },
    { name: 'a missing token on /proxy/contexts', request: { path: '/proxy/contexts' }, token: false, status: 401, cause: 'MissingToken' },
    { name: 'a wrong token', request: { path: '/k8s/local-admin/api', headers: { 'X-Explorer-Token': 'f'.repeat(64) } }, token: false, status: 401, cause: 'WrongToken' },
    { name: 'pod exec', request: { method: 'POST', path: '/k8s/local-admin/api/v1/namespaces/default/pods/web/exec?command=sh&stdin=true' }, status: 403, cause: 'RefusedSubresource' },
    { name: 'pod attach', request: { method: 'POST', path: '/k8s/local-admin/api/v1/namespaces/default/pods/web/attach' }, status: 403, cause: 'RefusedSubresource' },
    { name: 'pod port-forward', request: { method: 'POST', path: '/k8s/local-admin/api/v1/namespaces/default/pods/web/portforward?ports=80' }, status: 403, cause: 'RefusedSubresource' },
    { name: 'pod proxy', request: { path: '/k8s/local-admin/api/v1/namespaces/default/pods/web/proxy' }, status: 403, cause: 'RefusedSubresource' },
    { name: 'pod proxy with a port and sub-path', request: { path: '/k8s/local-admin/api/v1/namespaces/default/pods/web:8080/proxy/admin' }, status: 403, cause: 'RefusedSubresource' },
    { name: 'service proxy', request: { path: '/k8s/local-admin/api/v1/namespaces/default/services/web/proxy/' }, status: 403, cause: 'RefusedSubresource' },
    { name: 'node proxy', request: { path: '/k8s/local-admin/api/v1/nodes/node-1/proxy/configz' }, status: 403, cause: 'RefusedSubresource' },
    { name: 'an oversized body (Content-Length)', request: { method: 'POST', path: `/k8s/local-admin/api/v1/namespaces/default/configmaps`, headers: { 'Content-Type': 'application/json' }, body: cm('big', big) }, status: 413, cause: 'BodyTooLarge' },
    { name: 'an oversized body (chunked)', request: { method: 'POST', path: `/k8s/local-admin/api/v1/namespaces/default/configmaps`, headers: { 'Content-Type': 'application/json' }, body: cm('big', big), chunked: 64 * 1024 }, status: 413, cause: 'BodyTooLarge', streamed: true },
    { name: 'a path escape with ..', request: { path: '/k8s/local-admin/api/v1/namespaces/default/pods/x/../../../../nodes/n/proxy' }, status: 400, cause: 'InvalidPath' },
    { name: 'an encoded path escape with %2e%2e', request: { path: '/k8s/local-admin/api/v1/namespaces/default/pods/x/%2e%2e/%2e%2e/%2e%2e/%2e%2e/nodes/n/proxy' }, status: 400, cause: 'InvalidPath' },
    { name: 'an encoded slash (%2f)', request: { path: '/k8s/local-admin/api/v1/namespaces/default%2fpods' }, status: 400, cause: 'InvalidPath' },
    { name: 'a double slash', request: { path: '/k8s/local-admin//api/v1' }, status: 400, cause: 'InvalidPath' },
    { name: 'an absolute URL after the context', request: { path: '/k8s/local-admin/https://evil.example/api' }, status: 400, cause: 'InvalidPath' },
    { name: 'an absolute-form request target', request: { path: 'http://evil.example/k8s/local-admin/api' }, status: 400, cause: 'InvalidPath' },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('refuses %s', async (_name, c) => {
    const before = srv.stats().upstreamTotal;
    const res = await viaProxy(c.request, { token: c.token });
    expect(res.status).toBe(c.status);
    expect(res.headers['x-explorer-proxy-error']).toBe('1');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const status = json(res);
    expect(status).toMatchObject({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: c.status, details: { kind: 'proxy', causes: [{ reason: c.cause }] } });
    expect(typeof status.message).toBe('string');
    if (!c.streamed) expect(srv.stats().upstreamTotal).toBe(before);
  });

  it('never forwards an upgrade request to the cluster', async () => {
    const res = await viaProxy({ path: '/k8s/local-admin/api/v1/namespaces/default/pods', headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13' } });
    expect(res.status).toBe(400);
  });

  it('with allowExec, lets subresources such as pod proxy reach the server', async () => {
    const open = await startExplorerServer({ port: 0, kubeconfigPath: cluster.kubeconfig, staticDir, log: () => undefined, allowExec: true });
    try {
      const res = await raw(open.port, { path: `/k8s/local-admin/api/v1/namespaces/${ns}/pods/none/proxy/`, headers: { 'X-Explorer-Token': open.token } });
      expect(res.status).toBe(404);
      expect(res.headers['x-explorer-proxy-error']).toBeUndefined();
      expect(json(res).details).toMatchObject({ name: 'none', kind: 'pods' });
      // Path normalization still applies.
      expect((await raw(open.port, { path: '/k8s/local-admin/api/v1/namespaces/x/pods/../../nodes/n/proxy', headers: { 'X-Explorer-Token': open.token } })).status).toBe(400);
    } finally {
      await open.close();
    }
  });

  it('lets the server, not the proxy, decide on ordinary writes to names like exec or proxy', async () => {
    const res = await viaProxy({ path: `/k8s/local-admin/api/v1/namespaces/${ns}/configmaps/proxy` });
    expect(res.status).toBe(404);
    expect(res.headers['x-explorer-proxy-error']).toBeUndefined();
  });
});

describe('the page', () => {
  it('serves index.html with the token injected, never cached, with the security headers', async () => {
    const res = await viaProxy({ path: '/' }, { token: false });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain(`content="${srv.token}"`);
    expect(res.body.toString()).not.toContain('__EXPLORER_TOKEN__');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toBe(
      `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self' ws://localhost:${srv.port} ws://127.0.0.1:${srv.port}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-frame-options']).toBe('DENY');
    seen.pop(); // the page is where the token is meant to be
  });

  it('serves client-side routes with index.html and assets as files', async () => {
    const route = await raw(srv.port, { path: '/lessons/watch' });
    expect(route.status).toBe(200);
    expect(route.body.toString()).toContain(srv.token);
    const asset = await raw(srv.port, { path: '/assets/app-1.js' });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toContain('text/javascript');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await raw(srv.port, { path: '/assets/missing.js' })).status).toBe(404);
    expect((await raw(srv.port, { path: '/assets/%2e%2e/%2e%2e/etc/passwd' })).status).toBe(400);
  });

  it('lets a cross-site navigation open the page but refuses cross-site subresource loads', async () => {
    const nav = await raw(srv.port, { path: '/', headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document' } });
    expect(nav.status).toBe(200);
    const script = await raw(srv.port, { path: '/assets/app-1.js', headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors', 'Sec-Fetch-Dest': 'script' } });
    expect(script.status).toBe(403);
  });
});

describe('credentials', () => {
  it('never appear in any response: contexts, errors, forwarded bodies and headers', async () => {
    expect(seen.length).toBeGreaterThan(30);
    const kubeconfig = (await import('node:fs')).readFileSync(cluster.kubeconfig, 'utf8');
    const needles = new Set<string>();
    for (const m of kubeconfig.matchAll(/(client-certificate-data|client-key-data): (\S+)/g)) {
      const b64 = m[2]!;
      needles.add(b64.slice(0, 48));
      needles.add(b64.slice(-48));
      const pem = Buffer.from(b64, 'base64').toString();
      for (const line of pem.split('\n')) if (line.length >= 40) needles.add(line);
    }
    for (const user of ['admin', 'viewer'] as const) {
      const { key } = cluster.credentials(user);
      for (const line of key.split('\n')) if (line.length >= 40) needles.add(line);
    }
    // Certificates share issuer and validity bytes with the CA certificate, which is public (the
    // kube-root-ca.crt ConfigMap in every namespace): only material not found in the CA counts.
    const ca = cluster.credentials('admin').ca;
    const caB64 = /certificate-authority-data: (\S+)/.exec(kubeconfig)![1]!;
    for (const n of [...needles]) if (ca.includes(n) || caB64.includes(n)) needles.delete(n);
    expect(needles.size).toBeGreaterThan(10);
    for (const res of seen) {
      const hay = JSON.stringify(res.headers) + res.body.toString('latin1');
      for (const n of needles) expect(hay.includes(n), `a response contains credential material ${n}: ${hay.slice(0, 300)}`).toBe(false);
      expect(hay.includes(srv.token), 'an API response contains the proxy token').toBe(false);
    }
  });
});

// The attack matrix: every way a web page, a local process or a confused client might use the
// explorer's proxy to reach the cluster, each a named case, on real sockets against the real
// control plane. A refused case must not open any upstream request.
import { connect, type Socket } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { testCluster } from '../cluster/cluster.testkit';
import { type ExplorerServer, startExplorerServer } from './server';
import { createNamespace, deleteNamespace, json, MuxClient, raw, type RawRequest, type RawResponse, uniqueName, waitUntil } from './explorer.testkit';
import type { MuxResponse } from '../../protocol/mux';

const cluster = testCluster(inject('controlPlane'));
let srv: ExplorerServer;
let staticDir: string;
let ns: string;

beforeAll(async () => {
  staticDir = mkdtempSync(join(tmpdir(), 'explorer-attacks-'));
  srv = await startExplorerServer({ port: 0, kubeconfigPath: cluster.kubeconfig, staticDir, log: () => undefined });
  ns = await createNamespace(cluster, 'attacks');
});

afterAll(async () => {
  await srv?.close();
  await deleteNamespace(cluster, ns);
  rmSync(staticDir, { recursive: true, force: true });
});

/** Bytes exactly as written on a fresh socket; resolves with the reply once the server closes or after `waitMs`. */
function rawSocket(port: number, data: string | Buffer, waitMs = 5_000): Promise<string> {
  return rawExchange(port, data, waitMs).then((r) => r.reply);
}

/**
 * Like rawSocket, and says who ended the exchange: `closed` is true only when the server closed
 * (or reset) the connection, false when our own timer gave up. A case that asserts the server
 * drops a connection must read `closed`, or it passes whether the server drops it or not.
 */
function rawExchange(port: number, data: string | Buffer, waitMs: number): Promise<{ reply: string; closed: boolean }> {
  return new Promise((ok, fail) => {
    const socket: Socket = connect(port, '127.0.0.1', () => socket.write(data));
    let reply = '';
    const timer = setTimeout(() => {
      socket.removeAllListeners('close');
      socket.destroy();
      ok({ reply, closed: false });
    }, waitMs);
    socket.on('data', (c) => (reply += c.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      ok({ reply, closed: true });
    });
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? ok({ reply, closed: true }) : fail(e)));
  });
}

const statusLine = (reply: string) => reply.split('\r\n')[0] ?? '';
const bodyOf = (reply: string) => JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as Record<string, any>;

interface HttpAttack {
  name: string;
  request: RawRequest;
  /** Send the valid token (default true). */
  token?: boolean;
  status: number;
  cause?: string;
  /** The body streams in before the refusal, so an upstream may have been opened and aborted. */
  streamed?: boolean;
}

const big = 'x'.repeat(3 * 1024 * 1024 + 1);
const cm = (data: string) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { d: data } });
const k8s = (p: string) => `/k8s/local-admin${p}`;

const httpAttacks: HttpAttack[] = [
  { name: 'a foreign Host (DNS rebinding)', request: { path: k8s('/api'), headers: { Host: `evil.example:PORT` } }, status: 403, cause: 'ForbiddenHost' },
  { name: 'Host localhost.evil.test', request: { path: k8s('/api'), headers: { Host: `localhost.evil.test:PORT` } }, status: 403, cause: 'ForbiddenHost' },
  { name: 'Host 127.0.0.1.nip.io', request: { path: k8s('/api'), headers: { Host: `127.0.0.1.nip.io:PORT` } }, status: 403, cause: 'ForbiddenHost' },
  { name: 'a loopback Host with another port', request: { path: k8s('/api'), headers: { Host: 'localhost:1' } }, status: 403, cause: 'ForbiddenHost' },
  { name: 'a foreign Host on the page', request: { path: '/', headers: { Host: 'localhost.evil.test' } }, token: false, status: 403, cause: 'ForbiddenHost' },
  { name: 'a foreign Origin with a valid token', request: { path: k8s('/api'), headers: { Origin: 'http://evil.example' } }, status: 403, cause: 'ForbiddenOrigin' },
  { name: 'an Origin on loopback with another port', request: { path: k8s('/api'), headers: { Origin: 'http://127.0.0.1:1' } }, status: 403, cause: 'ForbiddenOrigin' },
  { name: 'Origin null (sandboxed frame, file:)', request: { path: k8s('/api'), headers: { Origin: 'null' } }, status: 403, cause: 'ForbiddenOrigin' },
  { name: 'a cross-site fetch with a valid token', request: { path: k8s('/api'), headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors', 'Sec-Fetch-Dest': 'empty' } }, status: 403, cause: 'CrossSiteRequest' },
  { name: 'a cross-site no-cors write (form POST)', request: { method: 'POST', path: k8s(`/api/v1/namespaces/default/configmaps`), headers: { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate', 'Sec-Fetch-Dest': 'document', 'Content-Type': 'text/plain' }, body: '{}' }, status: 403, cause: 'CrossSiteRequest' },
  { name: 'a CORS preflight from a foreign origin', request: { method: 'OPTIONS', path: k8s('/api/v1/namespaces'), headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'DELETE', 'Access-Control-Request-Headers': 'x-explorer-token' } }, token: false, status: 403, cause: 'ForbiddenOrigin' },
  { name: 'a missing token', request: { path: k8s('/api') }, token: false, status: 401, cause: 'MissingToken' },
  { name: 'a wrong token', request: { path: k8s('/api'), headers: { 'X-Explorer-Token': 'f'.repeat(64) } }, token: false, status: 401, cause: 'WrongToken' },
  { name: 'an empty token', request: { path: k8s('/api'), headers: { 'X-Explorer-Token': '' } }, token: false, status: 401, cause: 'MissingToken' },
  { name: 'the token in the query string only', request: { path: k8s('/api?token=TOKEN&x-explorer-token=TOKEN') }, token: false, status: 401, cause: 'MissingToken' },
  { name: 'the token in a cookie only', request: { path: k8s('/api'), headers: { Cookie: 'x-explorer-token=TOKEN' } }, token: false, status: 401, cause: 'MissingToken' },
  { name: 'an absolute-form request target', request: { path: `http://127.0.0.1:1${k8s('/api')}` }, status: 400, cause: 'InvalidPath' },
  { name: 'a path with ..', request: { path: k8s('/api/v1/namespaces/default/pods/x/../../../../nodes/n/proxy') }, status: 400, cause: 'InvalidPath' },
  { name: 'a path with %2e%2e', request: { path: k8s('/api/v1/namespaces/default/pods/x/%2e%2e/%2e%2e/%2e%2e/%2e%2e/nodes/n/proxy') }, status: 400, cause: 'InvalidPath' },
  { name: 'a double-encoded %252e%252e', request: { path: k8s('/api/v1/namespaces/default/pods/x/%252e%252e/%252e%252e/nodes/n/proxy') }, status: 400, cause: 'InvalidPath' },
  { name: 'a backslash path', request: { path: k8s('/api/v1/namespaces/default\\..\\..\\nodes') }, status: 400, cause: 'InvalidPath' },
  { name: 'an encoded backslash (%5c)', request: { path: k8s('/api/v1/namespaces/default%5c..%5cnodes') }, status: 400, cause: 'InvalidPath' },
  { name: 'an encoded slash (%2f)', request: { path: k8s('/api/v1/namespaces/default%2fpods') }, status: 400, cause: 'InvalidPath' },
  { name: 'a double slash (scheme-relative)', request: { path: k8s('//evil.example/api') }, status: 400, cause: 'InvalidPath' },
  { name: 'a context name with ..', request: { path: '/k8s/../api/v1/namespaces' }, status: 404, cause: 'UnknownContext' },
  { name: 'a context name with encoded ../', request: { path: '/k8s/..%2f..%2flocal-admin/api/v1/namespaces' }, status: 404, cause: 'UnknownContext' },
  { name: 'pod exec', request: { method: 'POST', path: k8s('/api/v1/namespaces/default/pods/web/exec?command=sh&stdin=true') }, status: 403, cause: 'RefusedSubresource' },
  { name: 'pod exec by GET', request: { path: k8s('/api/v1/namespaces/default/pods/web/exec?command=id') }, status: 403, cause: 'RefusedSubresource' },
  { name: 'pod attach', request: { method: 'POST', path: k8s('/api/v1/namespaces/default/pods/web/attach') }, status: 403, cause: 'RefusedSubresource' },
  { name: 'pod portforward', request: { method: 'POST', path: k8s('/api/v1/namespaces/default/pods/web/portforward?ports=80') }, status: 403, cause: 'RefusedSubresource' },
  { name: 'pod proxy', request: { path: k8s('/api/v1/namespaces/default/pods/web:8080/proxy/admin') }, status: 403, cause: 'RefusedSubresource' },
  { name: 'service proxy', request: { path: k8s('/api/v1/namespaces/default/services/https:web:443/proxy/') }, status: 403, cause: 'RefusedSubresource' },
  { name: 'node proxy (kubelet API)', request: { path: k8s('/api/v1/nodes/n1:10250/proxy/pods') }, status: 403, cause: 'RefusedSubresource' },
  { name: 'pod ephemeralcontainers (PATCH)', request: { method: 'PATCH', path: k8s('/api/v1/namespaces/default/pods/web/ephemeralcontainers'), headers: { 'Content-Type': 'application/strategic-merge-patch+json' }, body: '{"spec":{"ephemeralContainers":[{"name":"x","image":"busybox","command":["sh"]}]}}' }, status: 403, cause: 'RefusedSubresource' },
  { name: 'a body over 3 MiB with Content-Length', request: { method: 'POST', path: k8s('/api/v1/namespaces/default/configmaps'), headers: { 'Content-Type': 'application/json' }, body: cm(big) }, status: 413, cause: 'BodyTooLarge' },
  { name: 'a body over 3 MiB, chunked', request: { method: 'POST', path: k8s('/api/v1/namespaces/default/configmaps'), headers: { 'Content-Type': 'application/json' }, body: cm(big), chunked: 64 * 1024 }, status: 413, cause: 'BodyTooLarge', streamed: true },
];

describe('attacks over HTTP', () => {
  it.each(httpAttacks.map((a) => [a.name, a] as const))('refuses %s', async (_name, a) => {
    const before = srv.stats().upstreamTotal;
    const fill = (x: string) => x.replaceAll('TOKEN', srv.token).replaceAll('PORT', String(srv.port));
    const path = fill(a.request.path);
    const headers = Object.fromEntries(Object.entries(a.request.headers ?? {}).map(([k, v]) => [k, fill(String(v))]));
    const res = await raw(srv.port, { ...a.request, path, headers: { ...(a.token === false ? {} : { 'X-Explorer-Token': srv.token }), ...headers } });
    expect(res.status).toBe(a.status);
    expect(res.headers['x-explorer-proxy-error']).toBe('1');
    expect(json(res)).toMatchObject({ kind: 'Status', code: a.status, details: { kind: 'proxy', causes: [{ reason: a.cause }] } });
    // No CORS grant, ever.
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    if (!a.streamed) expect(srv.stats().upstreamTotal).toBe(before);
  });
});

interface WireAttack {
  name: string;
  /** Request bytes; PORT and TOKEN are replaced. */
  bytes: () => string;
  /** Expected status line prefix. */
  status: RegExp;
  cause?: string;
}

const wireAttacks: WireAttack[] = [
  { name: 'HTTP/1.0 without Host', bytes: () => 'GET /k8s/local-admin/api HTTP/1.0\r\nX-Explorer-Token: TOKEN\r\n\r\n', status: /^HTTP\/1\.[01] 403/, cause: 'ForbiddenHost' },
  { name: 'HTTP/1.1 without Host', bytes: () => 'GET /k8s/local-admin/api HTTP/1.1\r\nX-Explorer-Token: TOKEN\r\nConnection: close\r\n\r\n', status: /^HTTP\/1\.1 (400|403)/ },
  { name: 'two Host headers (ours first)', bytes: () => 'GET /k8s/local-admin/api HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nHost: evil.example\r\nX-Explorer-Token: TOKEN\r\nConnection: close\r\n\r\n', status: /^HTTP\/1\.1 400/, cause: 'DuplicateHost' },
  { name: 'two Host headers (ours second)', bytes: () => 'GET /k8s/local-admin/api HTTP/1.1\r\nHost: evil.example\r\nHost: 127.0.0.1:PORT\r\nX-Explorer-Token: TOKEN\r\nConnection: close\r\n\r\n', status: /^HTTP\/1\.1 (400|403)/ },
  { name: 'CONNECT to another host', bytes: () => 'CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n', status: /^HTTP\/1\.1 405/ },
  { name: 'CONNECT to the API server through our Host', bytes: () => 'CONNECT 127.0.0.1:6443 HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nX-Explorer-Token: TOKEN\r\n\r\n', status: /^HTTP\/1\.1 405/ },
  { name: 'an asterisk-form target (OPTIONS *)', bytes: () => 'OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nX-Explorer-Token: TOKEN\r\nConnection: close\r\n\r\n', status: /^HTTP\/1\.1 400/, cause: 'InvalidPath' },
  { name: '64 KB of headers', bytes: () => `GET /k8s/local-admin/api HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nX-Explorer-Token: TOKEN\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`, status: /^HTTP\/1\.1 431/ },
  { name: 'a WebSocket upgrade to the API (exec-style)', bytes: () => 'GET /k8s/local-admin/api/v1/namespaces/default/pods/web/exec?command=sh HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nX-Explorer-Token: TOKEN\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: v5.channel.k8s.io\r\n\r\n', status: /^HTTP\/1\.1 400/ },
  { name: 'a SPDY upgrade to the API', bytes: () => 'POST /k8s/local-admin/api/v1/namespaces/default/pods/web/portforward HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nX-Explorer-Token: TOKEN\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: portforward.k8s.io\r\nContent-Length: 0\r\n\r\n', status: /^HTTP\/1\.1 400/ },
  { name: 'an h2c upgrade', bytes: () => 'GET /k8s/local-admin/api HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nX-Explorer-Token: TOKEN\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n', status: /^HTTP\/1\.1 400/ },
  { name: 'request smuggling: Content-Length with Transfer-Encoding', bytes: () => 'POST /k8s/local-admin/api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\nX-Explorer-Token: TOKEN\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /k8s/local-admin/api/v1/secrets HTTP/1.1\r\nHost: 127.0.0.1:PORT\r\n\r\n', status: /^HTTP\/1\.1 400/ },
];

describe('attacks on the wire', () => {
  it.each(wireAttacks.map((a) => [a.name, a] as const))('refuses %s', async (_name, a) => {
    const before = srv.stats().upstreamTotal;
    const reply = await rawSocket(srv.port, a.bytes().replaceAll('PORT', String(srv.port)).replaceAll('TOKEN', srv.token));
    expect(statusLine(reply)).toMatch(a.status);
    if (a.cause) expect(bodyOf(reply).details.causes[0].reason).toBe(a.cause);
    // Nothing was forwarded; in particular no second (smuggled) request.
    expect(srv.stats().upstreamTotal).toBe(before);
  });
});

describe('attacks that get through as something harmless', () => {
  // Impersonate-* pass, as `kubectl --as` sends them: the server checks the kubeconfig user's own
  // `impersonate` verb, so they give the page nothing kubectl does not give the same user.
  const review = (context: string, headers: Record<string, string>) =>
    raw(srv.port, {
      method: 'POST',
      path: `/k8s/${context}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
      headers: { 'X-Explorer-Token': srv.token, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
    });

  it('passes Impersonate-User: the server answers as the impersonated user when the kubeconfig user may impersonate', async () => {
    const res = await review('local-admin', { 'Impersonate-User': 'explorer-viewer' });
    expect(res.status).toBe(201);
    expect(json(res).status.userInfo).toEqual({ username: 'explorer-viewer', groups: ['system:authenticated'] });
    // A GET takes the lean client (http1/): the same rule there.
    const list = await raw(srv.port, { path: `/k8s/local-admin/api/v1/namespaces/${ns}/secrets`, headers: { 'X-Explorer-Token': srv.token, 'Impersonate-User': 'explorer-viewer' } });
    expect(list.status).toBe(403);
    expect(json(list).message).toContain('User "explorer-viewer" cannot list resource "secrets"');
  });

  it('leaves the refusal to the server: a viewer impersonating the admin gets its 403, and X-Remote-* stay dropped', async () => {
    const res = await review('local-viewer', { 'Impersonate-User': 'explorer-admin', 'Impersonate-Group': 'system:masters', 'X-Remote-User': 'explorer-admin', 'X-Remote-Group': 'system:masters' });
    expect(res.status).toBe(403);
    // The server's own words: `cannot impersonate resource "users"` (v1.33); releases that check
    // constrained impersonation first name its verb (`cannot impersonate-on:user-info:create resource
    // "selfsubjectreviews"`) when neither form is granted.
    expect(json(res).message).toMatch(/^(users "explorer-admin"|selfsubjectreviews\.authentication\.k8s\.io) is forbidden: User "explorer-viewer" cannot impersonate(-on:user-info:create)? resource "(users|selfsubjectreviews)"/);
    // Front-proxy headers alone still act as the kubeconfig user.
    const plain = await review('local-viewer', { 'X-Remote-User': 'explorer-admin', 'X-Remote-Group': 'system:masters' });
    expect(json(plain).status.userInfo.username).toBe('explorer-viewer');
    expect(json(plain).status.userInfo.groups).not.toContain('system:masters');
  });

  it('opens a watch sent with Content-Length and no body at once (no body framing on a GET)', async () => {
    const name = uniqueName('cl-watch');
    const socket: Socket = connect(srv.port, '127.0.0.1');
    let text = '';
    socket.on('data', (c) => (text += c.toString()));
    socket.on('error', () => undefined);
    socket.write(`GET /k8s/local-admin/api/v1/namespaces/${ns}/configmaps?watch=1 HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nX-Explorer-Token: ${srv.token}\r\nAccept: application/json\r\nContent-Length: 100\r\n\r\n`);
    try {
      await waitUntil('the watch answers', () => text.startsWith('HTTP/1.1 200'), 20_000);
      await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
      await waitUntil('the event arrives', () => text.includes(name), 20_000);
    } finally {
      socket.destroy();
    }
  });

  it('listens on loopback only', async () => {
    const addresses = Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal && a.family === 'IPv4').map((a) => a!.address);
    for (const address of addresses) {
      const err = await new Promise<NodeJS.ErrnoException | null>((ok) => {
        const s = connect(srv.port, address, () => {
          s.destroy();
          ok(null);
        });
        s.on('error', (e: NodeJS.ErrnoException) => ok(e));
      });
      expect(err?.code, `port ${srv.port} must not be open on ${address}`).toBe('ECONNREFUSED');
    }
    // And the loopback name we serve on is 127.0.0.1, nothing wider.
    expect(srv.url).toBe(`http://127.0.0.1:${srv.port}/`);
  });

  it('drops a slowloris client that never finishes its headers', async () => {
    const slow = await startExplorerServer({ port: 0, kubeconfigPath: cluster.kubeconfig, staticDir, log: () => undefined, timeouts: { headersMs: 500, requestMs: 1000, checkIntervalMs: 100 } });
    try {
      // One header line, then silence: the server must close the connection (408 or nothing).
      const { reply, closed } = await rawExchange(slow.port, `GET /k8s/local-admin/api HTTP/1.1\r\nHost: 127.0.0.1:${slow.port}\r\nX-Explorer-Token: ${slow.token}\r\nX-Slow: 1`, 15_000);
      expect(closed, 'the server closed the connection before our 15 s timer').toBe(true);
      expect(reply === '' || reply.startsWith('HTTP/1.1 408')).toBe(true);
      expect(slow.stats().upstreamTotal).toBe(0);
    } finally {
      await slow.close();
    }
  });

  it('caps upstream requests per launch: the next one gets 429 with Retry-After, HTTP and mux alike', async () => {
    const capped = await startExplorerServer({ port: 0, kubeconfigPath: cluster.kubeconfig, staticDir, log: () => undefined, limits: { maxUpstreams: 2 } });
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const s = connect(capped.port, '127.0.0.1');
        s.on('error', () => undefined);
        s.write(`GET /k8s/local-admin/api/v1/namespaces/${ns}/configmaps?watch=1 HTTP/1.1\r\nHost: 127.0.0.1:${capped.port}\r\nX-Explorer-Token: ${capped.token}\r\n\r\n`);
        sockets.push(s);
      }
      await waitUntil('two watches are open', () => capped.stats().upstreamOpen === 2);
      const res = await raw(capped.port, { path: `/k8s/local-admin/api/v1/namespaces/${ns}/configmaps`, headers: { 'X-Explorer-Token': capped.token } });
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('1');
      expect(json(res)).toMatchObject({ code: 429, details: { kind: 'proxy', retryAfterSeconds: 1, causes: [{ reason: 'TooManyStreams' }] } });
      const mux = MuxClient.connect(capped.port);
      await mux.opened;
      mux.send({ type: 'auth', token: capped.token });
      mux.send({ type: 'open', id: 1, context: 'local-admin', path: `/api/v1/namespaces/${ns}/configmaps?watch=1` });
      await waitUntil('the mux stream is refused', () => !!mux.message(1, 'end'));
      expect((mux.message(1, 'response') as MuxResponse).status).toBe(429);
      expect(JSON.parse(mux.body(1).toString()).details.retryAfterSeconds).toBe(1);
      mux.ws.close();
      expect(capped.stats().upstreamTotal).toBe(2);
    } finally {
      for (const s of sockets) s.destroy();
      await capped.close();
    }
  });
});

interface MuxAttack {
  name: string;
  headers: (port: number) => Record<string, string>;
  /** What the client sends once connected. */
  send: (token: string) => unknown[];
  /** 'refused': the upgrade itself fails; a number: the close code. */
  outcome: 'refused' | number;
}

const muxAttacks: MuxAttack[] = [
  { name: 'a foreign Origin', headers: () => ({ Origin: 'http://evil.example' }), send: (t) => [{ type: 'auth', token: t }], outcome: 'refused' },
  { name: 'Origin null', headers: () => ({ Origin: 'null' }), send: (t) => [{ type: 'auth', token: t }], outcome: 'refused' },
  { name: 'a foreign Host', headers: (p) => ({ Host: `localhost.evil.test:${p}`, Origin: `http://localhost.evil.test:${p}` }), send: (t) => [{ type: 'auth', token: t }], outcome: 'refused' },
  { name: 'a cross-site WebSocket', headers: (p) => ({ Origin: `http://127.0.0.1:${p}`, 'Sec-Fetch-Site': 'cross-site' }), send: (t) => [{ type: 'auth', token: t }], outcome: 'refused' },
  { name: 'no auth message (open first)', headers: (p) => ({ Origin: `http://127.0.0.1:${p}` }), send: () => [{ type: 'open', id: 1, context: 'local-admin', path: '/api/v1/namespaces' }], outcome: 4401 },
  { name: 'a wrong token', headers: (p) => ({ Origin: `http://127.0.0.1:${p}` }), send: () => [{ type: 'auth', token: 'f'.repeat(64) }], outcome: 4401 },
  { name: 'a token of the wrong type', headers: (p) => ({ Origin: `http://127.0.0.1:${p}` }), send: () => [{ type: 'auth', token: ['x'] }], outcome: 4401 },
];

describe('attacks on /proxy/mux', () => {
  it.each(muxAttacks.map((a) => [a.name, a] as const))('refuses %s', async (_name, a) => {
    const before = srv.stats().upstreamTotal;
    const ws = new WebSocket(`ws://127.0.0.1:${srv.port}/proxy/mux`, { headers: a.headers(srv.port) });
    const result = await new Promise<'refused' | number>((ok) => {
      ws.once('unexpected-response', () => ok('refused'));
      ws.once('error', () => ok('refused'));
      ws.once('open', () => {
        for (const m of a.send(srv.token)) ws.send(JSON.stringify(m));
      });
      ws.once('close', (code) => ok(code));
    });
    ws.terminate();
    expect(result).toBe(a.outcome);
    expect(srv.stats().upstreamTotal).toBe(before);
  });

  it.each([
    ['pod exec', '/api/v1/namespaces/default/pods/web/exec?command=sh', 403],
    ['pod ephemeralcontainers', '/api/v1/namespaces/default/pods/web/ephemeralcontainers', 403],
    ['a path with %2e%2e', '/api/v1/namespaces/x/%2e%2e/%2e%2e/nodes/n/proxy', 400],
    ['an absolute URL', 'https://evil.example/api', 400],
  ])('refuses an open of %s after auth', async (_name, path, status) => {
    const before = srv.stats().upstreamTotal;
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    mux.send({ type: 'auth', token: srv.token });
    mux.send({ type: 'open', id: 7, context: 'local-admin', path });
    await waitUntil('the stream ends', () => !!mux.message(7, 'end'));
    expect((mux.message(7, 'response') as MuxResponse).status).toBe(status);
    mux.ws.close();
    expect(srv.stats().upstreamTotal).toBe(before);
  });
});

describe('the server restarted', () => {
  it("refuses the previous launch's token over HTTP and the mux, and serves the new one in the page", async () => {
    const first = await startExplorerServer({ port: 0, kubeconfigPath: cluster.kubeconfig, staticDir, log: () => undefined });
    const port = first.port;
    const oldToken = first.token;
    await first.close();
    const second = await startExplorerServer({ port, kubeconfigPath: cluster.kubeconfig, staticDir, log: () => undefined });
    try {
      expect(second.token).not.toBe(oldToken);
      const res: RawResponse = await raw(port, { path: '/k8s/local-admin/api', headers: { 'X-Explorer-Token': oldToken } });
      expect(res.status).toBe(401);
      expect(json(res).details.causes[0].reason).toBe('WrongToken');
      const mux = MuxClient.connect(port);
      await mux.opened;
      mux.send({ type: 'auth', token: oldToken });
      expect(await mux.closed).toBe(4401);
      // /proxy/status tells the page a new launch began (startedAt) once it holds the new token.
      const status = await raw(port, { path: '/proxy/status', headers: { 'X-Explorer-Token': second.token } });
      expect(status.status).toBe(200);
      expect(json(status).server.pid).toBe(process.pid);
    } finally {
      await second.close();
    }
  });
});

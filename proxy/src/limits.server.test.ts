// Slow clients, long watches and backpressure, with shortened timeouts.
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { testCluster } from '../cluster/cluster.testkit';
import { MuxClient, createNamespace, deleteNamespace, direct, uniqueName, waitUntil } from './explorer.testkit';
import { type ExplorerServer, startExplorerServer } from './server';
import type { MuxResponse } from '../../protocol/mux';

const cluster = testCluster(inject('controlPlane'));
let srv: ExplorerServer;
let dir: string;
let ns: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'explorer-limits-'));
  srv = await startExplorerServer({ port: 0, kubeconfigPath: cluster.kubeconfig, staticDir: dir, log: () => undefined, timeouts: { headersMs: 500, requestMs: 1000, checkIntervalMs: 100 } });
  ns = await createNamespace(cluster, 'proxy-limits');
});

afterAll(async () => {
  await srv?.close();
  await deleteNamespace(cluster, ns);
  rmSync(dir, { recursive: true, force: true });
});

/** Writes `data` on a raw socket and resolves with what came back once the server closes it. */
function rawSocket(data: string): Promise<{ reply: string; ms: number }> {
  const started = Date.now();
  return new Promise((ok, fail) => {
    const socket: Socket = connect(srv.port, '127.0.0.1', () => socket.write(data));
    let reply = '';
    socket.on('data', (c) => (reply += c.toString()));
    socket.on('close', () => ok({ reply, ms: Date.now() - started }));
    socket.on('error', fail);
    setTimeout(() => {
      socket.destroy();
      fail(new Error('the server kept a stuck connection open'));
    }, 10_000);
  });
}

describe('slow clients', () => {
  it('drops a client that never finishes its request headers', async () => {
    const { reply } = await rawSocket(`GET /proxy/contexts HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nX-Explorer-Token: ${srv.token}\r\n`);
    expect(reply === '' || reply.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('drops a client that never finishes its request body', async () => {
    const { reply } = await rawSocket(
      `POST /k8s/local-admin/api/v1/namespaces/${ns}/configmaps HTTP/1.1\r\nHost: 127.0.0.1:${srv.port}\r\nX-Explorer-Token: ${srv.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"apiVersion":`,
    );
    expect(reply === '' || /^HTTP\/1.1 (408|400|500)/.test(reply)).toBe(true);
  });

  it('keeps a watch open well past the request timeout and still delivers events', async () => {
    const w = await new Promise<{ text: () => string; ended: () => boolean; close: () => void }>((ok, fail) => {
      const req = httpRequest({ host: '127.0.0.1', port: srv.port, path: `/k8s/local-admin/api/v1/namespaces/${ns}/configmaps?watch=1`, headers: { 'X-Explorer-Token': srv.token }, agent: false }, (res) => {
        let text = '';
        let ended = false;
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('close', () => (ended = true));
        res.on('error', () => undefined);
        ok({ text: () => text, ended: () => ended, close: () => req.destroy() });
      });
      req.on('error', (e) => (req.destroyed ? undefined : fail(e)));
      req.end();
    });
    try {
      await new Promise((r) => setTimeout(r, 2500));
      expect(w.ended()).toBe(false);
      const name = uniqueName('late');
      await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
      await waitUntil('the late event arrives', () => w.text().includes(name));
    } finally {
      w.close();
    }
  });
});

describe('backpressure', () => {
  it('pauses a mux stream while the browser is not reading, then delivers every byte', async () => {
    // ~12 MB of ConfigMaps: more than the 4 MiB high-water mark plus what the kernel buffers.
    const data = { blob: 'y'.repeat(8 * 1024) };
    for (let i = 0; i < 1500; i += 25) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, (_, j) => cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `bulk-${i + j}` }, data })),
      );
      expect(batch.every((r) => r.status === 201)).toBe(true);
    }
    const rv = JSON.parse((await cluster.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps?limit=1`)).body).metadata.resourceVersion as string;
    const path = `/api/v1/namespaces/${ns}/configmaps?resourceVersion=${rv}&resourceVersionMatch=Exact`;
    const mux = MuxClient.connect(srv.port);
    await mux.opened;
    const socket = (mux.ws as unknown as { _socket: Socket })._socket;
    mux.send({ type: 'auth', token: srv.token });
    mux.send({ type: 'open', id: 5, context: 'local-admin', path, headers: { Accept: 'application/json' } });
    // Stop reading before anything arrives: the kernel's receive buffer then stays small (it only
    // grows for a reader that keeps up), so most of the list must queue in the proxy.
    socket.pause();
    await waitUntil('the proxy pauses the upstream', () => srv.stats().muxPaused === 1);
    socket.resume();
    await waitUntil('the stream ends', () => !!mux.message(5, 'end'), 30_000);
    expect(srv.stats().muxPaused).toBe(0);
    const viaD = await direct(cluster, 'admin', { path, headers: { Accept: 'application/json' } });
    expect((mux.message(5, 'response') as MuxResponse).status).toBe(200);
    expect(mux.body(5).length).toBe(viaD.body.length);
    expect(JSON.parse(mux.body(5).toString()).items.length).toBeGreaterThanOrEqual(1500);
    mux.ws.close();
  }, 120_000);
});

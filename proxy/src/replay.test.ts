// --replay FILE: the explorer hands the recording to the page and nothing leaves it for any
// cluster. The kubeconfig given alongside points at an upstream that counts the connections it
// receives: the same explorer without --replay reaches it (so the count can move), with
// --replay it stays at zero whatever the page asks (reads, writes, the mux).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { raw } from './explorer.testkit';
import { type ExplorerServer, startExplorerServer } from './server';

let dir: string;
let upstream: Server;
let connections = 0;
const recording = JSON.stringify({ log: { version: '1.2', creator: { name: 'test', version: '1' }, entries: [] } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'replay-'));
  upstream = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((ok) => upstream.listen(0, '127.0.0.1', ok));
  const port = (upstream.address() as { port: number }).port;
  writeFileSync(
    join(dir, 'kubeconfig'),
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: `https://127.0.0.1:${port}`, 'insecure-skip-tls-verify': true } }],
      users: [{ name: 'u', user: { token: 'x' } }],
      contexts: [{ name: 'ctx', context: { cluster: 'c', user: 'u' } }],
      'current-context': 'ctx',
    }),
  );
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(join(dir, 'recording.har'), recording);
});

afterAll(async () => {
  await new Promise<void>((ok) => upstream.close(() => ok()));
  rmSync(dir, { recursive: true, force: true });
});

async function withExplorer(replay: boolean, body: (s: ExplorerServer) => Promise<void>): Promise<void> {
  const s = await startExplorerServer({ port: 0, kubeconfigPath: join(dir, 'kubeconfig'), staticDir: dir, log: () => undefined, ...(replay ? { replay: join(dir, 'recording.har') } : {}) });
  try {
    await body(s);
  } finally {
    await s.close();
  }
}

const asPage = (s: ExplorerServer) => ({ 'x-explorer-token': s.token, origin: `http://127.0.0.1:${s.port}` });

describe('--replay', () => {
  it('without it, a request for the context reaches the upstream (the counter works)', async () => {
    connections = 0;
    await withExplorer(false, async (s) => {
      await raw(s.port, { path: '/k8s/ctx/api/v1/namespaces', headers: asPage(s) });
    });
    expect(connections).toBeGreaterThan(0);
  });

  it('serves the recording, lists no context, and sends nothing to any cluster', async () => {
    connections = 0;
    await withExplorer(true, async (s) => {
      const contexts = await raw(s.port, { path: '/proxy/contexts', headers: asPage(s) });
      expect(JSON.parse(contexts.body.toString())).toEqual({ contexts: [], current: '', replay: true });
      const file = await raw(s.port, { path: '/proxy/recording', headers: asPage(s) });
      expect(file.status).toBe(200);
      expect(JSON.parse(file.body.toString())).toEqual(JSON.parse(recording));
      for (const r of [
        { path: '/k8s/ctx/api/v1/namespaces' },
        { path: '/k8s/ctx/api/v1/namespaces/default/configmaps?watch=1' },
        { method: 'POST', path: '/k8s/ctx/api/v1/namespaces/default/configmaps', body: '{"metadata":{"name":"x"}}', headers: { 'content-type': 'application/json' } },
        { method: 'DELETE', path: '/k8s/ctx/api/v1/namespaces/default' },
      ]) {
        const res = await raw(s.port, { ...r, headers: { ...asPage(s), ...r.headers } });
        expect(res.status).toBe(503);
        expect(JSON.parse(res.body.toString()).details.causes[0].reason).toBe('ReplayMode');
      }
      // The mux, which would carry watches and list chunks, is not even opened.
      const refused = await new Promise<number>((ok) => {
        const ws = new WebSocket(`ws://127.0.0.1:${s.port}/proxy/mux`, { headers: { Origin: `http://127.0.0.1:${s.port}` } });
        ws.once('unexpected-response', (_req, res) => ok(res.statusCode ?? 0));
        ws.once('open', () => ok(101));
        ws.once('error', () => undefined);
      });
      expect(refused).toBe(503);
    });
    expect(connections).toBe(0);
  });

  it('refuses a file that is not a HAR', async () => {
    writeFileSync(join(dir, 'bad.har'), '{"not":"har"}');
    await expect(startExplorerServer({ port: 0, staticDir: dir, replay: join(dir, 'bad.har'), log: () => undefined })).rejects.toThrow(/not a HAR file/);
  });
});

// The mux client against the real explorer server and API server (the `ws` package stands in for
// the browser's WebSocket: Node 20 has none).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import { testCluster } from '../../../proxy/cluster/cluster.testkit';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { MuxClient, MuxStreamError, type WebSocketConstructor } from './mux';

let mux: MuxClient;
let url: string;
let token: string;
const ns = `mux-${randomBytes(3).toString('hex')}`;
const cluster = () => testCluster(inject('controlPlane'));

beforeAll(async () => {
  const explorer = useRealProxy();
  url = new URL('/proxy/mux', explorer.url.replace(/^http/, 'ws')).toString();
  token = explorer.token;
  mux = new MuxClient({ url, token: () => token, WebSocket: WebSocket as unknown as WebSocketConstructor });
  expect((await cluster().request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
});
afterAll(async () => {
  mux.close();
  await cluster().request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

async function text(body: AsyncIterable<Uint8Array>): Promise<string> {
  const d = new TextDecoder();
  let s = '';
  for await (const c of body) s += d.decode(c, { stream: true });
  return s + d.decode();
}

describe('MuxClient', () => {
  it('carries many streams at once on one socket, each with its own status and bytes', async () => {
    const paths = ['/api/v1/namespaces', `/api/v1/namespaces/${ns}/configmaps`, '/api/v1/namespaces/does-not-exist-xyz', '/version'];
    const streams = await Promise.all(paths.map((path) => mux.open({ context: TEST_CONTEXT, path, headers: { Accept: 'application/json' } })));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 404, 200]);
    const bodies = await Promise.all(streams.map((s) => text(s.body)));
    expect(JSON.parse(bodies[0]!).kind).toBe('NamespaceList');
    expect(JSON.parse(bodies[1]!).kind).toBe('ConfigMapList');
    expect(JSON.parse(bodies[2]!)).toMatchObject({ kind: 'Status', code: 404, reason: 'NotFound' });
    expect(streams[2]!.fromProxy).toBe(false);
    expect(mux.openStreams).toBe(0);
  });

  it('marks errors made by the proxy (unknown context) as such', async () => {
    const s = await mux.open({ context: 'no-such-context', path: '/api/v1/namespaces' });
    expect(s.fromProxy).toBe(true);
    expect(JSON.parse(await text(s.body))).toMatchObject({ kind: 'Status', status: 'Failure' });
  });

  it('close() stops a watch: the body ends and the stream is forgotten', async () => {
    const s = await mux.open({ context: TEST_CONTEXT, path: `/api/v1/namespaces/${ns}/configmaps?watch=1&labelSelector=none-such`, headers: { Accept: 'application/json' } });
    expect(s.status).toBe(200);
    expect(mux.openStreams).toBe(1);
    s.close();
    expect(await text(s.body)).toBe('');
    expect(mux.openStreams).toBe(0);
  });

  it('an open watch fails with MuxStreamError when the socket closes, and the next open reconnects', async () => {
    const s = await mux.open({ context: TEST_CONTEXT, path: `/api/v1/namespaces/${ns}/configmaps?watch=1&labelSelector=none-such`, headers: { Accept: 'application/json' } });
    const reading = text(s.body);
    mux.close();
    await expect(reading).rejects.toBeInstanceOf(MuxStreamError);
    const again = await mux.open({ context: TEST_CONTEXT, path: '/version' });
    expect(again.status).toBe(200);
    await text(again.body);
  });

  it('a wrong token gets the socket closed, and opening fails', async () => {
    const bad = new MuxClient({ url, token: () => 'wrong', WebSocket: WebSocket as unknown as WebSocketConstructor });
    await expect(bad.open({ context: TEST_CONTEXT, path: '/version' })).rejects.toBeInstanceOf(MuxStreamError);
    bad.close();
  });
});

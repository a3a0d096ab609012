// The lean client's connection pool against the real local control plane: kept-alive connections
// reused, a response held back by its reader never holding up the next request on its connection,
// a watch aborted mid-stream, TLS refused with the wrong CA, and kept-alive connections that the
// other side closes (through a TCP relay in front of kube-apiserver that cuts them on cue).
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from '../../cluster/cluster.testkit';
import { createNamespace, deleteNamespace } from '../explorer.testkit';
import { credentialLines, headerLines, type LeanHandlers, UpstreamPool, type UpstreamResponse } from '.';

const cluster = testCluster(inject('controlPlane'));
const url = new URL(cluster.server);
const creds = cluster.credentials('admin');
let ns: string;

function pool(tls = { ca: creds.ca, cert: creds.cert, key: creds.key }, port = Number(url.port)): UpstreamPool {
  return new UpstreamPool({ secure: true, host: url.hostname, port, tls: { ...tls, servername: 'localhost' }, connectTimeoutMs: 5_000 });
}

/**
 * A TCP relay to kube-apiserver (TLS passes through it untouched). `cutNextRequest` makes it close
 * each connection open now as soon as it sends again, before passing the bytes on: to the client,
 * as if the server had closed a kept-alive connection just as a request went out. `cutIdle` closes
 * every connection now.
 */
async function relay(): Promise<{ port: number; connections: () => number; cutNextRequest(): void; cutIdle(): void; close(): Promise<void> }> {
  const open = new Set<Socket>();
  const doomed = new WeakSet<Socket>();
  let accepted = 0;
  const server: Server = createServer((client: Socket) => {
    accepted++;
    open.add(client);
    const up = connect(Number(url.port), url.hostname);
    client.on('data', (b: Buffer) => {
      // A connection that was idle when the cut was asked for: what it sends now is a request.
      if (doomed.has(client)) {
        client.destroy();
        up.destroy();
        return;
      }
      up.write(b);
    });
    up.on('data', (b: Buffer) => client.write(b));
    const end = () => {
      open.delete(client);
      client.destroy();
      up.destroy();
    };
    client.on('close', end);
    up.on('close', end);
    client.on('error', end);
    up.on('error', end);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => accepted,
    cutNextRequest: () => {
      for (const c of open) doomed.add(c);
    },
    cutIdle: () => {
      for (const c of open) c.destroy();
    },
    close: () =>
      new Promise((ok) => {
        for (const c of open) c.destroy();
        server.close(() => ok());
      }),
  };
}

interface Result {
  status: number;
  body: Buffer;
  complete: boolean;
}

/** One GET through the pool; `onResponse` may act on the response before reading starts. */
function get(p: UpstreamPool, path: string, onResponse?: (res: UpstreamResponse) => void): Promise<Result> {
  return new Promise((ok, fail) => {
    const handlers: LeanHandlers = {
      onResponse(res) {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('close', () => ok({ status: res.statusCode, body: Buffer.concat(chunks), complete: res.complete }));
        onResponse?.(res);
      },
      onError: fail,
      onClose: () => undefined,
    };
    p.request('GET', path, headerLines([['Accept', 'application/json']], credentialLines({})), handlers);
  });
}

beforeAll(async () => {
  ns = await createNamespace(cluster, 'lean');
  for (let i = 0; i < 300; i++) {
    const r = await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps?labelSelector=lean%3Dtest`, { metadata: { name: `cm-${i}`, labels: { lean: 'test' } }, data: { text: 'lorem ipsum '.repeat(60) } });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await deleteNamespace(cluster, ns);
});

describe('UpstreamPool', () => {
  it('sends one request after another on one kept-alive connection', async () => {
    const p = pool();
    try {
      for (let i = 0; i < 5; i++) {
        const r = await get(p, '/api/v1/namespaces/default');
        expect(r.status).toBe(200);
        expect(r.complete).toBe(true);
        expect(JSON.parse(r.body.toString())).toMatchObject({ kind: 'Namespace' });
      }
      expect(p.size).toBe(1);
    } finally {
      p.destroy();
    }
  });

  it('hands over a small body whole with its head: no data events for it, then end and close, and the connection serves the next request', async () => {
    const p = pool();
    try {
      for (let i = 0; i < 3; i++) {
        const events: string[] = [];
        let taken: Buffer | undefined;
        const r = await get(p, '/api/v1/namespaces/default', (res) => {
          taken = res.takeBody();
          res.on('data', () => events.push('data'));
          res.on('end', () => events.push('end'));
        });
        expect(JSON.parse(taken!.toString())).toMatchObject({ kind: 'Namespace', metadata: { name: 'default' } });
        // get() collects 'data' too: the taken bytes must not come again as pieces.
        expect(r.body.length).toBe(0);
        expect(events).toEqual(['end']);
        expect(r.complete).toBe(true);
      }
      expect(p.size).toBe(1);
    } finally {
      p.destroy();
    }
  });

  it('opens a second connection for a request sent while the first is busy', async () => {
    const p = pool();
    try {
      const [a, b] = await Promise.all([get(p, `/api/v1/namespaces/${ns}/configmaps?labelSelector=lean%3Dtest`), get(p, '/api/v1/namespaces/default')]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect((JSON.parse(a.body.toString()) as { items: unknown[] }).items).toHaveLength(300);
      expect(p.size).toBe(2);
    } finally {
      p.destroy();
    }
  });

  it('a reader that pauses after every piece of a list gets every byte, and the connection then serves the next request', async () => {
    const p = pool();
    try {
      // As the forwarder does when the browser reads slowly: pause on a piece, resume a little later.
      // The last piece comes after the body is read and the connection is back in the pool; pausing
      // then must leave the connection alone, or the next request on it waits forever.
      const list = await get(p, `/api/v1/namespaces/${ns}/configmaps?labelSelector=lean%3Dtest`, (res) => {
        res.on('data', () => {
          res.pause();
          setTimeout(() => res.resume(), 2);
        });
      });
      expect(list.complete).toBe(true);
      expect((JSON.parse(list.body.toString()) as { items: unknown[] }).items).toHaveLength(300);
      const next = await Promise.race([get(p, '/api/v1/namespaces/default'), new Promise<never>((_, fail) => setTimeout(() => fail(new Error('the next request hung on a paused connection')), 5_000))]);
      expect(next.status).toBe(200);
      expect(p.size).toBe(1);
    } finally {
      p.destroy();
    }
  });

  it('streams a watch as it comes, and aborting it closes its connection', async () => {
    const p = pool();
    try {
      let events = '';
      const first = new Promise<void>((ok) => {
        const x = p.request('GET', `/api/v1/namespaces/${ns}/configmaps?labelSelector=lean%3Dtest&watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan`, headerLines([['Accept', 'application/json']], credentialLines({})), {
          onResponse(res) {
            res.on('data', (c: Buffer) => {
              events += c.toString();
              if (events.includes('"k8s.io/initial-events-end"')) {
                x.abort();
                ok();
              }
            });
          },
          onError: () => undefined,
          onClose: () => undefined,
        });
      });
      await first;
      expect(events.split('\n').filter((l) => l.startsWith('{"type":"ADDED"'))).toHaveLength(300);
      expect(p.size).toBe(0);
    } finally {
      p.destroy();
    }
  });

  it('fails with the TLS error when the server is not signed by the CA it trusts', async () => {
    // The client certificate stands in for a CA that did not sign the serving certificate.
    const p = pool({ ca: creds.cert, cert: creds.cert, key: creds.key });
    try {
      const err = await get(p, '/api/v1/namespaces/default').then(
        () => undefined,
        (e: NodeJS.ErrnoException) => e,
      );
      expect(err?.code).toMatch(/CERT|SELF_SIGNED|UNABLE_TO/);
      expect(p.size).toBe(0);
    } finally {
      p.destroy();
    }
  });

  it('sends a GET again, once, on a new connection when a kept-alive one closes as the request goes out', async () => {
    const r = await relay();
    const p = pool(undefined, r.port);
    try {
      expect((await get(p, '/api/v1/namespaces/default')).status).toBe(200);
      expect(r.connections()).toBe(1);
      r.cutNextRequest();
      const again = await get(p, '/api/v1/namespaces/default');
      expect(again.status).toBe(200);
      expect(JSON.parse(again.body.toString())).toMatchObject({ kind: 'Namespace' });
      // The first connection was cut with the request on it; the answer came on a second one.
      expect(r.connections()).toBe(2);
      expect(p.size).toBe(1);
    } finally {
      p.destroy();
      await r.close();
    }
  });

  it('drops a kept-alive connection the other side closed while idle, and opens a new one', async () => {
    const r = await relay();
    const p = pool(undefined, r.port);
    try {
      expect((await get(p, '/api/v1/namespaces/default')).status).toBe(200);
      r.cutIdle();
      await new Promise((ok) => setTimeout(ok, 200));
      expect(p.size).toBe(0);
      expect((await get(p, '/api/v1/namespaces/default')).status).toBe(200);
      expect(r.connections()).toBe(2);
    } finally {
      p.destroy();
      await r.close();
    }
  });
});

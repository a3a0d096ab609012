// The lean client's connection pool against the real local control plane: kept-alive connections
// reused, a response held back by its reader never holding up the next request on its connection,
// a watch aborted mid-stream, and TLS refused with the wrong CA.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from '../cluster/testing';
import { createNamespace, deleteNamespace } from './test-support';
import { credentialLines, headerLines, type LeanHandlers, UpstreamPool, type UpstreamResponse } from './upstream';

const cluster = testCluster(inject('controlPlane'));
const url = new URL(cluster.server);
const creds = cluster.credentials('admin');
let ns: string;

function pool(tls = { ca: creds.ca, cert: creds.cert, key: creds.key }): UpstreamPool {
  return new UpstreamPool({ secure: true, host: url.hostname, port: Number(url.port), tls: { ...tls, servername: 'localhost' }, connectTimeoutMs: 5_000 });
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
});

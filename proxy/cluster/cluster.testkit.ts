// Helpers for tests that talk to the control plane started by the Vitest global setup.
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { compactEtcd, type Credentials, type HttpResult, kubeRequest } from './controlplane';
import type { InjectedControlPlane } from './globalSetup.testkit';

export interface TestCluster {
  server: string;
  kubeconfig: string;
  credentials(user: 'admin' | 'viewer'): Credentials;
  request(user: 'admin' | 'viewer', method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult>;
  compact(): Promise<string>;
}

export function testCluster(cp: InjectedControlPlane): TestCluster {
  const pki = join(cp.dir, 'pki');
  const credentials = (user: 'admin' | 'viewer'): Credentials => ({
    ca: readFileSync(join(pki, 'ca.crt'), 'utf8'),
    cert: readFileSync(join(pki, `user-${user}.crt`), 'utf8'),
    key: readFileSync(join(pki, `user-${user}.key`), 'utf8'),
  });
  return {
    server: cp.server,
    kubeconfig: cp.kubeconfig,
    credentials,
    request: (user, method, path, body, headers) => kubeRequest(cp.server, credentials(user), method, path, body, headers),
    compact: () => compactEtcd(cp.etcdUrl),
  };
}

/**
 * Opens a watch (newline-delimited JSON) and collects events until `done` says so or the time runs
 * out. Resolves with the events seen; rejects on a non-200 response.
 */
export function watchEvents(
  cluster: TestCluster,
  user: 'admin' | 'viewer',
  path: string,
  done: (events: WatchEventJson[]) => boolean,
  timeoutMs = 20_000,
  onOpen?: () => void,
): Promise<WatchEventJson[]> {
  const creds = cluster.credentials(user);
  return new Promise((resolve, reject) => {
    const events: WatchEventJson[] = [];
    let buf = '';
    const req = httpsRequest(new URL(path, cluster.server), { ca: creds.ca, cert: creds.cert, key: creds.key, headers: { Accept: 'application/json' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`watch ${path}: HTTP ${res.statusCode}`));
        req.destroy();
        return;
      }
      onOpen?.();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).trim();
          buf = buf.slice(nl + 1);
          if (line) events.push(JSON.parse(line) as WatchEventJson);
        }
        if (done(events)) finish();
      });
      res.on('end', finish);
    });
    const timer = setTimeout(finish, timeoutMs);
    function finish() {
      clearTimeout(timer);
      req.destroy();
      resolve(events);
    }
    req.on('error', (e) => (events.length ? finish() : reject(e)));
    req.end();
  });
}

export interface WatchEventJson {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: { kind?: string; metadata?: { name?: string; resourceVersion?: string; annotations?: Record<string, string> }; code?: number; reason?: string; message?: string };
}

/**
 * For the tests of the serving probes and of `check`: a namespace with two ConfigMaps and two
 * Flunders (the aggregated sample-apiserver's), so that chunking has a continue token to follow,
 * and etcd compacted, as on any cluster up for five minutes, so that an expired continue token
 * meets its 410 (asked until the server says so: the first list after a compaction was seen to
 * serve the page).
 */
export async function seedProbeNamespace(c: TestCluster, ns: string): Promise<void> {
  const created = async (path: string, body: unknown) => {
    const r = await c.request('admin', 'POST', path, body);
    if (r.status !== 201) throw new Error(`POST ${path}: ${r.status} ${r.body}`);
  };
  await created('/api/v1/namespaces', { metadata: { name: ns } });
  for (const name of ['a', 'b']) {
    await created(`/api/v1/namespaces/${ns}/configmaps`, { metadata: { name } });
    await created(`/apis/wardle.example.com/v1beta1/namespaces/${ns}/flunders`, { apiVersion: 'wardle.example.com/v1beta1', kind: 'Flunder', metadata: { name } });
  }
  await c.compact();
  const token = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: 'a\u0000' })).toString('base64url');
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 500))) {
    const status = (await c.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps?limit=1&continue=${token}`)).status;
    if (status === 410) return;
    if (Date.now() - started > 30_000) throw new Error(`an expired continue token still answered ${status} 30 s after the compaction`);
  }
}

// Helpers for tests that talk to the control plane started by the Vitest global setup.
import { readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { compactEtcd, type Credentials, type HttpResult, kubeRequest } from './controlplane';
import type { InjectedControlPlane } from './vitest-setup';

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

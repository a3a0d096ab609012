// Helpers for tests that talk to the control plane started by the Vitest global setup.
import { readFileSync } from 'node:fs';
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

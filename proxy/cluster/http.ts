// The control plane's own HTTPS client: bootstrap writes and readiness and liveness checks with a
// client certificate. Its own module so that the control plane and the aggregated API server it
// starts can both use it without importing each other.
import { request as httpsRequest } from 'node:https';

export interface Credentials { ca: string; cert: string; key: string }

export interface HttpResult { status: number; body: string; bytes: Buffer; headers: Record<string, string | string[] | undefined> }

/** A small HTTPS client with client-certificate auth, for bootstrap and readiness checks. */
export function kubeRequest(server: string, creds: Credentials, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
  return new Promise((ok, fail) => {
    const data = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const req = httpsRequest(
      new URL(path, server),
      { method, ca: creds.ca, cert: creds.cert, key: creds.key, headers: { Accept: 'application/json', ...(data ? { 'Content-Type': 'application/json' } : {}), ...headers }, timeout: 10_000 },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          ok({ status: res.statusCode ?? 0, body: bytes.toString('utf8'), bytes, headers: res.headers });
        });
        res.on('error', fail);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', fail);
    req.end(data);
  });
}

/**
 * Whether an HTTPS endpoint answers at all (any status): the supervisor's liveness check. A
 * component that is busy but serving answers; a stopped or hung one does not, and `signal` ends
 * the wait.
 */
export function answers(url: string, signal: AbortSignal, creds?: Credentials): Promise<boolean> {
  return new Promise((ok) => {
    const req = httpsRequest(new URL(url), { signal, ...(creds ? { ca: creds.ca, cert: creds.cert, key: creds.key } : { rejectUnauthorized: false }) }, (res) => {
      res.resume();
      ok(true);
    });
    req.on('error', () => ok(false));
    req.end();
  });
}


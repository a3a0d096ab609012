// A real admission webhook for server tests: an HTTPS server on 127.0.0.1 that kube-apiserver calls
// (clientConfig.url with the server's own self-signed certificate as caBundle: Go trusts a
// certificate found as such in its roots). `answer` decides the patch; `delayMs` holds the answer
// back, for a slow webhook the latency breakdown must show.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface AdmissionRequestSeen {
  uid: string;
  name?: string;
  namespace?: string;
  object: Record<string, unknown>;
}

export interface TestWebhook {
  url(path: string): string;
  caBundle: string;
  close(): Promise<void>;
}

/** `answer(path, request)`: the JSON patch this webhook (by URL path) returns, or undefined for none. */
export async function startTestWebhook(answer: (path: string, req: AdmissionRequestSeen) => { patch?: unknown[]; delayMs?: number }): Promise<TestWebhook> {
  const dir = mkdtempSync(join(tmpdir(), 'explorer-webhook-'));
  await promisify(execFile)('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-addext', 'extendedKeyUsage=serverAuth'], { cwd: dir });
  const cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
  const key = readFileSync(join(dir, 'key.pem'), 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const server = createServer({ cert, key }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { request: AdmissionRequestSeen };
      // kube-apiserver adds `?timeout=…s` to the URL it calls: the webhook is told its path alone.
      const { patch, delayMs = 0 } = answer(new URL(req.url ?? '/', 'https://127.0.0.1').pathname, review.request);
      const response = { uid: review.request.uid, allowed: true, ...(patch ? { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') } : {}) };
      setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `https://127.0.0.1:${port}${path}`,
    caBundle: Buffer.from(cert).toString('base64'),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// Helpers for the proxy's integration tests: raw HTTP with full control over Host, path and
// headers, direct requests to the API server with the same credentials, a small mux client, and
// the explorer server in a process of its own.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import WebSocket from 'ws';
import type { TestCluster } from '../cluster/cluster.testkit';
import type { MuxServerMessage } from '../../protocol/mux';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  /** Send the body with chunked encoding, in pieces of this size, instead of Content-Length. */
  chunked?: number;
}

/** One request to the explorer on 127.0.0.1:port, headers exactly as given (Host defaults to ours). */
export function raw(port: number, r: RawRequest): Promise<RawResponse> {
  return new Promise((ok, fail) => {
    const headers: Record<string, string | number> = { host: `127.0.0.1:${port}`, ...r.headers };
    const req = httpRequest({ host: '127.0.0.1', port, method: r.method ?? 'GET', path: r.path, headers, agent: false, setHost: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    if (r.body !== undefined && r.chunked) {
      const body = Buffer.from(r.body);
      const step = r.chunked;
      let off = 0;
      const pump = () => {
        while (off < body.length) {
          const more = req.write(body.subarray(off, off + step));
          off += step;
          if (!more) return void req.once('drain', pump);
        }
        req.end();
      };
      req.on('error', () => undefined);
      pump();
    } else {
      req.end(r.body);
    }
  });
}

/** The same request straight to the API server with a user's client certificate. */
export function direct(cluster: TestCluster, user: 'admin' | 'viewer', r: RawRequest): Promise<RawResponse> {
  const creds = cluster.credentials(user);
  const url = new URL(r.path, cluster.server);
  return new Promise((ok, fail) => {
    const req = httpsRequest(
      { hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: r.method ?? 'GET', headers: r.headers, ca: creds.ca, cert: creds.cert, key: creds.key, agent: new HttpsAgent() },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', fail);
      },
    );
    req.on('error', fail);
    req.end(r.body);
  });
}

export function json(r: RawResponse): Record<string, any> {
  return JSON.parse(r.body.toString('utf8')) as Record<string, any>;
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

export async function createNamespace(cluster: TestCluster, prefix: string): Promise<string> {
  const name = uniqueName(prefix);
  const r = await cluster.request('admin', 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (r.status !== 201) throw new Error(`creating namespace ${name}: ${r.status} ${r.body}`);
  return name;
}

export async function deleteNamespace(cluster: TestCluster, name: string): Promise<void> {
  await cluster.request('admin', 'DELETE', `/api/v1/namespaces/${name}`).catch(() => undefined);
}

export async function waitUntil(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The API server's own count of open WATCH requests on a resource; proves an upstream really closed. */
export async function openWatches(cluster: TestCluster, resource: string, scope = 'namespace'): Promise<number> {
  const r = await cluster.request('admin', 'GET', '/metrics', undefined, { Accept: 'text/plain' });
  const line = r.body
    .split('\n')
    .find((l) => l.startsWith('apiserver_longrunning_requests{') && l.includes(`resource="${resource}"`) && l.includes(`scope="${scope}"`) && l.includes('verb="WATCH"'));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

export interface MuxFrame {
  id: number;
  data: Buffer;
}

/** A test client of /proxy/mux that records everything it receives. */
export class MuxClient {
  readonly messages: MuxServerMessage[] = [];
  readonly frames: MuxFrame[] = [];
  closeCode?: number;
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;

  constructor(
    readonly ws: WebSocket,
  ) {
    this.opened = new Promise((ok, fail) => {
      ws.once('open', () => ok());
      ws.once('error', fail);
      ws.once('unexpected-response', (_req, res) => fail(new Error(`upgrade refused: ${res.statusCode}`)));
    });
    this.closed = new Promise((ok) =>
      ws.once('close', (code) => {
        this.closeCode = code;
        ok(code);
      }),
    );
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) this.frames.push({ id: data.readUInt32BE(0), data: data.subarray(4) });
      else this.messages.push(JSON.parse(data.toString()) as MuxServerMessage);
    });
  }

  static connect(port: number, headers: Record<string, string> = { Origin: `http://127.0.0.1:${port}` }): MuxClient {
    return new MuxClient(new WebSocket(`ws://127.0.0.1:${port}/proxy/mux`, { headers }));
  }

  send(msg: unknown): void {
    this.ws.send(JSON.stringify(msg));
  }

  body(id: number): Buffer {
    return Buffer.concat(this.frames.filter((f) => f.id === id).map((f) => f.data));
  }

  message(id: number, type: MuxServerMessage['type']): MuxServerMessage | undefined {
    return this.messages.find((m) => m.type !== 'pong' && m.id === id && m.type === type);
  }
}

/**
 * Runs `node ...argv`, where argv starts an explorer-child.ts (through tsx, or a bundle of it), and
 * resolves with the process and the port and token from its first line of output.
 */
export function startExplorerChild(argv: string[]): Promise<{ child: ChildProcess; port: number; token: string }> {
  const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) ok({ child, ...(JSON.parse(out.slice(0, out.indexOf('\n'))) as { port: number; token: string }) });
    });
    child.once('exit', (code) => fail(new Error(`the explorer exited early (${code})`)));
  });
}

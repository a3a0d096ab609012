// The keep-alive agents of the upstream connections, one per context and credential (kubeconfig.ts
// makes them): a cheaper pool name, the tunnels of a proxy-url, and writes lent an idle connection
// of the lean read pool.
import { Agent as HttpAgent, type AgentOptions as HttpAgentOptions, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent, type RequestOptions } from 'node:https';
import type { Socket } from 'node:net';
import type { UpstreamPool } from './http1';
import { CONNECT_TIMEOUT_MS } from './timeouts';
import type { Dial } from './tunnel';

/**
 * Node names an HTTPS agent's socket pools by host, port and every TLS option, the PEM texts of
 * CA, certificate and key included: a string of several KB, built (Buffers decoded) and hashed twice
 * per request, on the path of every small GET. This agent serves one context with one set of TLS
 * material (see agentFor), so host, port and server name tell its pools apart.
 */
export class ContextHttpsAgent extends HttpsAgent {
  override getName(options: RequestOptions = {}): string {
    return `${options.host ?? 'localhost'}:${options.port ?? ''}:${options.localAddress ?? ''}:${options.family ?? ''}:${options.servername ?? ''}`;
  }
}

type ConnectionCallback = (err: Error | null, socket?: Socket) => void;

/** Node's agents take a connection from createConnection's callback when it comes later (a tunnel). */
function tunnelled(dial: Dial, wrap: (raw: Socket, options: ClientRequestArgs) => Socket) {
  return (options: ClientRequestArgs, cb: ConnectionCallback): undefined => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(Object.assign(new Error(`no tunnel within ${CONNECT_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' })), CONNECT_TIMEOUT_MS);
    dial(String(options.host).replace(/^\[|\]$/g, ''), Number(options.port), abort.signal).then(
      (raw) => {
        clearTimeout(timer);
        cb(null, wrap(raw, options));
      },
      (err: Error) => {
        clearTimeout(timer);
        cb(err);
      },
    );
    return undefined;
  };
}

/** The keep-alive agent of a cluster behind a proxy-url: TLS with the API server inside the tunnel. */
export class TunnelHttpsAgent extends ContextHttpsAgent {
  constructor(options: ConstructorParameters<typeof HttpsAgent>[0], dial: Dial) {
    super(options);
    // https.Agent's own createConnection is tls.connect; given the tunnel as `socket`, it checks the
    // server's certificate against the name (or tls-server-name) as on a direct connection.
    const direct = (opts: ClientRequestArgs) => (HttpsAgent.prototype as unknown as { createConnection(o: unknown): Socket }).createConnection.call(this, opts);
    (this as unknown as { createConnection: unknown }).createConnection = tunnelled(dial, (raw, opts) => direct({ ...opts, socket: raw } as ClientRequestArgs));
  }
}

/** The keep-alive agent of a plain-http cluster behind a proxy-url. */
export class TunnelHttpAgent extends HttpAgent {
  constructor(options: HttpAgentOptions, dial: Dial) {
    super(options);
    (this as unknown as { createConnection: unknown }).createConnection = tunnelled(dial, (raw) => raw);
  }
}

/**
 * A write (node:https) starts on an idle connection of the lean pool when there is one: after the
 * reads that led to it (the editor loaded the object) a save then costs one round trip, not the
 * two or three of a new TCP and TLS (and tunnel) handshake. Both hold the same TLS material.
 */
export function lendFromPool(agent: HttpAgent, pool: UpstreamPool): void {
  const a = agent as unknown as { createConnection: (options: ClientRequestArgs, cb: ConnectionCallback) => Socket | undefined };
  const own = a.createConnection.bind(agent);
  a.createConnection = (options, cb) => pool.lend() ?? own(options, cb);
}

// The explorer's one server: page + /k8s/ proxy + /proxy/ endpoints + /proxy/mux, on 127.0.0.1.
// Every request passes the door (Host, Origin, token) before it is routed: filter(forward).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { ControlPlane } from '../cluster/controlplane';
import { badRequest, ProxyError, sendProxyError } from './errors';
import { parseK8sUrl, refusal } from './filter';
import { forwardHttp, MAX_BODY_BYTES, type ProxyStats, setUpstreamLimits, tooLarge } from './forward';
import { checkHost, checkOrigin, checkToken } from './guard';
import { securityHeaders } from './headers';
import { findKubeconfig, Kubeconfig } from './kubeconfig';
import { createMux } from './mux';
import { MUX_PATH } from './mux-protocol';
import { createDevPages, createStaticPages, ensureBuilt, type PageServer, REPO_ROOT } from './static';
import { createStatus } from './status';

export const DEFAULT_PORT = 7780;

export interface ExplorerServerOptions {
  /** Port on 127.0.0.1; 0 picks a free one. Default 7780. */
  port?: number;
  /** Kubeconfig file; default KUBECONFIG (merged list) or ~/.kube/config; none: a local control plane. */
  kubeconfigPath?: string;
  /** Serve the SPA through Vite's dev server (middleware mode) instead of dist/. */
  dev?: boolean;
  /** Folder with a built SPA. Default dist/, built first when missing or stale; a given folder is served as is. */
  staticDir?: string;
  log?: (line: string) => void;
  /** Let exec/attach/portforward/proxy/ephemeralcontainers subresources pass (plain HTTP only: upgrades are never forwarded). */
  allowExec?: boolean;
  /**
   * A local control plane started by the caller, reported by /proxy/status (not stopped by
   * close()). Without a kubeconfig the server starts one itself and reports that one.
   */
  controlPlane?: ControlPlane;
  /** Upstream limits per launch: open requests at once (default 512), time to a non-watch response head (default 90 s). */
  limits?: { maxUpstreams?: number; upstreamResponseMs?: number };
  /** Timeouts; defaults suit people, tests shorten them. */
  timeouts?: {
    /** Whole request head must arrive within this (slowloris). Default 20 s. */
    headersMs?: number;
    /** Whole request (head + body) must arrive within this; not the response, so watches live on. Default 60 s. */
    requestMs?: number;
    /** How often Node checks the two above. Default 5 s. */
    checkIntervalMs?: number;
    /** Time for the first mux message (auth). Default 5 s. */
    muxAuthMs?: number;
  };
}

export interface ExplorerServer {
  url: string;
  port: number;
  token: string;
  /** Files the contexts come from (the local control plane's kubeconfig when it was started). */
  kubeconfigFiles: string[];
  /** Set when no kubeconfig existed and a local control plane was started (stopped by close()). */
  controlPlane?: ControlPlane;
  stats(): ProxyStats;
  close(): Promise<void>;
}

function hostCount(raw: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host') n++;
  return n;
}

export async function startExplorerServer(opts: ExplorerServerOptions = {}): Promise<ExplorerServer> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const token = randomBytes(32).toString('hex');
  const stats: ProxyStats = { upstreamOpen: 0, upstreamTotal: 0, muxPaused: 0 };
  setUpstreamLimits(stats, { maxUpstreams: opts.limits?.maxUpstreams, responseTimeoutMs: opts.limits?.upstreamResponseMs });
  const allowExec = opts.allowExec ?? false;

  let controlPlane: ControlPlane | undefined;
  let files = findKubeconfig({ path: opts.kubeconfigPath });
  if (!files) {
    log('No kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config): starting the local control plane in .cluster/');
    const { startControlPlane } = await import('../cluster/controlplane');
    controlPlane = await startControlPlane({ dir: join(REPO_ROOT, '.cluster'), log });
    files = [controlPlane.kubeconfig];
  }
  let kubeconfig: Kubeconfig;
  let pages: (PageServer & { hmrUpgrades?: import('node:events').EventEmitter }) | undefined;
  try {
    kubeconfig = new Kubeconfig(files);
    if (opts.dev) {
      pages = await createDevPages(REPO_ROOT, token);
    } else {
      const dir = opts.staticDir ?? join(REPO_ROOT, 'dist');
      if (opts.staticDir === undefined) await ensureBuilt(REPO_ROOT, dir, log);
      pages = createStaticPages(dir, token);
    }
  } catch (e) {
    await pages?.close();
    await controlPlane?.stop();
    throw e;
  }

  let port = 0;
  let security: [string, string][] = [];
  const status = createStatus({ stats, controlPlane: controlPlane ?? opts.controlPlane, kubeconfig, maxUpstreams: opts.limits?.maxUpstreams });
  const mux = createMux({ token, kubeconfig, stats, allowExec, log, authTimeoutMs: opts.timeouts?.muxAuthMs ?? 5_000 });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    for (const [k, v] of security) res.setHeader(k, v);
    const url = req.url ?? '/';
    // Two Host headers: Node keeps the first, a front proxy might route by the other.
    if (hostCount(req.rawHeaders) > 1) return sendProxyError(res, badRequest('DuplicateHost', 'the request has more than one Host header'), { close: true });
    const api = url.startsWith('/k8s/') || url === '/k8s' || url.startsWith('/proxy/') || url === '/proxy';
    const door = checkHost(req.headers.host, port) ?? checkOrigin(req.headers, port, !api);
    if (door) return sendProxyError(res, door, { close: true });
    // Absolute-form targets (`GET http://evil/ HTTP/1.1`) and `*` are not paths of ours.
    if (!url.startsWith('/')) return sendProxyError(res, badRequest('InvalidPath', 'only origin-form request targets ("/path") are accepted'), { close: true });
    if (!api) return pages!.handle(req, res);

    const denied = checkToken(req.headers['x-explorer-token'], token);
    if (denied) return sendProxyError(res, denied, { close: true });

    if (url.startsWith('/proxy/')) {
      const path = url.split('?')[0];
      if (path === '/proxy/contexts') {
        if (req.method !== 'GET' && req.method !== 'HEAD') return sendProxyError(res, new ProxyError(405, 'MethodNotAllowed', 'MethodNotAllowed', 'GET only'));
        const body = Buffer.from(JSON.stringify(kubeconfig.list()));
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': body.length });
        return void res.end(req.method === 'HEAD' ? undefined : body);
      }
      if (path === '/proxy/status') {
        if (req.method !== 'GET' && req.method !== 'HEAD') return sendProxyError(res, new ProxyError(405, 'MethodNotAllowed', 'MethodNotAllowed', 'GET only'));
        const since = new URLSearchParams(url.slice(path.length + 1)).get('since');
        const body = Buffer.from(JSON.stringify(status.snapshot(since === null ? undefined : Number(since))));
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': body.length });
        return void res.end(req.method === 'HEAD' ? undefined : body);
      }
      return sendProxyError(res, new ProxyError(404, 'NotFound', 'NotFound', `no proxy endpoint ${path}`));
    }

    const route = parseK8sUrl(url);
    if (!allowExec) {
      const refused = refusal(route.segments);
      if (refused) return sendProxyError(res, refused, { close: true });
    }
    const length = req.headers['content-length'];
    if (length !== undefined && Number(length) > MAX_BODY_BYTES) return sendProxyError(res, tooLarge(), { close: true });
    const target = kubeconfig.cachedTarget(route.context) ?? (await kubeconfig.target(route.context));
    if (res.destroyed) return;
    forwardHttp(req, res, target, route.path + route.query, stats, log, status.observe);
  };

  const server = createServer(
    {
      headersTimeout: opts.timeouts?.headersMs ?? 20_000,
      requestTimeout: opts.timeouts?.requestMs ?? 60_000,
      connectionsCheckingInterval: opts.timeouts?.checkIntervalMs ?? 5_000,
      keepAliveTimeout: 5_000,
      noDelay: true,
    },
    (req, res) => {
      handle(req, res).catch((e: unknown) => {
        if (e instanceof ProxyError) return sendProxyError(res, e);
        log(`proxy: internal error: ${(e as Error).stack ?? String(e)}`);
        sendProxyError(res, new ProxyError(500, 'InternalError', 'UpstreamError', `internal proxy error: ${(e as Error).message}`));
      });
    },
  );
  // No socket inactivity timeout: a watch on a quiet resource sends nothing for minutes.
  server.timeout = 0;

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const reject = (code: number, text: string) => {
      socket.end(`HTTP/1.1 ${code} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
    };
    socket.on('error', () => socket.destroy());
    const door = checkHost(req.headers.host, port) ?? checkOrigin(req.headers, port);
    if (door) return reject(403, 'Forbidden');
    const path = (req.url ?? '').split('?')[0];
    if (path === MUX_PATH) return mux.handleUpgrade(req, socket, head);
    const protocol = req.headers['sec-websocket-protocol'];
    if (pages?.hmrUpgrades && (protocol === 'vite-hmr' || protocol === 'vite-ping')) {
      pages.hmrUpgrades.emit('upgrade', req, socket, head);
      return;
    }
    // Upgrades are never forwarded to the cluster (that is what exec/attach/portforward need).
    reject(400, 'Bad Request');
  });
  // CONNECT is not ours to serve (we are not a forward proxy); without this Node would just drop it.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    socket.end('HTTP/1.1 405 Method Not Allowed\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    socket.destroy();
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      if (socket.writable) socket.end('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ERR_HTTP_HEADERS_TIMEOUT') {
      if (socket.writable) socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    } else if (socket.writable) {
      socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
    socket.destroy();
  });

  try {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(opts.port ?? DEFAULT_PORT, '127.0.0.1', () => {
        server.off('error', fail);
        ok();
      });
    });
  } catch (e) {
    mux.close();
    kubeconfig.destroy();
    await pages.close();
    await controlPlane?.stop();
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') throw new Error(`port ${opts.port ?? DEFAULT_PORT} on 127.0.0.1 is in use; pick another with --port or PORT`);
    throw e;
  }
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : 0;
  security = Object.entries(securityHeaders(port));

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    token,
    kubeconfigFiles: files,
    controlPlane,
    stats: () => ({ ...stats }),
    close() {
      closing ??= (async () => {
        status.close();
        mux.close();
        await new Promise<void>((ok) => {
          server.close(() => ok());
          server.closeAllConnections();
        });
        kubeconfig.destroy();
        await pages.close();
        await controlPlane?.stop();
      })();
      return closing;
    },
  };
}

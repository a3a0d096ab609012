// The explorer's one server: page + /k8s/ proxy + /proxy/ endpoints + /proxy/mux, on 127.0.0.1.
// Every request passes the door (Host, Origin, token) before it is routed: filter(forward).
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { ControlPlane } from '../cluster/controlplane';
import { badRequest, ProxyError, sendProxyError } from './errors';
import { parseK8sUrl, refusal } from './filter';
import { type ForwardContext, forwardHttp, MAX_BODY_BYTES, tooLarge } from './forward';
import { type ProxyStats, upstreamLaunch } from './openUpstream';
import { checkHost, checkOrigin, checkToken, readDoorHeaders } from './guard';
import { explorerUserAgent, securityHeaders } from './headers';
import { type ContextList, findKubeconfig, Kubeconfig } from './kubeconfig';
import { createMux } from './mux';
import { MUX_PATH } from '../../protocol/mux';
import { createDevPages, createStaticPages, ensureBuilt, injectToken, type PageServer, REPO_ROOT } from './static';
import { createStatus } from './status';
import { createEmbeddedPages, embedded, embeddedClusterDir } from '../package/embedded';

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
  /** Start the local control plane even when a kubeconfig exists (--local). */
  local?: boolean;
  /** Context the page opens with, instead of the kubeconfig's current-context (--context). */
  context?: string;
  /** Namespace the page opens with, instead of the context's own (--namespace). */
  namespace?: string;
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

export async function startExplorerServer(opts: ExplorerServerOptions = {}): Promise<ExplorerServer> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const token = randomBytes(32).toString('hex');
  const launch = upstreamLaunch({ maxUpstreams: opts.limits?.maxUpstreams, responseTimeoutMs: opts.limits?.upstreamResponseMs });
  const stats = launch.stats;
  const allowExec = opts.allowExec ?? false;

  if (opts.dev && embedded()) throw new Error('--dev needs a checkout of the explorer (it serves the sources through Vite)');
  let controlPlane: ControlPlane | undefined;
  let files = opts.local ? null : findKubeconfig({ path: opts.kubeconfigPath });
  if (!files) {
    const dir = embeddedClusterDir() ?? join(REPO_ROOT, '.cluster');
    log(opts.local ? `--local: starting the local control plane in ${dir}` : `No kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config): starting the local control plane in ${dir}`);
    const { startControlPlane } = await import('../cluster/controlplane');
    controlPlane = await startControlPlane({ dir, log });
    files = [controlPlane.kubeconfig];
  }
  let kubeconfig: Kubeconfig;
  let pages: (PageServer & { hmrUpgrades?: import('node:events').EventEmitter }) | undefined;
  try {
    kubeconfig = new Kubeconfig(files);
    if (opts.context !== undefined && !kubeconfig.contexts.some((c) => c.name === opts.context)) {
      throw new Error(`context ${JSON.stringify(opts.context)} is not in ${files.join(', ')} (it has: ${kubeconfig.contexts.map((c) => c.name).join(', ') || 'none'})`);
    }
    if (opts.dev) {
      pages = await createDevPages(REPO_ROOT, token);
    } else if (opts.staticDir === undefined && embedded()) {
      pages = createEmbeddedPages(token, injectToken);
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

  // kubectl finds contexts through KUBECONFIG or ~/.kube/config as we did; a file given with
  // --kubeconfig, or the local control plane's, must be named in the commands the page offers.
  const explicitFile = opts.kubeconfigPath !== undefined || controlPlane ? files[0] : undefined;
  let port = 0;
  /** Flat name/value list, as writeHead takes it. */
  let security: string[] = [];
  const status = createStatus({ stats, controlPlane: controlPlane ?? opts.controlPlane, kubeconfig, maxUpstreams: opts.limits?.maxUpstreams });
  // Its security headers are set once the port is known (below).
  const forwarding: ForwardContext = { launch, log, observe: status.observe, security };
  const mux = createMux({ token, kubeconfig, launch, allowExec, log, authTimeoutMs: opts.timeouts?.muxAuthMs ?? 5_000 });

  // The security headers go on every response. A forwarded response gets them in its one
  // writeHead (see forwardHttp); every other answer sets them first, through `secure`.
  const secure = (res: ServerResponse): void => {
    if (!res.headersSent) for (let i = 0; i < security.length; i += 2) res.setHeader(security[i]!, security[i + 1]!);
  };
  const fail = (res: ServerResponse, err: ProxyError, o?: { close?: boolean }): void => {
    secure(res);
    sendProxyError(res, err, o);
  };
  // Synchronous unless the context's credentials must be fetched: no promise per request.
  const handle = (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const url = req.url ?? '/';
    const h = readDoorHeaders(req.rawHeaders);
    // Two Host headers: Node keeps the first, a front proxy might route by the other.
    if (h.hosts > 1) return fail(res, badRequest('DuplicateHost', 'the request has more than one Host header'), { close: true });
    const api = url.startsWith('/k8s/') || url === '/k8s' || url.startsWith('/proxy/') || url === '/proxy';
    const door = checkHost(h.host, port) ?? checkOrigin(h, port, !api);
    if (door) return fail(res, door, { close: true });
    // Absolute-form targets (`GET http://evil/ HTTP/1.1`) and `*` are not paths of ours.
    if (!url.startsWith('/')) return fail(res, badRequest('InvalidPath', 'only origin-form request targets ("/path") are accepted'), { close: true });
    if (!api) {
      secure(res);
      return pages!.handle(req, res);
    }

    const denied = checkToken(h['x-explorer-token'], token);
    if (denied) return fail(res, denied, { close: true });

    if (url.startsWith('/proxy/')) {
      secure(res);
      const path = url.split('?')[0];
      if (path === '/proxy/contexts') {
        if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, new ProxyError(405, 'MethodNotAllowed', 'MethodNotAllowed', 'GET only'));
        const body = Buffer.from(JSON.stringify({ ...withKubeconfigFile(withStartingPoint(kubeconfig.list(), opts.context, opts.namespace), explicitFile), userAgent: explorerUserAgent() }));
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': body.length });
        return void res.end(req.method === 'HEAD' ? undefined : body);
      }
      if (path === '/proxy/status') {
        if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, new ProxyError(405, 'MethodNotAllowed', 'MethodNotAllowed', 'GET only'));
        const since = new URLSearchParams(url.slice(path.length + 1)).get('since');
        const body = Buffer.from(JSON.stringify(status.snapshot(since === null ? undefined : Number(since))));
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': body.length });
        return void res.end(req.method === 'HEAD' ? undefined : body);
      }
      return fail(res, new ProxyError(404, 'NotFound', 'NotFound', `no proxy endpoint ${path}`));
    }

    const route = parseK8sUrl(url);
    if (!allowExec) {
      const refused = refusal(route.segments);
      if (refused) return fail(res, refused, { close: true });
    }
    const length = h['content-length'];
    if (length !== undefined && Number(length) > MAX_BODY_BYTES) return fail(res, tooLarge(), { close: true });
    const cached = kubeconfig.cachedTarget(route.context);
    const pathAndQuery = route.path + route.query;
    if (cached) return forwardHttp({ req, res, target: cached, pathAndQuery, framing: h }, forwarding);
    return kubeconfig.target(route.context).then((target) => {
      if (!res.destroyed) forwardHttp({ req, res, target, pathAndQuery, framing: h }, forwarding);
    });
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
      const failed = (e: unknown) => {
        if (e instanceof ProxyError) return fail(res, e);
        log(`proxy: internal error: ${(e as Error).stack ?? String(e)}`);
        fail(res, new ProxyError(500, 'InternalError', 'UpstreamError', `internal proxy error: ${(e as Error).message}`));
      };
      try {
        const pending = handle(req, res);
        if (pending) pending.catch(failed);
      } catch (e) {
        failed(e);
      }
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
    if (err.code === 'EADDRINUSE') throw new Error(`port ${opts.port ?? DEFAULT_PORT} on 127.0.0.1 is in use; pick another with --port or PORT`, { cause: e });
    throw e;
  }
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : 0;
  security = Object.entries(securityHeaders(port)).flat();
  forwarding.security = security;

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

/** --context and --namespace: the context the page opens with, and its namespace, as the page reads them. */
export function withStartingPoint(list: ContextList, context?: string, namespace?: string): ContextList {
  if (context === undefined && namespace === undefined) return list;
  const current = context ?? list.current;
  return {
    current,
    contexts: list.contexts.map((c) => ({ ...c, current: c.name === current, namespace: c.name === current && namespace !== undefined ? namespace : c.namespace })),
  };
}

/** Names the kubeconfig file in every context, for "copy as kubectl"; a path, never a credential. */
export function withKubeconfigFile(list: ContextList, file: string | undefined): ContextList {
  return file ? { ...list, contexts: list.contexts.map((c) => ({ ...c, kubeconfig: file })) } : list;
}

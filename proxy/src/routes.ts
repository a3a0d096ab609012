// The server's routes. Every request passes the door first (Host, Origin, then the token for
// /k8s/ and /proxy/), and is then one of: the page, one of the proxy's own JSON endpoints, or a
// /k8s/ request forwarded to its context's API server: filter(forward). Upgrades and CONNECT are
// routed here too: the mux and Vite's hot reload are the only upgrades served.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { MUX_PATH } from '../../protocol/mux';
import { badRequest, ProxyError, sendProxyError } from './errors';
import { parseK8sUrl, refusal } from './filter';
import { type ForwardContext, forwardHttp, MAX_BODY_BYTES, tooLarge } from './forward';
import { checkHost, checkOrigin, checkToken, readDoorHeaders } from './guard';
import type { Kubeconfig } from './kubeconfig';
import type { Mux } from './mux';
import type { PageServer } from './static';

/** What the routes learn once the server listens: its port, and the security headers that name it. */
export interface Door {
  port: number;
  /** Flat name/value list, as writeHead takes it. */
  security: string[];
}

/**
 * A /proxy/ endpoint: GET or HEAD only, answered as JSON that no one caches. A promise is awaited
 * (a long poll: /proxy/audit); `signal` aborts when the page goes away first.
 */
export type JsonEndpoint = (query: URLSearchParams, signal: AbortSignal) => unknown;
/** A /proxy/ route that answers itself (a stream, a download), GET only, after the door. */
export type RawEndpoint = (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => void;
/** A /proxy/ action: POST only (its body, if any, is not read), answered as JSON that no one caches. */
export type JsonAction = (query: URLSearchParams) => unknown;

export interface RouterOptions {
  door: Door;
  token: string;
  pages: PageServer;
  /** By path, e.g. `/proxy/contexts`. */
  endpoints: Readonly<Record<string, JsonEndpoint>>;
  /** By path, e.g. `/proxy/credentials/cancel`. */
  actions?: Readonly<Record<string, JsonAction>>;
  /** By path, e.g. `/proxy/xray/stream`. */
  raw?: Readonly<Record<string, RawEndpoint>>;
  kubeconfig: Kubeconfig;
  allowExec: boolean;
  forwarding: ForwardContext;
  /** Replay mode (--replay): every /k8s/ request gets this refusal and nothing is forwarded. */
  refuseClusters?: () => ProxyError;
  /** Told of each page load (a GET of the page itself, with its query), before it is answered. */
  onPageLoad?: (url: string) => void;
}

export interface Router {
  /** Synchronous unless the context's credentials must be fetched: no promise per request. */
  handle(req: IncomingMessage, res: ServerResponse): void | Promise<void>;
  /** Answers with the proxy's own Status, behind the security headers. */
  fail(res: ServerResponse, err: ProxyError, opts?: { close?: boolean }): void;
}

/** The page itself (`/`, `/index.html`, or a client route without a file extension), not one of its assets. */
function isPageLoad(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  return path === '/' || path === '/index.html' || !/\.[A-Za-z0-9]+$/.test(path.slice(path.lastIndexOf('/')));
}

export function createRouter(o: RouterOptions): Router {
  const { door } = o;
  // The security headers go on every response. A forwarded response gets them in its one
  // writeHead (see forwardHttp); every other answer sets them first, through `secure`.
  const secure = (res: ServerResponse): void => {
    if (!res.headersSent) for (let i = 0; i < door.security.length; i += 2) res.setHeader(door.security[i]!, door.security[i + 1]!);
  };
  const fail = (res: ServerResponse, err: ProxyError, opts?: { close?: boolean }): void => {
    secure(res);
    sendProxyError(res, err, opts);
  };

  const endpoint = (req: IncomingMessage, res: ServerResponse, url: string): void => {
    secure(res);
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
    const action = o.actions && Object.hasOwn(o.actions, path) ? o.actions[path] : undefined;
    if (action) {
      if (req.method !== 'POST') return fail(res, new ProxyError(405, 'MethodNotAllowed', 'MethodNotAllowed', 'POST only'));
      // A body the page may have sent is not read; drained so the connection stays usable.
      req.resume();
      const body = Buffer.from(JSON.stringify(action(query)));
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': body.length });
      return void res.end(body);
    }
    const raw = o.raw && Object.hasOwn(o.raw, path) ? o.raw[path] : undefined;
    if (raw) {
      if (req.method !== 'GET') return fail(res, new ProxyError(405, 'MethodNotAllowed', 'MethodNotAllowed', 'GET only'));
      return raw(req, res, query);
    }
    const answer = Object.hasOwn(o.endpoints, path) ? o.endpoints[path] : undefined;
    if (!answer) return fail(res, new ProxyError(404, 'NotFound', 'NotFound', `no proxy endpoint ${path}`));
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(res, new ProxyError(405, 'MethodNotAllowed', 'MethodNotAllowed', 'GET only'));
    const send = (value: unknown): void => {
      if (res.destroyed) return;
      const body = Buffer.from(JSON.stringify(value));
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store', 'content-length': body.length });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    const gone = new AbortController();
    const value = answer(query, gone.signal);
    if (!(value instanceof Promise)) return send(value);
    res.once('close', () => gone.abort());
    return void value.then(send, (e: unknown) => fail(res, new ProxyError(500, 'InternalError', 'UpstreamError', (e as Error).message)));
  };

  const forward = (req: IncomingMessage, res: ServerResponse, url: string, h: ReturnType<typeof readDoorHeaders>): void | Promise<void> => {
    const route = parseK8sUrl(url);
    if (!o.allowExec) {
      const refused = refusal(route.segments);
      if (refused) return fail(res, refused, { close: true });
    }
    const length = h['content-length'];
    if (length !== undefined && Number(length) > MAX_BODY_BYTES) return fail(res, tooLarge(), { close: true });
    const pathAndQuery = route.path + route.query;
    const cached = o.kubeconfig.cachedTarget(route.context);
    if (cached) return forwardHttp({ req, res, target: cached, pathAndQuery, framing: h }, o.forwarding);
    return o.kubeconfig.target(route.context).then((target) => {
      if (!res.destroyed) forwardHttp({ req, res, target, pathAndQuery, framing: h }, o.forwarding);
    });
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const url = req.url ?? '/';
    const h = readDoorHeaders(req.rawHeaders);
    // Two Host headers: Node keeps the first, a front proxy might route by the other.
    if (h.hosts > 1) return fail(res, badRequest('DuplicateHost', 'the request has more than one Host header'), { close: true });
    const api = url.startsWith('/k8s/') || url === '/k8s' || url.startsWith('/proxy/') || url === '/proxy';
    const refused = checkHost(h.host, door.port) ?? checkOrigin(h, door.port, !api);
    if (refused) return fail(res, refused, { close: true });
    // Absolute-form targets (`GET http://evil/ HTTP/1.1`) and `*` are not paths of ours.
    if (!url.startsWith('/')) return fail(res, badRequest('InvalidPath', 'only origin-form request targets ("/path") are accepted'), { close: true });
    if (!api) {
      secure(res);
      if (req.method === 'GET' && o.onPageLoad && isPageLoad(url)) o.onPageLoad(url);
      return o.pages.handle(req, res);
    }
    const denied = checkToken(h['x-explorer-token'], o.token);
    if (denied) return fail(res, denied, { close: true });
    if (url.startsWith('/proxy/')) return endpoint(req, res, url);
    if (o.refuseClusters) return fail(res, o.refuseClusters());
    return forward(req, res, url, h);
  };

  return { handle, fail };
}

/**
 * Upgrades, CONNECT and malformed requests on the server's sockets: the mux (and Vite's hot
 * reload in dev) are the only upgrades served; nothing is ever tunnelled to a cluster.
 */
export function routeSockets(server: Server, { door, mux, pages, refuseMux }: { door: Door; mux: Mux; pages: PageServer & { hmrUpgrades?: import('node:events').EventEmitter }; refuseMux?: boolean }): void {
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const reject = (code: number, text: string) => {
      socket.end(`HTTP/1.1 ${code} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      socket.destroy();
    };
    socket.on('error', () => socket.destroy());
    const refused = checkHost(req.headers.host, door.port) ?? checkOrigin(req.headers, door.port);
    if (refused) return reject(403, 'Forbidden');
    const path = (req.url ?? '').split('?')[0];
    // Replay mode: the mux, which would carry watches and list chunks to a cluster, does not open.
    if (path === MUX_PATH) return refuseMux ? reject(503, 'Service Unavailable') : mux.handleUpgrade(req, socket, head);
    const protocol = req.headers['sec-websocket-protocol'];
    if (pages.hmrUpgrades && (protocol === 'vite-hmr' || protocol === 'vite-ping')) {
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
}

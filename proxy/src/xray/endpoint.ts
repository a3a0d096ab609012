// The X-ray endpoint: a loopback listener of its own where other clients (kubectl, a controller, a
// script) send their requests as they would to the cluster, under `/<context>/`. Each request is
// forwarded with the user's real credentials (the kubeconfig's, through openUpstream.ts: exec
// plugins, client certificates, proxy-url) and journaled (hub.ts). Faithful: only Authorization
// is replaced (the per-run token becomes the user's credential); User-Agent, Accept (Protobuf
// too), Audit-ID and Impersonate-* reach the server as the client sent them, since the client acts
// with the user's own authority (`kubectl --as` works here as it does directly). The answer goes
// back as it came, streamed with backpressure, compressed or not as the server chose.
//
// The door: Host must be the endpoint's own loopback name and port (DNS rebinding), an Origin
// other than ours is refused (no web page drives it), and the bearer token must be one granted
// (compared in constant time). A request that fails the door is answered with a Status and is
// neither journaled nor shown: it is no client of the user's. Paths follow the browser's door
// (filter.ts): exec, attach, port-forward, proxy and ephemeral containers are refused with a
// Status, which kubectl prints, unless --allow-exec (then upgrades are tunnelled, journaled with
// their size and duration).
import { type IncomingMessage, request as httpRequest, type ServerResponse } from 'node:http';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { XrayHeaders } from '../../../protocol/xray';
import { ProxyError, sendProxyError } from '../errors';
import { parseK8sUrl, refusal } from '../filter';
import { checkHost, checkOrigin, tokenMatches } from '../guard';
import type { Kubeconfig, UpstreamTarget } from '../kubeconfig';
import { BODYLESS_METHODS, openUpstream, type UpstreamLaunch, type UpstreamReply } from '../openUpstream';
import type { ExchangeTap, XrayHub } from './hub';
import { endpointCertificate } from './tls';

/** A token the endpoint accepts, and the run its requests belong to. */
export interface XrayGrant {
  run: string;
  /** Upgrades and the exec-like subresources pass for this grant. */
  allowExec: boolean;
}

export interface XrayEndpoint {
  /** `https://127.0.0.1:<port>` */
  url: string;
  /** The endpoint's own certificate (PEM), the one its kubeconfigs trust (tls.ts). */
  caPem: string;
  port: number;
  grant(token: string, grant: XrayGrant): void;
  revoke(token: string): void;
  /**
   * Ends every open answer as the API server ends a watch at its timeout (the body closed
   * cleanly, the upstream request dropped) and holds new requests until the returned function
   * is called: what a client does when its watch ends and the cluster moves on meanwhile (a
   * resume refused with 410 once etcd compacted, then a relist) can be watched happening.
   */
  cut(): () => void;
  close(): Promise<void>;
}

export interface XrayEndpointOptions {
  kubeconfig: Kubeconfig;
  launch: UpstreamLaunch;
  hub: XrayHub;
  log: (line: string) => void;
  /** Default 0: a free port. */
  port?: number;
  /** Requests to `/?xray=…` (the run control of an attached `xray`, see service.ts), after the door. */
  control?: (req: IncomingMessage, res: ServerResponse, grant: XrayGrant) => void;
}

/** Request headers that belong to one hop (RFC 9110 §7.6.1), and those the endpoint sets itself. */
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'authorization', 'proxy-authorization']);
/** Response headers of one hop: Node frames the body to the client itself. */
const HOP_RESPONSE = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'trailer', 'upgrade']);

function pairs(raw: readonly string[]): XrayHeaders {
  const out: XrayHeaders = [];
  for (let i = 0; i < raw.length; i += 2) out.push({ name: raw[i]!, value: raw[i + 1]! });
  return out;
}

/** The request's headers as journaled: Authorization shown as a bearer without its token (the token is the run's, never kept). */
function journaled(raw: readonly string[]): XrayHeaders {
  return pairs(raw).map((h) => (h.name.toLowerCase() === 'authorization' ? { name: h.name, value: `${h.value.split(' ')[0] ?? ''} <the run's token: replaced by the user's credential>` } : h));
}

function forwarded(raw: readonly string[], keepUpgrade = false): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const lower = raw[i]!.toLowerCase();
    if (NOT_FORWARDED.has(lower) && !(keepUpgrade && (lower === 'connection' || lower === 'upgrade'))) continue;
    out.push([raw[i]!, raw[i + 1]!]);
  }
  return out;
}

function unauthorized(): ProxyError {
  return new ProxyError(401, 'Unauthorized', 'MissingToken', 'this X-ray endpoint of the Kube API Explorer needs its bearer token (use the kubeconfig that `xray` or the explorer page gives)');
}

function execRefused(path: string): ProxyError {
  return new ProxyError(403, 'Forbidden', 'RefusedSubresource', `the X-ray endpoint refuses ${path.split('?')[0]}: exec, attach, port-forward and proxy are not tunnelled unless xray (or the explorer) runs with --allow-exec`);
}

/** A request past the door: a forwarded one (its context and path), or the run control's. */
type Admitted = { grant: XrayGrant; control?: false; context: string; pathAndQuery: string; segments: string[] } | { grant: XrayGrant; control: true };
type Door = (req: IncomingMessage, refuse: (err: ProxyError) => void) => Admitted | null;

/** An upgrade (exec, attach, port-forward): refused with a Status unless its grant allows exec, then tunnelled. */
function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, admit: Door, o: XrayEndpointOptions): void {
  socket.on('error', () => socket.destroy());
  const refuse = (err: ProxyError) => {
    const body = JSON.stringify(err.toStatus());
    socket.end(`HTTP/1.1 ${err.code} ${err.code === 401 ? 'Unauthorized' : 'Forbidden'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  };
  const a = admit(req, refuse);
  if (!a) return;
  if (a.control) return refuse(new ProxyError(400, 'BadRequest', 'InvalidPath', 'no upgrade here'));
  const tap = o.hub.tap(a.grant.run, a.context, req.method ?? 'GET', a.pathAndQuery, journaled(req.rawHeaders), true);
  if (!a.grant.allowExec) {
    const err = execRefused(a.pathAndQuery);
    tap.responseHead(err.code, 'Forbidden', [{ name: 'Content-Type', value: 'application/json' }], true);
    tap.chunk(Buffer.from(JSON.stringify(err.toStatus())));
    tap.end('server');
    return refuse(err);
  }
  void tunnel(req, socket, head, a.context, a.pathAndQuery, tap, o).catch((e: unknown) => {
    tap.end('error', (e as Error).message);
    refuse(e instanceof ProxyError ? e : new ProxyError(502, 'ServiceUnavailable', 'UpstreamError', (e as Error).message));
  });
}

export async function startXrayEndpoint(o: XrayEndpointOptions): Promise<XrayEndpoint> {
  const grants = new Map<string, XrayGrant>();
  let port = 0;
  let held: Promise<void> | undefined;
  /** Answers being streamed: `cut` ends them. */
  const open = new Set<() => void>();
  /** Every token is compared, each in constant time, so the answer's time says nothing of which matched. */
  const grantOf = (authorization: string | undefined): XrayGrant | undefined => {
    const m = /^Bearer (.+)$/i.exec(authorization ?? '');
    let found: XrayGrant | undefined;
    for (const [token, g] of grants) if (tokenMatches(m?.[1], token) && !found) found = g;
    return found;
  };
  /** The door; null: refused and already answered (nothing journaled). */
  const admit = (req: IncomingMessage, refuse: (err: ProxyError) => void): Admitted | null => {
    const refused = (req.headersDistinct.host?.length ?? 0) > 1 ? new ProxyError(400, 'BadRequest', 'DuplicateHost', 'more than one Host header') : (checkHost(req.headers.host, port) ?? checkOrigin(req.headers, port));
    if (refused) return void refuse(refused), null;
    const grant = grantOf(req.headers.authorization);
    if (!grant) return void refuse(unauthorized()), null;
    if (req.url?.startsWith('/?xray=')) return { grant, control: true };
    try {
      const route = parseK8sUrl(`/k8s${req.url ?? '/'}`);
      return { grant, context: route.context, pathAndQuery: route.path + route.query, segments: route.segments };
    } catch (e) {
      return void refuse(e instanceof ProxyError ? e : new ProxyError(400, 'BadRequest', 'InvalidPath', String(e))), null;
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const a = admit(req, (err) => sendProxyError(res, err, { close: true }));
    if (!a) {
      req.resume();
      return;
    }
    if (a.control) return o.control ? o.control(req, res, a.grant) : sendProxyError(res, new ProxyError(404, 'NotFound', 'NotFound', 'no run control here'));
    if (held) await held;
    const method = req.method ?? 'GET';
    const tap = o.hub.tap(a.grant.run, a.context, method, a.pathAndQuery, journaled(req.rawHeaders));
    const fail = (err: ProxyError) => {
      if (!res.headersSent) {
        const body = JSON.stringify(err.toStatus());
        tap.responseHead(err.code, '', [{ name: 'Content-Type', value: 'application/json' }], true);
        tap.chunk(Buffer.from(body));
      }
      tap.end('error', err.message);
      sendProxyError(res, err);
    };
    const refused = a.grant.allowExec ? null : refusal(a.segments);
    if (refused) {
      req.resume();
      return fail(execRefused(a.pathAndQuery));
    }
    let target: UpstreamTarget;
    try {
      target = o.kubeconfig.cachedTarget(a.context) ?? (await o.kubeconfig.target(a.context));
    } catch (e) {
      req.resume();
      return fail(e instanceof ProxyError ? e : new ProxyError(502, 'ServiceUnavailable', 'CredentialsFailed', String(e)));
    }
    forward(req, res, target, a.pathAndQuery, tap, o, fail, open);
  };

  const tls = await endpointCertificate();
  const server: Server = createServer({ cert: tls.certPem, key: tls.keyPem, headersTimeout: 20_000, requestTimeout: 0, keepAliveTimeout: 5_000, noDelay: true }, (req, res) => {
    handle(req, res).catch((e: unknown) => {
      o.log(`xray: internal error: ${(e as Error).stack ?? String(e)}`);
      sendProxyError(res, new ProxyError(500, 'InternalError', 'UpstreamError', `internal error: ${(e as Error).message}`));
    });
  });
  // Watches are quiet for minutes: no socket inactivity timeout.
  server.timeout = 0;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => onUpgrade(req, socket, head, admit, o));
  server.on('tlsClientError', (_err, socket) => socket.destroy());
  server.on('clientError', (_err, socket: Duplex) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    socket.destroy();
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(o.port ?? 0, '127.0.0.1', () => {
      server.off('error', fail);
      ok();
    });
  });
  const addr = server.address();
  port = typeof addr === 'object' && addr ? addr.port : 0;
  let closing: Promise<void> | undefined;
  return {
    url: `https://127.0.0.1:${port}`,
    caPem: tls.certPem,
    port,
    grant: (token, g) => void grants.set(token, g),
    revoke: (token) => void grants.delete(token),
    cut() {
      let release = () => undefined as void;
      const gate = new Promise<void>((ok) => (release = ok));
      held = gate;
      for (const end of [...open]) end();
      return () => {
        if (held === gate) held = undefined;
        release();
      };
    },
    close() {
      closing ??= new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

/** One request, forwarded and journaled: the body streamed up, the answer streamed back. */
function forward(req: IncomingMessage, res: ServerResponse, target: UpstreamTarget, pathAndQuery: string, tap: ExchangeTap, o: XrayEndpointOptions, fail: (err: ProxyError) => void, open: Set<() => void>): void {
  const method = req.method ?? 'GET';
  const headers = forwarded(req.rawHeaders);
  const hasBody = !BODYLESS_METHODS.has(method) && (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined);
  if (hasBody && req.headers['content-length'] === undefined) headers.push(['Transfer-Encoding', 'chunked']);
  let answered = false;
  const upstream = openUpstream(o.launch, target, { method, pathAndQuery, headers }, {
    onResponse(up) {
      answered = true;
      if (res.destroyed) {
        upstream.abort();
        return tap.end('client');
      }
      const cut = () => {
        open.delete(cut);
        if (res.writableEnded) return;
        ended.cut = true;
        res.end();
        upstream.abort();
        tap.end('server', 'cut by the explorer (the endpoint ended the answer)');
      };
      open.add(cut);
      res.on('close', () => open.delete(cut));
      relay(res, up, tap, ended);
    },
    onError: fail,
  });
  const ended = { cut: false };
  res.on('close', () => {
    if (!res.writableFinished) {
      upstream.abort();
      tap.end('client', answered ? undefined : 'the client went away before the answer came');
    }
  });
  if (!hasBody) {
    req.resume();
    return upstream.end();
  }
  req.on('data', (b: Buffer) => tap.requestChunk(b));
  req.on('end', () => tap.requestEnd());
  req.pipe(upstream.body!);
}

/** The API server's answer, as it came: status, headers (minus one hop's), body chunks with backpressure. */
function relay(res: ServerResponse, up: UpstreamReply, tap: ExchangeTap, ended: { cut: boolean }): void {
  const out: string[] = [];
  for (let i = 0; i < up.rawHeaders.length; i += 2) if (!HOP_RESPONSE.has(up.rawHeaders[i]!.toLowerCase())) out.push(up.rawHeaders[i]!, up.rawHeaders[i + 1]!);
  const status = up.statusCode ?? 502;
  tap.responseHead(status, up.statusMessage ?? '', pairs(out));
  res.writeHead(status, up.statusMessage ?? '', out);
  const whole = up.takeBody?.();
  if (whole) {
    tap.chunk(whole);
    res.end(whole);
    return tap.end('server');
  }
  // A watch's head goes now: a quiet watch is still an open one.
  res.flushHeaders();
  up.on('data', (b: Buffer) => {
    tap.chunk(b);
    if (!res.write(b)) up.pause();
  });
  res.on('drain', () => up.resume());
  up.on('end', () => {
    if (ended.cut) return;
    res.end();
    tap.end('server');
  });
  up.on('close', () => {
    if (up.complete || ended.cut) return;
    // Cut mid-body: cut the client too, so that it does not take a truncated body for whole.
    tap.end('error', 'the API server closed the connection before the body ended');
    res.destroy();
  });
}

/** --allow-exec: an upgrade (exec, attach, port-forward over SPDY or WebSocket), tunnelled both ways and journaled by size. */
async function tunnel(req: IncomingMessage, socket: Duplex, head: Buffer, context: string, pathAndQuery: string, tap: ExchangeTap, o: XrayEndpointOptions): Promise<void> {
  const target = o.kubeconfig.cachedTarget(context) ?? (await o.kubeconfig.target(context));
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of forwarded(req.rawHeaders, true)) {
    const key = k.toLowerCase();
    const prev = headers[key];
    headers[key] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  for (const k in target.headers) headers[k.toLowerCase()] = target.headers[k]!;
  const upReq = (target.secure ? httpsRequest : httpRequest)({ hostname: target.hostname, port: target.port, method: req.method, path: target.basePath + pathAndQuery, headers, agent: target.agent });
  const sizes = { sentBytes: head.length, receivedBytes: 0 };
  upReq.on('upgrade', (upRes: IncomingMessage, upSocket: Socket, upHead: Buffer) => {
    const lines = [`HTTP/1.1 ${upRes.statusCode} ${upRes.statusMessage ?? ''}`];
    for (let i = 0; i < upRes.rawHeaders.length; i += 2) lines.push(`${upRes.rawHeaders[i]}: ${upRes.rawHeaders[i + 1]}`);
    tap.responseHead(upRes.statusCode ?? 101, upRes.statusMessage ?? '', pairs(upRes.rawHeaders));
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (upHead.length) socket.write(upHead);
    if (head.length) upSocket.write(head);
    sizes.receivedBytes += upHead.length;
    socket.on('data', (b: Buffer) => void (sizes.sentBytes += b.length));
    upSocket.on('data', (b: Buffer) => void (sizes.receivedBytes += b.length));
    socket.pipe(upSocket);
    upSocket.pipe(socket);
    const done = () => {
      socket.destroy();
      upSocket.destroy();
      tap.end('server', undefined, sizes);
    };
    socket.on('close', done);
    upSocket.on('close', done);
    upSocket.on('error', () => socket.destroy());
  });
  // No upgrade: the server refused it (403, 400 with a Status): pass that answer on as it came.
  upReq.on('response', (upRes: IncomingMessage) => {
    const lines = [`HTTP/1.1 ${upRes.statusCode} ${upRes.statusMessage ?? ''}`];
    const hdrs: string[] = [];
    for (let i = 0; i < upRes.rawHeaders.length; i += 2) if (!HOP_RESPONSE.has(upRes.rawHeaders[i]!.toLowerCase())) hdrs.push(upRes.rawHeaders[i]!, upRes.rawHeaders[i + 1]!);
    for (let i = 0; i < hdrs.length; i += 2) lines.push(`${hdrs[i]}: ${hdrs[i + 1]}`);
    tap.responseHead(upRes.statusCode ?? 502, upRes.statusMessage ?? '', pairs(hdrs));
    const body: Buffer[] = [];
    upRes.on('data', (b: Buffer) => {
      body.push(b);
      tap.chunk(b);
    });
    upRes.on('end', () => {
      const all = Buffer.concat(body);
      socket.end(`${lines.filter((l) => !/^content-length:/i.test(l)).join('\r\n')}\r\nContent-Length: ${all.length}\r\nConnection: close\r\n\r\n${all.toString('latin1')}`, 'latin1');
      tap.end('server');
    });
  });
  upReq.on('error', (e) => {
    tap.end('error', e.message);
    socket.destroy();
  });
  upReq.end();
}

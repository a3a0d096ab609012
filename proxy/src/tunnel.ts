// Connections to an API server through the proxy a kubeconfig cluster names in `proxy-url`, as
// client-go opens them: an HTTP CONNECT tunnel through an `http://` or `https://` proxy, or a
// SOCKS5 connection through a `socks5://` one; TLS with the API server then runs inside it, end
// to end, with the cluster's CA, client certificate and tls-server-name. kubectl refuses any other
// scheme ("unsupported scheme …, must be http, https, or socks5"), and so do we.
//
// Both upstream clients (the lean HTTP/1.1 pool for reads and watches, node:https for writes)
// dial through here, so a context behind a proxy keeps its kept-alive connections: one tunnel
// carries request after request, as Go's transport reuses its proxied connections.
//
// CONNECT is written with node:http itself rather than an agent library (hpagent,
// https-proxy-agent): those hand their tunnel only to node:http's own request flow, and the lean
// client needs the bare socket to put its TLS on. SOCKS5 uses the `socks` package.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type Socket } from 'node:net';
import { SocksClient } from 'socks';

/** Opens a TCP connection to host:port (the API server as the kubeconfig names it); TLS is the caller's. */
export type Dial = (host: string, port: number, signal: AbortSignal) => Promise<Socket>;

/** The schemes client-go accepts in `proxy-url`. */
const SCHEMES = new Set(['http:', 'https:', 'socks5:']);
/** Go's default ports for proxy URLs without one (net/http: canonicalAddr, x/net/proxy). */
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'socks5:': 1080 };

/** `proxy-url` checked as kubectl checks it; the message names the cluster and the scheme. */
export function parseProxyUrl(raw: string, cluster: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`invalid 'proxy-url' for cluster "${cluster}": not a URL`);
  }
  if (!SCHEMES.has(url.protocol)) {
    throw new Error(`invalid 'proxy-url' ${JSON.stringify(redactProxy(url))} for cluster "${cluster}": unsupported scheme ${JSON.stringify(url.protocol.slice(0, -1))}, must be http, https, or socks5`);
  }
  if (!url.hostname) throw new Error(`invalid 'proxy-url' for cluster "${cluster}": no host`);
  return url;
}

/** The proxy URL without its userinfo, for messages. */
export function redactProxy(url: URL): string {
  const u = new URL(url.href);
  u.username = '';
  u.password = '';
  return u.href.replace(/\/$/, '');
}

const bare = (host: string) => host.replace(/^\[|\]$/g, '');
const authority = (host: string, port: number) => `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;

function dialError(message: string, code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * A Dial through `proxy`. A failure names the proxy: `PROXY_REFUSED` when it answered the
 * tunnel with anything but 200 (its status line is in the message), else the socket's own code
 * (ECONNREFUSED…), so that upstreamFailure says which hop failed.
 */
export function proxyDialer(proxy: URL): Dial {
  const name = redactProxy(proxy);
  const host = bare(proxy.hostname);
  const port = proxy.port ? Number(proxy.port) : DEFAULT_PORTS[proxy.protocol]!;
  const user = decodeURIComponent(proxy.username);
  const password = decodeURIComponent(proxy.password);
  const through = (e: Error, target: string): never => {
    const err = e as NodeJS.ErrnoException;
    throw dialError(`through the proxy ${name} to ${target}: ${err.message}`, err.code ?? 'PROXY_FAILED');
  };
  if (proxy.protocol === 'socks5:') {
    return async (targetHost, targetPort, signal) => {
      // The host name goes to the proxy unresolved, as Go's SOCKS5 dialer sends it: the proxy's
      // side of the network is where the cluster's name means something.
      const target = authority(targetHost, targetPort);
      const pending = SocksClient.createConnection({
        proxy: { host, port, type: 5, ...(user || password ? { userId: user, password } : {}) },
        destination: { host: targetHost, port: targetPort },
        command: 'connect',
        set_tcp_nodelay: true,
      });
      const aborted = new Promise<never>((_, fail) => signal.addEventListener('abort', () => fail(signal.reason as Error), { once: true }));
      try {
        return (await Promise.race([pending, aborted])).socket;
      } catch (e) {
        // A connection that comes after the caller gave up is closed at once.
        pending.then(({ socket }) => socket.destroy(), () => undefined);
        return through(e as Error, target);
      }
    };
  }
  const headers: Record<string, string> = {};
  if (user || password) headers['proxy-authorization'] = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  return (targetHost, targetPort, signal) =>
    new Promise<Socket>((ok, fail) => {
      const target = authority(targetHost, targetPort);
      const req = (proxy.protocol === 'https:' ? httpsRequest : httpRequest)({
        host,
        port,
        method: 'CONNECT',
        path: target,
        headers: { ...headers, host: target },
        setHost: false,
        agent: false,
        // TLS with an https:// proxy checks the proxy's own name.
        ...(proxy.protocol === 'https:' && !isIP(host) ? { servername: host } : {}),
      });
      const onAbort = () => req.destroy(signal.reason as Error);
      signal.addEventListener('abort', onAbort, { once: true });
      req.once('connect', (res: IncomingMessage, socket: Socket, head: Buffer) => {
        signal.removeEventListener('abort', onAbort);
        if (res.statusCode !== 200) {
          socket.destroy();
          fail(dialError(`the proxy ${name} refused a tunnel to ${target}: ${res.statusCode} ${res.statusMessage ?? ''}`.trimEnd(), 'PROXY_REFUSED'));
          return;
        }
        // Bytes the proxy sent after its 200 belong to the API server's stream.
        if (head.length) socket.unshift(head);
        socket.setNoDelay(true);
        ok(socket);
      });
      req.once('error', (e) => {
        signal.removeEventListener('abort', onAbort);
        try {
          through(e, target);
        } catch (err) {
          fail(err as Error);
        }
      });
      req.end();
    });
}

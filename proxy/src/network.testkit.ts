// Real network parts for tests and benches, between the explorer and kube-apiserver: an HTTP
// CONNECT proxy, a SOCKS5 proxy and a TCP relay that delays every byte (a slow link). Each
// counts what passed through it, so a test can tell that a request took the way it should.
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { connect, createServer, isIP, type Server, type Socket } from 'node:net';

export interface TestProxy {
  /** `http://127.0.0.1:PORT` (or `socks5://…`), with `user:password@` when it asks for credentials. */
  url: string;
  port: number;
  /** Tunnels opened so far (CONNECT answered 200, or a SOCKS5 connect granted). */
  tunnels(): number;
  /** `host:port` of every tunnel asked for, refused ones too, in order. */
  targets(): string[];
  /** Tunnels refused so far (wrong credentials, an unknown name). */
  refused(): number;
  /** Requests that were not CONNECT (absolute-form GETs and the like): answered 405. */
  plainRequests(): number;
  close(): Promise<void>;
}

export interface TestProxyOptions {
  /**
   * Names the proxy resolves itself, as a proxy inside a cluster's network would (the explorer's
   * machine cannot resolve them): `{'api.cluster.internal': '127.0.0.1'}`. Other names are
   * refused (502 / SOCKS host unreachable); IP addresses are connected to as they are.
   */
  hosts?: Record<string, string>;
  /** Basic credentials the proxy requires (`Proxy-Authorization`; SOCKS5 user/password). */
  auth?: { user: string; password: string };
}

function splitAuthority(authority: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(authority);
  return m ? { host: (m[1] ?? m[2])!, port: Number(m[3]) } : undefined;
}

function closer(server: Server, open: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise<void>((ok) => {
      for (const s of [...open]) s.destroy();
      server.close(() => ok());
    });
}

/** Pipes two sockets both ways and tracks them until either closes. */
function splice(a: Socket, b: Socket, open: Set<Socket>): void {
  open.add(a);
  open.add(b);
  a.pipe(b);
  b.pipe(a);
  const end = () => {
    open.delete(a);
    open.delete(b);
    a.destroy();
    b.destroy();
  };
  for (const s of [a, b]) {
    s.on('close', end);
    s.on('error', end);
  }
}

/** A real HTTP CONNECT proxy on 127.0.0.1 (what `proxy-url: http://…` names). */
export async function startConnectProxy(opts: TestProxyOptions = {}): Promise<TestProxy> {
  const open = new Set<Socket>();
  const targets: string[] = [];
  let tunnels = 0;
  let refused = 0;
  let plain = 0;
  const expected = opts.auth ? `Basic ${Buffer.from(`${opts.auth.user}:${opts.auth.password}`).toString('base64')}` : undefined;
  const server = createHttpServer((req, res) => {
    plain++;
    res.writeHead(405, { 'content-type': 'text/plain' });
    res.end('this proxy only tunnels (CONNECT)\n');
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const authority = req.url ?? '';
    targets.push(authority);
    const refuse = (status: string) => {
      refused++;
      client.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\n${status.startsWith('407') ? 'Proxy-Authenticate: Basic realm="test"\r\n' : ''}\r\n`);
    };
    if (expected && req.headers['proxy-authorization'] !== expected) return refuse('407 Proxy Authentication Required');
    const where = splitAuthority(authority);
    const host = where && (isIP(where.host) ? where.host : opts.hosts?.[where.host]);
    if (!where || !host) return refuse('502 Bad Gateway');
    const up = connect(where.port, host, () => {
      tunnels++;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      splice(client, up, open);
    });
    up.once('error', () => refuse('502 Bad Gateway'));
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  const cred = opts.auth ? `${encodeURIComponent(opts.auth.user)}:${encodeURIComponent(opts.auth.password)}@` : '';
  return {
    url: `http://${cred}127.0.0.1:${port}`,
    port,
    tunnels: () => tunnels,
    targets: () => [...targets],
    refused: () => refused,
    plainRequests: () => plain,
    close: () => {
      for (const s of sockets) s.destroy();
      return closer(server as unknown as Server, open)();
    },
  };
}

/** A real SOCKS5 proxy (RFC 1928, with RFC 1929 user/password when `auth` is given) on 127.0.0.1. */
export async function startSocksProxy(opts: TestProxyOptions = {}): Promise<TestProxy> {
  const open = new Set<Socket>();
  const targets: string[] = [];
  let tunnels = 0;
  let refused = 0;
  const server = createServer((client) => {
    open.add(client);
    client.on('error', () => client.destroy());
    client.on('close', () => open.delete(client));
    let buf = Buffer.alloc(0);
    let stage: 'hello' | 'auth' | 'request' | 'done' = 'hello';
    const onData = (b: Buffer) => {
      buf = Buffer.concat([buf, b]);
      for (;;) {
        if (stage === 'hello') {
          if (buf.length < 2 || buf.length < 2 + buf[1]!) return;
          const methods = [...buf.subarray(2, 2 + buf[1]!)];
          buf = buf.subarray(2 + buf[1]!);
          const want = opts.auth ? 2 : 0;
          if (!methods.includes(want)) return void client.end(Buffer.from([5, 0xff]));
          client.write(Buffer.from([5, want]));
          stage = opts.auth ? 'auth' : 'request';
        } else if (stage === 'auth') {
          if (buf.length < 2) return;
          const ulen = buf[1]!;
          if (buf.length < 3 + ulen || buf.length < 3 + ulen + buf[2 + ulen]!) return;
          const user = buf.subarray(2, 2 + ulen).toString();
          const password = buf.subarray(3 + ulen, 3 + ulen + buf[2 + ulen]!).toString();
          buf = buf.subarray(3 + ulen + buf[2 + ulen]!);
          const ok = user === opts.auth!.user && password === opts.auth!.password;
          client.write(Buffer.from([1, ok ? 0 : 1]));
          if (!ok) {
            refused++;
            return void client.end();
          }
          stage = 'request';
        } else if (stage === 'request') {
          if (buf.length < 5) return;
          const atyp = buf[3]!;
          const alen = atyp === 1 ? 4 : atyp === 4 ? 16 : 1 + buf[4]!;
          if (buf.length < 4 + alen + 2) return;
          const addr = buf.subarray(4, 4 + alen);
          const name = atyp === 1 ? [...addr].join('.') : atyp === 3 ? addr.subarray(1).toString() : (addr.toString('hex').match(/.{4}/g) ?? []).join(':');
          const port = buf.readUInt16BE(4 + alen);
          buf = buf.subarray(4 + alen + 2);
          stage = 'done';
          client.off('data', onData);
          targets.push(`${atyp === 4 ? `[${name}]` : name}:${port}`);
          const host = isIP(name) ? name : opts.hosts?.[name];
          const reply = (code: number) => Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]);
          if (!host) {
            refused++;
            return void client.end(reply(4));
          }
          const up = connect(port, host, () => {
            tunnels++;
            client.write(reply(0));
            if (buf.length) up.write(buf);
            splice(client, up, open);
          });
          up.once('error', () => {
            refused++;
            client.end(reply(5));
          });
          return;
        } else return;
      }
    };
    client.on('data', onData);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  const cred = opts.auth ? `${encodeURIComponent(opts.auth.user)}:${encodeURIComponent(opts.auth.password)}@` : '';
  return {
    url: `socks5://${cred}127.0.0.1:${port}`,
    port,
    tunnels: () => tunnels,
    targets: () => [...targets],
    refused: () => refused,
    plainRequests: () => 0,
    close: closer(server, open),
  };
}

export interface Relay {
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A TCP relay to `target` that holds every chunk `delayMs` before passing it on, each way, in
 * order: a link with a round trip of 2 × delayMs. A new connection also waits one round trip
 * before its first byte goes on (TCP's handshake on such a link). TLS passes through untouched.
 */
export async function startRelay(target: { host: string; port: number }, delayMs: number, listenHost = '127.0.0.1'): Promise<Relay> {
  const open = new Set<Socket>();
  let accepted = 0;
  const later = (to: Socket, b: Buffer) => setTimeout(() => to.destroyed || to.write(b), delayMs);
  const server = createServer((client: Socket) => {
    accepted++;
    open.add(client);
    client.setNoDelay(true);
    const held: Buffer[] = [];
    let up: Socket | undefined;
    client.on('data', (b: Buffer) => (up ? later(up, b) : held.push(b)));
    const end = () => {
      open.delete(client);
      // What is still on its way arrives before the close does.
      setTimeout(() => {
        client.destroy();
        up?.destroy();
      }, delayMs);
    };
    client.on('close', end);
    client.on('error', end);
    setTimeout(() => {
      if (client.destroyed) return;
      const u = connect(target.port, target.host);
      u.setNoDelay(true);
      up = u;
      open.add(u);
      for (const b of held.splice(0)) later(u, b);
      u.on('data', (b: Buffer) => later(client, b));
      u.on('close', () => {
        open.delete(u);
        setTimeout(() => client.destroy(), delayMs);
      });
      u.on('error', () => client.destroy());
    }, 2 * delayMs);
  });
  await new Promise<void>((ok) => server.listen(0, listenHost, ok));
  return {
    port: (server.address() as { port: number }).port,
    connections: () => accepted,
    close: closer(server, open),
  };
}

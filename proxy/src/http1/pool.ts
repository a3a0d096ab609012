// Keep-alive connections to one API server, and one bodyless exchange at a time on each.
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type { Dial } from '../tunnel';
import { ResponseFramer } from './framer';
import { UpstreamResponse } from './response';

export interface LeanHandlers {
  onResponse(res: UpstreamResponse): void;
  /** A failure before the response head: a connection, TLS or framing error (ProxyError when given to fail()). */
  onError(err: Error): void;
  /** The exchange is over, whatever its outcome; called once. */
  onClose(): void;
}

export interface LeanExchange {
  /** Destroys the exchange on purpose: no onError follows (a response, if any, closes incomplete). */
  abort(): void;
  /** Fails the exchange with this error (a timeout of the caller's): onError before a response, else the response closes incomplete. */
  fail(err: Error): void;
}

export interface PoolOptions {
  secure: boolean;
  host: string;
  port: number;
  /** TLS material and checks (ca, cert, key, servername, rejectUnauthorized…), as for tls.connect. */
  tls?: ConnectionOptions;
  connectTimeoutMs: number;
  /** Opens the TCP connection through a proxy (a kubeconfig proxy-url); TLS then runs inside it. */
  dial?: Dial;
}

type SocketListener = Parameters<Socket['off']>[1];

/** One keep-alive connection and the exchange it carries (one at a time: no pipelining). */
interface Conn {
  /** Undefined while a connection through a proxy is being opened (see opening). */
  socket?: Socket;
  /** Settles when the tunnel is up and the socket set; rejects when it could not be opened. */
  opening?: Promise<void>;
  /** Set while an exchange owns the connection. */
  onData?: (b: Buffer) => void;
  onGone?: (err: Error | undefined) => void;
  reused: boolean;
  /** Exchanges this connection has carried (a preconnected one may be taken before it carried any). */
  exchanges: number;
  /** The pool's own listeners on the socket, removed when the connection is lent (see lend()). */
  listeners: [string, SocketListener][];
}

/**
 * Keep-alive connections to one API server with one set of credentials. Idle connections wait in
 * a stack (the most recent first: the one least likely to have been closed by the server); one
 * the server closes while idle is dropped at once.
 */
export class UpstreamPool {
  private readonly idle: Conn[] = [];
  private readonly all = new Set<Conn>();
  private destroyed = false;
  private readonly hostHeader: string;

  constructor(private readonly opts: PoolOptions) {
    const host = isIP(opts.host) === 6 ? `[${opts.host}]` : opts.host;
    this.hostHeader = opts.port === (opts.secure ? 443 : 80) ? host : `${host}:${opts.port}`;
  }

  /** Connections open now, idle or busy (for tests). */
  get size(): number {
    return this.all.size;
  }

  /**
   * Sends one bodyless request. `headerLines` are "Name: value\r\n" lines, already checked
   * (see headerLines()); Host is added here.
   */
  request(method: 'GET' | 'HEAD', path: string, headerLines: string, handlers: LeanHandlers): LeanExchange {
    const head = `${method} ${path} HTTP/1.1\r\nHost: ${this.hostHeader}\r\n${headerLines}\r\n`;
    let conn: Conn | undefined;
    let res: UpstreamResponse | undefined;
    let over = false;
    let retried = false;
    let keepAlive = true;
    const close = () => {
      if (over) return;
      over = true;
      handlers.onClose();
    };
    const failBefore = (err: Error) => {
      if (over) return;
      if (res) res.abort();
      else handlers.onError(err);
      close();
    };
    const start = () => {
      if (this.destroyed) return failBefore(Object.assign(new Error('the proxy is shutting down'), { code: 'ECONNRESET' }));
      conn = this.take();
      const c = conn;
      if (!c.opening) return run(c);
      // Through a proxy: the request goes out once the tunnel is up (nothing was sent, so a
      // failure here is the connection's, reported as such).
      c.opening.then(
        () => {
          if (!over && conn === c) run(c);
        },
        (err: Error) => failBefore(err),
      );
    };
    const run = (c: Conn) => {
      const socket = c.socket!;
      c.exchanges++;
      // The head goes out before anything else is set up: that work then overlaps with the API
      // server's, instead of adding to the latency of every request. No bytes or errors can be
      // handed to us before this function returns (socket events come on later turns).
      socket.write(head);
      const framer = new ResponseFramer(
        {
          head: (h, whole) => {
            res = new UpstreamResponse(h, socket, whole);
            keepAlive = h.keepAlive;
            handlers.onResponse(res);
          },
          body: (b) => res?.deliver(b),
          done: (rest) => {
            const r = res!;
            // Bytes after the response that no request asked for: the connection is not trusted again.
            if (rest?.length || !keepAlive) this.discard(c);
            else this.release(c);
            r.end();
            close();
          },
        },
        method === 'HEAD',
      );
      keepAlive = true;
      let gotBytes = false;
      c.onData = (b) => {
        gotBytes = true;
        try {
          framer.push(b);
        } catch (e) {
          this.discard(c);
          return failBefore(e as Error);
        }
      };
      c.onGone = (err) => {
        this.discard(c);
        if (over) return;
        if (!err) {
          try {
            framer.end();
            return;
          } catch (e) {
            err = e as Error;
          }
        }
        // A kept-alive connection the server closed just as this request went out: nothing was
        // answered, so a GET or HEAD is sent again once on a new connection (as Go's transport does).
        if (c.reused && !gotBytes && !retried && !res) {
          retried = true;
          return start();
        }
        failBefore(err);
      };
    };
    start();
    return {
      abort: () => {
        if (over) return;
        over = true;
        if (conn) this.discard(conn);
        res?.abort();
        handlers.onClose();
      },
      fail: (err) => {
        if (over) return;
        if (conn) this.discard(conn);
        failBefore(err);
      },
    };
  }

  private take(): Conn {
    while (this.idle.length) {
      const c = this.idle.pop()!;
      // A connection still opening (preconnected) is taken as it is: the request's head waits in
      // the TLS socket (or for the tunnel) and goes out with the handshake's end.
      if (c.opening || (c.socket && !c.socket.destroyed && (c.socket.readyState === 'open' || c.socket.connecting))) {
        c.reused = c.exchanges > 0;
        return c;
      }
      this.discard(c);
    }
    return this.connect();
  }

  /**
   * Opens connections ahead of the requests that will need them, up to `count` in all: on a link
   * with a long round trip, TCP and TLS (and a proxy's tunnel) take two or three round trips,
   * which then overlap with the page's own start instead of adding to its first requests.
   */
  preconnect(count: number): void {
    while (!this.destroyed && this.all.size < count) this.idle.unshift(this.connect());
  }

  /**
   * Hands an idle, open connection over to another client (node:https for a write), without the
   * pool's listeners: a write after reads then needs no new TCP and TLS handshake. Undefined when
   * there is none.
   */
  lend(): Socket | undefined {
    for (let i = this.idle.length - 1; i >= 0; i--) {
      const c = this.idle[i]!;
      const s = c.socket;
      if (!s || s.destroyed || s.readyState !== 'open' || c.exchanges === 0) continue;
      this.idle.splice(i, 1);
      this.all.delete(c);
      for (const [event, fn] of c.listeners) s.off(event, fn);
      c.listeners = [];
      return s;
    }
    return undefined;
  }

  private connect(): Conn {
    const o = this.opts;
    const c: Conn = { reused: false, exchanges: 0, listeners: [] };
    this.all.add(c);
    const timedOut = () => Object.assign(new Error(`no connection within ${o.connectTimeoutMs / 1000} s`), { code: 'ETIMEDOUT' });
    const tls = (through?: Socket) => tlsConnect({ ...o.tls, host: o.host, port: o.port, servername: o.tls?.servername ?? (isIP(o.host) ? undefined : o.host), ...(through ? { socket: through } : {}) });
    if (!o.dial) {
      const socket = o.secure ? tls() : netConnect({ host: o.host, port: o.port });
      this.attach(c, socket, setTimeout(() => socket.destroy(timedOut()), o.connectTimeoutMs));
      return c;
    }
    // Through a proxy: the tunnel first (its time counts against the same limit), then TLS in it.
    const abort = new AbortController();
    const timer = setTimeout(() => {
      abort.abort(timedOut());
      c.socket?.destroy(timedOut());
    }, o.connectTimeoutMs);
    c.opening = o.dial(o.host, o.port, abort.signal).then(
      (raw) => {
        c.opening = undefined;
        if (!this.all.has(c)) {
          // Discarded while the tunnel opened (aborted, or the pool shut down).
          clearTimeout(timer);
          raw.destroy();
          throw Object.assign(new Error('the request was closed before its connection opened'), { code: 'ECONNRESET' });
        }
        this.attach(c, o.secure ? tls(raw) : raw, timer);
      },
      (err: Error) => {
        clearTimeout(timer);
        c.opening = undefined;
        // Out of the pool (a preconnected one waits among the idle): the next request dials again.
        this.discard(c);
        throw err;
      },
    );
    // A rejection is handled by the request that waits for it; this keeps it from being unhandled when none does.
    c.opening.catch(() => undefined);
    return c;
  }

  /** Wires a new connection's socket to the pool: data to the exchange that owns it, its end to that exchange. */
  private attach(c: Conn, socket: Socket, timer: NodeJS.Timeout): void {
    const o = this.opts;
    c.socket = socket;
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 1000);
    socket.once(o.secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    // A plain socket from a tunnel is connected already: no 'connect' comes.
    if (!o.secure && o.dial) clearTimeout(timer);
    let error: Error | undefined;
    const on = (event: string, fn: SocketListener) => {
      c.listeners.push([event, fn]);
      socket.on(event, fn);
    };
    on('data', (b: Buffer) => {
      if (c.onData) c.onData(b);
      // Bytes on an idle connection: nothing asked for them; it is not used again.
      else this.discard(c);
    });
    on('error', (e: Error) => (error = e));
    on('close', () => {
      clearTimeout(timer);
      const gone = c.onGone;
      this.discard(c);
      gone?.(error);
    });
    // The server ended its side: a response read until close ends here; an idle connection goes.
    on('end', () => {
      const gone = c.onGone;
      if (gone) {
        c.onGone = undefined;
        gone(undefined);
      }
      socket.destroy();
    });
  }

  private release(c: Conn): void {
    c.onData = undefined;
    c.onGone = undefined;
    if (this.destroyed || !c.socket || c.socket.destroyed) return this.discard(c);
    // A paused response may have left the socket paused.
    c.socket.resume();
    this.idle.push(c);
  }

  private discard(c: Conn): void {
    c.onData = undefined;
    c.onGone = undefined;
    this.all.delete(c);
    const i = this.idle.indexOf(c);
    if (i >= 0) this.idle.splice(i, 1);
    if (c.socket && !c.socket.destroyed) c.socket.destroy();
  }

  destroy(): void {
    this.destroyed = true;
    for (const c of [...this.all]) {
      const gone = c.onGone;
      this.discard(c);
      gone?.(Object.assign(new Error('the proxy is shutting down'), { code: 'ECONNRESET' }));
    }
  }
}

// A lean HTTP/1.1 client for the requests that carry no body (GET and HEAD: every read, list and
// watch, over HTTP and over the mux): keep-alive TLS (or TCP) connections per context and
// credentials, a request head written in one write, and the response framed here.
//
// Why not node:https: measured in one run against the local control plane, a bare pass-through
// proxy (node:http server) added 0.375–0.426 ms to a small GET with node:https as its upstream
// client, 0.398–0.421 ms with undici's Pool, and 0.319 ms with a request written straight to a
// pooled TLS socket, where kubectl proxy added 0.340–0.409 ms; CPU per request 605–670 µs, 645–670
// µs and 520 µs. Node's ClientRequest and IncomingMessage (a Writable and a Readable per request,
// the agent's bookkeeping) are the difference. Requests with a body (writes) keep node:https: they
// are few, and their exactly-once behaviour under faults is tested on that path.
//
// The framing follows RFC 9112 §6 for responses: no body after HEAD, 1xx, 204 and 304;
// Transfer-Encoding with chunked last is read as chunks (extensions and trailers skipped); any
// other Transfer-Encoding, or neither it nor Content-Length, is read until the connection closes;
// Content-Length must be digits, and repeated values must agree. What does not parse fails the
// exchange with a framing error instead of guessing where a body ends: a proxy that passes bytes
// through must never hand on a truncated body as a whole one.
import { EventEmitter } from 'node:events';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';

/** A response head above this size fails the exchange (kube-apiserver's are well under 4 KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;
/** A chunk-size line above this size fails the exchange. */
const MAX_CHUNK_LINE = 1024;

export class FramingError extends Error {
  readonly code = 'HPE_UPSTREAM_FRAMING';
  constructor(message: string) {
    super(`the API server's response could not be framed: ${message}`);
  }
}

/** A parsed response head. */
export interface ResponseHead {
  statusCode: number;
  statusMessage: string;
  /** Flat name/value list, as node:http's rawHeaders. */
  rawHeaders: string[];
  keepAlive: boolean;
}

interface FramerSink {
  /**
   * The response head; `whole` is its entire body when that came with the head (a body of known
   * length within the bytes pushed, or no body at all): the body() calls for it still follow.
   */
  head(h: ResponseHead, whole: Buffer | undefined): void;
  body(b: Buffer): void;
  /** The message ended where its framing says; `rest` are bytes after it (none expected). */
  done(rest: Buffer | undefined): void;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/;
const CRLF_CRLF = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);

type BodyMode = { kind: 'none' } | { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' };

/**
 * Frames one response at a time from the bytes of a connection. Pure: push() bytes as they come;
 * it calls the sink's head, body (slices of the pushed buffers, no copies) and done, and throws
 * FramingError on bytes that are not a response it can frame.
 */
export class ResponseFramer {
  private state: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'close' | 'done' = 'head';
  private pending: Buffer | undefined;
  private left = 0;
  /** Body bytes of the current push(), handed on as one buffer: one write downstream per read. */
  private out: Buffer[] = [];

  constructor(
    private readonly sink: FramerSink,
    /** The request was a HEAD: the response has no body, whatever its headers say. */
    private readonly headRequest: boolean,
  ) {}

  get finished(): boolean {
    return this.state === 'done';
  }

  /** The connection closed: ends a body read until close; anything else unfinished is an error. */
  end(): void {
    if (this.state === 'close') {
      this.state = 'done';
      this.sink.done(undefined);
      return;
    }
    if (this.state !== 'done') throw new FramingError(this.state === 'head' && !this.pending ? 'the connection closed before a response' : 'the connection closed in the middle of the response');
  }

  push(chunk: Buffer): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    let at = 0;
    while (at < buf.length) {
      switch (this.state) {
        case 'head': {
          const end = buf.indexOf(CRLF_CRLF, at);
          if (end < 0) {
            if (buf.length - at > MAX_HEAD_BYTES) throw new FramingError(`a response head over ${MAX_HEAD_BYTES} bytes`);
            this.pending = buf.subarray(at);
            return this.flushBody();
          }
          if (end - at > MAX_HEAD_BYTES) throw new FramingError(`a response head over ${MAX_HEAD_BYTES} bytes`);
          const head = parseHead(buf.toString('latin1', at, end));
          at = end + 4;
          // An interim response (100 Continue, 103 Early Hints) precedes the real one.
          if (head.statusCode >= 100 && head.statusCode < 200) {
            if (head.statusCode === 101) throw new FramingError('101 Switching Protocols, which was not asked for');
            continue;
          }
          const mode = this.bodyMode(head);
          if (mode.kind === 'close') head.keepAlive = false;
          const none = mode.kind === 'none' || (mode.kind === 'length' && mode.left === 0);
          this.sink.head(head, none ? EMPTY : mode.kind === 'length' && mode.left <= buf.length - at ? buf.subarray(at, at + mode.left) : undefined);
          if (none) return this.finish(buf, at);
          if (mode.kind === 'length') {
            this.state = 'length';
            this.left = mode.left;
          } else this.state = mode.kind === 'chunked' ? 'chunk-size' : 'close';
          break;
        }
        case 'length': {
          const n = Math.min(this.left, buf.length - at);
          this.out.push(buf.subarray(at, at + n));
          at += n;
          this.left -= n;
          if (this.left === 0) return this.finish(buf, at);
          break;
        }
        case 'close':
          this.out.push(at === 0 ? buf : buf.subarray(at));
          return this.flushBody();
        case 'chunk-size': {
          const eol = buf.indexOf(10, at);
          if (eol < 0) {
            if (buf.length - at > MAX_CHUNK_LINE) throw new FramingError('a chunk-size line over 1 KiB');
            this.pending = buf.subarray(at);
            return this.flushBody();
          }
          if (eol - at > MAX_CHUNK_LINE) throw new FramingError('a chunk-size line over 1 KiB');
          // chunk-size [ chunk-ext ] CRLF: hex digits, then optionally ";ext" (ignored).
          const line = buf.toString('latin1', at, eol);
          const m = /^([0-9a-fA-F]{1,12})[ \t]*(?:;[^\r]*)?\r$/.exec(line);
          if (!m) throw new FramingError(`a chunk-size line ${JSON.stringify(line.slice(0, 40))}`);
          this.left = parseInt(m[1]!, 16);
          at = eol + 1;
          this.state = this.left === 0 ? 'trailers' : 'chunk-data';
          break;
        }
        case 'chunk-data': {
          const n = Math.min(this.left, buf.length - at);
          this.out.push(buf.subarray(at, at + n));
          at += n;
          this.left -= n;
          if (this.left === 0) this.state = 'chunk-end';
          break;
        }
        case 'chunk-end': {
          if (buf.length - at < 2) {
            this.pending = buf.subarray(at);
            return this.flushBody();
          }
          if (buf[at] !== 13 || buf[at + 1] !== 10) throw new FramingError('a chunk not followed by CRLF');
          at += 2;
          this.state = 'chunk-size';
          break;
        }
        case 'trailers': {
          // trailer-section CRLF: header lines (dropped: kube-apiserver sends none) until an empty one.
          const eol = buf.indexOf(10, at);
          if (eol < 0) {
            if (buf.length - at > MAX_HEAD_BYTES) throw new FramingError('trailers over 64 KiB');
            this.pending = buf.subarray(at);
            return this.flushBody();
          }
          const empty = eol === at + 1 && buf[at] === 13;
          at = eol + 1;
          if (empty) return this.finish(buf, at);
          break;
        }
        case 'done':
          // Unreachable: the owner stops pushing once done() was called.
          return;
      }
    }
    this.flushBody();
  }

  private flushBody(): void {
    const out = this.out;
    if (out.length === 0) return;
    this.out = [];
    // One piece per chunk of kube-apiserver's chunked encoding would be one write each downstream.
    this.sink.body(out.length === 1 ? out[0]! : Buffer.concat(out));
  }

  private finish(buf: Buffer, at: number): void {
    this.flushBody();
    this.state = 'done';
    this.sink.done(at < buf.length ? buf.subarray(at) : undefined);
  }

  private bodyMode(h: ResponseHead): BodyMode {
    if (this.headRequest || h.statusCode === 204 || h.statusCode === 304) return { kind: 'none' };
    let te: string | undefined;
    let length: number | undefined;
    for (let i = 0; i < h.rawHeaders.length; i += 2) {
      const name = h.rawHeaders[i]!.toLowerCase();
      const value = h.rawHeaders[i + 1]!;
      if (name === 'transfer-encoding') te = te === undefined ? value : `${te}, ${value}`;
      else if (name === 'content-length') {
        for (const part of value.split(',')) {
          const v = part.trim();
          if (!/^\d{1,15}$/.test(v)) throw new FramingError(`Content-Length ${JSON.stringify(value)}`);
          if (length !== undefined && Number(v) !== length) throw new FramingError('Content-Length headers that disagree');
          length = Number(v);
        }
      }
    }
    if (te !== undefined) {
      const codings = te.split(',').map((c) => c.trim().toLowerCase());
      // RFC 9112 §6.3: chunked last frames the body; otherwise the body runs to the connection's close.
      return codings[codings.length - 1] === 'chunked' ? { kind: 'chunked' } : { kind: 'close' };
    }
    if (length !== undefined) return { kind: 'length', left: length };
    return { kind: 'close' };
  }
}

function parseHead(text: string): ResponseHead {
  const lines = text.split('\r\n');
  const m = STATUS_LINE.exec(lines[0]!);
  if (!m) throw new FramingError(`a status line ${JSON.stringify(lines[0]!.slice(0, 60))}`);
  const rawHeaders: string[] = [];
  let close = m[1] === '0';
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    // Obsolete line folding and names with spaces are refused (RFC 9112 §5.1, §5.2), as llhttp does.
    if (!TOKEN.test(name)) throw new FramingError(`a header line ${JSON.stringify(line.slice(0, 60))}`);
    const value = line.slice(colon + 1).trim();
    if (/[\0\r\n]/.test(value)) throw new FramingError(`a header value of ${name} with a control character`);
    rawHeaders.push(name, value);
    if (name.length === 10 && name.toLowerCase() === 'connection') {
      const tokens = value.toLowerCase().split(',').map((t) => t.trim());
      if (tokens.includes('close')) close = true;
      else if (m[1] === '0' && tokens.includes('keep-alive')) close = false;
    }
  }
  return { statusCode: Number(m[2]), statusMessage: m[3] ?? '', rawHeaders, keepAlive: !close };
}

/**
 * A response as its consumers (the /k8s/ forwarder and the mux) read it: the parts of node:http's
 * IncomingMessage they use. Events: 'data' (Buffer), 'end' (the whole body arrived), then 'close';
 * or 'close' alone, with `complete` false, when the exchange broke or was aborted.
 */
export class UpstreamResponse extends EventEmitter {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly rawHeaders: string[];
  complete = false;
  private headerMap: Record<string, string | undefined> | undefined;
  private paused = false;
  private held: Buffer[] = [];
  private ended = false;
  private closed = false;
  private bodyTaken = false;

  constructor(
    head: ResponseHead,
    private readonly socket: Socket,
    /** The entire body, when it came with the head (see takeBody). */
    private whole?: Buffer,
  ) {
    super();
    this.statusCode = head.statusCode;
    this.statusMessage = head.statusMessage;
    this.rawHeaders = head.rawHeaders;
  }

  /**
   * The entire body, when it arrived in the same read as the head (a small object, a Status, an
   * empty body): the caller answers with it in one go, and no 'data' events follow ('end' and
   * 'close' still do). Undefined when the body is still to come; call it before any 'data'.
   */
  takeBody(): Buffer | undefined {
    const w = this.whole;
    if (w) {
      this.whole = undefined;
      this.bodyTaken = true;
    }
    return w;
  }

  /** Lower-case names; repeated ones joined with ", " (as IncomingMessage does for most). Built when first read. */
  get headers(): Record<string, string | undefined> {
    if (this.headerMap) return this.headerMap;
    const map: Record<string, string | undefined> = {};
    for (let i = 0; i < this.rawHeaders.length; i += 2) {
      const k = this.rawHeaders[i]!.toLowerCase();
      const prev = map[k];
      map[k] = prev === undefined ? this.rawHeaders[i + 1]! : `${prev}, ${this.rawHeaders[i + 1]!}`;
    }
    return (this.headerMap = map);
  }

  /** Stops 'data' events; bytes already read are held until resume(). The socket stops reading. */
  pause(): void {
    if (this.paused || this.closed) return;
    this.paused = true;
    // Once the body is read the connection may already serve the next request: it is not ours to pause.
    if (!this.ended) this.socket.pause();
  }

  resume(): void {
    if (!this.paused || this.closed) return;
    this.paused = false;
    this.drain();
    // A data listener may have paused again.
    if (this.paused || this.closed) return;
    if (this.ended) return this.finish();
    this.socket.resume();
  }

  /** @internal Body bytes: handed on at once, or held while paused. */
  deliver(b: Buffer): void {
    if (this.bodyTaken) return;
    if (this.paused) this.held.push(b);
    else this.emit('data', b);
  }

  /** Hands on what was held, piece by piece (each at most one read of the socket), until paused again. */
  private drain(): void {
    while (this.held.length && !this.paused && !this.closed) this.emit('data', this.held.shift()!);
  }

  /** @internal The body is complete; 'end' and 'close' follow once nothing is held. */
  end(): void {
    this.ended = true;
    this.complete = true;
    if (this.paused) return;
    this.drain();
    if (!this.paused) this.finish();
  }

  /** @internal The exchange broke (or was aborted) before the body ended. */
  abort(): void {
    if (this.closed) return;
    this.closed = true;
    this.held = [];
    this.emit('close');
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('end');
    this.emit('close');
  }
}

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
}

/** One keep-alive connection and the exchange it carries (one at a time: no pipelining). */
interface Conn {
  socket: Socket;
  /** Set while an exchange owns the connection. */
  onData?: (b: Buffer) => void;
  onGone?: (err: Error | undefined) => void;
  reused: boolean;
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
      // The head goes out before anything else is set up: that work then overlaps with the API
      // server's, instead of adding to the latency of every request. No bytes or errors can be
      // handed to us before this function returns (socket events come on later turns).
      c.socket.write(head);
      const framer = new ResponseFramer(
        {
          head: (h, whole) => {
            res = new UpstreamResponse(h, c.socket, whole);
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
      if (!c.socket.destroyed && c.socket.readyState === 'open') {
        c.reused = true;
        return c;
      }
      this.discard(c);
    }
    return this.connect();
  }

  private connect(): Conn {
    const o = this.opts;
    const socket = o.secure
      ? tlsConnect({ ...o.tls, host: o.host, port: o.port, servername: o.tls?.servername ?? (isIP(o.host) ? undefined : o.host) })
      : netConnect({ host: o.host, port: o.port });
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 1000);
    const c: Conn = { socket, reused: false };
    this.all.add(c);
    const timer = setTimeout(() => {
      const e = new Error(`no connection within ${o.connectTimeoutMs / 1000} s`) as NodeJS.ErrnoException;
      e.code = 'ETIMEDOUT';
      socket.destroy(e);
    }, o.connectTimeoutMs);
    socket.once(o.secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    let error: Error | undefined;
    socket.on('data', (b: Buffer) => {
      if (c.onData) c.onData(b);
      // Bytes on an idle connection: nothing asked for them; it is not used again.
      else this.discard(c);
    });
    socket.on('error', (e) => (error = e));
    socket.on('close', () => {
      clearTimeout(timer);
      const gone = c.onGone;
      this.discard(c);
      gone?.(error);
    });
    // The server ended its side: a response read until close ends here; an idle connection goes.
    socket.on('end', () => {
      const gone = c.onGone;
      if (gone) {
        c.onGone = undefined;
        gone(undefined);
      }
      socket.destroy();
    });
    return c;
  }

  private release(c: Conn): void {
    c.onData = undefined;
    c.onGone = undefined;
    if (this.destroyed || c.socket.destroyed) return this.discard(c);
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
    if (!c.socket.destroyed) c.socket.destroy();
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

const HEADER_VALUE_OK = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The kubeconfig's credential headers of a target, as request lines, with the names they replace. */
export interface CredentialLines {
  /** Lower-case names: a header of the page with one of them is left out. */
  names: ReadonlySet<string>;
  lines: string;
}

export function credentialLines(override: Readonly<Record<string, string>>): CredentialLines {
  const names = new Set<string>();
  let lines = '';
  for (const k in override) {
    names.add(k.toLowerCase());
    lines += checkedLine(k, override[k]!);
  }
  return { names, lines };
}

/**
 * Header pairs as request lines, checked as node:http checks them (a token for a name; no CR, LF
 * or NUL in a value): what fails is refused before anything is sent. Pairs with a name that
 * `credentials` has are left out: the kubeconfig's own come last, and win. `skip` names (lower
 * case) are left out too.
 */
export function headerLines(pairs: readonly [string, string][], credentials: CredentialLines, skip?: ReadonlySet<string>): string {
  let out = '';
  for (const [k, v] of pairs) {
    const lower = k.toLowerCase();
    if (credentials.names.has(lower) || skip?.has(lower)) continue;
    out += checkedLine(k, v);
  }
  return out + credentials.lines;
}

function checkedLine(name: string, value: string): string {
  if (!TOKEN.test(name)) throw new TypeError(`invalid header name ${JSON.stringify(name)}`);
  if (!HEADER_VALUE_OK.test(value)) throw new TypeError(`invalid character in the value of header ${name}`);
  return `${name}: ${value}\r\n`;
}

/** A request target as node:http accepts it: no spaces or control characters. */
export function checkPath(path: string): void {
  if (!/^\/[\x21-\x7e\x80-\xff]*$/.test(path)) throw new TypeError('the request path has characters that must be escaped');
}

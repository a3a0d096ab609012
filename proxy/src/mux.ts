// /proxy/mux: many watches over one WebSocket (see mux-protocol.ts for the wire format). Each
// stream is an upstream GET through the same path filter and credentials as /k8s/; its bytes are
// relayed unchanged, in frames prefixed with the stream id (chunks read in one turn go out as one frame).
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { ProxyError, proxyErrorHeaders } from './errors';
import { normalizeApiPath, refusal } from './filter';
import { openUpstream, serverTiming, type Upstream, type UpstreamLaunch, type UpstreamReply } from './openUpstream';
import { tokenMatches } from './guard';
import { clientResponseHeaders, recordToRaw, upstreamRequestHeaders } from './headers';
import type { Kubeconfig } from './kubeconfig';
import { MUX_CLOSE_PROTOCOL_ERROR, MUX_CLOSE_UNAUTHORIZED, MUX_ID_BYTES, type MuxServerMessage } from '../../protocol/mux';

/** Pause upstreams while more than this is queued on the socket; resume below the low mark. */
export const MUX_HIGH_WATER = 4 * 1024 * 1024;
const MUX_LOW_WATER = 1024 * 1024;
/** Bounds per-socket state; the SPA needs tens of panes, not thousands. */
const MAX_STREAMS = 256;

export interface MuxOptions {
  token: string;
  kubeconfig: Kubeconfig;
  /** The launch's upstream counters and limits, shared with the /k8s/ forwarder. */
  launch: UpstreamLaunch;
  allowExec: boolean;
  log: (l: string) => void;
  authTimeoutMs: number;
}

interface Stream {
  id: number;
  upstream?: Upstream;
  response?: UpstreamReply;
  closed: boolean;
  /** Flow control: body bytes the page still allows (undefined: the page set no window). */
  credit?: number;
  /** Paused because the page's credit ran out (as opposed to the socket backing up). */
  starved: boolean;
}

/**
 * Consecutive upstream chunks of one stream read in the same turn of the event loop go out as one
 * frame, up to this many bytes. Over TLS, Node emits a 'data' event per TLS record, and kube-apiserver
 * flushes a watch event by event, so a streaming list of 20,000 small objects arrived as thousands
 * of chunks of a few hundred bytes; a WebSocket message each cost the page more than its bytes.
 * Coalescing waits for nothing: what is pending is sent at the end of the same turn (setImmediate).
 */
export const MUX_COALESCE_BYTES = 64 * 1024;

/** The largest window or credit grant accepted: a sanity bound, not a tuning knob. */
const MAX_CREDIT = 1024 * 1024 * 1024;
/** The server pings the page this often; a page that answered no ping in two rounds is gone. */
const PING_INTERVAL_MS = 20_000;

/**
 * The run of consecutive chunks of one stream read since the last frame went out: sent as one
 * frame at the end of the turn (setImmediate), at MUX_COALESCE_BYTES, or as soon as a chunk of
 * another stream comes (or the caller flushes before a message), so that frames, and so the
 * page's processing of them (a WebSocket message is a task of its own), keep the order in which
 * the chunks arrived, across streams too: the deletion view shows a ReplicaSet's DELETED before
 * its Deployment's by that order.
 */
export class RunCoalescer<S> {
  private run: { s: S; parts: Buffer[]; bytes: number } | undefined;
  private queued = false;

  constructor(
    private readonly send: (s: S, parts: Buffer[], bytes: number) => void,
    private readonly maxBytes = MUX_COALESCE_BYTES,
    private readonly later: (f: () => void) => void = setImmediate,
  ) {}

  push(s: S, chunk: Buffer): void {
    if (this.run && this.run.s !== s) this.flush();
    this.run ??= { s, parts: [], bytes: 0 };
    this.run.parts.push(chunk);
    this.run.bytes += chunk.length;
    if (this.run.bytes >= this.maxBytes) return this.flush();
    if (this.queued) return;
    this.queued = true;
    this.later(() => {
      this.queued = false;
      this.flush();
    });
  }

  flush(): void {
    const r = this.run;
    this.run = undefined;
    if (r) this.send(r.s, r.parts, r.bytes);
  }

  /** Forgets what is pending (for `s` only, when given): a closed stream sends nothing more. */
  drop(s?: S): void {
    if (s === undefined || this.run?.s === s) this.run = undefined;
  }
}

export interface Mux {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
}

function isUint32(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 0xffffffff;
}

export function createMux(opts: MuxOptions): Mux {
  // Client messages are small JSON; a cap keeps a misbehaving page from making us buffer megabytes.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024, perMessageDeflate: false });
  wss.on('connection', (ws) => serve(ws, opts));
  return {
    handleUpgrade(req, socket, head) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    close() {
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}

function serve(ws: WebSocket, opts: MuxOptions): void {
  const conn = new MuxConnection(ws, opts);
  ws.on('message', (data, isBinary) => conn.onMessage(data.toString(), isBinary));
  ws.on('close', () => conn.onSocketClose());
  ws.on('error', () => ws.terminate());
}

/** One page's mux socket: its streams, the flow control both ways, and the protocol's messages. */
class MuxConnection {
  private authed = false;
  private readonly streams = new Map<number, Stream>();
  /** Streams paused because the socket has too much unsent. */
  private readonly paused = new Set<Stream>();
  private resumeTimer: NodeJS.Timeout | undefined;
  private alive = true;
  private readonly pingTimer: NodeJS.Timeout;
  private readonly authTimer: NodeJS.Timeout;
  private readonly coalescer: RunCoalescer<Stream>;

  constructor(
    private readonly ws: WebSocket,
    private readonly opts: MuxOptions,
  ) {
    // A half-open connection (the page's machine asleep, a network gone) keeps upstream watches open
    // forever; protocol pings (browsers answer them by themselves) find it.
    ws.on('pong', () => (this.alive = true));
    this.pingTimer = setInterval(() => {
      if (!this.alive) return ws.terminate();
      this.alive = false;
      ws.ping();
    }, PING_INTERVAL_MS);
    this.pingTimer.unref?.();
    this.authTimer = setTimeout(() => ws.close(MUX_CLOSE_UNAUTHORIZED, 'no auth message in time'), opts.authTimeoutMs);
    this.coalescer = new RunCoalescer<Stream>((st, parts, bytes) => {
      if (!st.closed) this.sendFrame(st, parts, bytes);
    });
  }

  // Every message goes after the bytes read before it (RunCoalescer): order on the socket is the
  // order of arrival, across streams too.
  private sendJson(m: MuxServerMessage): void {
    this.coalescer.flush();
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(m));
  }

  // Resumes paused upstreams once the socket has drained; called from send callbacks, which fire
  // as queued data is written out.
  private readonly maybeResume = (): void => {
    if (this.paused.size === 0 || this.ws.bufferedAmount > MUX_LOW_WATER) return;
    for (const s of this.paused) if (!s.closed && !s.starved) s.response?.resume();
    this.opts.launch.stats.muxPaused -= this.paused.size;
    this.paused.clear();
    clearInterval(this.resumeTimer);
    this.resumeTimer = undefined;
  };

  private sendFrame(s: Stream, parts: readonly Buffer[], bytes: number): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    const frame = Buffer.allocUnsafe(MUX_ID_BYTES + bytes);
    frame.writeUInt32BE(s.id, 0);
    let o = MUX_ID_BYTES;
    for (const p of parts) o += p.copy(frame, o);
    this.opts.launch.stats.muxFrames++;
    this.ws.send(frame, { binary: true }, this.maybeResume);
  }

  private finish(s: Stream, error?: string): void {
    if (s.closed) return;
    // Every byte of the stream goes out before its end.
    this.coalescer.flush();
    s.closed = true;
    this.streams.delete(s.id);
    this.sendJson(error ? { type: 'end', id: s.id, error } : { type: 'end', id: s.id });
  }

  private fail(s: Stream, err: ProxyError): void {
    if (s.closed) return;
    const body = Buffer.from(JSON.stringify(err.toStatus()));
    this.sendJson({ type: 'response', id: s.id, status: err.code, headers: proxyErrorHeaders(body) });
    this.sendFrame(s, [body], body.length);
    this.finish(s);
  }

  private protocolError(why: string): void {
    this.ws.close(MUX_CLOSE_PROTOCOL_ERROR, why.slice(0, 120));
  }

  /** The upstream GET of an `open`, through the same path filter and credentials as /k8s/. */
  private async open(s: Stream, msg: Record<string, unknown>): Promise<void> {
    if (msg.method !== undefined && msg.method !== 'GET') {
      return this.fail(s, new ProxyError(405, 'MethodNotAllowed', 'MethodNotAllowed', 'the mux only carries GET requests (watches and lists); send other requests over HTTP'));
    }
    if (typeof msg.context !== 'string' || typeof msg.path !== 'string') return this.fail(s, new ProxyError(400, 'BadRequest', 'InvalidPath', 'open needs a string context and path'));
    let apiPath;
    try {
      apiPath = normalizeApiPath(msg.path);
    } catch (e) {
      return this.fail(s, e as ProxyError);
    }
    const refused = this.opts.allowExec ? null : refusal(apiPath.segments);
    if (refused) return this.fail(s, refused);
    let target;
    try {
      target = await this.opts.kubeconfig.target(msg.context);
    } catch (e) {
      return this.fail(s, e instanceof ProxyError ? e : new ProxyError(500, 'InternalError', 'UpstreamError', String(e)));
    }
    if (s.closed) return;
    const headers = upstreamRequestHeaders(recordToRaw(msg.headers as Record<string, unknown> | undefined));
    const upstream = openUpstream(this.opts.launch, target, { method: 'GET', pathAndQuery: apiPath.path + apiPath.query, headers }, {
      onResponse: (up, ttfbMs) => {
        if (s.closed) return upstream.abort();
        this.relay(s, up, ttfbMs);
      },
      onError: (err) => {
        this.opts.log(`proxy mux: ${err.message}`);
        this.fail(s, err);
      },
    });
    s.upstream = upstream;
    upstream.end();
  }

  /** A stream's response: its head as a message, its bytes in frames, paused when the page's credit or the socket runs out. */
  private relay(s: Stream, up: UpstreamReply, ttfbMs: number): void {
    const out: Record<string, string> = {};
    for (const [k, v] of clientResponseHeaders(up.rawHeaders)) {
      const key = k.toLowerCase();
      out[key] = out[key] === undefined ? v : `${out[key]}, ${v}`;
    }
    out['server-timing'] = out['server-timing'] ? `${out['server-timing']}, ${serverTiming(ttfbMs)}` : serverTiming(ttfbMs);
    s.response = up;
    this.sendJson({ type: 'response', id: s.id, status: up.statusCode ?? 502, headers: out });
    up.on('data', (chunk: Buffer) => {
      if (s.closed) return;
      this.coalescer.push(s, chunk);
      if (s.credit !== undefined) {
        s.credit -= chunk.length;
        // Out of credit: the page has not consumed what it was sent; wait for a grant.
        if (s.credit <= 0) {
          s.starved = true;
          up.pause();
        }
      }
      if (this.ws.bufferedAmount > MUX_HIGH_WATER) {
        up.pause();
        if (!this.paused.has(s)) this.opts.launch.stats.muxPaused++;
        this.paused.add(s);
        // Send callbacks normally resume; the poll is a safety net should none be pending.
        this.resumeTimer ??= setInterval(this.maybeResume, 50);
      }
    });
    up.on('end', () => this.finish(s));
    up.on('close', () => {
      if (!up.complete) this.finish(s, 'the connection to the API server was lost');
    });
  }

  onMessage(text: string, isBinary: boolean): void {
    if (isBinary) return this.protocolError('binary messages are not expected from clients');
    let msg: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
      msg = parsed as Record<string, unknown>;
    } catch {
      return this.authed ? this.protocolError('messages must be JSON objects') : this.ws.close(MUX_CLOSE_UNAUTHORIZED, 'expected an auth message');
    }
    if (!this.authed) {
      if (msg.type === 'auth' && tokenMatches(msg.token, this.opts.token)) {
        this.authed = true;
        clearTimeout(this.authTimer);
        return;
      }
      return this.ws.close(MUX_CLOSE_UNAUTHORIZED, 'wrong or missing token');
    }
    switch (msg.type) {
      case 'open':
        return this.onOpen(msg);
      case 'close':
        return this.onClose(msg);
      case 'credit':
        return this.onCredit(msg);
      case 'ping': {
        // Echo the sequence number; a page that sends pings and hears nothing closes and reconnects.
        const seq = typeof msg.seq === 'number' && Number.isFinite(msg.seq) ? msg.seq : 0;
        if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify({ type: 'pong', seq }));
        return;
      }
      default:
        // Unknown types are ignored, so a newer SPA can talk to an older proxy.
        return;
    }
  }

  private onOpen(msg: Record<string, unknown>): void {
    if (!isUint32(msg.id)) return this.protocolError('open needs an unsigned 32-bit integer id');
    if (this.streams.has(msg.id)) return this.protocolError(`stream id ${msg.id} is already open`);
    if (msg.window !== undefined && !(isUint32(msg.window) && msg.window > 0 && msg.window <= MAX_CREDIT)) return this.protocolError('window must be a positive integer of bytes');
    const s: Stream = { id: msg.id, closed: false, starved: false, credit: msg.window as number | undefined };
    if (this.streams.size >= MAX_STREAMS) {
      return this.fail(s, new ProxyError(429, 'TooManyRequests', 'TooManyStreams', `at most ${MAX_STREAMS} streams per mux connection`));
    }
    this.streams.set(s.id, s);
    void this.open(s, msg);
  }

  private onClose(msg: Record<string, unknown>): void {
    if (!isUint32(msg.id)) return this.protocolError('close needs an unsigned 32-bit integer id');
    const s = this.streams.get(msg.id);
    if (!s) return;
    s.closed = true;
    this.streams.delete(s.id);
    this.coalescer.drop(s);
    s.upstream?.abort();
  }

  private onCredit(msg: Record<string, unknown>): void {
    if (!isUint32(msg.id) || !isUint32(msg.bytes) || msg.bytes === 0 || msg.bytes > MAX_CREDIT) return this.protocolError('credit needs an id and a positive integer of bytes');
    const s = this.streams.get(msg.id);
    if (!s || s.credit === undefined) return;
    s.credit = Math.min(MAX_CREDIT, s.credit + msg.bytes);
    if (s.starved && s.credit > 0) {
      s.starved = false;
      // Still paused while the socket itself is backed up; maybeResume resumes it then.
      if (!this.paused.has(s)) s.response?.resume();
    }
  }

  onSocketClose(): void {
    clearTimeout(this.authTimer);
    clearInterval(this.pingTimer);
    for (const s of this.streams.values()) {
      s.closed = true;
      s.upstream?.abort();
    }
    this.streams.clear();
    this.coalescer.drop();
    this.opts.launch.stats.muxPaused -= this.paused.size;
    this.paused.clear();
    clearInterval(this.resumeTimer);
  }
}

// The second network choke point of the SPA (kubeFetch is the first): one WebSocket to the
// proxy's /proxy/mux carrying any number of GET streams. Browsers keep at most six HTTP/1.1
// connections per origin and every open watch would hold one; over the mux, eight or more watch
// panes leave those connections free for the rest of the explorer. A WebSocket cannot carry
// custom headers, so the per-launch token travels in the first message instead of
// X-Explorer-Token. Stream bytes are handed over exactly as the API server sent them.
import { MUX_CLOSE_UNAUTHORIZED, MUX_ID_BYTES, MUX_PATH, type MuxClientMessage, type MuxServerMessage } from '../../../protocol/mux';
import { activeReplayTransport, beginTap, observeChunks } from './transportHooks';
import { headerValue } from './headerList';
import { ChunkQueue } from './chunkQueue';
import { connectionHealth } from './health';
import { explorerToken, proxyOrigin, refreshExplorerToken } from './token';
import { headersForProxy } from './userAgent';
import type { MuxStream } from './muxStream';

export type { MuxStream };

/** What a WebSocket constructor must provide: the browser's, or the `ws` package's in Node 20. */
export type WebSocketLike = {
  binaryType: string;
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'error' | 'message', listener: (ev: { data?: unknown; code?: number; reason?: string; message?: string }) => void): void;
};
export type WebSocketConstructor = new (url: string) => WebSocketLike;

export interface MuxRequest {
  context: string;
  /** API path with its query, e.g. `/api/v1/configmaps?watch=1`. */
  path: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A stream whose response has arrived. `body` yields the upstream bytes chunk by chunk. */
/** The stream broke before the API server finished it (connection lost, proxy gone, socket closed). */
export class MuxStreamError extends Error {
  override name = 'MuxStreamError';
}

/**
 * The explorer server refused the page's token (close 4401) and fetching the page again gave no
 * other token: retrying cannot help; the user must reload the page (or start the explorer).
 */
export class MuxUnauthorizedError extends MuxStreamError {
  override name = 'MuxUnauthorizedError';
}

interface StreamState {
  id: number;
  /** The socket the stream was opened on: a socket that closes fails only its own streams. */
  ws: WebSocketLike;
  onResponse?: (r: { status: number; headers: Record<string, string> }) => void;
  onFail: (e: Error) => void;
  queue: ChunkQueue;
  /** Flow control: bytes handed to the reader and not yet granted back to the server. */
  consumed: number;
  responded: boolean;
}

export interface MuxClientOptions {
  /** ws:// URL of /proxy/mux; defaults to the page's origin (or the test proxy's). */
  url?: string;
  token?: () => string;
  /**
   * Called when the server closes with 4401 (a restarted explorer server has a new token): resolves
   * with the token to use from now on, or undefined when there is no other. Default: none.
   */
  refreshToken?: () => Promise<string | undefined>;
  WebSocket?: WebSocketConstructor;
  /**
   * Flow control: body bytes a stream may have in flight or queued in the page before the server
   * waits for the page to catch up. 0 turns flow control off.
   */
  windowBytes?: number;
  /** A ping every so often while the socket is open... */
  pingIntervalMs?: number;
  /** ...and a socket that answered nothing for this long after a ping is taken for dead. */
  pongTimeoutMs?: number;
  /**
   * A WebSocket that has not opened after this long is given up: a frozen explorer server (or a
   * relay in front of it) accepts the TCP connection and never answers the upgrade, and a
   * browser's own connect can wait for minutes.
   */
  connectTimeoutMs?: number;
}

const OPEN = 1;
export const DEFAULT_WINDOW_BYTES = 1024 * 1024;
/** Time allowed for the mux WebSocket to open (the upgrade answered by the explorer server on loopback). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export class MuxClient {
  private ws: WebSocketLike | undefined;
  private ready: Promise<WebSocketLike> | undefined;
  private nextId = 1;
  private readonly streams = new Map<number, StreamState>();
  private readonly opts: Required<Omit<MuxClientOptions, 'refreshToken'>> & Pick<MuxClientOptions, 'refreshToken'>;
  /** Token given by refreshToken, used instead of opts.token() from then on. */
  private token: string | undefined;
  /** Set after a 4401 that a fresh token could not cure: opens fail at once until the token changes. */
  private refused: string | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pingSeq = 0;
  /** Date.now() of the last message of any kind from the server on the current socket. */
  private lastHeard = 0;
  /** Date.now() of the oldest ping not yet followed by any message from the server. */
  private pingSentAt: number | undefined;
  /** Round-trip time of the last answered ping, in ms. */
  lastRttMs: number | undefined;

  constructor(opts: MuxClientOptions = {}) {
    const WS = opts.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!WS) throw new Error('no WebSocket implementation: pass one (the `ws` package in Node 20)');
    this.opts = {
      url: opts.url ?? defaultMuxUrl(),
      token: opts.token ?? explorerToken,
      refreshToken: opts.refreshToken,
      WebSocket: WS,
      windowBytes: opts.windowBytes ?? DEFAULT_WINDOW_BYTES,
      pingIntervalMs: opts.pingIntervalMs ?? 15_000,
      pongTimeoutMs: opts.pongTimeoutMs ?? 10_000,
      connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    };
  }

  private currentToken(): string {
    return this.token ?? this.opts.token();
  }

  /** Number of streams currently open on this client (for tests and the UI). */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Opens a GET stream; resolves once the response status and headers arrive. */
  async open(req: MuxRequest): Promise<MuxStream> {
    req.signal?.throwIfAborted();
    // Replaying a recording (k8s/record/replay.ts): the stream comes from the file, no socket opens.
    const replay = activeReplayTransport();
    if (replay) return replay.open({ context: req.context, path: req.path, accept: headerValue(Object.entries(req.headers ?? {}), 'Accept'), signal: req.signal });
    if (this.refused !== undefined) {
      if (this.refused === this.currentToken()) throw new MuxUnauthorizedError('the explorer server refuses this page’s token (it was restarted and the page could not pick up the new one): reload the page');
      this.refused = undefined;
    }
    const ws = await this.connect();
    const id = this.nextId;
    this.nextId = this.nextId >= 0xfffffffe ? 1 : this.nextId + 1;
    const s: StreamState = { id, ws, queue: new ChunkQueue(), consumed: 0, responded: false, onFail: () => {} };
    const window = this.opts.windowBytes;
    this.streams.set(id, s);
    // The recorder (k8s/record) keeps the stream's chunks as the reader takes them: the user's
    // recording, and the tab's journal that time travel reads.
    const tap = beginTap({ context: req.context, method: 'GET', path: req.path, headers: req.headers, via: 'mux' });
    const close = () => {
      if (!this.streams.has(id)) return;
      this.streams.delete(id);
      if (ws.readyState === OPEN) this.send(ws, { type: 'close', id });
      // The page ended a stream the server had not: say so before the drop below ends the reader's
      // iteration cleanly, which would otherwise read as the server's end. A replay ends a stream
      // the server ended (the pane then watches again) and leaves one the page closed open.
      if (s.responded) tap?.end(undefined, true);
      // Whoever closes is done reading: bytes still queued for the stream are dropped with it.
      s.queue.drop();
    };
    const onAbort = () => {
      s.onFail(req.signal?.reason instanceof Error ? req.signal.reason : new DOMException('aborted', 'AbortError'));
      close();
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const response = await new Promise<{ status: number; headers: Record<string, string> }>((resolve, reject) => {
      s.onResponse = resolve;
      s.onFail = reject;
      this.send(ws, { type: 'open', id, context: req.context, path: req.path, ...(req.headers ? { headers: headersForProxy(req.headers) } : {}), ...(window > 0 ? { window } : {}) });
    }).catch((e: unknown) => {
      req.signal?.removeEventListener('abort', onAbort);
      tap?.end(e instanceof Error ? e.message : String(e));
      close();
      throw e;
    });
    s.onFail = () => {};
    const body = s.queue.iterable({
      taken: (c) => {
        // The reader took the chunk: grant its bytes back, in batches of a quarter window so
        // that a stream of small chunks does not answer each with a message.
        if (window > 0) {
          s.consumed += c.length;
          if (s.consumed >= window / 4 && this.streams.has(id) && ws.readyState === OPEN) {
            this.send(ws, { type: 'credit', id, bytes: s.consumed });
            s.consumed = 0;
          }
        }
      },
      finished: () => req.signal?.removeEventListener('abort', onAbort),
      returned: () => {
        req.signal?.removeEventListener('abort', onAbort);
        close();
      },
    });
    const queued = () => s.queue.bytes;
    tap?.head(response.status, '', Object.entries(response.headers));
    return { ...response, fromProxy: response.headers['x-explorer-proxy-error'] !== undefined, body: tap ? observeChunks(body, tap) : body, close, queued };
  }

  /** Closes the socket; every open stream fails. */
  close(): void {
    const ws = this.ws;
    this.ws = undefined;
    this.ready = undefined;
    this.stopPings();
    if (!ws) return;
    ws.close(1000, 'client closed');
    this.dropAll(ws, new MuxStreamError('the mux connection was closed'));
  }

  /** Sends pings while the socket is open; a socket silent for pongTimeoutMs after one is dropped. */
  private startPings(ws: WebSocketLike): void {
    this.stopPings();
    this.lastHeard = Date.now();
    this.pingSentAt = undefined;
    const tick = Math.max(50, Math.min(this.opts.pingIntervalMs, this.opts.pongTimeoutMs) / 2);
    let nextPing = Date.now() + this.opts.pingIntervalMs;
    this.pingTimer = setInterval(() => {
      if (this.ws !== ws) return this.stopPings();
      const now = Date.now();
      if (this.pingSentAt !== undefined && now - this.pingSentAt >= this.opts.pongTimeoutMs) {
        // Frozen proxy, sleeping laptop, half-open TCP: the socket looks open and carries nothing.
        // Drop it now (a close handshake could wait for minutes) so that panes reconnect.
        const silent = Math.round((now - this.lastHeard) / 1000);
        this.detach(ws, new MuxStreamError(`the explorer server did not answer for ${silent} s: connection dropped`));
        connectionHealth.serverUnreachable(`no answer on the mux for ${silent} s`);
        try {
          ws.close(4000, 'no pong');
        } catch {
          // Already closing.
        }
        return;
      }
      if (now >= nextPing && ws.readyState === OPEN) {
        nextPing = now + this.opts.pingIntervalMs;
        this.pingSentAt ??= now;
        this.send(ws, { type: 'ping', seq: ++this.pingSeq });
      }
    }, tick);
    (this.pingTimer as { unref?: () => void }).unref?.();
  }

  private stopPings(): void {
    if (this.pingTimer !== undefined) clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }

  /** Forgets a socket: its streams fail, the next open connects anew. */
  private detach(ws: WebSocketLike, err: Error): void {
    if (this.ws === ws) {
      this.ws = undefined;
      this.ready = undefined;
      this.stopPings();
    }
    this.dropAll(ws, err);
  }

  private send(ws: WebSocketLike, m: MuxClientMessage): void {
    ws.send(JSON.stringify(m));
  }

  private connect(): Promise<WebSocketLike> {
    if (this.ready && this.ws && this.ws.readyState <= OPEN) return this.ready;
    const ws = new this.opts.WebSocket(this.opts.url);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    let usedToken = '';
    this.ready = new Promise<WebSocketLike>((resolve, reject) => {
      const ms = this.opts.connectTimeoutMs;
      const timer =
        ms > 0
          ? setTimeout(() => {
              const err = new MuxStreamError(`could not connect to the proxy mux: no answer in ${Math.round(ms / 1000)} s`);
              reject(err);
              this.detach(ws, err);
              connectionHealth.serverUnreachable(`the mux did not open in ${Math.round(ms / 1000)} s`);
              try {
                ws.close();
              } catch {
                // Closing a socket that never opened may throw in some implementations.
              }
            }, ms)
          : undefined;
      ws.addEventListener('open', () => {
        clearTimeout(timer);
        usedToken = this.currentToken();
        this.send(ws, { type: 'auth', token: usedToken });
        this.startPings(ws);
        resolve(ws);
      });
      // Browsers say nothing about why (by design); the `ws` package gives a message.
      ws.addEventListener('error', (ev) => {
        clearTimeout(timer);
        reject(new MuxStreamError(`could not connect to the proxy mux${ev.message ? `: ${ev.message}` : ''}`));
      });
      ws.addEventListener('close', (ev) => {
        clearTimeout(timer);
        const why = `the mux connection closed (${ev.code ?? ''}${ev.reason ? ` ${ev.reason}` : ''})`;
        reject(new MuxStreamError(why));
        if (ev.code === MUX_CLOSE_UNAUTHORIZED) {
          // The token was refused: after a restart of the explorer server the page's token is
          // the old launch's. Fetch the new one; streams fail now and their owners reopen.
          void this.onUnauthorized(ws, why, usedToken);
          return;
        }
        this.detach(ws, new MuxStreamError(why));
      });
      ws.addEventListener('message', (ev) => this.onMessage(ws, ev.data));
    });
    // A failed connect is reported to whoever opened; nobody else needs the rejection.
    this.ready.catch(() => {});
    return this.ready;
  }

  private async onUnauthorized(ws: WebSocketLike, why: string, used: string): Promise<void> {
    let fresh: string | undefined;
    try {
      fresh = await this.opts.refreshToken?.();
    } catch {
      fresh = undefined;
    }
    // Another request may have picked up the new token already: what counts is whether the token
    // this socket was refused with is still the one we have.
    fresh ??= this.currentToken();
    if (fresh && fresh !== used) {
      this.token = fresh;
      connectionHealth.tokenRefreshed();
      this.detach(ws, new MuxStreamError(`${why}: the explorer server was restarted; picked up its new token`));
    } else {
      this.refused = used;
      connectionHealth.tokenRejected();
      this.detach(ws, new MuxUnauthorizedError('the explorer server refuses this page’s token (it was restarted and the page could not pick up the new one): reload the page'));
    }
  }

  private dropAll(ws: WebSocketLike, err: Error): void {
    for (const s of [...this.streams.values()]) {
      if (s.ws !== ws) continue;
      this.streams.delete(s.id);
      if (!s.responded) s.onFail(err);
      s.queue.end(err);
    }
  }

  private onMessage(ws: WebSocketLike, data: unknown): void {
    // Any message proves the socket alive, not only a pong (a busy socket may queue pongs behind
    // megabytes of frames).
    this.lastHeard = Date.now();
    if (this.pingSentAt !== undefined) {
      if (typeof data === 'string' && data.startsWith('{"type":"pong"')) this.lastRttMs = this.lastHeard - this.pingSentAt;
      this.pingSentAt = undefined;
    }
    if (typeof data === 'string') {
      const m = JSON.parse(data) as MuxServerMessage;
      if (m.type === 'pong') return;
      const s = this.streams.get(m.id);
      if (!s || s.ws !== ws) return;
      if (m.type === 'response') {
        s.responded = true;
        s.onResponse?.({ status: m.status, headers: m.headers });
      } else if (m.type === 'end') {
        this.streams.delete(m.id);
        const error = m.error ? new MuxStreamError(m.error) : undefined;
        s.queue.end(error);
        if (!s.responded) s.onFail(error ?? new MuxStreamError('the stream ended before a response'));
      }
      return;
    }
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data instanceof Uint8Array ? data : null;
    if (!bytes || bytes.length < MUX_ID_BYTES) return;
    const id = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, false);
    const s = this.streams.get(id);
    // Frames for a stream we closed may still be in flight: the protocol says to drop them.
    if (!s || s.ws !== ws) return;
    s.queue.push(bytes.subarray(MUX_ID_BYTES));
  }
}

function defaultMuxUrl(): string {
  const origin = proxyOrigin() || (typeof location === 'undefined' ? '' : location.origin);
  return `${origin.replace(/^http/, 'ws').replace(/\/$/, '')}${MUX_PATH}`;
}

let shared: MuxClient | undefined;

/** The page's one mux connection, opened on first use. It picks up a restarted server's new token. */
export function sharedMux(): MuxClient {
  shared ??= new MuxClient({ refreshToken: refreshExplorerToken });
  return shared;
}

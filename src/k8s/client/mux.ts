// The second network choke point of the SPA (kubeFetch is the first): one WebSocket to the
// proxy's /proxy/mux carrying any number of GET streams. Browsers keep at most six HTTP/1.1
// connections per origin and every open watch would hold one; over the mux, eight or more watch
// panes leave those connections free for the rest of the explorer. A WebSocket cannot carry
// custom headers, so the per-launch token travels in the first message instead of
// X-Explorer-Token. Stream bytes are handed over exactly as the API server sent them.
import { MUX_ID_BYTES, MUX_PATH, type MuxClientMessage, type MuxServerMessage } from '../../../protocol/mux';
import { explorerToken, proxyOrigin } from './token';

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
export interface MuxStream {
  status: number;
  headers: Record<string, string>;
  /** True when our proxy, not the API server, produced the response (x-explorer-proxy-error). */
  fromProxy: boolean;
  body: AsyncIterable<Uint8Array>;
  /** Aborts the upstream request; the body then ends. */
  close(): void;
}

/** The stream broke before the API server finished it (connection lost, proxy gone, socket closed). */
export class MuxStreamError extends Error {
  override name = 'MuxStreamError';
}

interface StreamState {
  id: number;
  /** The socket the stream was opened on: a socket that closes fails only its own streams. */
  ws: WebSocketLike;
  onResponse?: (r: { status: number; headers: Record<string, string> }) => void;
  onFail: (e: Error) => void;
  chunks: Uint8Array[];
  done: boolean;
  error?: Error;
  wake?: () => void;
  responded: boolean;
}

export interface MuxClientOptions {
  /** ws:// URL of /proxy/mux; defaults to the page's origin (or the test proxy's). */
  url?: string;
  token?: () => string;
  WebSocket?: WebSocketConstructor;
}

const OPEN = 1;

export class MuxClient {
  private ws: WebSocketLike | undefined;
  private ready: Promise<WebSocketLike> | undefined;
  private nextId = 1;
  private readonly streams = new Map<number, StreamState>();
  private readonly opts: Required<MuxClientOptions>;

  constructor(opts: MuxClientOptions = {}) {
    const WS = opts.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
    if (!WS) throw new Error('no WebSocket implementation: pass one (the `ws` package in Node 20)');
    this.opts = { url: opts.url ?? defaultMuxUrl(), token: opts.token ?? explorerToken, WebSocket: WS };
  }

  /** Number of streams currently open on this client (for tests and the UI). */
  get openStreams(): number {
    return this.streams.size;
  }

  /** Opens a GET stream; resolves once the response status and headers arrive. */
  async open(req: MuxRequest): Promise<MuxStream> {
    req.signal?.throwIfAborted();
    const ws = await this.connect();
    const id = this.nextId;
    this.nextId = this.nextId >= 0xfffffffe ? 1 : this.nextId + 1;
    const s: StreamState = { id, ws, chunks: [], done: false, responded: false, onFail: () => {} };
    this.streams.set(id, s);
    const close = () => {
      if (!this.streams.has(id)) return;
      this.streams.delete(id);
      if (ws.readyState === OPEN) this.send(ws, { type: 'close', id });
      // Whoever closes is done reading: bytes still queued for the stream are dropped with it.
      s.chunks.length = 0;
      s.done = true;
      s.wake?.();
    };
    const onAbort = () => {
      s.onFail(req.signal?.reason instanceof Error ? req.signal.reason : new DOMException('aborted', 'AbortError'));
      close();
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const response = await new Promise<{ status: number; headers: Record<string, string> }>((resolve, reject) => {
      s.onResponse = resolve;
      s.onFail = reject;
      this.send(ws, { type: 'open', id, context: req.context, path: req.path, ...(req.headers ? { headers: req.headers } : {}) });
    }).catch((e: unknown) => {
      req.signal?.removeEventListener('abort', onAbort);
      close();
      throw e;
    });
    s.onFail = () => {};
    const body: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<Uint8Array>> => {
          for (;;) {
            const c = s.chunks.shift();
            if (c) return { value: c, done: false };
            if (s.error) {
              req.signal?.removeEventListener('abort', onAbort);
              throw s.error;
            }
            if (s.done) {
              req.signal?.removeEventListener('abort', onAbort);
              return { value: undefined, done: true };
            }
            await new Promise<void>((r) => (s.wake = r));
            s.wake = undefined;
          }
        },
        return: async (): Promise<IteratorResult<Uint8Array>> => {
          req.signal?.removeEventListener('abort', onAbort);
          close();
          return { value: undefined, done: true };
        },
      }),
    };
    return { ...response, fromProxy: response.headers['x-explorer-proxy-error'] !== undefined, body, close };
  }

  /** Closes the socket; every open stream fails. */
  close(): void {
    const ws = this.ws;
    this.ws = undefined;
    this.ready = undefined;
    if (!ws) return;
    ws.close(1000, 'client closed');
    this.dropAll(ws, new MuxStreamError('the mux connection was closed'));
  }

  private send(ws: WebSocketLike, m: MuxClientMessage): void {
    ws.send(JSON.stringify(m));
  }

  private connect(): Promise<WebSocketLike> {
    if (this.ready && this.ws && this.ws.readyState <= OPEN) return this.ready;
    const ws = new this.opts.WebSocket(this.opts.url);
    ws.binaryType = 'arraybuffer';
    this.ws = ws;
    this.ready = new Promise<WebSocketLike>((resolve, reject) => {
      ws.addEventListener('open', () => {
        this.send(ws, { type: 'auth', token: this.opts.token() });
        resolve(ws);
      });
      // Browsers say nothing about why (by design); the `ws` package gives a message.
      ws.addEventListener('error', (ev) => reject(new MuxStreamError(`could not connect to the proxy mux${ev.message ? `: ${ev.message}` : ''}`)));
      ws.addEventListener('close', (ev) => {
        reject(new MuxStreamError(`the mux connection closed (${ev.code ?? ''} ${ev.reason ?? ''})`));
        if (this.ws === ws) {
          this.ws = undefined;
          this.ready = undefined;
        }
        this.dropAll(ws, new MuxStreamError(`the mux connection closed (${ev.code ?? ''}${ev.reason ? ` ${ev.reason}` : ''})`));
      });
      ws.addEventListener('message', (ev) => this.onMessage(ws, ev.data));
    });
    // A failed connect is reported to whoever opened; nobody else needs the rejection.
    this.ready.catch(() => {});
    return this.ready;
  }

  private dropAll(ws: WebSocketLike, err: Error): void {
    for (const s of [...this.streams.values()]) {
      if (s.ws !== ws) continue;
      this.streams.delete(s.id);
      if (!s.responded) s.onFail(err);
      s.error = err;
      s.wake?.();
    }
  }

  private onMessage(ws: WebSocketLike, data: unknown): void {
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
        if (m.error) s.error = new MuxStreamError(m.error);
        else s.done = true;
        if (!s.responded) s.onFail(s.error ?? new MuxStreamError('the stream ended before a response'));
        s.wake?.();
      }
      return;
    }
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : data instanceof Uint8Array ? data : null;
    if (!bytes || bytes.length < MUX_ID_BYTES) return;
    const id = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, false);
    const s = this.streams.get(id);
    // Frames for a stream we closed may still be in flight: the protocol says to drop them.
    if (!s || s.ws !== ws) return;
    s.chunks.push(bytes.subarray(MUX_ID_BYTES));
    s.wake?.();
  }
}

function defaultMuxUrl(): string {
  const origin = proxyOrigin() || (typeof location === 'undefined' ? '' : location.origin);
  return `${origin.replace(/^http/, 'ws').replace(/\/$/, '')}${MUX_PATH}`;
}

let shared: MuxClient | undefined;

/** The page's one mux connection, opened on first use. */
export function sharedMux(): MuxClient {
  shared ??= new MuxClient();
  return shared;
}

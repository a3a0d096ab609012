// Wire protocol of the watch multiplexer at /proxy/mux, shared by the proxy (proxy/src/mux.ts) and
// the page (src/k8s/client/mux.ts). Types and constants only, no imports: both sides import this
// file, so a change to the wire breaks the type check of the other side instead of drifting.
//
// Browsers open at most 6 HTTP/1.1 connections per origin, and each open watch holds one; one
// WebSocket carries any number of them.
//
// Flow on one socket:
//   client → {type:'auth', token}                  first message, within 5 s, or close 4401
//   client → {type:'open', id, context, path, headers?, window?}   a GET through the same filter as HTTP
//   server → {type:'response', id, status, headers} exactly once per open
//   server → binary frame: 4-byte big-endian id, then upstream body bytes exactly as sent
//   server → {type:'end', id, error?}              last message for that id
//   client → {type:'credit', id, bytes}            flow control (see below)
//   client → {type:'close', id}                    aborts the upstream; the server sends nothing more
//                                                  for that id (frames already in flight may arrive:
//                                                  ignore ids you no longer know)
//   client → {type:'ping', seq}  server → {type:'pong', seq}   liveness of the socket (see below)
// A proxy error (unknown context, refused path, cluster unreachable) is a `response` whose headers
// carry `x-explorer-proxy-error: 1`, one binary frame holding the Status JSON, then `end`.
//
// Flow control, per stream and credit-based: an `open` with `window: N` lets the server send N body
// bytes; it then pauses the upstream until `credit` messages grant more. The page grants bytes as
// it consumes them, so a page that falls behind (a busy main thread, a slow worker) slows the
// upstream instead of queueing without bound. Without `window` the stream has no page-side limit
// (the server still pauses upstreams while its socket backs up).
//
// Liveness: browsers cannot send WebSocket ping frames, so the page sends `ping` messages and
// treats a socket that answers nothing for a while as dead (a frozen or half-open connection
// otherwise looks open forever). The server pings the page with protocol-level pings.

export const MUX_PATH = '/proxy/mux';
/**
 * Close code: missing, late or wrong token. A page that had a working token and meets 4401 is
 * talking to a restarted explorer server (a new launch has a new token): it should fetch the page
 * again for the new token rather than retry with the old one.
 */
export const MUX_CLOSE_UNAUTHORIZED = 4401;
/** Close code: a message the server cannot attribute to a stream (bad JSON, bad or duplicate id). */
export const MUX_CLOSE_PROTOCOL_ERROR = 4400;
/** Bytes of the big-endian stream id that prefixes every binary frame. */
export const MUX_ID_BYTES = 4;

export interface MuxAuth {
  type: 'auth';
  token: string;
}

export interface MuxOpen {
  type: 'open';
  /** Chosen by the client, unique among its open streams; an unsigned 32-bit integer. */
  id: number;
  /** Kubeconfig context name, as listed by /proxy/contexts. */
  context: string;
  /** API path with query, e.g. `/api/v1/namespaces/default/pods?watch=1&resourceVersion=12`. */
  path: string;
  /** Request headers such as Accept; credentials and hop-by-hop headers are dropped. */
  headers?: Record<string, string>;
  /** Flow control: body bytes the server may send before it waits for `credit`. Absent: unlimited. */
  window?: number;
}

export interface MuxCredit {
  type: 'credit';
  id: number;
  /** More body bytes the server may send on this stream (a positive integer). */
  bytes: number;
}

export interface MuxClose {
  type: 'close';
  id: number;
}

export interface MuxPing {
  type: 'ping';
  /** Echoed in the pong. */
  seq: number;
}

export type MuxClientMessage = MuxAuth | MuxOpen | MuxCredit | MuxClose | MuxPing;

export interface MuxResponse {
  type: 'response';
  id: number;
  status: number;
  /** Response headers with lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
}

export interface MuxEnd {
  type: 'end';
  id: number;
  /** Set when the stream did not end cleanly (upstream connection lost, proxy shut down). */
  error?: string;
}

export interface MuxPong {
  type: 'pong';
  seq: number;
}

export type MuxServerMessage = MuxResponse | MuxEnd | MuxPong;

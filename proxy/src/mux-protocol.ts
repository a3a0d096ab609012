// Wire protocol of the watch multiplexer at /proxy/mux. Browsers open at most 6 HTTP/1.1
// connections per origin, and each open watch holds one; one WebSocket carries any number of them.
// Kept free of Node imports so the SPA can mirror these few types as they are.
//
// Flow on one socket:
//   client → {type:'auth', token}                  first message, within 5 s, or close 4401
//   client → {type:'open', id, context, path, headers?}   a GET through the same filter as HTTP
//   server → {type:'response', id, status, headers} exactly once per open
//   server → binary frame: 4-byte big-endian id, then upstream body bytes exactly as sent
//   server → {type:'end', id, error?}              last message for that id
//   client → {type:'close', id}                    aborts the upstream; the server sends nothing more
//                                                  for that id (frames already in flight may arrive:
//                                                  ignore ids you no longer know)
// A proxy error (unknown context, refused path, cluster unreachable) is a `response` whose headers
// carry `x-explorer-proxy-error: 1`, one binary frame holding the Status JSON, then `end`.

export const MUX_PATH = '/proxy/mux';
/** Close code: missing, late or wrong token. */
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
}

export interface MuxClose {
  type: 'close';
  id: number;
}

export type MuxClientMessage = MuxAuth | MuxOpen | MuxClose;

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

export type MuxServerMessage = MuxResponse | MuxEnd;

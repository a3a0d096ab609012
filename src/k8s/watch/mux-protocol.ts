// The SPA's copy of the few wire types of the proxy's watch multiplexer at /proxy/mux (the proxy
// defines them in proxy/src/mux-protocol.ts; src/ and proxy/ import nothing from each other).
//   client → {type:'auth', token} first, then {type:'open', id, context, path, headers?} per stream
//   server → {type:'response', id, status, headers} once per stream, then binary frames
//            (4-byte big-endian id + upstream bytes as sent), then {type:'end', id, error?}
//   client → {type:'close', id} to abort a stream; frames already in flight may still arrive.

export const MUX_PATH = '/proxy/mux';
export const MUX_CLOSE_UNAUTHORIZED = 4401;
export const MUX_CLOSE_PROTOCOL_ERROR = 4400;
export const MUX_ID_BYTES = 4;

export interface MuxAuth {
  type: 'auth';
  token: string;
}
export interface MuxOpen {
  type: 'open';
  id: number;
  context: string;
  path: string;
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
  headers: Record<string, string>;
}
export interface MuxEnd {
  type: 'end';
  id: number;
  error?: string;
}
export type MuxServerMessage = MuxResponse | MuxEnd;

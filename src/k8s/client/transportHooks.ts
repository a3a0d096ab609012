// The transport's hooks: what kubeFetch and the mux client call on every request, so that
// recording and replay (k8s/record) plug in from app/ (installRecordingHooks) and the client
// imports nothing of them. Without hooks the transport sends and reads as is.
import type { ContextList } from '../../../protocol/contexts';
import type { HeaderList } from './headerList';
import type { MuxStream } from './muxStream';

export interface TapRequest {
  context: string;
  method: string;
  /** API path with its query, as sent. */
  path: string;
  headers?: Record<string, string> | HeaderList;
  body?: unknown;
  via: 'http' | 'mux';
}

/** What a choke point reports about one exchange while it runs. */
export interface Tap {
  head(status: number, statusText: string, headers: HeaderList): void;
  chunk(bytes: Uint8Array): void;
  /** The body ended: cleanly, with an error, or because the reader stopped (`closedByReader`). */
  end(error?: string, closedByReader?: boolean): void;
}

/** A replay's answers, as the transport asks for them (k8s/record/replay.ts's ReplaySession). */
export interface ReplayRequest {
  context: string;
  method?: string;
  /** API path with its query. */
  path: string;
  /** The request's Accept header: the same path asked for in another encoding is another answer. */
  accept?: string;
  signal?: AbortSignal;
}

/**
 * Set (to '1') on a watch stream a replay serves: its frames come when the replay's clock reaches
 * them, and its silences (after the last frame, or while the clock is paused) are the
 * recording's, not a connection gone dead, so a reader must not time it out and open it again.
 * Never sent by a server or recorded: only a replay adds it.
 */
export const REPLAYED_HEADER = 'x-explorer-replayed';

export interface ReplayTransport {
  fetch(req: ReplayRequest): Response;
  open(req: ReplayRequest): MuxStream;
  contexts(): ContextList;
}

export interface TransportHooks {
  /** What a choke point reports an exchange to; undefined: nobody listens. */
  begin?(req: TapRequest): Tap | undefined;
  /** The replay that answers instead of the network, while one is active. */
  replay?(): ReplayTransport | undefined;
}

let hooks: TransportHooks = {};

export function setTransportHooks(h: TransportHooks): void {
  hooks = h;
}

export function beginTap(req: TapRequest): Tap | undefined {
  return hooks.begin?.(req);
}

export function activeReplayTransport(): ReplayTransport | undefined {
  return hooks.replay?.();
}

/**
 * Hands a fetch Response on with its body observed as the reader consumes it: the reader still
 * gets every byte, and cancelling it still cancels the request (a pass-through stream, not a tee,
 * which would keep the request open for the recorder alone). The end is reported in every way a
 * body can end: read to the end, failed, or cancelled by its reader (a query aborted as its view
 * went away, a probe that only wanted the status): a cancelled body is not a whole answer, and a
 * replay must not serve it as one.
 */
export function observeResponse(res: Response, tap: Tap): Response {
  const headers: HeaderList = [];
  res.headers.forEach((v, k) => headers.push([k, v]));
  tap.head(res.status, res.statusText, headers);
  if (!res.body) {
    tap.end();
    return res;
  }
  const reader = res.body.getReader();
  const observed = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let r: ReadableStreamReadResult<Uint8Array>;
      try {
        r = await reader.read();
      } catch (e) {
        tap.end(e instanceof Error ? e.message : String(e));
        throw e;
      }
      if (r.done) {
        tap.end();
        controller.close();
      } else {
        tap.chunk(r.value);
        controller.enqueue(r.value);
      }
    },
    cancel(reason) {
      tap.end(undefined, true);
      return reader.cancel(reason);
    },
  });
  return new Response(observed, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/** The same for a mux stream's body, an async iterable of chunks. */
export async function* observeChunks(body: AsyncIterable<Uint8Array>, tap: Tap): AsyncGenerator<Uint8Array> {
  let error: string | undefined;
  let finished = false;
  try {
    for await (const c of body) {
      tap.chunk(c);
      yield c;
    }
    finished = true;
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
    throw e;
  } finally {
    tap.end(error, !finished && error === undefined);
  }
}

// The worker side of remote watch sessions: runs WatchSession (the same engine as in the page:
// resume, bookmarks, 410 relist, idle timer, Retry-After, the byte-capped timeline) with the
// network borrowed from the page. The page keeps the one mux connection and the one fetch choke
// point (kubeFetch, with the token); the worker asks it to open streams and lists and receives
// the bytes. Flow control: the worker acknowledges stream bytes as its framer takes them, and the
// page reads on from the mux (which grants credit to the proxy) only while few bytes are
// unacknowledged, so credit follows what the worker has consumed.
//
// `port` is the worker's global scope in the browser, or one end of a MessageChannel in tests.
import type { MuxRequest, MuxStream } from '../../client';
import { ChunkQueue } from '../../client/chunkQueue';
import { BatchBuilder, fromWire, type FromWorker, type RemoteSessionOptions, type ToWorker } from './protocol';
import { type FetchJson, type MuxOpener, WatchSession } from '../session';

export interface Port {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  start?(): void;
}

/** How often a session's changes go to the page at most (about once per display frame). */
export const BATCH_MS = 16;
/** Acknowledge consumed stream bytes in steps of this much (or when the queue runs dry). */
const ACK_BYTES = 64 * 1024;

interface RemoteStream {
  onResponse?: (r: { status: number; headers: Record<string, string>; fromProxy: boolean }) => void;
  onFail: (e: Error) => void;
  queue: ChunkQueue;
  unacked: number;
}

type Post = (m: FromWorker, transfer?: Transferable[]) => void;

/**
 * The network the worker borrows from the page: mux streams and JSON GETs asked for by message,
 * their answers delivered back (`deliver`) as the page sends them.
 */
function borrowNetwork(post: Post): { mux: MuxOpener; fetchJson: FetchJson; deliver(m: ToWorker): void } {
  const streams = new Map<number, RemoteStream>();
  const fetches = new Map<number, { resolve: (b: ArrayBuffer) => void; reject: (e: Error) => void }>();
  let nextRid = 1;

  const mux: MuxOpener = {
    open(req: MuxRequest): Promise<MuxStream> {
      req.signal?.throwIfAborted();
      const rid = nextRid++;
      const s: RemoteStream = { queue: new ChunkQueue(), unacked: 0, onFail: () => {} };
      streams.set(rid, s);
      const close = () => {
        if (!streams.has(rid)) return;
        streams.delete(rid);
        post({ t: 'mux-close', rid });
        s.queue.drop();
      };
      const onAbort = () => {
        s.onFail(req.signal?.reason instanceof Error ? req.signal.reason : new DOMException('aborted', 'AbortError'));
        close();
      };
      req.signal?.addEventListener('abort', onAbort, { once: true });
      const ack = () => {
        if (s.unacked > 0 && streams.has(rid)) post({ t: 'mux-ack', rid, bytes: s.unacked });
        s.unacked = 0;
      };
      return new Promise<{ status: number; headers: Record<string, string>; fromProxy: boolean }>((resolve, reject) => {
        s.onResponse = resolve;
        s.onFail = reject;
        post({ t: 'mux-open', rid, context: req.context, path: req.path, headers: req.headers });
      }).then(
        (r) => {
          s.onFail = () => {};
          const body = s.queue.iterable({
            taken: (c, chunksLeft) => {
              s.unacked += c.length;
              if (s.unacked >= ACK_BYTES || chunksLeft === 0) ack();
            },
            finished: () => req.signal?.removeEventListener('abort', onAbort),
            returned: () => {
              req.signal?.removeEventListener('abort', onAbort);
              close();
            },
          });
          return { ...r, body, close, queued: () => s.queue.bytes };
        },
        (e: unknown) => {
          req.signal?.removeEventListener('abort', onAbort);
          close();
          throw e;
        },
      );
    },
  };

  const fetchJson: FetchJson = async <T>(req: Parameters<FetchJson>[0]): Promise<T> => {
    req.signal?.throwIfAborted();
    const rid = nextRid++;
    const buf = await new Promise<ArrayBuffer>((resolve, reject) => {
      fetches.set(rid, { resolve, reject });
      req.signal?.addEventListener(
        'abort',
        () => {
          if (!fetches.delete(rid)) return;
          post({ t: 'fetch-abort', rid });
          reject(req.signal?.reason instanceof Error ? req.signal.reason : new DOMException('aborted', 'AbortError'));
        },
        { once: true },
      );
      post({ t: 'fetch', rid, context: req.context, path: req.path, headers: req.headers });
    });
    // Parsed here, off the page's main thread: a list of 20,000 objects is megabytes of JSON.
    return JSON.parse(new TextDecoder().decode(buf)) as T;
  };

  function deliver(m: ToWorker): void {
    switch (m.t) {
      case 'mux-response': {
        const s = streams.get(m.rid);
        s?.onResponse?.({ status: m.status, headers: m.headers, fromProxy: m.fromProxy });
        return;
      }
      case 'mux-chunk': {
        const s = streams.get(m.rid);
        if (!s) return;
        s.queue.push(new Uint8Array(m.buf, m.off, m.len));
        return;
      }
      case 'mux-end': {
        const s = streams.get(m.rid);
        if (!s) return;
        streams.delete(m.rid);
        const error = m.error ? fromWire(m.error) : undefined;
        s.queue.end(error);
        s.onFail(error ?? new Error('the stream ended before a response'));
        return;
      }
      case 'fetch-done': {
        const f = fetches.get(m.rid);
        if (!f) return;
        fetches.delete(m.rid);
        if (m.error) f.reject(fromWire(m.error));
        else f.resolve(m.buf!);
        return;
      }
    }
  }

  return { mux, fetchJson, deliver };
}

export function hostWatchSessions(port: Port): void {
  const post: Post = (m, transfer) => port.postMessage(m, transfer ?? []);
  const sessions = new Map<number, { session: WatchSession; builder: BatchBuilder }>();
  const net = borrowNetwork(post);
  const { mux, fetchJson } = net;

  port.addEventListener('message', (ev: MessageEvent) => {
    const m = ev.data as ToWorker;
    switch (m.t) {
      case 'create': {
        const builder = new BatchBuilder();
        const session = new WatchSession(m.spec, {
          ...(m.opts as RemoteSessionOptions),
          mux,
          fetchJson,
          trackObjectChanges: true,
          schedule: (flush) => setTimeout(flush, BATCH_MS),
        });
        session.subscribe(() => post({ t: 'batch', sid: m.sid, json: JSON.stringify(builder.build(session.getSnapshot(), session.drainObjectChanges())) }));
        sessions.set(m.sid, { session, builder });
        return;
      }
      case 'cmd': {
        const h = sessions.get(m.sid);
        if (!h) return;
        if (m.cmd === 'stop') {
          h.session.stop();
          sessions.delete(m.sid);
        } else h.session[m.cmd]();
        return;
      }
      case 'max':
        sessions.get(m.sid)?.session.setMaxEntries(m.n);
        return;
      case 'budget':
        sessions.get(m.sid)?.session.setObjectBudget(m.bytes);
        return;
      case 'object': {
        const s = sessions.get(m.sid)?.session;
        if (!s) return post({ t: 'reply', req: m.req, value: undefined });
        void s.objectDetail(m.key).then((d) => post({ t: 'reply', req: m.req, value: d }));
        return;
      }
      case 'export': {
        const s = sessions.get(m.sid)?.session;
        if (m.frames) {
          const bytes = s?.exportFrames() ?? new Uint8Array(0);
          post({ t: 'reply', req: m.req, value: bytes }, [bytes.buffer]);
        } else post({ t: 'reply', req: m.req, value: s?.exportNdjson() ?? '' });
        return;
      }
      case 'detail': {
        const s = sessions.get(m.sid)?.session;
        if (!s) return post({ t: 'reply', req: m.req, value: undefined });
        void s.entryDetail(m.seq).then((e) => post({ t: 'reply', req: m.req, value: e }));
        return;
      }
      default:
        net.deliver(m);
    }
  });
  port.start?.();
}

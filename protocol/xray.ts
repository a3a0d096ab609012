// X-ray: other clients (kubectl, a controller, a script) talk to the cluster through a loopback
// endpoint of the explorer, which forwards each request with the user's real credentials and
// journals what passed; the page watches the journal live. Types, routes and constants only, shared
// by the proxy (proxy/src/xray/*) and the page; the journal's reducer is protocol/xrayJournal.ts and
// the file format protocol/recording.ts.
//
// Two doors:
// - The X-ray endpoint, its own loopback HTTPS listener (127.0.0.1, a port of its own, a
//   certificate of its own that its kubeconfigs trust: client-go sends a token only over TLS), for the
//   clients: `Authorization: Bearer <token>` with a per-run token (the `xray` command) or the
//   explorer's long-lived token (the kubeconfig of XRAY_KUBECONFIG_PATH). Paths are the API
//   server's own, under `/<context>/` so that one endpoint serves every context of the user's
//   kubeconfig: a kubeconfig cluster's `server` is `https://127.0.0.1:<port>/<context>` (the
//   context name percent-encoded as one path segment; client-go keeps a server URL's path as a
//   prefix). A request without a good token is answered 401 with a Status and is neither
//   journaled nor streamed to the page. Only Authorization is replaced; every other header the
//   client sends reaches the server (User-Agent, Accept with Protobuf, Audit-ID, Impersonate-*),
//   minus hop-by-hop ones. Upgrades (exec, attach, port-forward) are answered 403 with a Status
//   unless the explorer (or the run) was started with --allow-exec.
//   Run control (an attached `xray`, proxy/src/xray/service.ts), with the long-lived token:
//   `POST /?xray=run {argv, context}` → `{id, token}`; `POST /?xray=end&run=ID {exitCode, signal}`.
// - The page's routes, on the explorer's own server, behind the browser's door (Host, Origin,
//   `X-Explorer-Token`; proxy/src/guard.ts), like every /proxy/ endpoint:
//     GET XRAY_STREAM_PATH      NDJSON, one XrayMessage per line (`application/x-ndjson`), open
//                               until the page closes it. It begins with `hello`, then every
//                               message of the journal as kept (the runs and exchanges it still
//                               holds, in their order), then `live`, then new messages as they
//                               happen. Read it with fetch() (EventSource cannot send the token).
//     GET XRAY_KUBECONFIG_PATH  the long-lived endpoint's kubeconfig (YAML, as a download):
//                               the user's context names, each pointing at the endpoint, with the
//                               long-lived token. 404 Status when the endpoint is off.
//     GET XRAY_HAR_PATH?run=ID  one run (or, without `run`, the whole journal) as a recording
//                               file (protocol/recording.ts), as `--har` writes it and `--replay`
//                               opens it.
//
// Bounded: the journal keeps bodies up to XRAY_BODY_BUDGET bytes per exchange and
// XRAY_JOURNAL_BUDGET bytes in all. Past an exchange's budget its further chunks are counted
// (`chunk` messages with `cut: true` and no bytes are NOT sent; the `end` message carries the
// totals and `cut: true`); past the journal's budget the oldest ended exchanges are forgotten
// (a `forget` message says which). A page that reads slower than the journal grows is sent
// `overflow` and the stream ends: it reconnects and gets the journal again (bounded too).

/** The page's live stream of the journal (NDJSON of XrayMessage). */
export const XRAY_STREAM_PATH = '/proxy/xray/stream';
/** The long-lived endpoint's kubeconfig, as a file to download. */
export const XRAY_KUBECONFIG_PATH = '/proxy/xray/kubeconfig';
/** A run (?run=ID) or the whole journal as a recording file. */
export const XRAY_HAR_PATH = '/proxy/xray/har';
/** The endpoint's state, JSON XrayEndpointInfo (for the "Connect a client" panel). */
export const XRAY_INFO_PATH = '/proxy/xray/info';

/** Body bytes one exchange may keep in the journal; past them, sizes and counts only. */
export const XRAY_BODY_BUDGET = 4 * 1024 * 1024;
/** Body bytes the whole journal may keep; past them, the oldest ended exchanges are forgotten. */
export const XRAY_JOURNAL_BUDGET = 64 * 1024 * 1024;
/** The run id of the long-lived endpoint's requests (clients that are not one command). */
export const LONG_LIVED_RUN = 'long-lived';

/** A header as sent or received, in order, repeated names kept (one Warning line per warning). */
export type XrayHeaders = { name: string; value: string }[];

export interface XrayEndpointInfo {
  /** false: the explorer runs without the long-lived endpoint (e.g. --replay). */
  enabled: boolean;
  /** `https://127.0.0.1:<port>`, when enabled. */
  url?: string;
  /** Upgrades (exec, attach, port-forward) are tunnelled, not refused. */
  allowExec: boolean;
  /** The budgets in force (bytes). */
  bodyBudget: number;
  journalBudget: number;
}

/** A run: one `xray -- COMMAND` invocation, or the long-lived endpoint's clients (id LONG_LIVED_RUN). */
export interface XrayRun {
  id: string;
  /** The command line as given (argv), or undefined for the long-lived endpoint. */
  argv?: string[];
  /** The kubeconfig context the run started in (its current-context). */
  context?: string;
  /** ISO 8601. */
  startedAt: string;
  endedAt?: string;
  /** The child's exit code; null when a signal ended it (then `signal`). */
  exitCode?: number | null;
  signal?: string;
}

/** A body or a chunk of one: UTF-8 text when the bytes are (JSON, YAML), else base64 (Protobuf, CBOR, gzip). */
export interface XrayBytes {
  text?: string;
  base64?: string;
  /** Bytes on the wire this piece holds (the text's UTF-8 length, or the decoded base64's). */
  size: number;
}

export type XrayMessage =
  /** First message of a stream: the endpoint as it is now. */
  | { type: 'hello'; info: XrayEndpointInfo }
  /** The journal has been replayed: what follows happens now. */
  | { type: 'live' }
  | { type: 'run'; run: XrayRun }
  | { type: 'runEnd'; id: string; endedAt: string; exitCode: number | null; signal?: string }
  /**
   * A request as the client sent it, when its head arrived: method, the API path with query (as
   * the API server sees it, without the endpoint's `/<context>` prefix), the headers as sent with
   * Authorization replaced by `Authorization: Bearer <redacted>` (never the token).
   */
  | {
      type: 'request';
      id: string;
      run: string;
      context: string;
      at: string;
      method: string;
      path: string;
      headers: XrayHeaders;
      /** A watch as kube-apiserver decides it (protocol/watch.ts). */
      watch: boolean;
      /** An upgrade request (exec, attach, port-forward). */
      upgrade?: boolean;
    }
  /** The request's body once read (within XRAY_BODY_BUDGET; `cut` past it, `size` still whole). */
  | { type: 'requestBody'; id: string; at: string; body: XrayBytes; cut?: boolean }
  /** The API server's response head, as the client got it. `refused`: the endpoint answered itself (e.g. an upgrade without --allow-exec). */
  | { type: 'response'; id: string; at: string; status: number; statusText: string; headers: XrayHeaders; refused?: boolean }
  /**
   * A piece of the response body as it arrived, Content-Encoding undone for the journal (the
   * client got the bytes as sent): for a watch, read frames with framesOf (protocol/recording.ts).
   */
  | { type: 'chunk'; id: string; at: string; body: XrayBytes }
  /**
   * The exchange is over. `bytes`/`chunks`: the whole body's totals (also past a cut); `cut`: the
   * journal kept only the first of them; `closedBy`: who ended it ('server': the body ended;
   * 'client': the client went away first; 'error': the upstream failed, see `error`).
   * Upgraded streams: `upgrade` bytes each way.
   */
  | {
      type: 'end';
      id: string;
      at: string;
      bytes: number;
      chunks: number;
      /** Bytes on the wire, when Content-Encoding made them differ from `bytes`. */
      wireBytes?: number;
      cut?: boolean;
      closedBy: 'server' | 'client' | 'error';
      error?: string;
      upgrade?: { sentBytes: number; receivedBytes: number };
    }
  /** The journal forgot these exchanges (its budget): the page may keep or drop them. */
  | { type: 'forget'; ids: string[] }
  /** The page fell behind; the stream ends after this. Reconnect to get the journal again. */
  | { type: 'overflow' };

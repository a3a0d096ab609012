// A GET stream's answer as the page reads it: over the mux (mux.ts) or, while a recording is
// replayed, from the recording (transportHooks.ts's ReplayTransport). One type for both, in a file
// of its own so that the hooks need not import the mux client.

export interface MuxStream {
  status: number;
  headers: Record<string, string>;
  /** True when our proxy, not the API server, produced the response (x-explorer-proxy-error). */
  fromProxy: boolean;
  body: AsyncIterable<Uint8Array>;
  /** Aborts the upstream request; the body then ends. */
  close(): void;
  /** Bytes received and not yet read (bounded by the flow-control window, plus one chunk). */
  queued(): number;
}

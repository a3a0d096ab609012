// The answer of the proxy's GET /proxy/contexts, shared by the proxy (proxy/src/kubeconfig.ts) and
// the page (src/features/shell/queries.ts). Types only.

export interface ContextSummary {
  name: string;
  cluster: string;
  /** API server URL, without any user:password part. */
  server: string;
  user: string;
  /** The context's namespace; `default` when the kubeconfig names none (as kubectl does). */
  namespace: string;
  current: boolean;
  /** The kubeconfig file to name in kubectl commands, when kubectl would not find the context by itself. */
  kubeconfig?: string;
}

export interface ContextList {
  contexts: ContextSummary[];
  /** The kubeconfig's current-context; empty when it sets none. */
  current: string;
  /** The User-Agent the proxy sends on every request it forwards (unless the page asks for another). */
  userAgent?: string;
  /**
   * Set when the explorer was started with --replay FILE: there are no contexts, the page opens
   * the recording (GET /proxy/recording) and nothing is sent to any cluster.
   */
  replay?: boolean;
}

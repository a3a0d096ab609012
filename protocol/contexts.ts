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
}

export interface ContextList {
  contexts: ContextSummary[];
  /** The kubeconfig's current-context; empty when it sets none. */
  current: string;
}

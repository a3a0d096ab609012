// The answer of the proxy's GET /proxy/status (what the page's connection indicator reads): the
// explorer server (its start time tells a restart apart, and with it a new token), each context as
// the proxy last saw it, the upstream requests open, and the supervised local control plane when
// the explorer runs one. Types only; the proxy builds it (proxy/src/status.ts), the page reads it
// (src/features/status/).

export type ComponentName = 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | (string & {});
/**
 * starting: first start, not yet ready; running: ready; unresponsive: its process is there but it
 * does not answer its health check (SIGSTOPped, hung); restarting: exited, waiting or starting
 * again; failed: given up; stopped: on purpose.
 */
export type ComponentState = 'starting' | 'running' | 'unresponsive' | 'restarting' | 'failed' | 'stopped';

export interface SupervisorEvent {
  /** Increases by one per event for the whole control plane: a reader asks for events after the last it saw. */
  seq: number;
  /** ISO 8601 time. */
  at: string;
  component: ComponentName;
  /**
   * exited: the process ended on its own (code/signal set); restarting: a new process was started
   * (attempt set); ready: it answers again; failed: given up after too many restarts (logTail set);
   * requested: a restart asked for by the program (tests, `restartApiServer`); unresponsive: it
   * stopped answering its health check while its process is still there; answering: it answers again.
   */
  type: 'exited' | 'restarting' | 'ready' | 'failed' | 'requested' | 'unresponsive' | 'answering';
  message: string;
  pid?: number;
  code?: number | null;
  signal?: string | null;
  /** Restart attempt since the component last ran stably (1 = first restart). */
  attempt?: number;
  /** Last lines of the component's log (on `failed`, and on `exited`). */
  logTail?: string;
}

export interface ComponentStatus {
  name: ComponentName;
  state: ComponentState;
  pid?: number;
  /** Restarts since launch, requested ones excluded. */
  restarts: number;
  /** ISO time of the last state change. */
  since: string;
  /** Path of its log file. */
  log: string;
  lastExit?: { at: string; code: number | null; signal: string | null };
}

export interface ContextStatus {
  /** Time of the last response from this context's API server (any status), ISO 8601. */
  lastResponseAt: string | null;
  /** Its time to first byte, ms (Server-Timing's upstream;dur). */
  ttfbMs: number | null;
  /** The last failure to reach it (proxy Status reason, cause and message), ISO time. */
  lastError: { at: string; code: number; cause: string; message: string } | null;
}

/**
 * A kubeconfig user whose credential comes from a program: an exec plugin, or a legacy gcp/azure
 * auth-provider's cmd-path. Never the credential itself.
 */
export interface CredentialRun {
  user: string;
  /** The cluster the credential is for, when the plugin is told it (provideClusterInfo): one entry per cluster then. */
  cluster?: string;
  /** Contexts that use this user (those the page reached so far). */
  contexts: string[];
  /** The command line, as the kubeconfig gives it. */
  command: string;
  /** running: requests wait for it; ready: a credential is held; failed: the last run failed (see failure); idle: not run yet. */
  state: 'running' | 'ready' | 'failed' | 'idle';
  /** ISO times of the run under way: started, and when it will be stopped. */
  startedAt?: string;
  timeoutAt?: string;
  /** The end of its stderr (where kubelogin prints the URL to open), of the run under way or the last one. */
  stderr: string;
  /** retryAt absent: not run again until the page asks (it was cancelled). */
  failure?: { at: string; message: string; retryAt?: string };
  /** Expiry of the credential held (its expirationTimestamp). */
  expiresAt?: string;
}

export interface ExplorerStatus {
  server: { startedAt: string; pid: number };
  /** Users whose credentials come from a program (absent from older servers). */
  credentials?: CredentialRun[];
  upstreams: { open: number; total: number; max: number; muxPaused: number };
  /** Contexts the page reached over HTTP since launch (watches over the mux are not counted). */
  contexts: Record<string, ContextStatus>;
  /** null when the clusters come from a kubeconfig the explorer did not start. */
  controlPlane: null | {
    server: string;
    components: ComponentStatus[];
    /** Oldest first; with ?since=SEQ only those with a larger seq. */
    events: SupervisorEvent[];
    /** seq of the newest event (0: none yet), for the next ?since=. */
    lastSeq: number;
  };
}

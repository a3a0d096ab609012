// The answer of the proxy's GET /proxy/status (what the page's connection indicator reads): the
// explorer server (its start time tells a restart apart, and with it a new token), each context as
// the proxy last saw it, the upstream requests open, and the supervised local control plane when
// the explorer runs one. Types only; the proxy builds it (proxy/src/status.ts), the page reads it
// (src/features/status/).

export type ComponentName = 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | (string & {});
/** starting: first start, not yet ready; running: ready; restarting: exited, waiting or starting again; failed: given up; stopped: on purpose. */
export type ComponentState = 'starting' | 'running' | 'restarting' | 'failed' | 'stopped';

export interface SupervisorEvent {
  /** Increases by one per event for the whole control plane: a reader asks for events after the last it saw. */
  seq: number;
  /** ISO 8601 time. */
  at: string;
  component: ComponentName;
  /**
   * exited: the process ended on its own (code/signal set); restarting: a new process was started
   * (attempt set); ready: it answers again; failed: given up after too many restarts (logTail set);
   * requested: a restart asked for by the program (tests, `restartApiServer`).
   */
  type: 'exited' | 'restarting' | 'ready' | 'failed' | 'requested';
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

export interface ExplorerStatus {
  server: { startedAt: string; pid: number };
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

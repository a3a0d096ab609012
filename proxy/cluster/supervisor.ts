// Supervision of the local control plane's processes (etcd, kube-apiserver,
// kube-controller-manager): a component that exits on its own is restarted with backoff, every
// restart is recorded as an event (logged, and readable by the explorer server), and a component
// that keeps failing is given up with the tail of its log. Children never outlive us: each runs in
// its own process group (a terminal's Ctrl-C reaches only us, and we stop them in order), and a
// tiny watchdog shell holds the read end of a pipe from us; when that pipe closes — we exited,
// however: signal, crash, SIGKILL — the watchdog terminates the children we last told it about.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The wire types of /proxy/status (protocol/status.ts) are this supervisor's own record.
import type { ComponentName, ComponentState, ComponentStatus, SupervisorEvent } from '../../protocol/status';
import { setTimeout as sleep } from 'node:timers/promises';
export type { ComponentName, ComponentState, ComponentStatus, SupervisorEvent };

export interface SupervisorStatus {
  components: ComponentStatus[];
  /** The most recent events, oldest first (at most {@link MAX_EVENTS}). */
  events: SupervisorEvent[];
}

export interface SupervisionOptions {
  /** Delays before restart attempts 1, 2, …; the last repeats. Default 1, 2, 4, 8, 16 s. */
  backoffMs?: number[];
  /** Restarts allowed without a stable run in between before giving up. Default 5. */
  maxRestarts?: number;
  /** A component that stays ready this long has its attempt counter reset. Default 60 s. */
  stableMs?: number;
  /** How often a running component's liveness is checked (see ComponentSpec.alive). Default 5 s. */
  livenessIntervalMs?: number;
  /** Failed liveness checks in a row before a component is called unresponsive. Default 2. */
  livenessFailures?: number;
}

export interface ComponentSpec {
  name: ComponentName;
  bin: string;
  args: string[];
  /** Resolves true once the component serves; polled every 200 ms. */
  ready: () => Promise<boolean>;
  /** Readiness after a restart, when it differs from the first start's. */
  readyAgain?: () => Promise<boolean>;
  readyTimeoutMs: number;
  /** Words for the state the check waits for, for errors ("healthy", "ready"). */
  readyWhat: string;
  /**
   * Whether the running component still answers (a cheap request; reject or false: no). Without
   * it, only a stopped process (SIGSTOP) is noticed. The signal aborts a check that takes longer
   * than the liveness interval.
   */
  alive?: (signal: AbortSignal) => Promise<boolean>;
}

export class StartError extends Error {
  override name = 'StartError';
}

export const MAX_EVENTS = 200;

interface Component {
  spec: ComponentSpec;
  child?: ChildProcess;
  exited?: Promise<void>;
  state: ComponentState;
  since: string;
  restarts: number;
  attempt: number;
  /** True once it was ready after its first start: only then does it get restarted. */
  supervised: boolean;
  stableTimer?: NodeJS.Timeout;
  restartTimer?: NodeJS.Timeout;
  livenessTimer?: NodeJS.Timeout;
  /** Liveness checks failed in a row. */
  missed: number;
  lastExit?: ComponentStatus['lastExit'];
  /** Bumped whenever a process is replaced on purpose, so stale exit handlers do nothing. */
  generation: number;
}

/** The last `lines` lines of a file, indented, for error messages. */
export function tailOf(file: string, lines = 12): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).map((l) => `    ${l}`).join('\n');
  } catch {
    return '    (no log)';
  }
}

export function explainExit(name: string, logText: string): string {
  if (/address already in use/i.test(logText)) return `${name}: a port it needs is already in use`;
  if (/unsupported|cannot downgrade|incompatible|version/i.test(logText) && name === 'etcd') return `${name}: its data folder may come from another etcd version; start with --fresh to wipe it`;
  return `${name} exited during start`;
}

// The watchdog reads lines of pids; the last line is the set to end. EOF without a line, or an
// empty last line, means nothing to do. It ignores the signals a terminal or a process-group kill
// sends, so that it is still there when its parent is gone.
const WATCHDOG = `trap '' INT TERM HUP QUIT
pids=
while IFS= read -r line; do pids="$line"; done
[ -n "$pids" ] || exit 0
kill -TERM $pids 2>/dev/null
i=0
while [ $i -lt 100 ]; do
  alive=
  for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
  [ -z "$alive" ] && exit 0
  sleep 0.1
  i=$((i+1))
done
kill -KILL $pids 2>/dev/null
exit 0`;

/** The state letter of a process in /proc/PID/stat (R, S, D, T stopped, Z…); undefined off Linux or when gone. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) S …": comm may hold spaces and parentheses; the state follows the last ")".
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) || undefined;
  } catch {
    return undefined;
  }
}


export class Supervisor {
  private readonly components = new Map<ComponentName, Component>();
  private readonly events: SupervisorEvent[] = [];
  private readonly listeners = new Set<(e: SupervisorEvent) => void>();
  private seq = 0;
  private stopping = false;
  private readonly watchdog: ChildProcess;
  private readonly backoffMs: number[];
  private readonly maxRestarts: number;
  private readonly stableMs: number;
  private readonly livenessIntervalMs: number;
  private readonly livenessFailures: number;
  private readonly onExitSync = () => {
    // Our own orderly exit (process.exit without stop()): end the children now, not in 10 s.
    for (const c of this.components.values()) if (c.child?.pid && c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGTERM');
  };

  constructor(
    private readonly logDir: string,
    private readonly log: (line: string) => void,
    opts: SupervisionOptions = {},
    /** Called with the live child pids whenever they change (the state folder's lock). */
    private readonly onPids: (pids: number[]) => void = () => undefined,
  ) {
    this.backoffMs = opts.backoffMs?.length ? opts.backoffMs : [1_000, 2_000, 4_000, 8_000, 16_000];
    this.maxRestarts = opts.maxRestarts ?? 5;
    this.stableMs = opts.stableMs ?? 60_000;
    this.livenessIntervalMs = opts.livenessIntervalMs ?? 5_000;
    this.livenessFailures = opts.livenessFailures ?? 2;
    this.watchdog = spawn('/bin/sh', ['-c', WATCHDOG], { stdio: ['pipe', 'ignore', 'ignore'], detached: true });
    this.watchdog.on('error', (e) => this.log(`control plane watchdog: ${e.message}`));
    this.watchdog.stdin!.on('error', () => undefined);
    // Neither the watchdog nor its pipe keeps our event loop alive.
    this.watchdog.unref();
    (this.watchdog.stdin as unknown as { unref?: () => void }).unref?.();
    process.once('exit', this.onExitSync);
  }

  /** Process id of the watchdog (tests check it ends too). */
  get watchdogPid(): number | undefined {
    return this.watchdog.pid;
  }

  logFile(name: ComponentName): string {
    return join(this.logDir, `${name}.log`);
  }

  /**
   * Starts a component and waits until it is ready; from then on it is supervised. A process that
   * exits or never gets ready during this first start is a {@link StartError} (no restart: a
   * broken setup should say so at once).
   */
  async start(spec: ComponentSpec): Promise<void> {
    const c: Component = { spec, state: 'starting', since: new Date().toISOString(), restarts: 0, attempt: 0, supervised: false, generation: 0, missed: 0 };
    this.components.set(spec.name, c);
    this.spawn(c);
    await this.waitReady(c, true);
    this.setState(c, 'running');
    c.supervised = true;
    this.armStable(c);
  }

  /**
   * Stops and starts a component on purpose (same arguments, so the same ports); waits until ready.
   * `downMs` keeps it stopped that long first: an outage of known length (fault tests).
   */
  async restart(name: ComponentName, opts: { downMs?: number } = {}): Promise<void> {
    const c = this.components.get(name);
    if (!c) throw new Error(`no component ${name}`);
    clearTimeout(c.restartTimer);
    clearTimeout(c.stableTimer);
    clearTimeout(c.livenessTimer);
    c.generation++;
    this.emit(c, 'requested', `${name}: restart requested`);
    await this.stopChild(c);
    this.setState(c, 'restarting');
    if (opts.downMs) await sleep(opts.downMs);
    this.spawn(c);
    await this.waitReady(c, true);
    this.setState(c, 'running');
    this.emit(c, 'ready', `${name} is ready again (pid ${c.child?.pid})`);
    this.armStable(c);
  }

  /** Sends a signal to a component's current process (tests: SIGSTOP, SIGCONT, SIGKILL). */
  signal(name: ComponentName, signal: NodeJS.Signals): number | undefined {
    const child = this.components.get(name)?.child;
    child?.kill(signal);
    return child?.pid;
  }

  status(): SupervisorStatus {
    return {
      components: [...this.components.values()].map((c) => ({
        name: c.spec.name,
        state: c.state,
        ...(c.child?.pid && c.state !== 'stopped' && c.state !== 'failed' ? { pid: c.child.pid } : {}),
        restarts: c.restarts,
        since: c.since,
        log: this.logFile(c.spec.name),
        ...(c.lastExit ? { lastExit: c.lastExit } : {}),
      })),
      events: [...this.events],
    };
  }

  /** Calls `fn` for every new event; returns the unsubscribe function. */
  onEvent(fn: (e: SupervisorEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Stops every component, last started first, then releases the watchdog. */
  async stopAll(): Promise<void> {
    this.stopping = true;
    for (const c of [...this.components.values()].reverse()) {
      clearTimeout(c.restartTimer);
      clearTimeout(c.stableTimer);
      clearTimeout(c.livenessTimer);
      await this.stopChild(c);
      if (c.state !== 'failed') this.setState(c, 'stopped');
    }
    this.writePids(true);
    process.off('exit', this.onExitSync);
  }

  private spawn(c: Component): void {
    const log = this.logFile(c.spec.name);
    const fd = openSync(log, 'a');
    // detached: its own process group, so a signal to our group (Ctrl-C) reaches us alone and we
    // stop the components in order; the watchdog covers the case where we cannot.
    const child = spawn(c.spec.bin, c.spec.args, { stdio: ['ignore', fd, fd], detached: true });
    closeSync(fd);
    const generation = c.generation;
    c.child = child;
    c.exited = new Promise<void>((res) => {
      child.once('exit', (code, signal) => {
        res();
        this.writePids();
        if (generation === c.generation) this.onExit(c, child, code, signal);
      });
      child.once('error', (e) => {
        res();
        this.log(`${c.spec.name}: could not start ${c.spec.bin}: ${e.message}`);
      });
    });
    this.writePids();
  }

  private livePids(): number[] {
    return [...this.components.values()].flatMap((c) => (c.child?.pid && c.child.exitCode === null && c.child.signalCode === null ? [c.child.pid] : []));
  }

  private released = false;

  private writePids(final = false): void {
    if (this.released) return;
    if (final) this.released = true;
    const pids = final ? [] : this.livePids();
    this.onPids(pids);
    const stdin = this.watchdog.stdin;
    if (stdin && !stdin.destroyed) {
      stdin.write(`${pids.join(' ')}\n`);
      if (final) stdin.end();
    }
  }

  private onExit(c: Component, child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping || !c.supervised || c.state === 'stopped') return;
    c.lastExit = { at: new Date().toISOString(), code, signal };
    clearTimeout(c.stableTimer);
    clearTimeout(c.livenessTimer);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    const logTail = tailOf(this.logFile(c.spec.name), 15);
    c.attempt++;
    if (c.attempt > this.maxRestarts) {
      this.setState(c, 'failed');
      const message = `${c.spec.name} (pid ${child.pid}) exited with ${how} and has failed ${c.attempt} times in a row; not restarting it again. Last lines of ${this.logFile(c.spec.name)}:\n${logTail}`;
      this.emit(c, 'failed', message, { pid: child.pid, code, signal, attempt: c.attempt, logTail });
      return;
    }
    c.restarts++;
    const delay = this.backoffMs[Math.min(c.attempt - 1, this.backoffMs.length - 1)]!;
    this.setState(c, 'restarting');
    this.emit(c, 'exited', `${c.spec.name} (pid ${child.pid}) exited with ${how}; restarting in ${(delay / 1000).toFixed(1)} s (attempt ${c.attempt} of ${this.maxRestarts})`, { pid: child.pid, code, signal, attempt: c.attempt, logTail });
    c.restartTimer = setTimeout(() => void this.restartAfterExit(c), delay);
  }

  private async restartAfterExit(c: Component): Promise<void> {
    if (this.stopping) return;
    this.spawn(c);
    this.emit(c, 'restarting', `${c.spec.name}: started again (pid ${c.child?.pid}, attempt ${c.attempt})`, { pid: c.child?.pid, attempt: c.attempt });
    const generation = c.generation;
    try {
      await this.waitReady(c, false);
    } catch {
      // Exited while starting (its exit handler schedules the next attempt), or never got ready:
      // end it, and the exit handler takes over.
      if (generation === c.generation && !this.stopping && c.child && c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
      return;
    }
    if (this.stopping || generation !== c.generation) return;
    this.setState(c, 'running');
    this.emit(c, 'ready', `${c.spec.name} is ready again (pid ${c.child?.pid})`, { pid: c.child?.pid, attempt: c.attempt });
    this.armStable(c);
  }

  private armStable(c: Component): void {
    clearTimeout(c.stableTimer);
    c.stableTimer = setTimeout(() => {
      c.attempt = 0;
    }, this.stableMs);
    c.stableTimer.unref();
    this.armLiveness(c);
  }

  /**
   * A process can be there and not serve: stopped (SIGSTOP, a debugger), or hung. Its exit is
   * never seen then, so a running component is checked every interval: a process in the stopped
   * state (/proc/PID/stat) at once, else its `alive` check, which must fail `livenessFailures`
   * times in a row. It is reported (state and event), not restarted: a freeze may be on purpose
   * (the fault tests stop kube-apiserver), and a restart would hide it.
   */
  private armLiveness(c: Component): void {
    clearTimeout(c.livenessTimer);
    c.missed = 0;
    const child = c.child;
    const generation = c.generation;
    const tick = async () => {
      if (this.stopping || generation !== c.generation || c.child !== child || !child?.pid) return;
      if (c.state !== 'running' && c.state !== 'unresponsive') return;
      const stopped = processState(child.pid) === 'T';
      let answers = !stopped;
      if (answers && c.spec.alive) {
        const ac = new AbortController();
        const t = setTimeout(() => ac.abort(), this.livenessIntervalMs);
        answers = await c.spec.alive(ac.signal).catch(() => false);
        clearTimeout(t);
      }
      if (this.stopping || generation !== c.generation || c.child !== child) return;
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (answers) {
        c.missed = 0;
        if (c.state === 'unresponsive') {
          this.setState(c, 'running');
          this.emit(c, 'answering', `${c.spec.name} (pid ${child.pid}) answers again`, { pid: child.pid });
        }
      } else if (c.state === 'running' && (stopped || ++c.missed >= this.livenessFailures)) {
        this.setState(c, 'unresponsive');
        const why = stopped
          ? 'is stopped (SIGSTOP or a debugger): its process is there but does not run until it gets SIGCONT'
          : `does not answer its health check (${c.missed} checks ${this.livenessIntervalMs / 1000} s apart)`;
        this.emit(c, 'unresponsive', `${c.spec.name} (pid ${child.pid}) ${why}`, { pid: child.pid });
      }
      c.livenessTimer = setTimeout(() => void tick(), this.livenessIntervalMs);
      c.livenessTimer.unref();
    };
    c.livenessTimer = setTimeout(() => void tick(), this.livenessIntervalMs);
    c.livenessTimer.unref();
  }

  /** Polls the readiness check; fails when the process exits or the time runs out. */
  private async waitReady(c: Component, first: boolean): Promise<void> {
    const child = c.child!;
    const deadline = Date.now() + c.spec.readyTimeoutMs;
    const log = this.logFile(c.spec.name);
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null || this.stopping) {
        const text = tailOf(log, 15);
        throw new StartError(`${first ? explainExit(c.spec.name, text) : `${c.spec.name} exited while restarting`} (log: ${log}):\n${text}`);
      }
      const check = first || !c.spec.readyAgain ? c.spec.ready : c.spec.readyAgain;
      if ((await check().catch(() => false)) && child.exitCode === null && child.signalCode === null) return;
      await sleep(200);
    }
    throw new StartError(`${c.spec.name} did not become ${c.spec.readyWhat} within ${c.spec.readyTimeoutMs / 1000} s (log: ${log}):\n${tailOf(log)}`);
  }

  private async stopChild(c: Component, graceMs = 10_000): Promise<void> {
    const child = c.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    c.generation++;
    // A stopped (SIGSTOP) process only acts on SIGTERM once continued.
    child.kill('SIGCONT');
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await c.exited;
    clearTimeout(timer);
  }

  private setState(c: Component, state: ComponentState): void {
    if (c.state === state) return;
    c.state = state;
    c.since = new Date().toISOString();
  }

  private emit(c: Component, type: SupervisorEvent['type'], message: string, extra: Partial<SupervisorEvent> = {}): void {
    const e: SupervisorEvent = { seq: ++this.seq, at: new Date().toISOString(), component: c.spec.name, type, message, ...extra };
    this.events.push(e);
    if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
    this.log(`control plane: ${message}`);
    for (const fn of this.listeners) {
      try {
        fn(e);
      } catch {
        /* a listener's failure is not ours */
      }
    }
  }
}

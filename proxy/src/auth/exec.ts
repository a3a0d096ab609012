// Exec credential plugins (kubeconfig `users[].user.exec`: aws, gke-gcloud-auth-plugin, kubelogin…),
// run as client-go runs them (k8s.io/client-go/plugin/pkg/client/auth/exec), not as client-node
// does: client-node starts a new process for every request that finds no cached credential, so
// with a plugin that waits for a browser login each request started another one, and none ever
// answered. Here:
// - one credential per user, and per cluster when the user's exec stanza sets provideClusterInfo:
//   client-go keys its authenticator cache by the exec config and the spec.cluster it hands the
//   plugin (cacheKey in plugin/pkg/client/auth/exec/exec.go; the cluster is nil without
//   provideClusterInfo), so a plugin that mints a credential for the cluster it is told about
//   runs once per cluster, and its credential is never sent to another cluster;
// - one run at a time per user (and cluster): requests that need the credential while it runs wait for it;
// - the credential is kept until its `expirationTimestamp` (without one, until a 401);
// - a run that takes longer than the timeout is killed, and the waiting requests get a clear error;
// - a 401 answered to a request made with the credential drops it: the next request runs the
//   plugin again (once per credential, so a rejected fresh credential does not loop);
// - the run can be cancelled from the page, whose indicator shows the command and its stderr
//   (where kubelogin prints the URL to open);
// - KUBERNETES_EXEC_INFO carries `spec.interactive` (interactiveMode against whether the server has
//   a terminal) and, with provideClusterInfo, `spec.cluster`.
// A failed run is remembered for a short, growing while (5 s, doubling to 60 s): a page polling
// every few seconds must not start the plugin again and again.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Cluster } from '@kubernetes/client-node';
import type { CredentialRun } from '../../../protocol/status';
import { maskCredentialText } from '../../../protocol/credentialText';

/** The kubeconfig's `exec` stanza, as written (client-node keeps it as is). */
export interface ExecConfig {
  apiVersion?: string;
  command?: string;
  args?: string[];
  env?: { name: string; value: string }[] | null;
  installHint?: string;
  provideClusterInfo?: boolean;
  interactiveMode?: 'Never' | 'IfAvailable' | 'Always';
}

/** What a credential adds to a request: a bearer token, or a client certificate and key (PEM). */
export interface ExecCredentialStatus {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  /** Epoch ms; undefined: valid until the server refuses it. */
  expiresAt?: number;
}

export interface ExecOptions {
  /** A run that takes longer is killed. Default 180 s (a browser login takes a while). */
  timeoutMs?: number;
  /**
   * How long a request waits for a run under way before it is answered "still waiting"
   * (ExecCredentialPending). Default 5 s; Infinity: for the whole run, as client-go does.
   */
  waitMs?: number;
  /** Whether the explorer server has a terminal the plugin could ask on (default: stdin is a TTY). */
  interactive?: boolean;
  log?: (line: string) => void;
}

const DEFAULT_TIMEOUT_MS = 180_000;
const DEFAULT_WAIT_MS = 5_000;
const FIRST_BACKOFF_MS = 5_000;
const MAX_BACKOFF_MS = 60_000;
/** stderr kept per run: enough for a login URL and a few lines around it. */
const STDERR_KEEP = 4096;
/** A credential from a re-run after a 401 is not dropped again by a 401 within this time. */
const RERUN_AFTER_401_MS = 60_000;

export class ExecCredentialError extends Error {
  override name = 'ExecCredentialError';
}

/** The plugin still runs (a login under way): the request should be tried again shortly. */
export class ExecCredentialPending extends ExecCredentialError {
  override name = 'ExecCredentialPending';
}

const hhmmss = (ms: number) => new Date(ms).toISOString().slice(11, 19);

interface Entry {
  user: string;
  /** The cluster the credential was minted for (provideClusterInfo), else undefined: any cluster of the user. */
  cluster?: string;
  /** Contexts that use this user, for the page. */
  contexts: Set<string>;
  display: string;
  credential?: ExecCredentialStatus;
  /** When the credential was obtained, and whether by a run that followed a 401. */
  credentialFrom?: { at: number; after401: boolean };
  /** A 401 dropped the credential: the next run is a re-run. */
  rerunFor401: boolean;
  run?: { promise: Promise<ExecCredentialStatus>; child?: ChildProcess; startedAt: number; stderr: string; cancel: (why: string) => void };
  /** retryAt undefined: not before the page asks (a run cancelled from the page). */
  failure?: { at: number; message: string; retryAt?: number };
  backoffMs: number;
  /** stderr of the last run, kept for the page after it ended. */
  lastStderr: string;
}

/** The command line as the page shows it: command and arguments, quoted where needed. */
export function displayCommand(exec: ExecConfig): string {
  const q = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`);
  return [exec.command ?? '', ...(exec.args ?? [])].map(q).join(' ');
}

/** spec.cluster of KUBERNETES_EXEC_INFO (client.authentication.k8s.io Cluster), from the kubeconfig's cluster. */
export function clusterInfo(cluster: Cluster, caPem: string | undefined, extension: unknown): Record<string, unknown> {
  return {
    server: cluster.server,
    ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
    ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
    ...(caPem ? { 'certificate-authority-data': Buffer.from(caPem).toString('base64') } : {}),
    ...(cluster.proxyUrl ? { 'proxy-url': cluster.proxyUrl } : {}),
    ...(extension !== undefined ? { config: extension } : {}),
  };
}

/**
 * Reads the plugin's stdout as client-go does: an ExecCredential of the configured apiVersion with
 * a status holding a token, or a certificate and key (both). Throws ExecCredentialError, whose
 * message never quotes the output: a plugin that prints a bare token (or a credential in a shape
 * we do not read) would otherwise see it in every 502, in /proxy/status, the log and recordings.
 * kubectl's errors quote none of it either.
 */
/** A kind or apiVersion short and plain enough to name in a message (a token is neither). */
const KNOWN_WORD = /^(?:[a-z0-9.-]{1,63}\/)?[A-Za-z0-9]{1,40}$/;

export function parseExecCredential(stdout: string, apiVersion: string): ExecCredentialStatus {
  let doc: { apiVersion?: unknown; kind?: unknown; status?: Record<string, unknown> };
  try {
    doc = JSON.parse(stdout) as typeof doc;
  } catch {
    throw new ExecCredentialError(`its output (${Buffer.byteLength(stdout)} bytes, not shown: it may be a credential) is not JSON`);
  }
  if (doc?.kind !== 'ExecCredential') throw new ExecCredentialError(`its output is not an ExecCredential${typeof doc?.kind === 'string' && KNOWN_WORD.test(doc.kind) ? ` (kind ${doc.kind})` : ''}`);
  if (doc.apiVersion !== apiVersion) throw new ExecCredentialError(`it answered ${typeof doc.apiVersion === 'string' && KNOWN_WORD.test(doc.apiVersion) ? `apiVersion ${doc.apiVersion}` : 'another apiVersion'}, the kubeconfig asks for ${apiVersion}`);
  const s = doc.status;
  if (!s || typeof s !== 'object') throw new ExecCredentialError('its ExecCredential has no status');
  const str = (k: string) => (typeof s[k] === 'string' && s[k] !== '' ? (s[k] as string) : undefined);
  const token = str('token');
  const cert = str('clientCertificateData');
  const key = str('clientKeyData');
  if (!!cert !== !!key) throw new ExecCredentialError('its ExecCredential has only one of clientCertificateData and clientKeyData');
  if (!token && !cert) throw new ExecCredentialError('its ExecCredential has neither a token nor a client certificate');
  const exp = str('expirationTimestamp');
  const expiresAt = exp === undefined ? undefined : Date.parse(exp);
  if (expiresAt !== undefined && Number.isNaN(expiresAt)) throw new ExecCredentialError('its expirationTimestamp is not a time');
  return { ...(token ? { token } : {}), ...(cert ? { clientCertificateData: cert, clientKeyData: key } : {}), ...(expiresAt !== undefined ? { expiresAt } : {}) };
}

/** Whether the plugin may talk to a user: client-go's rule (interactiveMode against a terminal). */
export function interactiveFor(exec: ExecConfig, hasTerminal: boolean): { interactive: boolean; refusal?: string } {
  const v1 = exec.apiVersion === 'client.authentication.k8s.io/v1';
  const mode = exec.interactiveMode ?? (v1 ? undefined : 'IfAvailable');
  if (mode === undefined) return { interactive: false, refusal: 'the kubeconfig sets no interactiveMode, which client.authentication.k8s.io/v1 requires' };
  if (mode === 'Never') return { interactive: false };
  if (mode === 'Always' && !hasTerminal) {
    return { interactive: false, refusal: 'it needs a terminal (interactiveMode: Always), and the explorer server has none: run a kubectl command with this context in a terminal first, or start the explorer from a terminal' };
  }
  return { interactive: hasTerminal };
}

export class ExecCredentials {
  private readonly entries = new Map<string, Entry>();
  private readonly timeoutMs: number;
  private readonly waitMs: number | undefined;
  private readonly hasTerminal: boolean;
  private readonly log: (line: string) => void;

  constructor(opts: ExecOptions = {}) {
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const wait = opts.waitMs ?? DEFAULT_WAIT_MS;
    this.waitMs = Number.isFinite(wait) ? wait : undefined;
    this.hasTerminal = opts.interactive ?? !!process.stdin.isTTY;
    this.log = opts.log ?? (() => undefined);
  }

  private entry(user: string, exec: ExecConfig, context: string, clusterName: string): Entry {
    // Within one (merged) kubeconfig a user name names one exec stanza and a cluster name one
    // cluster, so these names stand for client-go's key (exec config, and spec.cluster when provided).
    const cluster = exec.provideClusterInfo ? clusterName : undefined;
    const key = JSON.stringify([user, cluster ?? null]);
    let e = this.entries.get(key);
    if (!e) {
      e = { user, ...(cluster !== undefined ? { cluster } : {}), contexts: new Set(), display: displayCommand(exec), rerunFor401: false, backoffMs: FIRST_BACKOFF_MS, lastStderr: '' };
      this.entries.set(key, e);
    }
    e.contexts.add(context);
    return e;
  }

  /**
   * The credential of `user` for `cluster.name`, from the cache, the run under way, or a new run.
   * `cluster.info` is spec.cluster, asked for only when the plugin gets it. Throws ExecCredentialError.
   */
  async get(user: string, exec: ExecConfig, context: string, cluster: { name: string; info: () => Record<string, unknown> }): Promise<ExecCredentialStatus> {
    const e = this.entry(user, exec, context, cluster.name);
    const c = e.credential;
    // Used until its expirationTimestamp, as client-go does (a request that meets the expiry gets
    // a 401, which runs the plugin again).
    if (c && (c.expiresAt === undefined || c.expiresAt > Date.now())) return c;
    e.credential = undefined;
    if (e.failure && !e.run && (e.failure.retryAt === undefined || e.failure.retryAt > Date.now())) {
      const next = e.failure.retryAt === undefined ? 'it runs again when asked from the page (Try again now)' : `the next try is not before ${hhmmss(e.failure.retryAt)} UTC`;
      throw new ExecCredentialError(`${e.failure.message} (at ${hhmmss(e.failure.at)} UTC; ${next})`);
    }
    const run = e.run ?? this.start(e, exec, cluster.info);
    return this.waitFor(e, run);
  }

  /**
   * The run's credential, or ExecCredentialPending after waitMs: a browser has six connections per
   * server, and requests held for the whole of a login would leave none for the page's status
   * poll (which shows the login URL) or anything else. The run goes on; a later request gets its
   * credential.
   */
  private waitFor(e: Entry, run: NonNullable<Entry['run']>): Promise<ExecCredentialStatus> {
    if (this.waitMs === undefined) return run.promise;
    let timer: NodeJS.Timeout | undefined;
    const pending = new Promise<never>((_, fail) => {
      timer = setTimeout(() => {
        const wrote = run.stderr.trim() ? `; it wrote: ${lastLine(run.stderr)}` : '';
        fail(new ExecCredentialPending(`waiting for the exec plugin \`${e.display}\` (running since ${hhmmss(run.startedAt)} UTC${wrote})`));
      }, this.waitMs);
    });
    return Promise.race([run.promise, pending]).finally(() => clearTimeout(timer));
  }

  /**
   * A 401 to a request made with `credential`: drop it, so the next request runs the plugin again.
   * Once: a credential from such a re-run that is refused within a minute is kept (a plugin that
   * hands out a rejected credential would otherwise run on every request); client-go too re-runs
   * only for the credential that was refused.
   */
  unauthorized(credential: ExecCredentialStatus): void {
    const e = [...this.entries.values()].find((x) => x.credential === credential);
    if (!e) return;
    const user = e.user;
    if (e.credentialFrom?.after401 && Date.now() - e.credentialFrom.at < RERUN_AFTER_401_MS) return;
    this.log(`exec plugin of user "${user}": the API server answered 401 to its credential; running it again on the next request`);
    e.credential = undefined;
    e.rerunFor401 = true;
  }

  /** Stops the run of the user of `context` (the page's Cancel); its waiting requests fail. False when none ran. */
  cancel(context: string): boolean {
    for (const e of this.entries.values()) {
      if (e.contexts.has(context) && e.run) {
        e.run.cancel('cancelled from the page');
        return true;
      }
    }
    return false;
  }

  /** Forgets the failure of the user of `context`: the next request runs the plugin at once (the page's Retry). */
  retry(context: string): void {
    for (const e of this.entries.values()) {
      if (e.contexts.has(context)) {
        e.failure = undefined;
        e.backoffMs = FIRST_BACKOFF_MS;
      }
    }
  }

  /** What the page shows: runs under way, failures, and credentials held (never their content). */
  snapshot(): CredentialRun[] {
    const iso = (ms: number) => new Date(ms).toISOString();
    return [...this.entries.values()].map((e) => ({
      user: e.user,
      ...(e.cluster !== undefined ? { cluster: e.cluster } : {}),
      contexts: [...e.contexts],
      command: e.display,
      state: e.run ? 'running' : e.credential ? 'ready' : e.failure ? 'failed' : 'idle',
      ...(e.run ? { startedAt: iso(e.run.startedAt), timeoutAt: iso(e.run.startedAt + this.timeoutMs) } : {}),
      stderr: maskCredentialText(e.run ? e.run.stderr : e.lastStderr),
      ...(e.failure && !e.run ? { failure: { at: iso(e.failure.at), message: e.failure.message, ...(e.failure.retryAt !== undefined ? { retryAt: iso(e.failure.retryAt) } : {}) } } : {}),
      ...(e.credential?.expiresAt !== undefined ? { expiresAt: iso(e.credential.expiresAt) } : {}),
    }));
  }

  /** Kills runs under way (the server closes). */
  destroy(): void {
    for (const e of this.entries.values()) e.run?.cancel('the explorer server is shutting down');
  }

  private start(e: Entry, exec: ExecConfig, cluster: () => Record<string, unknown>): NonNullable<Entry['run']> {
    const apiVersion = exec.apiVersion ?? '';
    const after401 = e.rerunFor401;
    e.rerunFor401 = false;
    let settle: { ok: (c: ExecCredentialStatus) => void; fail: (err: Error) => void } | undefined;
    const promise = new Promise<ExecCredentialStatus>((ok, fail) => (settle = { ok, fail }));
    // The promise may have no listener yet when it fails (every waiting request gone): not an unhandled rejection.
    promise.catch(() => undefined);
    const run: NonNullable<Entry['run']> = { promise, startedAt: Date.now(), stderr: '', cancel: () => undefined };
    e.run = run;
    const fail = (message: string, untilAsked = false) => {
      if (e.run !== run) return;
      e.run = undefined;
      e.lastStderr = run.stderr;
      const now = Date.now();
      e.failure = { at: now, message, ...(untilAsked ? {} : { retryAt: now + e.backoffMs }) };
      e.backoffMs = Math.min(e.backoffMs * 2, MAX_BACKOFF_MS);
      this.log(`exec plugin of user "${e.user}" (${e.display}): ${message}`);
      settle!.fail(new ExecCredentialError(message));
    };
    const succeed = (c: ExecCredentialStatus) => {
      if (e.run !== run) return;
      e.run = undefined;
      e.lastStderr = run.stderr;
      e.failure = undefined;
      e.backoffMs = FIRST_BACKOFF_MS;
      e.credential = c;
      e.credentialFrom = { at: Date.now(), after401 };
      settle!.ok(c);
    };
    const who = `the exec plugin \`${e.display}\``;
    if (!exec.command) {
      fail(`${who}: the kubeconfig's exec stanza has no command`);
      return run;
    }
    if (!apiVersion.startsWith('client.authentication.k8s.io/')) {
      fail(`${who}: exec apiVersion ${JSON.stringify(apiVersion)} is not client.authentication.k8s.io/v1 or v1beta1`);
      return run;
    }
    const { interactive, refusal } = interactiveFor(exec, this.hasTerminal);
    if (refusal) {
      fail(`${who} was not run: ${refusal}`);
      return run;
    }
    let info: string;
    try {
      info = JSON.stringify({ apiVersion, kind: 'ExecCredential', spec: { interactive, ...(exec.provideClusterInfo ? { cluster: cluster() } : {}) } });
    } catch (err) {
      fail(`${who} was not run: ${(err as Error).message}`);
      return run;
    }
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const v of exec.env ?? []) if (v && typeof v.name === 'string') env[v.name] = String(v.value ?? '');
    env.KUBERNETES_EXEC_INFO = info;
    let child: ChildProcess;
    try {
      // A process group of its own (detached), so a timeout or cancel ends the plugin and whatever it started.
      child = spawn(exec.command, exec.args ?? [], { env, stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'pipe'], detached: true });
    } catch (err) {
      fail(`${who} could not be started: ${(err as Error).message}`);
      return run;
    }
    run.child = child;
    const kill = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      kill();
      fail(`${who} did not finish within ${Math.round(this.timeoutMs / 1000)} s and was stopped${run.stderr ? '; it wrote: ' + lastLine(run.stderr) : ''}`);
    }, this.timeoutMs);
    // Cancelled: not run again by the page's next request (it would start the login over), only on Try again.
    run.cancel = (why) => {
      clearTimeout(timer);
      kill();
      fail(`${who} was stopped: ${why}`, true);
    };
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => {
      run.stderr = (run.stderr + d).slice(-STDERR_KEEP);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const hint = err.code === 'ENOENT' && exec.installHint ? `\n${exec.installHint}` : '';
      fail(`${who} could not be started: ${err.code === 'ENOENT' ? `${exec.command} was not found` : err.message}${hint}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) return fail(`${who} failed (${signal ?? `exit code ${code}`})${run.stderr ? ': ' + lastLine(run.stderr) : ''}`);
      try {
        succeed(parseExecCredential(stdout, apiVersion));
      } catch (err) {
        fail(`${who} answered no usable credential: ${(err as Error).message}`);
      }
    });
    return run;
  }
}

/**
 * The plugin's last stderr line, as quoted in a failure (the log, a 502, /proxy/status). Its
 * stderr is shown (a login prompt or the reason it failed is there), but never a credential-shaped
 * part of it: a plugin's debug output may print the token it got, and these texts travel further
 * than kubectl's terminal (a recording keeps the 502).
 */
function lastLine(text: string): string {
  const lines = maskCredentialText(text.trim()).split('\n');
  return lines[lines.length - 1]!.slice(0, 300);
}

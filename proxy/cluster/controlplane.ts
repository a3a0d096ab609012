import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { aggregatorFlags, startAggregated, WARDLE_GROUP } from './aggregated';
import { answers, type Credentials, kubeRequest } from './http';

// Re-exported: tests and tools reach the bootstrap client through the control plane's module.
export { type Credentials, type HttpResult, kubeRequest } from './http';
import { type Binaries, ensureBinaries, ensureSampleApiserver } from './build';
import { type AggregationPki, ensureAggregationPki, ensurePki, pem, type Pki, USERS, type UserName } from './pki';
import { auditFlags, writeAuditPolicy } from './audit';
import { authenticationConfigPath, type JwtIssuer, writeAuthenticationConfig } from './authnConfig';
import { StartError, type SupervisionOptions, Supervisor, type SupervisorEvent, type SupervisorStatus } from './supervisor';
import { CONTROL_PLANE_BINARIES, type Release, releaseFor } from './versions';

export interface StartOptions {
  /** State folder: PKI, etcd data, logs, kubeconfig. `.cluster/` for `npm run cluster`, a temp folder in tests. */
  dir: string;
  /** Wipe etcd data first. */
  fresh?: boolean;
  /** Run kube-controller-manager too (default true): namespace deletion, GC, Deployments, service accounts. */
  controllerManager?: boolean;
  log?: (line: string) => void;
  binaries?: Binaries;
  /** Which Kubernetes release (versions.ts: `v1.33`, `v1.33.13`, …); the default release when absent. */
  kubernetesVersion?: string;
  /** Restart policy of the supervisor (backoff, attempts); tests shorten it. */
  supervision?: SupervisionOptions;
  /**
   * How long kube-apiserver may take to become ready (default 120 s). With 150,000 Pods and 300
   * CRDs in etcd (the scale bench) it fills its watch caches first: minutes on a busy machine.
   */
  apiServerReadyTimeoutMs?: number;
  /**
   * Serve the aggregated API server (k8s.io/sample-apiserver, group wardle.example.com) beside
   * kube-apiserver (default true; built on first use). Releases without one (versions.ts) skip it.
   */
  aggregatedApi?: boolean;
  /**
   * kube-apiserver's `--runtime-config` (`group/version=true|false,…`): serve a version that is off
   * by default (a beta one, to meet its deprecation warning) or stop serving one (to try clients
   * against a cluster without it). Absent: the release's defaults.
   */
  runtimeConfig?: string;
  /** OpenID providers kube-apiserver trusts from the start (authnConfig.ts); none when absent. */
  jwtIssuers?: JwtIssuer[];
}


/** A running local control plane; what tests and the proxy get from {@link startControlPlane}. */
export interface ControlPlane {
  dir: string;
  /** The audit log kube-apiserver writes (audit.ts: the policy, the bound on disk); the explorer server follows it. */
  auditLog: string;
  /** Path of the kubeconfig with one context per user; `local-admin` is current. */
  kubeconfig: string;
  /** https://127.0.0.1:PORT */
  server: string;
  etcdUrl: string;
  kubernetesVersion: string;
  etcdVersion: string;
  binaries: Binaries;
  contexts: { admin: string; viewer: string };
  /** The aggregated API server when it runs: its API group and its own address. */
  aggregated?: { group: string; server: string };
  /** PEM credentials of a user, for tests that call the API server directly. */
  credentials(user: 'admin' | 'viewer'): Credentials;
  /**
   * Compacts etcd up to its current revision, so that older resourceVersions and continue tokens
   * become "too old" (410 Gone). Returns the revision compacted at, as etcd reports it.
   */
  compact(): Promise<string>;
  /**
   * Stops and starts kube-apiserver on the same port: open watches drop, data stays. `downMs`
   * keeps it stopped that long (connections refused) before it starts again.
   */
  restartApiServer(opts?: { downMs?: number }): Promise<void>;
  /** Components, restarts and recent events of the supervisor (see supervisor.ts). */
  status(): SupervisorStatus;
  /** Calls `fn` on every supervisor event (a component exited, restarted, ready, given up). */
  onEvent(fn: (e: SupervisorEvent) => void): () => void;
  /**
   * Rewrites the structured authentication configuration with these JWT issuers; kube-apiserver
   * reloads it on its own (see authnConfig.ts), so callers wait until a token authenticates.
   */
  setJwtIssuers(issuers: JwtIssuer[]): void;
  /** Sends a signal to a component's process (fault tests: SIGSTOP/SIGCONT/SIGKILL); returns its pid. */
  signal(component: 'etcd' | 'kube-apiserver' | 'kube-controller-manager' | 'sample-apiserver', signal: NodeJS.Signals): number | undefined;
  stop(): Promise<void>;
}

export { StartError };

export const CONTEXTS = { admin: 'local-admin', viewer: 'local-viewer' } as const;
const CLUSTER_NAME = 'kube-api-explorer-local';
const dataStamp = (r: Release) => `etcd ${r.etcd} for kubernetes ${r.kubernetes}`;

interface State { apiserverPort?: number; aggregatedPort?: number }
interface Lock { pid: number; children: number[] }

export async function freePort(preferred?: number): Promise<number> {
  const tryPort = (p: number) =>
    new Promise<number>((ok, fail) => {
      const s = createServer();
      s.once('error', fail);
      s.listen(p, '127.0.0.1', () => {
        const addr = s.address();
        s.close(() => ok(typeof addr === 'object' && addr ? addr.port : p));
      });
    });
  if (preferred) {
    try {
      return await tryPort(preferred);
    } catch {
      /* taken: fall through to an ephemeral port */
    }
  }
  return tryPort(0);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/**
 * One control plane per state folder. A lock left by a process that died without cleaning up
 * (SIGKILL) is taken over: its children, if still running from our binaries, are stopped first so
 * that etcd's data-dir lock and the ports are free again.
 */
function takeLock(dir: string, binDir: string): string {
  const file = join(dir, 'lock.json');
  if (existsSync(file)) {
    let lock: Lock | null = null;
    try {
      lock = JSON.parse(readFileSync(file, 'utf8')) as Lock;
    } catch {
      /* unreadable lock: treat as stale */
    }
    if (lock && lock.pid !== process.pid && alive(lock.pid)) {
      throw new StartError(`a local control plane is already running from ${dir} (pid ${lock.pid}); stop it first (Ctrl-C in its terminal, or kill ${lock.pid})`);
    }
    for (const pid of lock?.children ?? []) {
      if (alive(pid) && cmdline(pid).startsWith(binDir)) process.kill(pid, 'SIGKILL');
    }
  }
  writeFileSync(file, JSON.stringify({ pid: process.pid, children: [] } satisfies Lock));
  return file;
}

async function etcdPost(etcdUrl: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  // etcd's gRPC gateway (JSON over HTTP on the client URL): no etcdctl needed.
  const res = await fetch(`${etcdUrl}${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`etcd ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Compacts etcd at its current revision (etcd's JSON gateway); returns that revision. */
export async function compactEtcd(etcdUrl: string): Promise<string> {
  const range = await etcdPost(etcdUrl, '/v3/kv/range', { key: b64('/registry/'), limit: 1 });
  const revision = String((range.header as { revision: string }).revision);
  // kube-apiserver learns of compactions by watching this key (apiserver storage/etcd3/compact.go:
  // its own compactor writes the compacted revision there). Writing it too makes the watch cache
  // and its list snapshots forget history up to `revision`, as after the server's own compaction;
  // without it, lists served from the cache would still succeed at the compacted revision.
  await etcdPost(etcdUrl, '/v3/kv/put', { key: b64('compact_rev_key'), value: b64(revision) });
  await etcdPost(etcdUrl, '/v3/kv/compaction', { revision, physical: true });
  return revision;
}

function b64(s: string): string {
  return Buffer.from(s).toString('base64');
}

function kubeconfigYaml(server: string, pki: Pki, current: string): string {
  const ca = b64(pem(pki.caCert));
  const user = (u: UserName) => `- name: ${USERS[u].cn}\n  user:\n    client-certificate-data: ${b64(pem(pki.users[u].cert))}\n    client-key-data: ${b64(pem(pki.users[u].key))}\n`;
  return `apiVersion: v1
kind: Config
clusters:
- name: ${CLUSTER_NAME}
  cluster:
    server: ${server}
    certificate-authority-data: ${ca}
users:
${user('admin')}${user('viewer')}contexts:
- name: ${CONTEXTS.admin}
  context:
    cluster: ${CLUSTER_NAME}
    user: ${USERS.admin.cn}
    namespace: default
- name: ${CONTEXTS.viewer}
  context:
    cluster: ${CLUSTER_NAME}
    user: ${USERS.viewer.cn}
    namespace: default
current-context: ${current}
`;
}

function controllerManagerKubeconfig(server: string, pki: Pki): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: local
  cluster:
    server: ${server}
    certificate-authority: ${pki.caCert}
users:
- name: kcm
  user:
    client-certificate: ${pki.users['controller-manager'].cert}
    client-key: ${pki.users['controller-manager'].key}
contexts:
- name: kcm
  context: {cluster: local, user: kcm}
current-context: kcm
`;
}

/** etcd: client and peer ports on loopback. --unsafe-no-fsync: a disposable dev/test store. Returns its client URL. */
async function startEtcd(supervisor: Supervisor, bin: string, dataDir: string): Promise<string> {
  const etcdPort = await freePort();
  const peerPort = await freePort();
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  await supervisor.start({ name: 'etcd', bin, args: [
    '--name=local', `--data-dir=${dataDir}`,
    `--listen-client-urls=${etcdUrl}`, `--advertise-client-urls=${etcdUrl}`,
    `--listen-peer-urls=http://127.0.0.1:${peerPort}`, `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
    `--initial-cluster=local=http://127.0.0.1:${peerPort}`,
    '--unsafe-no-fsync', '--quota-backend-bytes=8589934592', '--log-level=warn',
  ], readyWhat: 'healthy', readyTimeoutMs: 60_000, ready: async () => {
    const r = await fetch(`${etcdUrl}/health`);
    return r.ok && ((await r.json()) as { health?: string }).health === 'true';
  }, alive: async (signal) => {
    // Any answer: /health says 503 without a leader, which is still a live process.
    const r = await fetch(`${etcdUrl}/health`, { signal });
    await r.arrayBuffer();
    return true;
  } });
  return etcdUrl;
}

/** kube-apiserver's flags: loopback, the PKI's certificates, RBAC, the release's feature gates, the aggregation layer. */
function apiServerArgs(o: { etcdUrl: string; dir: string; apiPort: number; pki: Pki; aggPki: AggregationPki; release: Release; runtimeConfig?: string; audit: { policy: string; log: string } }): string[] {
  const { etcdUrl, dir, apiPort, pki, aggPki, release } = o;
  return [
    `--etcd-servers=${etcdUrl}`,
    `--cert-dir=${join(dir, 'apiserver-certs')}`,
    `--tls-cert-file=${pki.servingCert}`, `--tls-private-key-file=${pki.servingKey}`,
    `--client-ca-file=${pki.caCert}`,
    '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', `--secure-port=${apiPort}`,
    '--service-cluster-ip-range=10.0.0.0/24', '--allow-privileged=true',
    '--authorization-mode=RBAC',
    // Written empty at start (no issuer); setJwtIssuers adds OpenID providers while it runs.
    `--authentication-config=${authenticationConfigPath(dir)}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    `--service-account-key-file=${pki.saPub}`, `--service-account-signing-key-file=${pki.saKey}`,
    // A single apiserver on loopback: no `kubernetes` Service endpoint reconciling (it would try to publish 127.0.0.1).
    '--endpoint-reconciler-type=none',
    // Per release (versions.ts): the default one turns CBOR on; the older one runs as it ships.
    ...(release.featureGates ? [`--feature-gates=${release.featureGates}`] : []),
    ...(o.runtimeConfig ? [`--runtime-config=${o.runtimeConfig}`] : []),
    '--profiling=false', '--shutdown-delay-duration=0s', '--shutdown-watch-termination-grace-period=0s',
    ...aggregatorFlags(pki, aggPki),
    ...auditFlags(o.audit),
  ];
}

/** The restricted user may read (built-in `view` ClusterRole) and nothing else. */
async function bindViewer(server: string, admin: Credentials): Promise<void> {
  const crb = {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding',
    metadata: { name: 'explorer-viewer-view' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: USERS.viewer.cn }],
  };
  const r = await kubeRequest(server, admin, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', crb);
  if (r.status !== 201 && r.status !== 409) throw new StartError(`creating the viewer's ClusterRoleBinding failed: ${r.status} ${r.body}`);
}

async function startControllerManager(supervisor: Supervisor, bin: string, o: { dir: string; server: string; pki: Pki; admin: Credentials }): Promise<void> {
  const { dir, server, pki, admin } = o;
  const kcmConfig = join(dir, 'controller-manager.kubeconfig');
  writeFileSync(kcmConfig, controllerManagerKubeconfig(server, pki));
  const kcmPort = await freePort();
  const kcmArgs = [
    `--kubeconfig=${kcmConfig}`, `--authentication-kubeconfig=${kcmConfig}`, `--authorization-kubeconfig=${kcmConfig}`,
    `--root-ca-file=${pki.caCert}`, `--service-account-private-key-file=${pki.saKey}`,
    '--use-service-account-credentials=true', '--leader-elect=false',
    '--bind-address=127.0.0.1', `--secure-port=${kcmPort}`,
    `--cert-dir=${join(dir, 'controller-manager-certs')}`,
  ];
  // `view` is an aggregated ClusterRole: its rules are filled in by the controller manager's
  // clusterrole-aggregation controller. Until then the viewer could read nothing, so wait.
  // After a restart the rules are there already; "ready again" is "still running after 2 s".
  await supervisor.start({
    name: 'kube-controller-manager', bin, args: kcmArgs,
    readyWhat: 'running (view ClusterRole aggregated)', readyTimeoutMs: 60_000,
    readyAgain: () => new Promise((ok) => setTimeout(() => ok(true), 2_000)),
    // /healthz is open without credentials (its default --authorization-always-allow-paths); self-signed.
    alive: (signal) => answers(`https://127.0.0.1:${kcmPort}/healthz`, signal),
    ready: async () => {
      const role = await kubeRequest(server, admin, 'GET', '/apis/rbac.authorization.k8s.io/v1/clusterroles/view');
      return role.status === 200 && ((JSON.parse(role.body) as { rules?: unknown[] }).rules ?? []).length > 0;
    },
  });
}

/**
 * Starts etcd, kube-apiserver and (by default) kube-controller-manager on free loopback ports.
 * Builds the binaries first if needed. On any failure, whatever was started is stopped again.
 */
export async function startControlPlane(opts: StartOptions): Promise<ControlPlane> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const dir = resolve(opts.dir);
  mkdirSync(dir, { recursive: true });
  const release = releaseFor(opts.kubernetesVersion);
  const DATA_STAMP = dataStamp(release);
  const binaries = opts.binaries ?? (await ensureBinaries({ log, kubernetesVersion: release.kubernetes }));
  const missing = CONTROL_PLANE_BINARIES.filter((b) => !existsSync(binaries[b]));
  if (missing.length) {
    throw new StartError(`missing binaries in ${binaries.dir}: ${missing.join(', ')}; run \`npm run cluster:build\` (or fix KUBEBUILDER_ASSETS)`);
  }
  const lockFile = takeLock(dir, binaries.dir);
  const logDir = join(dir, 'logs');
  mkdirSync(logDir, { recursive: true });
  // The lock records the children, so that a later start can end them should both we and our
  // watchdog have been killed.
  const supervisor = new Supervisor(logDir, log, opts.supervision, (children) =>
    writeFileSync(lockFile, JSON.stringify({ pid: process.pid, children } satisfies Lock)),
  );
  const stopAll = () => supervisor.stopAll();

  try {
    const dataDir = join(dir, 'etcd');
    const stampFile = join(dir, 'etcd-data-version');
    if (opts.fresh) {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(stampFile, { force: true });
    }
    if (existsSync(dataDir) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') !== DATA_STAMP) {
      throw new StartError(`the etcd data in ${dataDir} was written by ${readFileSync(stampFile, 'utf8')}, not ${DATA_STAMP}; start with --fresh to wipe it (the data is lost)`);
    }
    const pki = await ensurePki(join(dir, 'pki'));
    const aggPki = await ensureAggregationPki(pki);
    // Built (first time only) before anything starts: a build takes minutes, a start seconds.
    const sampleBin = opts.aggregatedApi === false ? undefined : await ensureSampleApiserver({ log, kubernetesVersion: release.kubernetes });
    const statePath = join(dir, 'state.json');
    const state: State = existsSync(statePath) ? (JSON.parse(readFileSync(statePath, 'utf8')) as State) : {};

    const etcdUrl = await startEtcd(supervisor, binaries.etcd, dataDir);
    writeFileSync(stampFile, DATA_STAMP);

    // kube-apiserver: keep the previous port when free, so an existing kubeconfig keeps working.
    const apiPort = await freePort(state.apiserverPort);
    writeFileSync(statePath, JSON.stringify({ ...state, apiserverPort: apiPort }));
    const server = `https://127.0.0.1:${apiPort}`;
    const admin: Credentials = { ca: pem(pki.caCert), cert: pem(pki.users.admin.cert), key: pem(pki.users.admin.key) };
    writeAuthenticationConfig(dir, opts.jwtIssuers ?? []);
    const audit = writeAuditPolicy(dir);
    const apiArgs = apiServerArgs({ etcdUrl, dir, apiPort, pki, aggPki, release, runtimeConfig: opts.runtimeConfig, audit });
    await supervisor.start({
      name: 'kube-apiserver', bin: binaries['kube-apiserver'], args: apiArgs, readyWhat: 'ready', readyTimeoutMs: opts.apiServerReadyTimeoutMs ?? 120_000,
      ready: async () => (await kubeRequest(server, admin, 'GET', '/readyz')).status === 200,
      // /livez/ping: the server's own loop, not etcd's (a stopped etcd is etcd's to report).
      alive: (signal) => answers(`${server}/livez/ping`, signal, admin),
    });

    await bindViewer(server, admin);

    if (opts.controllerManager !== false) {
      await startControllerManager(supervisor, binaries['kube-controller-manager'], { dir, server, pki, admin });
    }

    let aggregated: ControlPlane['aggregated'];
    if (sampleBin) {
      const port = await freePort(state.aggregatedPort);
      writeFileSync(statePath, JSON.stringify({ ...state, apiserverPort: apiPort, aggregatedPort: port }));
      await startAggregated({ supervisor, bin: sampleBin, dir, server, etcdUrl, port, pki, agg: aggPki, admin, kubeconfigYaml: kubeconfigYaml(server, pki, CONTEXTS.admin) });
      aggregated = { group: WARDLE_GROUP, server: `https://127.0.0.1:${port}` };
    }

    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, kubeconfigYaml(server, pki, CONTEXTS.admin), { mode: 0o600 });

    let stopped = false;
    const cp: ControlPlane = {
      dir, kubeconfig, server, etcdUrl, binaries, auditLog: audit.log,
      kubernetesVersion: release.kubernetes, etcdVersion: release.etcd,
      contexts: { ...CONTEXTS },
      ...(aggregated ? { aggregated } : {}),
      credentials: (user) => ({ ca: pem(pki.caCert), cert: pem(pki.users[user].cert), key: pem(pki.users[user].key) }),
      compact: () => compactEtcd(etcdUrl),
      setJwtIssuers: (issuers) => writeAuthenticationConfig(dir, issuers),
      restartApiServer: (opts) => supervisor.restart('kube-apiserver', opts),
      status: () => supervisor.status(),
      onEvent: (fn) => supervisor.onEvent(fn),
      signal: (component, signal) => supervisor.signal(component, signal),
      async stop() {
        if (stopped) return;
        stopped = true;
        await stopAll();
        rmSync(lockFile, { force: true });
      },
    };
    return cp;
  } catch (e) {
    await stopAll();
    rmSync(lockFile, { force: true });
    throw e;
  }
}

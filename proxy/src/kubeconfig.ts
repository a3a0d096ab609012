// Clusters and credentials come from the kubeconfig, through @kubernetes/client-node's KubeConfig
// (client certificates, tokens, exec plugins, auth providers, custom CAs, insecure-skip-tls-verify).
// This module adds what the library lacks for a proxy: kubectl's merge rules for KUBECONFIG lists,
// every context usable at once (not just the current one), token files re-read as they rotate, and
// one keep-alive Agent per context and credential (upstreamAgents.ts).
import { readFileSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import type { RequestOptions } from 'node:https';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
// js-yaml directly: proxy/ imports nothing from src/ (the SPA's codec is src/codecs/yaml.ts).
import { load as parseYaml } from 'js-yaml';
import { clusterInfo, ExecCredentialError, ExecCredentialPending, ExecCredentials, type ExecConfig, type ExecCredentialStatus, type ExecOptions } from './auth/exec';
import { isLegacyCommandProvider, LegacyProviders, type LegacyProviderConfig } from './auth/legacy';
import { ProxyError } from './errors';
import { CONNECT_TIMEOUT_MS } from './timeouts';
import { UpstreamPool } from './http1';
import { parseProxyUrl, proxyDialer } from './tunnel';
import { ContextHttpsAgent, lendFromPool, TunnelHttpAgent, TunnelHttpsAgent } from './upstreamAgents';

import type { ContextList } from '../../protocol/contexts';
export type { ContextList };

/** Where and how to send one request for a context. */
export interface UpstreamTarget {
  context: string;
  server: string;
  secure: boolean;
  hostname: string;
  port: number;
  /** Path prefix of the server URL (Rancher-style `https://host/k8s/clusters/c-1`), without trailing `/`. */
  basePath: string;
  agent: HttpAgent;
  /** The lean client's connections for GET and HEAD (http1/), beside the agent that serves requests with a body. */
  pool?: UpstreamPool;
  /** Authorization and Impersonate-* from the kubeconfig (a list: one header line per value, as Impersonate-Group needs). */
  headers: Record<string, string | string[]>;
  /**
   * Called when the API server answers 401 to a request made with this target's credential: an
   * exec plugin's credential is then dropped and the plugin runs again for the next request.
   */
  onUnauthorized?: () => void;
}

/**
 * The kubeconfig files to use, as kubectl picks them: an explicit path, else KUBECONFIG (a list;
 * missing files are skipped), else ~/.kube/config. Null when there is none at all.
 */
export function findKubeconfig(opts: { path?: string; env?: NodeJS.ProcessEnv; home?: string } = {}): string[] | null {
  if (opts.path) {
    if (!existsSync(opts.path)) throw new Error(`kubeconfig ${opts.path} does not exist`);
    return [resolve(opts.path)];
  }
  const env = opts.env ?? process.env;
  if (env.KUBECONFIG) {
    const files = env.KUBECONFIG.split(delimiter).filter((f) => f && existsSync(f)).map((f) => resolve(f));
    return files.length ? [...new Set(files)] : null;
  }
  const def = join(opts.home ?? homedir(), '.kube', 'config');
  return existsSync(def) ? [def] : null;
}

/** A user's impersonation (`as`, `as-groups`, `as-uid`, `as-user-extra`), as client-go sends it. */
export interface Impersonation {
  user?: string;
  groups: string[];
  uid?: string;
  extra: [string, string[]][];
}

interface RawFile {
  clusters: Cluster[];
  users: User[];
  contexts: Context[];
  current: string;
  /** Users' `tokenFile`, absolute, and whether the user has a `token` too (then the token is the fallback). */
  tokenFiles: Map<string, string>;
  impersonation: Map<string, Impersonation>;
  /** Clusters' `client.authentication.k8s.io/exec` extension (spec.cluster.config for exec plugins). */
  execExtensions: Map<string, unknown>;
}

const EXEC_EXTENSION = 'client.authentication.k8s.io/exec';

function asList(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : [];
}

function loadFile(file: string): RawFile {
  const dir = dirname(file);
  let doc: Record<string, unknown>;
  try {
    doc = (parseYaml(readFileSync(file, 'utf8')) ?? {}) as Record<string, unknown>;
  } catch (e) {
    throw new Error(`cannot read kubeconfig ${file}: ${(e as Error).message}`, { cause: e });
  }
  // tokenFile (kubeconfig v1's spelling, AuthInfo.TokenFile) is kept out of client-node (it
  // knows only `token-file`, which kubectl ignores as an unknown field) and read by us per
  // request, relative to the file, like kubectl.
  const tokenFiles = new Map<string, string>();
  const impersonation = new Map<string, Impersonation>();
  for (const u of asList(doc.users)) {
    const user = u.user as Record<string, unknown> | undefined;
    if (!user || typeof user !== 'object' || typeof u.name !== 'string') continue;
    const tf = user.tokenFile;
    if (typeof tf === 'string' && tf) tokenFiles.set(u.name, isAbsolute(tf) ? tf : join(dir, tf));
    delete user['token-file'];
    const imp = impersonationOf(user);
    if (imp) impersonation.set(u.name, imp);
    // Ours to send (client-node would send `as` alone, without the groups, uid and extra).
    delete user.as;
    const exec = user.exec as Record<string, unknown> | undefined;
    if (exec && typeof exec.command === 'string' && exec.command.includes('/') && !isAbsolute(exec.command)) {
      exec.command = join(dir, exec.command);
    }
  }
  const execExtensions = new Map<string, unknown>();
  for (const c of asList(doc.clusters)) {
    const ext = asList((c.cluster as Record<string, unknown> | undefined)?.extensions).find((x) => x.name === EXEC_EXTENSION);
    if (ext && typeof c.name === 'string') execExtensions.set(c.name, ext.extension);
  }
  const kc = new KubeConfig();
  try {
    kc.loadFromString(JSON.stringify(doc));
  } catch (e) {
    throw new Error(`invalid kubeconfig ${file}: ${(e as Error).message}`, { cause: e });
  }
  kc.makePathsAbsolute(dir);
  return { clusters: kc.clusters ?? [], users: kc.users ?? [], contexts: kc.contexts ?? [], current: kc.currentContext ?? '', tokenFiles, impersonation, execExtensions };
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The user's impersonation fields (kubeconfig v1 AuthInfo: as, as-uid, as-groups, as-user-extra); undefined when none is set. */
function impersonationOf(user: Record<string, unknown>): Impersonation | undefined {
  const as = typeof user.as === 'string' && user.as !== '' ? user.as : undefined;
  const uid = typeof user['as-uid'] === 'string' && user['as-uid'] !== '' ? user['as-uid'] : undefined;
  const groups = strings(user['as-groups']);
  const rawExtra = user['as-user-extra'];
  const extra: [string, string[]][] = rawExtra && typeof rawExtra === 'object' && !Array.isArray(rawExtra) ? Object.entries(rawExtra as Record<string, unknown>).map(([k, v]) => [k, strings(v)] as [string, string[]]).filter(([, v]) => v.length > 0) : [];
  if (!as && !uid && groups.length === 0 && extra.length === 0) return undefined;
  return { ...(as ? { user: as } : {}), groups, ...(uid ? { uid } : {}), extra };
}

/**
 * Impersonate-* headers as client-go's impersonatingRoundTripper sends them: one Impersonate-Group
 * line per group, Impersonate-Extra-<key> with the key percent-encoded outside RFC 7230 token
 * characters (and `%` itself), one line per value.
 */
export function impersonationHeaders(imp: Impersonation): Record<string, string | string[]> {
  const h: Record<string, string | string[]> = {};
  if (imp.user) h['Impersonate-User'] = imp.user;
  if (imp.uid) h['Impersonate-Uid'] = imp.uid;
  if (imp.groups.length) h['Impersonate-Group'] = imp.groups;
  const escape = (k: string) => Array.from(new TextEncoder().encode(k), (b) => (/[!#$&'*+.^_`|~0-9A-Za-z-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
  for (const [k, v] of imp.extra) h[`Impersonate-Extra-${escape(k)}`] = v;
  return h;
}

function firstWins<T extends { name: string }>(lists: T[][]): T[] {
  const seen = new Map<string, T>();
  for (const list of lists) for (const item of list) if (!seen.has(item.name)) seen.set(item.name, item);
  return [...seen.values()];
}

/** The cluster's CA as PEM text, for an exec plugin's spec.cluster; undefined when there is none or it cannot be read. */
function caPem(cluster: Cluster): string | undefined {
  if (cluster.caData) return Buffer.from(cluster.caData, 'base64').toString();
  if (cluster.caFile) {
    try {
      return readFileSync(cluster.caFile, 'utf8');
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function withoutUserinfo(server: string): string {
  try {
    const u = new URL(server);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return server.replace(/\/\/[^/@]*@/, '//');
  }
}

interface CachedOptions {
  opts: RequestOptions;
  at: number;
}

/** How long file-based credentials are reused before files are read again (rotation). */
const FILE_CREDENTIALS_TTL_MS = 60_000;

export class Kubeconfig {
  readonly clusters: Cluster[];
  readonly users: User[];
  readonly contexts: Context[];
  readonly current: string;
  private readonly tokenFiles = new Map<string, string>();
  private readonly impersonation = new Map<string, Impersonation>();
  private readonly perContext = new Map<string, KubeConfig>();
  private readonly optionsCache = new Map<string, CachedOptions>();
  private readonly targetCache = new Map<string, { target: UpstreamTarget; at: number }>();
  private readonly agents = new Map<string, { agent: HttpAgent; pool: UpstreamPool }>();
  private readonly execExtensions = new Map<string, unknown>();
  /** Exec plugins, run here and not by client-node (see auth/exec.ts). */
  readonly exec: ExecCredentials;
  /** gcp/azure auth-providers with a cmd-path, run here and not by client-node (see auth/legacy.ts). */
  private readonly legacy: LegacyProviders;

  /** Merges files as kubectl does: the first definition of a name wins, and the first current-context set. */
  constructor(
    readonly files: string[],
    opts: { exec?: ExecOptions; legacyTimeoutMs?: number; log?: (line: string) => void } = {},
  ) {
    this.exec = new ExecCredentials({ log: opts.log, ...opts.exec });
    this.legacy = new LegacyProviders({ timeoutMs: opts.legacyTimeoutMs, log: opts.log });
    const loaded = files.map(loadFile);
    for (const l of [...loaded].reverse()) for (const [k, v] of l.execExtensions) this.execExtensions.set(k, v);
    this.clusters = firstWins(loaded.map((l) => l.clusters));
    this.users = firstWins(loaded.map((l) => l.users));
    this.contexts = firstWins(loaded.map((l) => l.contexts));
    this.current = loaded.find((l) => l.current)?.current ?? '';
    // Per-user fields come from the file whose definition of the user won.
    for (const u of this.users) {
      const from = loaded.find((l) => l.users.some((x) => x.name === u.name));
      const tf = from?.tokenFiles.get(u.name);
      if (tf) this.tokenFiles.set(u.name, tf);
      const imp = from?.impersonation.get(u.name);
      if (imp) this.impersonation.set(u.name, imp);
    }
  }

  list(): ContextList {
    return {
      current: this.current,
      contexts: this.contexts.map((c) => ({
        name: c.name,
        cluster: c.cluster,
        server: withoutUserinfo(this.clusters.find((x) => x.name === c.cluster)?.server ?? ''),
        user: c.user,
        namespace: c.namespace ?? 'default',
        current: c.name === this.current,
      })),
    };
  }

  private kubeConfigFor(context: string): KubeConfig {
    let kc = this.perContext.get(context);
    if (!kc) {
      kc = new KubeConfig();
      // Exec plugins and command-running auth-providers are ours to run (asynchronously, once at a
      // time per user): client-node sees those users without them.
      const users = this.users.map((u) => (u.exec || isLegacyCommandProvider(u.authProvider) ? { ...u, exec: undefined, authProvider: isLegacyCommandProvider(u.authProvider) ? undefined : u.authProvider } : u));
      kc.loadFromOptions({ clusters: this.clusters, users, contexts: this.contexts, currentContext: context });
      this.perContext.set(context, kc);
    }
    return kc;
  }

  /** The cached target of a context whose credentials need no refresh, without a promise; else undefined. */
  cachedTarget(context: string): UpstreamTarget | undefined {
    const hit = this.targetCache.get(context);
    return hit && Date.now() - hit.at < FILE_CREDENTIALS_TTL_MS ? hit.target : undefined;
  }

  /** Resolves a context to a target with fresh credentials. Throws ProxyError. */
  async target(context: string): Promise<UpstreamTarget> {
    // The hot path of every request: for credentials that come from the kubeconfig files
    // themselves (no exec plugin, auth provider or token file to consult), the resolved target is
    // reused for as long as the request options are.
    const hit = this.targetCache.get(context);
    if (hit && Date.now() - hit.at < FILE_CREDENTIALS_TTL_MS) return hit.target;
    const target = await this.resolveTarget(context);
    const user = this.users.find((u) => u.name === this.contexts.find((c) => c.name === context)?.user);
    if (!user?.exec && !user?.authProvider && !(user && this.tokenFiles.has(user.name))) this.targetCache.set(context, { target, at: Date.now() });
    return target;
  }

  private async resolveTarget(context: string): Promise<UpstreamTarget> {
    const ctx = this.contexts.find((c) => c.name === context);
    if (!ctx) throw new ProxyError(404, 'NotFound', 'UnknownContext', `context ${JSON.stringify(context)} is not in the kubeconfig (${this.files.join(delimiter)})`, context);
    const cluster = this.clusters.find((c) => c.name === ctx.cluster);
    if (!cluster?.server) throw new ProxyError(502, 'ServiceUnavailable', 'InvalidKubeconfig', `context "${context}" refers to cluster "${ctx.cluster}", which has no server in the kubeconfig`, context);
    let url: URL;
    try {
      url = new URL(cluster.server);
    } catch {
      throw new ProxyError(502, 'ServiceUnavailable', 'InvalidKubeconfig', `the server of cluster "${ctx.cluster}" is not a URL`, context);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ProxyError(502, 'ServiceUnavailable', 'InvalidKubeconfig', `the server of cluster "${ctx.cluster}" is not an http(s) URL`, context);
    const user = this.users.find((u) => u.name === ctx.user);
    const imp = user && this.impersonation.get(user.name);
    // What kubectl refuses in a context's cluster and user (clientcmd's validation; every reason
    // at once, as kubectl lists them): a CA together with insecure-skip-tls-verify (whoever wrote
    // both meant one of them; connecting unverified would pick for them), and impersonation
    // without a user (acting as the un-impersonated user would give all of that user's rights).
    const invalid = [
      ...(cluster.skipTLSVerify && (cluster.caData || cluster.caFile) ? [`cluster "${ctx.cluster}": specifying a root certificates file with the insecure flag is not allowed`] : []),
      ...(imp && !imp.user ? [`requesting uid, groups or user-extra for ${user.name} without impersonating a user`] : []),
    ];
    if (invalid.length) throw new ProxyError(502, 'ServiceUnavailable', 'InvalidKubeconfig', `context "${context}" is invalid: ${invalid.join('; ')}`, context);
    const proxy = this.proxyOf(context, cluster);
    const opts = await this.requestOptions(context, user, url);
    const onUnauthorized = user?.exec ? await this.applyExecCredential(context, user, cluster, opts) : undefined;
    if (user && isLegacyCommandProvider(user.authProvider)) await this.applyLegacyProvider(context, user, opts);
    const headers: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (typeof v === 'string') headers[k] = v;
    if (typeof opts.auth === 'string') headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    if (url.username) headers.Authorization ??= `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    const tokenFile = user && this.tokenFiles.get(user.name);
    if (tokenFile && !user?.exec && !user?.authProvider) {
      // client-go: the file's token, re-read as it rotates; a `token` beside it is used while the file cannot be read.
      try {
        headers.Authorization = `Bearer ${readFileSync(tokenFile, 'utf8').trim()}`;
      } catch (e) {
        if (!user.token) throw new ProxyError(502, 'ServiceUnavailable', 'CredentialsFailed', `cannot read the token file of user "${user.name}" (context "${context}"): ${(e as NodeJS.ErrnoException).code ?? 'error'} ${tokenFile}`, context);
      }
    }
    if (imp) Object.assign(headers, impersonationHeaders(imp));
    const secure = url.protocol === 'https:';
    return {
      context,
      server: withoutUserinfo(cluster.server),
      secure,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port ? Number(url.port) : secure ? 443 : 80,
      basePath: url.pathname.replace(/\/+$/, ''),
      ...this.agentFor(context, secure, opts, url, proxy),
      headers,
      ...(onUnauthorized ? { onUnauthorized } : {}),
    };
  }

  /** The exec plugin's credential into the request options (a client certificate, or a bearer token). */
  private async applyExecCredential(context: string, user: User, cluster: Cluster, opts: RequestOptions): Promise<() => void> {
    let cred: ExecCredentialStatus;
    try {
      cred = await this.exec.get(user.name, user.exec as ExecConfig, context, { name: cluster.name, info: () => clusterInfo(cluster, caPem(cluster), this.execExtensions.get(cluster.name)) });
    } catch (e) {
      if (e instanceof ExecCredentialPending) {
        // 503 with Retry-After: the page's reads try again (src/k8s/client/retry.ts), and it is free to poll /proxy/status.
        const pending = new ProxyError(503, 'ServiceUnavailable', 'CredentialsPending', `no credentials yet for context "${context}" (user "${user.name}"): ${e.message}`, context);
        pending.retryAfterSeconds = 2;
        throw pending;
      }
      const why = e instanceof ExecCredentialError ? e.message : `the exec plugin failed: ${(e as Error).message}`;
      throw new ProxyError(502, 'ServiceUnavailable', 'CredentialsFailed', `could not get credentials for context "${context}" (user "${user.name}"): ${why}`, context);
    }
    if (cred.clientCertificateData) {
      opts.cert = cred.clientCertificateData;
      opts.key = cred.clientKeyData;
    }
    if (cred.token) opts.headers = { ...opts.headers, Authorization: `Bearer ${cred.token}` };
    return () => this.exec.unauthorized(cred);
  }

  private async applyLegacyProvider(context: string, user: User, opts: RequestOptions): Promise<void> {
    const provider = user.authProvider as { name: string; config: LegacyProviderConfig };
    try {
      opts.headers = { ...opts.headers, Authorization: `Bearer ${await this.legacy.token(user.name, provider.name, provider.config)}` };
    } catch (e) {
      throw new ProxyError(502, 'ServiceUnavailable', 'CredentialsFailed', `could not get credentials for context "${context}" (user "${user.name}"): ${(e as Error).message}`, context);
    }
  }

  /** client-node applies TLS material and auth headers to request options; cached for file-based users. */
  private async requestOptions(context: string, user: User | undefined, url: URL): Promise<RequestOptions> {
    const dynamic = !!(user?.exec || user?.authProvider);
    const cached = this.optionsCache.get(context);
    if (!dynamic && cached && Date.now() - cached.at < FILE_CREDENTIALS_TTL_MS) return cached.opts;
    const opts: RequestOptions = { headers: {} };
    try {
      await this.kubeConfigFor(context).applyToHTTPSOptions(opts);
    } catch (e) {
      // client-node builds its own Agent last and refuses plain-http servers there; the credentials
      // are applied by then, and kubectl accepts http servers, so we do too.
      const plainHttpRefusal = url.protocol === 'http:' && /HTTP protocol is not allowed/.test((e as Error).message);
      if (!plainHttpRefusal) {
        throw new ProxyError(502, 'ServiceUnavailable', 'CredentialsFailed', `could not get credentials for context "${context}" (user "${user?.name ?? ''}"): ${(e as Error).message}`, context);
      }
    }
    if (!dynamic) this.optionsCache.set(context, { opts, at: Date.now() });
    return opts;
  }

  /** The cluster's proxy-url, checked as kubectl checks it (a scheme it refuses is an invalid kubeconfig). */
  private proxyOf(context: string, cluster: Cluster): URL | undefined {
    if (!cluster.proxyUrl) return undefined;
    try {
      return parseProxyUrl(cluster.proxyUrl, cluster.name);
    } catch (e) {
      throw new ProxyError(502, 'ServiceUnavailable', 'InvalidKubeconfig', (e as Error).message, context);
    }
  }

  /**
   * One keep-alive Agent and one lean pool per context, TLS material and proxy, so rotated exec
   * certificates get new sockets. Behind a proxy both open their connections through it.
   */
  private agentFor(context: string, secure: boolean, opts: RequestOptions, url: URL, proxy: URL | undefined): { agent: HttpAgent; pool: UpstreamPool } {
    const h = createHash('sha256').update(context).update(secure ? 'https' : 'http').update(url.host).update(proxy?.href ?? '');
    for (const v of [opts.ca, opts.cert, opts.key, opts.pfx, opts.passphrase, opts.servername, String(opts.rejectUnauthorized)]) {
      h.update('\0');
      if (v !== undefined) h.update(Array.isArray(v) ? v.map(String).join('\n') : String(v));
    }
    const key = h.digest('hex');
    let pair = this.agents.get(key);
    if (!pair) {
      const tls = {
        ca: opts.ca,
        cert: opts.cert,
        key: opts.key,
        pfx: opts.pfx,
        passphrase: opts.passphrase,
        servername: opts.servername,
        ...(opts.rejectUnauthorized !== undefined ? { rejectUnauthorized: opts.rejectUnauthorized } : {}),
      };
      const dial = proxy ? proxyDialer(proxy) : undefined;
      // Keep-alive: a small GET then costs no TCP+TLS handshake (nor a tunnel). No socket timeout: watches idle for minutes.
      const agent: HttpAgent = secure
        ? dial ? new TunnelHttpsAgent({ keepAlive: true, ...tls }, dial) : new ContextHttpsAgent({ keepAlive: true, ...tls })
        : dial ? new TunnelHttpAgent({ keepAlive: true }, dial) : new HttpAgent({ keepAlive: true });
      const pool = new UpstreamPool({ secure, host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : secure ? 443 : 80, tls: secure ? tls : undefined, connectTimeoutMs: CONNECT_TIMEOUT_MS, ...(dial ? { dial } : {}) });
      lendFromPool(agent, pool);
      pair = { agent, pool };
      this.agents.set(key, pair);
    }
    return pair;
  }

  /**
   * Opens `count` connections to a context's API server ahead of its requests (the page is
   * loading: its first requests follow within the second). Only for credentials at hand: it never
   * runs an exec plugin or an auth-provider's command for this, and failures are left to the
   * requests themselves.
   */
  preconnect(context: string, count: number): void {
    const ctx = this.contexts.find((c) => c.name === context);
    const user = ctx && this.users.find((u) => u.name === ctx.user);
    if (!ctx || user?.exec || user?.authProvider) return;
    this.target(context).then(
      (t) => t.pool?.preconnect(count),
      () => undefined,
    );
  }

  /** Closes pooled upstream sockets and stops credential plugins under way. */
  destroy(): void {
    this.exec.destroy();
    for (const a of this.agents.values()) {
      a.agent.destroy();
      a.pool.destroy();
    }
    this.agents.clear();
  }
}

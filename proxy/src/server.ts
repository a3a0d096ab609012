// The explorer's one server: page + /k8s/ proxy + /proxy/ endpoints + /proxy/mux, on 127.0.0.1.
// Every request passes the door (Host, Origin, token) before it is routed (routes.ts): filter(forward).
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { ControlPlane } from '../cluster/controlplane';
import { ProxyError } from './errors';
import type { ForwardContext } from './forward';
import { type ProxyStats, upstreamLaunch } from './openUpstream';
import { explorerUserAgent, securityHeaders } from './headers';
import { type ContextList, findKubeconfig, Kubeconfig } from './kubeconfig';
import { createMux } from './mux';
import { createRouter, type Door, routeSockets } from './routes';
import { createDevPages, createStaticPages, ensureBuilt, type PageServer, REPO_ROOT } from './static';
import { credentialActions } from './auth/endpoint';
import type { ExecOptions } from './auth/exec';
import { createStatus } from './status';
import { embedded, embeddedClusterDir } from '../package/embedded';
import { createEmbeddedPages } from './embeddedPages';
import { loadRecording, replayRefusal } from './replay';
import { type AuditSource, auditRoutes } from './auditRoute';
import { AUDIT_ROUTE } from '../../protocol/audit';
import { startXrayService, type XrayService } from './xray/service';
import { xrayPageRoutes } from './xray/pageRoutes';
import { XrayHub } from './xray/hub';

export const DEFAULT_PORT = 7780;

/**
 * Connections opened to the page's context as the page loads: its first requests (readiness,
 * namespaces, the two discovery documents) go out at once, each on a connection of its own.
 */
const PRECONNECT = 4;

/** The context a page load opens: its `?context=`, else the server's starting one. */
function pageContext(url: string, fallback: string): string {
  return new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '').get('context') ?? fallback;
}

export interface ExplorerServerOptions {
  /** Port on 127.0.0.1; 0 picks a free one. Default 7780. */
  port?: number;
  /** Kubeconfig file; default KUBECONFIG (merged list) or ~/.kube/config; none: a local control plane. */
  kubeconfigPath?: string;
  /** Serve the SPA through Vite's dev server (middleware mode) instead of dist/. */
  dev?: boolean;
  /** Folder with a built SPA. Default dist/, built first when missing or stale; a given folder is served as is. */
  staticDir?: string;
  log?: (line: string) => void;
  /** Let exec/attach/portforward/proxy/ephemeralcontainers subresources pass (plain HTTP only: upgrades are never forwarded). */
  allowExec?: boolean;
  /**
   * A local control plane started by the caller, reported by /proxy/status (not stopped by
   * close()). Without a kubeconfig the server starts one itself and reports that one.
   */
  controlPlane?: ControlPlane;
  /** Upstream limits per launch: open requests at once (default 512), time to a non-watch response head (default 90 s). */
  limits?: { maxUpstreams?: number; upstreamResponseMs?: number };
  /**
   * Audit logs to follow, each with the API server that writes it (/proxy/audit). The local control
   * plane's (given or started) is always followed.
   */
  auditLogs?: AuditSource[];
  /** Start the local control plane even when a kubeconfig exists (--local). */
  local?: boolean;
  /** Context the page opens with, instead of the kubeconfig's current-context (--context). */
  context?: string;
  /** Namespace the page opens with, instead of the context's own (--namespace). */
  namespace?: string;
  /**
   * A recording to replay (--replay FILE): no kubeconfig is read, no control plane started, the
   * page gets the file at /proxy/recording, and every request for a cluster is refused here.
   */
  replay?: string;
  /** Exec credential plugins: run timeout (default 180 s), how long a request waits for a run (default 5 s), and whether they may ask on the server's terminal (default: stdin is one). */
  exec?: Pick<ExecOptions, 'timeoutMs' | 'waitMs' | 'interactive'>;
  /**
   * X-ray (protocol/xray.ts): the long-lived endpoint other clients use, on a loopback port of its
   * own (default: a free one); false: off. Always off in replay mode.
   */
  xray?: { port?: number } | false;
  /** Time a legacy gcp/azure auth-provider command may take (default 60 s). */
  legacyAuthTimeoutMs?: number;
  /** Timeouts; defaults suit people, tests shorten them. */
  timeouts?: {
    /** Whole request head must arrive within this (slowloris). Default 20 s. */
    headersMs?: number;
    /** Whole request (head + body) must arrive within this; not the response, so watches live on. Default 60 s. */
    requestMs?: number;
    /** How often Node checks the two above. Default 5 s. */
    checkIntervalMs?: number;
    /** Time for the first mux message (auth). Default 5 s. */
    muxAuthMs?: number;
  };
}

export interface ExplorerServer {
  url: string;
  port: number;
  token: string;
  /** Files the contexts come from (the local control plane's kubeconfig when it was started). */
  kubeconfigFiles: string[];
  /** Set when no kubeconfig existed and a local control plane was started (stopped by close()). */
  controlPlane?: ControlPlane;
  /** The X-ray endpoint, when on: its URL, and the kubeconfig that reaches it with the long-lived token. */
  xray?: { url: string; caPem: string; kubeconfig(): string; cut(): () => void };
  stats(): ProxyStats;
  close(): Promise<void>;
}

export async function startExplorerServer(opts: ExplorerServerOptions = {}): Promise<ExplorerServer> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const token = randomBytes(32).toString('hex');
  const launch = upstreamLaunch({ maxUpstreams: opts.limits?.maxUpstreams, responseTimeoutMs: opts.limits?.upstreamResponseMs });
  const allowExec = opts.allowExec ?? false;
  const recording = opts.replay !== undefined ? loadRecording(opts.replay) : undefined;
  const { files, controlPlane, kubeconfig, pages } = await openSources(opts, token, log);

  // kubectl finds contexts through KUBECONFIG or ~/.kube/config as we did; a file given with
  // --kubeconfig, or the local control plane's, must be named in the commands the page offers.
  const explicitFile = opts.kubeconfigPath !== undefined || controlPlane ? files[0] : undefined;
  // The port and the security headers that name it are known once the server listens.
  const door: Door = { port: 0, security: [] };
  const status = createStatus({ stats: launch.stats, controlPlane: controlPlane ?? opts.controlPlane, kubeconfig, maxUpstreams: opts.limits?.maxUpstreams });
  const forwarding: ForwardContext = { launch, log, observe: status.observe, security: door.security };
  const localPlane = controlPlane ?? opts.controlPlane;
  const audit = auditRoutes([...(opts.auditLogs ?? []), ...(localPlane ? [{ server: localPlane.server, path: localPlane.auditLog }] : [])], kubeconfig);
  const xray: XrayService | undefined = recording || opts.xray === false ? undefined : await startXrayService({ kubeconfig, launch, log, allowExec, port: opts.xray?.port });
  const mux = createMux({ token, kubeconfig, launch, allowExec, log, authTimeoutMs: opts.timeouts?.muxAuthMs ?? 5_000 });
  const router = createRouter({
    door,
    token,
    pages,
    kubeconfig,
    allowExec,
    forwarding,
    ...(recording ? { refuseClusters: replayRefusal } : { onPageLoad: (url: string) => kubeconfig.preconnect(pageContext(url, opts.context ?? kubeconfig.current), PRECONNECT) }),
    endpoints: {
      '/proxy/contexts': () => (recording ? { contexts: [], current: '', replay: true } : { ...withKubeconfigFile(withStartingPoint(kubeconfig.list(), opts.context, opts.namespace), explicitFile), userAgent: explorerUserAgent() }),
      ...(recording ? { '/proxy/recording': () => recording } : {}),
      [AUDIT_ROUTE]: (query, signal) => audit.answer(query, signal),
      '/proxy/status': (query) => {
        const since = query.get('since');
        return status.snapshot(since === null ? undefined : Number(since));
      },
    },
    actions: credentialActions(kubeconfig.exec),
    raw: xray?.pageRoutes ?? xrayPageRoutes({ hub: new XrayHub(), info: () => ({ enabled: false, allowExec, bodyBudget: 0, journalBudget: 0 }), kubeconfig: () => undefined, servers: () => ({}) }),
  });

  const server = createServer(
    {
      headersTimeout: opts.timeouts?.headersMs ?? 20_000,
      requestTimeout: opts.timeouts?.requestMs ?? 60_000,
      connectionsCheckingInterval: opts.timeouts?.checkIntervalMs ?? 5_000,
      keepAliveTimeout: 5_000,
      noDelay: true,
    },
    (req, res) => {
      const failed = (e: unknown) => {
        if (e instanceof ProxyError) return router.fail(res, e);
        log(`proxy: internal error: ${(e as Error).stack ?? String(e)}`);
        router.fail(res, new ProxyError(500, 'InternalError', 'UpstreamError', `internal proxy error: ${(e as Error).message}`));
      };
      try {
        const pending = router.handle(req, res);
        if (pending) pending.catch(failed);
      } catch (e) {
        failed(e);
      }
    },
  );
  // No socket inactivity timeout: a watch on a quiet resource sends nothing for minutes.
  server.timeout = 0;
  routeSockets(server, { door, mux, pages, refuseMux: recording !== undefined });

  try {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(opts.port ?? DEFAULT_PORT, '127.0.0.1', () => {
        server.off('error', fail);
        ok();
      });
    });
  } catch (e) {
    mux.close();
    audit.close();
    await xray?.close();
    kubeconfig.destroy();
    await pages.close();
    await controlPlane?.stop();
    const err = e as NodeJS.ErrnoException;
    if (err.code === 'EADDRINUSE') throw new Error(`port ${opts.port ?? DEFAULT_PORT} on 127.0.0.1 is in use; pick another with --port or PORT`, { cause: e });
    throw e;
  }
  const addr = server.address();
  door.port = typeof addr === 'object' && addr ? addr.port : 0;
  // Filled in place: the forwarder holds the same list.
  door.security.push(...Object.entries(securityHeaders(door.port)).flat());

  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${door.port}/`,
    port: door.port,
    token,
    kubeconfigFiles: files,
    controlPlane,
    ...(xray ? { xray: { url: xray.endpoint.url, caPem: xray.endpoint.caPem, kubeconfig: xray.kubeconfig, cut: () => xray.endpoint.cut() } } : {}),
    stats: () => ({ ...launch.stats }),
    close() {
      closing ??= (async () => {
        status.close();
        audit.close();
        mux.close();
        await xray?.close();
        await new Promise<void>((ok) => {
          server.close(() => ok());
          server.closeAllConnections();
        });
        kubeconfig.destroy();
        await pages.close();
        await controlPlane?.stop();
      })();
      return closing;
    },
  };
}

/**
 * The server's sources: the kubeconfig (or, with none, a local control plane started for it) and
 * the page (Vite in dev, the embedded copy in the executable, else dist/, built when stale).
 */
async function openSources(opts: ExplorerServerOptions, token: string, log: (line: string) => void) {
  if (opts.dev && embedded()) throw new Error('--dev needs a checkout of the explorer (it serves the sources through Vite)');
  let controlPlane: ControlPlane | undefined;
  // Replaying reads no kubeconfig and starts nothing: there are no contexts to reach.
  let files = opts.replay !== undefined ? [] : opts.local ? null : findKubeconfig({ path: opts.kubeconfigPath });
  if (!files) {
    const dir = embeddedClusterDir() ?? join(REPO_ROOT, '.cluster');
    log(opts.local ? `--local: starting the local control plane in ${dir}` : `No kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config): starting the local control plane in ${dir}`);
    const { startControlPlane } = await import('../cluster/controlplane');
    controlPlane = await startControlPlane({ dir, log });
    files = [controlPlane.kubeconfig];
  }
  let pages: (PageServer & { hmrUpgrades?: import('node:events').EventEmitter }) | undefined;
  try {
    const kubeconfig = new Kubeconfig(files, { exec: opts.exec, legacyTimeoutMs: opts.legacyAuthTimeoutMs, log });
    if (opts.context !== undefined && !kubeconfig.contexts.some((c) => c.name === opts.context)) {
      throw new Error(`context ${JSON.stringify(opts.context)} is not in ${files.join(', ')} (it has: ${kubeconfig.contexts.map((c) => c.name).join(', ') || 'none'})`);
    }
    if (opts.dev) {
      pages = await createDevPages(REPO_ROOT, token);
    } else if (opts.staticDir === undefined && embedded()) {
      pages = createEmbeddedPages(token);
    } else {
      const dir = opts.staticDir ?? join(REPO_ROOT, 'dist');
      if (opts.staticDir === undefined) await ensureBuilt(REPO_ROOT, dir, log);
      pages = createStaticPages(dir, token);
    }
    return { files, controlPlane, kubeconfig, pages };
  } catch (e) {
    await pages?.close();
    await controlPlane?.stop();
    throw e;
  }
}

/** --context and --namespace: the context the page opens with, and its namespace, as the page reads them. */
export function withStartingPoint(list: ContextList, context?: string, namespace?: string): ContextList {
  if (context === undefined && namespace === undefined) return list;
  const current = context ?? list.current;
  return {
    current,
    contexts: list.contexts.map((c) => ({ ...c, current: c.name === current, namespace: c.name === current && namespace !== undefined ? namespace : c.namespace })),
  };
}

/** Names the kubeconfig file in every context, for "copy as kubectl"; a path, never a credential. */
export function withKubeconfigFile(list: ContextList, file: string | undefined): ContextList {
  return file ? { ...list, contexts: list.contexts.map((c) => ({ ...c, kubeconfig: file })) } : list;
}

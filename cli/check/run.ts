// The check's I/O: an explorer server of its own on 127.0.0.1 (the kubeconfig's credentials, exec
// plugins, TLS and proxies handled as for the page), then the Serving view's own probes
// (src/k8s/serving) run headless through it, a few resources at a time.
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findKubeconfig } from '../../proxy/src/kubeconfig';
import { startExplorerServer } from '../../proxy/src/server';
import type { ContextList } from '../../protocol/contexts';
import { configureProxy, kubeFetch, proxyJson } from '../../src/k8s/client';
import { allResources, fetchDiscovery } from '../../src/k8s/discovery';
import { bookmarkCheck, probeResource, type Row, type Target } from '../../src/k8s/serving';
import type { CheckOptions } from './cli';
import { type Report, toReport } from './report';

/** A usage or connection error: exit status 2, as opposed to a check that found something (1). */
export class CheckError extends Error {
  override name = 'CheckError';
}

export interface Progress {
  (done: number, total: number, context: string, last: string): void;
}

export interface CheckSession {
  /** Runs every check on one context. */
  check(context: string | undefined, progress?: Progress): Promise<Report>;
  close(): Promise<void>;
}

/** The resources the flags select, as discovery lists them (every version, preferred first). */
export function selectTargets(targets: Target[], group: string | undefined, resource: string | undefined): Target[] {
  const r = resource?.toLowerCase();
  return targets.filter(
    (t) => (group === undefined || t.group === group) && (r === undefined || t.resource === r || `${t.resource}.${t.group}` === r || t.kind.toLowerCase() === r),
  );
}

async function pool<T, R>(items: T[], parallel: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return out;
}

export async function openCheckSession(opts: CheckOptions, log: (line: string) => void): Promise<CheckSession> {
  // With no kubeconfig the explorer would start a local control plane: a check names a server, so
  // that is a usage error here.
  if (!findKubeconfig({ path: opts.kubeconfig })) throw new CheckError('no kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config)');
  let server;
  try {
    // The page is not served (no folder of it): only /k8s/ and /proxy/ are asked.
    server = await startExplorerServer({ port: 0, kubeconfigPath: opts.kubeconfig, staticDir: join(tmpdir(), 'kube-api-explorer-check-no-page'), log });
  } catch (e) {
    throw new CheckError((e as Error).message);
  }
  configureProxy({ origin: server.url, token: server.token });
  const contexts = await proxyJson<ContextList>('/contexts');

  async function check(name: string | undefined, progress?: Progress): Promise<Report> {
    const context = name ?? contexts.current;
    const summary = contexts.contexts.find((c) => c.name === context);
    if (!summary) throw new CheckError(context ? `context ${JSON.stringify(context)} is not in the kubeconfig (it has: ${contexts.contexts.map((c) => c.name).join(', ') || 'none'})` : 'the kubeconfig names no current-context: pass --context');
    const startedAt = new Date();
    let discovery;
    try {
      discovery = await fetchDiscovery(context);
    } catch (e) {
      throw new CheckError(`${context}: discovery failed: ${(e as Error).message}`);
    }
    const targets = selectTargets(
      allResources(discovery).map((r) => ({ group: r.group, version: r.version, resource: r.resource, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs, subresources: r.subresources.map((s) => s.name) })),
      opts.group,
      opts.resource,
    );
    if (!targets.length) throw new CheckError(`${context}: no resource matches${opts.group !== undefined ? ` --group ${opts.group || 'core'}` : ''}${opts.resource ? ` --resource ${opts.resource}` : ''}`);
    const namespace = opts.namespace ?? summary.namespace;
    const scratch = opts.writes ? await createScratchNamespace(context) : undefined;
    let done = 0;
    // Bookmarks come about once a minute: each served watch waits for one in the background,
    // all at once, while the other checks go on.
    const bookmarks: Promise<void>[] = [];
    try {
      const rows: Row[] = await pool(targets, opts.parallel, async (t) => {
        const row = await probeResource(context, t, namespace, { writes: opts.writes, writeNamespace: scratch });
        if (opts.bookmarkWait > 0 && row.cells.watch.verdict === 'yes') bookmarks.push(bookmarkCheck(context, row.collection, opts.bookmarkWait).then((c) => void (row.cells.bookmarks = c)));
        progress?.(++done, targets.length, context, `${t.resource}${t.group ? `.${t.group}` : ''}/${t.version}`);
        return row;
      });
      if (bookmarks.length) progress?.(done, targets.length, context, `waiting up to ${opts.bookmarkWait} s for the watches' bookmarks`);
      await Promise.all(bookmarks);
      return toReport(rows, { context, server: summary.server, namespace, writes: { sent: opts.writes, ...(scratch ? { namespace: scratch } : {}) }, startedAt, seconds: (Date.now() - startedAt.getTime()) / 1000 });
    } finally {
      if (scratch) await deleteNamespace(context, scratch, log);
    }
  }
  return { check, close: () => server.close() };
}

/** A namespace of the check's own for the writes, so that none lands among the user's objects. */
async function createScratchNamespace(context: string): Promise<string> {
  const name = `kube-api-explorer-check-${randomBytes(4).toString('hex')}`;
  const res = await kubeFetch({
    context,
    method: 'POST',
    path: '/api/v1/namespaces',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'app.kubernetes.io/created-by': 'kube-api-explorer-check' } } }),
  });
  if (res.status !== 201) throw new CheckError(`--writes: could not create the scratch namespace ${name}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return name;
}

async function deleteNamespace(context: string, name: string, log: (line: string) => void): Promise<void> {
  const res = await kubeFetch({ context, method: 'DELETE', path: `/api/v1/namespaces/${name}`, headers: { Accept: 'application/json' } }).catch((e: unknown) => ({ status: 0, text: async () => String(e) }));
  if (res.status !== 200 && res.status !== 202) log(`warning: the scratch namespace ${name} was not deleted (${res.status} ${(await res.text()).slice(0, 200)}): delete it with kubectl delete namespace ${name}`);
}

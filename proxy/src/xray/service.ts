// X-ray in a running explorer: the journal (hub.ts), the endpoint (endpoint.ts) with the
// long-lived token (valid while the explorer runs, given to the page as a kubeconfig), the page's
// routes, and the run control that lets an `xray` command attach to this explorer so that its run
// shows in the page live:
//   POST /?xray=run  {argv, context}           → {id, token}  (a per-run token, granted until the run ends)
//   POST /?xray=end&run=ID  {exitCode, signal}  → {}
// both with the long-lived token (whoever holds it may send requests through the endpoint anyway).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'node:https';
import { LONG_LIVED_RUN, type XrayEndpointInfo } from '../../../protocol/xray';
import type { Kubeconfig } from '../kubeconfig';
import type { UpstreamLaunch } from '../openUpstream';
import type { RawEndpoint } from '../routes';
import { startXrayEndpoint, type XrayEndpoint, type XrayGrant } from './endpoint';
import { XrayHub } from './hub';
import { xrayKubeconfig } from './kubeconfigFile';
import { xrayPageRoutes } from './pageRoutes';

export interface XrayService {
  hub: XrayHub;
  endpoint: XrayEndpoint;
  /** The long-lived endpoint's kubeconfig (the user's contexts, the long-lived token). */
  kubeconfig(): string;
  pageRoutes: Record<string, RawEndpoint>;
  close(): Promise<void>;
}

/** A call of the run control (an attached `xray`, tests): POST to the endpoint, trusting its certificate only. */
export function runControl(base: string, caPem: string, token: string, query: string, body: unknown): Promise<{ status: number; body: unknown }> {
  return new Promise((ok, fail) => {
    const req = request(`${base}/?${query}`, { method: 'POST', ca: caPem, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => {
        try {
          ok({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString('utf8')) as unknown });
        } catch (e) {
          fail(e as Error);
        }
      });
    });
    req.on('error', fail);
    req.end(JSON.stringify(body));
  });
}

export const newToken = (): string => randomBytes(32).toString('hex');

/** Reads a small JSON body (the run control's); {} when absent or not JSON. */
function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((ok) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (b: Buffer) => {
      size += b.length;
      if (size <= 64 * 1024) parts.push(b);
    });
    req.on('end', () => {
      try {
        const v = JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') as unknown;
        ok(typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
      } catch {
        ok({});
      }
    });
  });
}

function json(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

export async function startXrayService(o: { kubeconfig: Kubeconfig; launch: UpstreamLaunch; log: (line: string) => void; allowExec: boolean; port?: number }): Promise<XrayService> {
  const hub = new XrayHub();
  const longLived = newToken();
  const runTokens = new Map<string, string>();
  const control = (req: IncomingMessage, res: ServerResponse, grant: XrayGrant): void => {
    if (req.method !== 'POST' || grant.run !== LONG_LIVED_RUN) return json(res, 403, { message: 'run control needs the long-lived token, by POST' });
    const q = new URLSearchParams((req.url ?? '').slice(2));
    void jsonBody(req).then((body) => {
      if (q.get('xray') === 'run') {
        const argv = Array.isArray(body.argv) ? body.argv.map(String) : undefined;
        const run = hub.startRun({ ...(argv ? { argv } : {}), ...(typeof body.context === 'string' ? { context: body.context } : {}) });
        const token = newToken();
        runTokens.set(run.id, token);
        endpoint.grant(token, { run: run.id, allowExec: o.allowExec });
        return json(res, 200, { id: run.id, token });
      }
      const id = q.get('run') ?? '';
      const token = runTokens.get(id);
      if (q.get('xray') !== 'end' || !token) return json(res, 404, { message: `no run ${id}` });
      runTokens.delete(id);
      endpoint.revoke(token);
      hub.endRun(id, typeof body.exitCode === 'number' ? body.exitCode : null, typeof body.signal === 'string' ? body.signal : undefined);
      json(res, 200, {});
    });
  };
  // `control` runs only for requests, after the endpoint is listening.
  const endpoint: XrayEndpoint = await startXrayEndpoint({ kubeconfig: o.kubeconfig, launch: o.launch, hub, log: o.log, port: o.port, control });
  hub.startRun({ id: LONG_LIVED_RUN });
  endpoint.grant(longLived, { run: LONG_LIVED_RUN, allowExec: o.allowExec });
  const info = (): XrayEndpointInfo => ({ enabled: true, url: endpoint.url, allowExec: o.allowExec, bodyBudget: hub.budgets.body, journalBudget: hub.budgets.journal });
  const kubeconfig = () => xrayKubeconfig(o.kubeconfig, endpoint, longLived);
  const servers = () => Object.fromEntries(o.kubeconfig.list().contexts.map((c) => [c.name, c.server]));
  return {
    hub,
    endpoint,
    kubeconfig,
    pageRoutes: xrayPageRoutes({ hub, info, kubeconfig, servers }),
    close: () => endpoint.close(),
  };
}

// The page's X-ray routes, on the explorer's own server behind the browser's door (routes.ts
// checks Host, Origin and X-Explorer-Token before these run): the journal as a live NDJSON stream,
// the long-lived endpoint's kubeconfig, a run as a recording file, and the endpoint's state.
import { XRAY_HAR_PATH, XRAY_INFO_PATH, XRAY_KUBECONFIG_PATH, XRAY_STREAM_PATH, type XrayEndpointInfo, type XrayMessage } from '../../../protocol/xray';
import type { RawEndpoint } from '../routes';
import type { XrayHub } from './hub';

export interface XrayPageSources {
  hub: XrayHub;
  info: () => XrayEndpointInfo;
  /** The long-lived endpoint's kubeconfig, or undefined when it is off. */
  kubeconfig: () => string | undefined;
  /** Context → API server URL, for the recording's URLs. */
  servers: () => Record<string, string>;
}

const NO_STORE = { 'cache-control': 'no-store' };

export function xrayPageRoutes(x: XrayPageSources): Record<string, RawEndpoint> {
  return {
    [XRAY_STREAM_PATH]: (req, res) => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson', ...NO_STORE, 'x-content-type-options': 'nosniff' });
      res.flushHeaders();
      const write = (m: XrayMessage) => void res.write(`${JSON.stringify(m)}\n`);
      write({ type: 'hello', info: x.info() });
      const off = x.hub.subscribe({
        send: write,
        backlog: () => res.writableLength,
        overflow: () => {
          write({ type: 'overflow' });
          res.end();
        },
      });
      req.on('close', off);
      res.on('close', off);
    },
    [XRAY_KUBECONFIG_PATH]: (_req, res) => {
      const file = x.kubeconfig();
      if (file === undefined) {
        const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404, message: 'the X-ray endpoint is off in this explorer (replay mode)' });
        res.writeHead(404, { 'content-type': 'application/json', ...NO_STORE });
        return void res.end(body);
      }
      res.writeHead(200, { 'content-type': 'application/yaml', 'content-disposition': 'attachment; filename="xray-kubeconfig.yaml"', ...NO_STORE });
      res.end(file);
    },
    [XRAY_HAR_PATH]: (_req, res, query) => {
      const run = query.get('run') ?? undefined;
      const har = x.hub.journal.toHar(x.servers(), run);
      res.writeHead(200, { 'content-type': 'application/json', 'content-disposition': `attachment; filename="xray-${run ?? 'all'}.har"`, ...NO_STORE });
      res.end(JSON.stringify(har));
    },
    [XRAY_INFO_PATH]: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...NO_STORE });
      res.end(JSON.stringify(x.info()));
    },
  };
}

// Command-line flags, in kubectl's style, shared by `npm start` and the packaged `kubectl-api_explorer`
// (kubectl runs a plugin named kubectl-api_explorer for `kubectl api-explorer`, mapping `_` to `-`).
// Pure: argv and environment in, a decision out; main.ts does the I/O.
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

export const DEFAULT_PORT_FLAG = 7780;

export interface CliOptions {
  port: number;
  address: string;
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  local: boolean;
  allowExec: boolean;
  openBrowser: boolean;
  dev: boolean;
  /** A recording to replay without a cluster (--replay FILE). */
  replay?: string;
}

export type CliResult =
  | { kind: 'run'; options: CliOptions }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

/** The names a user may give to --address: loopback only, since the proxy holds cluster credentials. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost']);

/**
 * The name to show in usage lines: `kubectl api-explorer` runs the packaged kubectl-api_explorer,
 * `npx kube-api-explorer` the package's bin, and a checkout `npm start --`.
 */
export function programName(env: Record<string, string | undefined>, argv1: string | undefined): string {
  const event = env.npm_lifecycle_event;
  if (event && event !== 'npx') return `npm ${event === 'start' ? 'start' : `run ${event}`} --`;
  return basename(argv1 ?? 'kubectl-api_explorer').replace(/\.[cm]?[jt]s$/, '');
}

export function usage(program: string): string {
  return `Kube API Explorer: explore the raw Kubernetes API in your browser, through a proxy on 127.0.0.1.

Usage:
  ${program} [flags]
  ${program} check [flags]     check what an API server serves, without a browser (${program} check --help)

Flags:
      --kubeconfig FILE   kubeconfig to use (default: KUBECONFIG, else ~/.kube/config; with none at
                          all, the embedded local control plane is started)
      --context NAME      context selected when the page opens (default: the current-context)
  -n, --namespace NAME    namespace selected when the page opens (default: the context's namespace)
      --port N            port to serve on (default: PORT or ${DEFAULT_PORT_FLAG}; 0 picks a free one)
      --address ADDR      address to serve on; only loopback (127.0.0.1, localhost) is accepted
      --no-browser        do not open a browser (the URL is always printed)
      --local             start the embedded local control plane even when a kubeconfig exists
                          (needs Go to build it once, unless KUBEBUILDER_ASSETS names the binaries)
      --allow-exec        let exec/attach/portforward/proxy/ephemeralcontainers subresources
                          through (refused by default)
      --replay FILE       open a recording (a .har saved with the page's Record switch) without any
                          cluster: no kubeconfig is read and nothing is sent to any cluster
      --dev               serve the page through Vite's dev server (development checkouts only)
  -v, --version           print the version and exit
  -h, --help              print this help and exit`;
}

export function parseCli(argv: string[], env: Record<string, string | undefined> = {}): CliResult {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        address: { type: 'string' },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        namespace: { type: 'string', short: 'n' },
        local: { type: 'boolean', default: false },
        'allow-exec': { type: 'boolean', default: false },
        'no-browser': { type: 'boolean', default: false },
        dev: { type: 'boolean', default: false },
        replay: { type: 'string' },
        version: { type: 'boolean', short: 'v', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    return { kind: 'error', message: (e as Error).message };
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const portText = values.port ?? env.PORT;
  const given = portText !== undefined && portText !== '';
  const port = given ? Number(portText) : DEFAULT_PORT_FLAG;
  if ((given && !/^\d{1,5}$/.test(portText)) || port > 65535) {
    return { kind: 'error', message: `invalid port ${JSON.stringify(portText)}: a number from 0 to 65535 (0 picks a free port)` };
  }
  const address = values.address ?? '127.0.0.1';
  if (!LOOPBACK.has(address.toLowerCase())) {
    return {
      kind: 'error',
      message: `--address ${JSON.stringify(address)} refused: the explorer serves only on loopback (127.0.0.1 or localhost), because anyone who reaches it acts with your cluster credentials`,
    };
  }
  for (const key of ['kubeconfig', 'context', 'namespace', 'replay'] as const) {
    if (values[key] === '') return { kind: 'error', message: `--${key} needs a value` };
  }
  if (values.replay !== undefined && (values.local || values.kubeconfig !== undefined || values.context !== undefined)) {
    return { kind: 'error', message: '--replay opens a recording without any cluster: it excludes --local, --kubeconfig and --context' };
  }
  if (values.local && values.kubeconfig) return { kind: 'error', message: '--local and --kubeconfig exclude each other: --local starts its own control plane' };
  return {
    kind: 'run',
    options: {
      port,
      address: '127.0.0.1',
      kubeconfig: values.kubeconfig,
      context: values.context,
      namespace: values.namespace,
      local: values.local,
      allowExec: values['allow-exec'],
      openBrowser: !values['no-browser'],
      dev: values.dev,
      ...(values.replay !== undefined ? { replay: values.replay } : {}),
    },
  };
}

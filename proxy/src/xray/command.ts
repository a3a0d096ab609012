// `kubectl api-explorer xray [flags] -- COMMAND [ARGS…]`: runs COMMAND with a throw-away
// kubeconfig (mode 0600 in a private temporary folder, deleted at exit, Ctrl-C and SIGTERM
// included) whose contexts have the user's names, namespaces and current-context, each pointing at
// an X-ray endpoint with a token for this run only. Every request COMMAND makes goes to the
// cluster with the user's own credentials and is journaled; `--har FILE` saves the run as a
// recording (`--replay FILE` opens it). stdin, stdout and stderr are COMMAND's own (inherited);
// SIGINT, SIGTERM and SIGHUP are passed on to it; the exit code is its own (128+N after signal N).
//
// Where the endpoint runs: this process starts one of its own, unless `--attach FILE` (or
// KUBE_API_EXPLORER_XRAY=FILE) names the kubeconfig of a running explorer's long-lived endpoint
// (the page's "Connect a client" download, or the file the explorer prints at start): then the
// run is registered with that explorer (service.ts's run control) and its page shows it live.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import { findKubeconfig, Kubeconfig } from '../kubeconfig';
import { upstreamLaunch } from '../openUpstream';
import { startXrayEndpoint } from './endpoint';
import { XrayHub } from './hub';
import { xrayKubeconfig } from './kubeconfigFile';
import { newToken, runControl } from './service';

export function xrayUsage(program: string): string {
  return `Run a client through the explorer and see its own requests (X-ray).

Usage:
  ${program} xray [flags] -- COMMAND [ARGS...]

COMMAND runs with KUBECONFIG set to a throw-away kubeconfig (your context names, each pointing at a
loopback endpoint with a token for this run); its requests reach your clusters with your own
credentials, unchanged except for authentication. Its exit code, stdio and signals are its own.

Flags:
      --kubeconfig FILE   kubeconfig to use (default: KUBECONFIG, else ~/.kube/config)
      --context NAME      the throw-away kubeconfig's current-context (default: yours)
      --har FILE          save the run as a recording (open it with --replay FILE)
      --allow-exec        tunnel exec, attach and port-forward (refused by default)
      --attach FILE       show the run live in a running explorer: FILE is its X-ray kubeconfig
                          (default: KUBE_API_EXPLORER_XRAY)
  -h, --help              print this help and exit`;
}

interface XrayFlags {
  kubeconfig?: string;
  context?: string;
  har?: string;
  allowExec: boolean;
  attach?: string;
  command: string[];
}

export function parseXrayArgs(argv: string[], env: Record<string, string | undefined> = {}): { kind: 'run'; flags: XrayFlags } | { kind: 'help' } | { kind: 'error'; message: string } {
  const dash = argv.indexOf('--');
  const own = dash < 0 ? argv : argv.slice(0, dash);
  const command = dash < 0 ? [] : argv.slice(dash + 1);
  let values;
  try {
    ({ values } = parseArgs({
      args: own,
      options: { kubeconfig: { type: 'string' }, context: { type: 'string' }, har: { type: 'string' }, 'allow-exec': { type: 'boolean', default: false }, attach: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    return { kind: 'error', message: (e as Error).message };
  }
  if (values.help) return { kind: 'help' };
  if (command.length === 0) return { kind: 'error', message: 'xray needs a command after --, e.g. xray -- kubectl get pods' };
  const attach = values.attach ?? (env.KUBE_API_EXPLORER_XRAY || undefined);
  return { kind: 'run', flags: { kubeconfig: values.kubeconfig, context: values.context, har: values.har, allowExec: values['allow-exec'], ...(attach ? { attach } : {}), command } };
}

/** Where the run's requests go: an endpoint of this process, or a running explorer's. */
interface RunEndpoint {
  kubeconfig: string;
  end(exitCode: number | null, signal?: string): Promise<void>;
}

async function ownEndpoint(f: XrayFlags, log: (l: string) => void): Promise<RunEndpoint> {
  const files = findKubeconfig({ path: f.kubeconfig });
  if (!files) throw new Error('no kubeconfig found (--kubeconfig, KUBECONFIG, ~/.kube/config)');
  const kubeconfig = new Kubeconfig(files, { log });
  if (f.context !== undefined && !kubeconfig.contexts.some((c) => c.name === f.context)) throw new Error(`context ${JSON.stringify(f.context)} is not in ${files.join(', ')}`);
  const hub = new XrayHub();
  const endpoint = await startXrayEndpoint({ kubeconfig, launch: upstreamLaunch(), hub, log });
  const token = newToken();
  const run = hub.startRun({ argv: f.command, context: f.context ?? kubeconfig.current });
  endpoint.grant(token, { run: run.id, allowExec: f.allowExec });
  return {
    kubeconfig: xrayKubeconfig(kubeconfig, endpoint, token, f.context),
    async end(exitCode, signal) {
      await settled(hub);
      hub.endRun(run.id, exitCode, signal);
      if (f.har) writeFileSync(f.har, JSON.stringify(hub.journal.toHar(Object.fromEntries(kubeconfig.list().contexts.map((c) => [c.name, c.server])), run.id), null, 1));
      await endpoint.close();
      kubeconfig.destroy();
    },
  };
}

/**
 * The client has exited, but the endpoint may not have seen its last sockets close yet (a watch
 * cut by the exit): give them until the next turns of the event loop, at most a second.
 */
async function settled(hub: XrayHub): Promise<void> {
  const deadline = Date.now() + 1_000;
  while (Date.now() < deadline && [...hub.journal.exchanges.values()].some((x) => !x.end)) await new Promise((ok) => setTimeout(ok, 10));
}

interface AttachedFile {
  clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[];
  users: { name: string; user: { token: string } }[];
  'current-context': string;
}

async function attachedEndpoint(f: XrayFlags): Promise<RunEndpoint> {
  if (f.har) throw new Error('--har and --attach exclude each other: save the run from the explorer page (or its /proxy/xray/har)');
  const file = JSON.parse(readFileSync(f.attach!, 'utf8')) as AttachedFile;
  const server = new URL(file.clusters[0]!.cluster.server);
  const base = `${server.protocol}//${server.host}`;
  const longLived = file.users[0]!.user.token;
  const ca = Buffer.from(file.clusters[0]!.cluster['certificate-authority-data'], 'base64').toString();
  const call = async (query: string, body: unknown) => {
    const r = await runControl(base, ca, longLived, query, body).catch((e: Error) => ({ status: 0, body: { message: e.message } }));
    if (r.status !== 200) throw new Error(`the explorer at ${base} refused the run (${r.status || (r.body as { message: string }).message}): is it still running?`);
    return r.body as { id: string; token: string };
  };
  const run = await call('xray=run', { argv: f.command, context: f.context ?? file['current-context'] });
  const mine = { ...file, users: file.users.map((u) => ({ ...u, user: { token: run.token } })), 'current-context': f.context ?? file['current-context'] };
  return {
    kubeconfig: `${JSON.stringify(mine, null, 2)}\n`,
    async end(exitCode, signal) {
      await call(`xray=end&run=${encodeURIComponent(run.id)}`, { exitCode, ...(signal ? { signal } : {}) });
    },
  };
}

/** Runs the command; resolves to the exit code to exit with. */
export async function runXray(f: XrayFlags, log: (l: string) => void): Promise<number> {
  const endpoint = f.attach ? await attachedEndpoint(f) : await ownEndpoint(f, log);
  const dir = mkdtempSync(join(tmpdir(), 'kube-api-explorer-xray-'));
  const file = join(dir, 'kubeconfig');
  const removeFile = () => rmSync(dir, { recursive: true, force: true });
  // A last resort: whatever way this process ends, the file goes with it.
  process.once('exit', removeFile);
  writeFileSync(file, endpoint.kubeconfig, { mode: 0o600 });
  const child = spawn(f.command[0]!, f.command.slice(1), { stdio: 'inherit', env: { ...process.env, KUBECONFIG: file } });
  const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => [s, forward(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  const outcome = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((ok) => {
    child.once('error', (error) => ok({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => ok({ code, signal }));
  });
  for (const [s, h] of handlers) process.off(s, h);
  removeFile();
  await endpoint.end(outcome.code, outcome.signal ?? undefined);
  if (outcome.error) {
    log(`xray: cannot run ${f.command[0]}: ${outcome.error.message}`);
    return 127;
  }
  return outcome.code ?? 128 + (constants.signals[outcome.signal!] ?? 0);
}

export async function runXrayCommand(argv: string[], program: string): Promise<number> {
  const parsed = parseXrayArgs(argv, process.env);
  if (parsed.kind === 'help') {
    process.stdout.write(`${xrayUsage(program)}\n`);
    return 0;
  }
  if (parsed.kind === 'error') {
    process.stderr.write(`error: ${parsed.message}\n\n${xrayUsage(program)}\n`);
    return 2;
  }
  try {
    return await runXray(parsed.flags, (l) => process.stderr.write(`${l}\n`));
  } catch (e) {
    process.stderr.write(`xray: ${(e as Error).message}\n`);
    return 1;
  }
}

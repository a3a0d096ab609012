// `npm start` / `npm run dev`: reads flags and environment, starts the explorer server, and stops it
// (and a local control plane it started) on Ctrl-C.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser } from './browser';
import { parseCli, programName, usage } from './cli';
import { startExplorerServer } from './server';
import { versionText } from './version';

const PROGRAM = programName(process.env, process.argv[1]);

function fail(message: string): never {
  process.stderr.write(`error: ${message}\n\n${usage(PROGRAM)}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const cli = parseCli(process.argv.slice(2), process.env);
  if (cli.kind === 'error') fail(cli.message);
  if (cli.kind === 'help') return void process.stdout.write(`${usage(PROGRAM)}\n`);
  if (cli.kind === 'version') return void process.stdout.write(`${versionText()}\n`);
  const values = cli.options;

  const server = await startExplorerServer({
    port: values.port,
    kubeconfigPath: values.kubeconfig,
    local: values.local,
    context: values.context,
    namespace: values.namespace,
    dev: values.dev,
    allowExec: values.allowExec,
    replay: values.replay,
    log: (l) => process.stderr.write(`${l}\n`),
  });
  process.stdout.write(`Kube API Explorer${values.dev ? ' (dev)' : ''}: ${server.url}\n`);
  if (values.replay !== undefined) process.stdout.write(`  replaying ${values.replay}: read-only, nothing is sent to any cluster\n`);
  else process.stdout.write(`  contexts from ${server.kubeconfigFiles.join(', ')}${server.controlPlane ? ' (local control plane)' : ''}\n`);
  // The long-lived X-ray endpoint's kubeconfig, for clients that are not one command (a controller
  // in an IDE, a notebook): a private file, removed when the explorer stops (its token dies then too).
  let xrayDir: string | undefined;
  if (server.xray) {
    xrayDir = mkdtempSync(join(tmpdir(), 'kube-api-explorer-'));
    const file = join(xrayDir, 'xray-kubeconfig.yaml');
    writeFileSync(file, server.xray.kubeconfig(), { mode: 0o600 });
    process.stdout.write(`  X-ray (docs/xray.md): export KUBECONFIG=${file}   or   ${PROGRAM} xray --attach ${file} -- COMMAND\n`);
    process.once('exit', () => rmSync(xrayDir!, { recursive: true, force: true }));
  }
  if (values.allowExec) process.stdout.write('  --allow-exec: exec/attach/portforward/proxy/ephemeralcontainers subresources are NOT refused\n');
  if (values.openBrowser && !openBrowser(server.url, (l) => process.stderr.write(`${l}\n`))) {
    process.stdout.write('  (no browser found to open: open the URL above yourself)\n');
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`${signal} again: exiting now\n`);
      process.exit(130);
    }
    stopping = true;
    process.stderr.write(`\n${signal}: stopping${server.controlPlane ? ' (and the local control plane)' : ''}...\n`);
    server.close().then(
      () => process.exit(0),
      (e: unknown) => {
        process.stderr.write(`error while stopping: ${(e as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // A closed terminal: stop in order too (the control plane's watchdog covers a SIGKILL).
  process.on('SIGHUP', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).message ?? String(e)}\n`);
  process.exit(1);
});

// `npm start` / `npm run dev`: reads flags and environment, starts the explorer server, and stops it
// (and a local control plane it started) on Ctrl-C.
import { parseArgs } from 'node:util';
import { DEFAULT_PORT, startExplorerServer } from './server';

const USAGE = `Usage: npm start -- [--port N] [--kubeconfig FILE] [--dev] [--allow-exec]

  --port N           port on 127.0.0.1 (default: PORT or ${DEFAULT_PORT}; 0 = any free port)
  --kubeconfig FILE  kubeconfig to use (default: KUBECONFIG, else ~/.kube/config; with none at
                     all, a local control plane is started in .cluster/)
  --dev              serve the explorer through Vite's dev server (hot reload)
  --allow-exec       let exec/attach/portforward/proxy/ephemeralcontainers subresources through
                     (refused by default)`;

function fail(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        kubeconfig: { type: 'string' },
        dev: { type: 'boolean', default: false },
        'allow-exec': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const portText = values.port ?? process.env.PORT;
  const port = portText === undefined || portText === '' ? DEFAULT_PORT : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`invalid port ${JSON.stringify(portText)}`);

  const server = await startExplorerServer({
    port,
    kubeconfigPath: values.kubeconfig,
    dev: values.dev,
    allowExec: values['allow-exec'],
    log: (l) => process.stderr.write(`${l}\n`),
  });
  process.stdout.write(`Kube API Explorer${values.dev ? ' (dev)' : ''}: ${server.url}\n`);
  process.stdout.write(`  contexts from ${server.kubeconfigFiles.join(', ')}${server.controlPlane ? ' (local control plane)' : ''}\n`);
  if (values['allow-exec']) process.stdout.write('  --allow-exec: exec/attach/portforward/proxy subresources are NOT refused\n');

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

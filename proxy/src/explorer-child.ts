// The explorer server in a process of its own, for tests that measure its memory: started with a
// kubeconfig (argv[2]) and an empty static folder (argv[3]), optionally `node` (argv[4]) for the
// node:https forwarder; prints {port, token} as one JSON line.
import { startExplorerServer } from './server';

const upstreamClient = process.argv[4] === 'node' ? 'node' : 'undici';
const srv = await startExplorerServer({ port: 0, kubeconfigPath: process.argv[2]!, staticDir: process.argv[3]!, log: () => undefined, upstreamClient });
process.stdout.write(`${JSON.stringify({ port: srv.port, token: srv.token })}\n`);
process.on('SIGTERM', () => void srv.close().then(() => process.exit(0)));

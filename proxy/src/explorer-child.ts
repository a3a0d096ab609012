// The explorer server in a process of its own, for tests that measure its memory: started with a
// kubeconfig (argv[2]) and an empty static folder (argv[3]); prints {port, token} as one JSON line.
import { startExplorerServer } from './server';

const srv = await startExplorerServer({ port: 0, kubeconfigPath: process.argv[2]!, staticDir: process.argv[3]!, log: () => undefined });
process.stdout.write(`${JSON.stringify({ port: srv.port, token: srv.token })}\n`);
process.on('SIGTERM', () => void srv.close().then(() => process.exit(0)));

// The explorer server in a process of its own, for tests that measure its memory: started with a
// kubeconfig (argv[2]) and an empty static folder (argv[3]); prints {port, token, xray} as one JSON
// line (xray: the long-lived X-ray endpoint's kubeconfig, for the X-ray bench).
// On SIGUSR2 it collects garbage (when started with --expose-gc) and prints its memoryUsage() as
// one more JSON line: what it *holds*, which unlike RSS does not count buffers that a later GC
// would free.
import { startExplorerServer } from './server';

const srv = await startExplorerServer({ port: 0, kubeconfigPath: process.argv[2]!, staticDir: process.argv[3]!, log: () => undefined });
process.stdout.write(`${JSON.stringify({ port: srv.port, token: srv.token, xray: srv.xray?.kubeconfig() })}\n`);
process.on('SIGTERM', () => void srv.close().then(() => process.exit(0)));
const gc = (globalThis as { gc?: () => void }).gc;
process.on('SIGUSR2', () => {
  // V8 frees ArrayBuffers' memory in a sweeper task after the GC, so memoryUsage() right after
  // gc() can still count Buffers nobody holds (10–30 MiB of them were seen here): collect, let
  // the sweeper run, collect again, then report.
  gc?.();
  setTimeout(() => {
    gc?.();
    process.stdout.write(`${JSON.stringify(process.memoryUsage())}\n`);
  }, 200);
});

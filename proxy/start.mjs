// `npm start`: runs the explorer server (proxy/src/main.ts) from one esbuild bundle of our own
// modules with plain node (proxy/bundle.mjs), as the packaged kubectl-api_explorer runs it,
// instead of transpiling on the fly with tsx (`npm run dev` still does, beside Vite).
//
// Why: measured side by side in one run, the same server code bundled and run by node added
// 0.88-0.96x the small-GET latency of the tsx-run one, and `--version` answers in 1.5 s instead
// of 3.7 s (no loader thread, no transpiling at start).
import { pathToFileURL } from 'node:url';
import { freshBundle } from './bundle.mjs';

// cli/entry.ts: `check` runs the headless check, anything else the server (proxy/src/main.ts).
await import(pathToFileURL(await freshBundle('cli/entry.ts', 'server.mjs')).href);

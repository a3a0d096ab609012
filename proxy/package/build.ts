// `npm run package`: one executable, `kubectl-api_explorer`, that holds the proxy and the built page
// and runs with nothing else installed: a Node single-executable application (SEA).
//
//   1. vite build (when dist/ is missing or stale)
//   2. esbuild bundles cli/entry.ts (the server, and `check`) and everything it imports into one CommonJS file (a SEA's
//      main script must be CommonJS and may require() only Node's built-in modules)
//   3. `node --experimental-sea-config` turns it into a blob, with dist/ and the control plane's Go
//      wrapper modules (proxy/cluster/go/) as SEA assets (the `assets` field exists since Node
//      20.12 / 21.7)
//   4. a copy of the node binary gets the blob injected with postject
//
// The result runs on the platform of the node binary used (this one's by default, or --node FILE
// of the same Node version for another platform of the same OS family).
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build, type Plugin } from 'esbuild';
import { kubeConfigOnly } from '../bundle.mjs';
import { ensureBuilt, REPO_ROOT } from '../src/static';
import { MANIFEST_KEY, type Manifest } from './embedded';

export const EXECUTABLE = `kubectl-api_explorer${process.platform === 'win32' ? '.exe' : ''}`;
/** Marks where postject may write the blob; the same string is compiled into node (src/node_sea.cc). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

export interface PackageOptions {
  /** Output folder (default out/ in the checkout). */
  outDir?: string;
  /** Node binary to turn into the executable (default: the running one). */
  node?: string;
  log?: (line: string) => void;
}

/**
 * Optional native helpers that dependencies require() inside try/catch (ws: bufferutil,
 * utf-8-validate; debug: supports-color; node-fetch: encoding). Left external they would make the
 * SEA warn that its require() loads only built-in modules; bundled as modules that throw, the
 * dependencies take their pure-JS paths as they do when the helpers are not installed.
 */
export const absentOptionals: Plugin = {
  name: 'absent-optionals',
  setup(b) {
    b.onResolve({ filter: /^(bufferutil|utf-8-validate|supports-color|encoding)$/ }, (args) => ({ path: args.path, namespace: 'absent' }));
    b.onLoad({ filter: /.*/, namespace: 'absent' }, (args) => ({ contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the package`)});`, loader: 'js' }));
  },
};

export interface PackageResult {
  executable: string;
  bytes: number;
  /** Seconds per step, for the numbers in docs/install.md. */
  seconds: { page: number; bundle: number; blob: number; inject: number; total: number };
}

function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(relative(root, p).split(sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

export async function buildPackage(opts: PackageOptions = {}): Promise<PackageResult> {
  const log = opts.log ?? ((l: string) => process.stderr.write(`${l}\n`));
  const outDir = resolve(opts.outDir ?? join(REPO_ROOT, 'out'));
  const work = join(outDir, '.work');
  const node = opts.node ?? process.execPath;
  const t0 = Date.now();
  const lap = (() => {
    let last = t0;
    return () => {
      const now = Date.now();
      const s = (now - last) / 1000;
      last = now;
      return s;
    };
  })();

  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

  const dist = join(REPO_ROOT, 'dist');
  await ensureBuilt(REPO_ROOT, dist, log);
  const page = lap();

  const mainFile = join(work, 'main.cjs');
  const result = await build({
    // The program's entry: `check` (cli/check) or the server (proxy/src/main.ts).
    entryPoints: [join(REPO_ROOT, 'cli/entry.ts')],
    outfile: mainFile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Vite is used only by --dev and to build a missing dist/, neither of which the package does.
    external: ['vite'],
    define: {
      __EXPLORER_VERSION__: JSON.stringify(version),
      // ES module code asks import.meta.url for its own location; in the bundle that is the executable.
      'import.meta.url': '__explorer_import_meta_url',
    },
    banner: { js: 'var __explorer_import_meta_url = require("node:url").pathToFileURL(__filename).href;' },
    // KubeConfig without client-node's generated API clients, as npm start's bundle (bundle.mjs).
    plugins: [kubeConfigOnly, absentOptionals],
    legalComments: 'none',
    logLevel: 'warning',
  });
  if (result.errors.length) throw new Error(`esbuild failed: ${result.errors.map((e) => e.text).join('; ')}`);
  const bundle = lap();

  const goRoot = join(REPO_ROOT, 'proxy/cluster/go');
  // Source maps are left out: they are for the explorer's developers and are two thirds of dist/.
  const manifest: Manifest = { version, dist: filesUnder(dist).filter((f) => !f.endsWith('.map')), go: filesUnder(goRoot) };
  if (!manifest.dist.includes('index.html')) throw new Error(`${dist} has no index.html`);
  const manifestFile = join(work, 'manifest.json');
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const assets: Record<string, string> = { [MANIFEST_KEY]: manifestFile };
  for (const f of manifest.dist) assets[`dist/${f}`] = join(dist, f);
  for (const f of manifest.go) assets[`go/${f}`] = join(goRoot, f);
  const blob = join(work, 'sea-prep.blob');
  const config = join(work, 'sea-config.json');
  writeFileSync(config, JSON.stringify({ main: mainFile, output: blob, disableExperimentalSEAWarning: true, useCodeCache: false, useSnapshot: false, assets }, null, 2));
  // The blob must be made by the same Node version that runs it (--node: same version, other platform).
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  const blobTime = lap();

  // A node built without SEA support (some distributions' packages) lacks the fuse postject looks for.
  if (!readFileSync(node).includes(Buffer.from(`${SEA_FUSE}:0`))) {
    throw new Error(`${node} has no single-executable fuse (${SEA_FUSE}): use an official Node.js build (nodejs.org or nodesource), or pass one with --node`);
  }
  mkdirSync(outDir, { recursive: true });
  const executable = join(outDir, EXECUTABLE);
  rmSync(executable, { force: true });
  copyFileSync(node, executable);
  chmodSync(executable, 0o755);
  // postject's API; its CommonJS build exports inject().
  const { inject } = await import('postject');
  await inject(executable, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE, ...(process.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}) });
  const injectTime = lap();
  rmSync(work, { recursive: true, force: true });

  const bytes = statSync(executable).size;
  const seconds = { page, bundle, blob: blobTime, inject: injectTime, total: (Date.now() - t0) / 1000 };
  log(`${executable}: ${(bytes / 1024 / 1024).toFixed(1)} MiB in ${seconds.total.toFixed(1)} s (page ${page.toFixed(1)} s, bundle ${bundle.toFixed(1)} s, blob ${blobTime.toFixed(1)} s, inject ${injectTime.toFixed(1)} s)`);
  if (process.platform === 'darwin') log('macOS: sign it before use: codesign --sign - ' + executable);
  return { executable, bytes, seconds };
}

async function cli(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, node: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write('Usage: npm run package -- [--out DIR] [--node NODE_BINARY]\n  Builds out/kubectl-api_explorer, one executable with the proxy and the page.\n');
    return;
  }
  if (values.node && !existsSync(values.node)) throw new Error(`--node ${values.node} does not exist`);
  const r = await buildPackage({ outDir: values.out, node: values.node });
  process.stdout.write(`${r.executable}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  cli().catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}

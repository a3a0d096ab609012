// One esbuild bundle of an entry of ours (proxy/ and protocol/ modules, and the part of
// @kubernetes/client-node we use; other dependencies stay in node_modules), for plain node: `npm
// start` runs the explorer server from one (proxy/start.mjs), and the proxy bench runs its explorer
// the same way. Plain JavaScript: it runs before anything could transpile TypeScript.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// src/ and cli/: `check` (cli/check) runs the page's probes (src/k8s/serving) through the proxy.
const sources = ['proxy/src', 'proxy/cluster', 'protocol', 'cli', 'src'].map((d) => join(root, d));

/**
 * Newest modification time of the TypeScript files under the source folders (tests included: cheap,
 * and never wrong), of this file (how bundles are made) and of the installed packages' lock (the
 * bundle holds some of them).
 */
function newestSource() {
  let newest = 0;
  for (const f of ['package.json', 'package-lock.json', 'node_modules/.package-lock.json', 'proxy/bundle.mjs']) {
    try {
      newest = Math.max(newest, statSync(join(root, f)).mtimeMs);
    } catch {
      // Not there (no lock file yet): the others decide.
    }
  }
  const walk = (dir) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'go') continue;
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of sources) walk(d);
  return newest;
}

/**
 * Our modules ask import.meta.url where they are (the repository root, the Go wrapper modules);
 * in one bundle that would be the bundle's own place, so each keeps its source file's URL.
 */
const keepModuleUrls = {
  name: 'keep-module-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
      loader: 'ts',
    }));
  },
};

/** client-node's KubeConfig module (the package has no exports map: its files are its interface). */
const CLIENT_NODE_CONFIG = createRequire(import.meta.url).resolve('@kubernetes/client-node/dist/config.js');

/**
 * @kubernetes/client-node for the explorer server: KubeConfig and what it needs (exec, OIDC, Azure
 * and GCP auth, proxies), without the generated API clients and models.
 *
 * Why: the package's index, and config.js itself through './gen/index.js', load every generated
 * API client and model: 27 MiB of the server's 28 MiB heap after start, measured. A list streaming
 * through the proxy allocates a buffer per TLS record (5.3 MiB for a 10,000-ConfigMap list), and
 * V8 answers that external memory with a full mark-compact of the old generation about once per
 * list; each one marked those 27 MiB again. With them gone (heap 14 MiB after start), the same
 * list cost the server 30–34 ms of CPU instead of 37–44 (60 lists each, after 5,000 small GETs,
 * side by side). The server calls none of them: config.js wants only createConfiguration and
 * ServerConfiguration from './gen/index.js' (for makeApiClient, which we never call), so that
 * import gets a module that exports just those two from their own files. Any other name imported
 * from '@kubernetes/client-node' fails the build ("No matching export"), never the running server.
 */
export const kubeConfigOnly = {
  name: 'kubeconfig-only',
  setup(b) {
    b.onResolve({ filter: /^@kubernetes\/client-node$/ }, () => ({ path: CLIENT_NODE_CONFIG }));
    b.onResolve({ filter: /^\.\/gen\/index\.js$/ }, (args) =>
      args.importer === CLIENT_NODE_CONFIG ? { path: join(dirname(CLIENT_NODE_CONFIG), 'gen', 'config-only.js'), namespace: 'kubeconfig-only' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'kubeconfig-only' }, (args) => ({
      contents: "export { createConfiguration } from './configuration.js';\nexport { ServerConfiguration } from './servers.js';\n",
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * Dependencies stay in node_modules (node loads them as usual), except client-node and what it
 * imports, which are bundled (see kubeConfigOnly): a bare import from one of our files is
 * external unless it names client-node; one from inside node_modules is bundled.
 */
const ownImportsExternal = {
  name: 'own-imports-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path === '@kubernetes/client-node' || args.importer.includes(`${sep}node_modules${sep}`)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/**
 * The bundle of `entry` (a path from the repository root) in node_modules/.cache/kube-api-explorer/,
 * built again when a source file is newer than it (about 0.1 s). Returns its path.
 */
export async function freshBundle(entry, name) {
  const out = join(root, 'node_modules', '.cache', 'kube-api-explorer', name);
  let fresh;
  try {
    fresh = statSync(out).mtimeMs >= newestSource();
  } catch {
    fresh = false;
  }
  if (!fresh) {
    mkdirSync(dirname(out), { recursive: true });
    await build({
      entryPoints: [join(root, entry)],
      outfile: out,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      plugins: [kubeConfigOnly, ownImportsExternal, keepModuleUrls],
      // client-node's CommonJS dependencies (node-fetch, socks-proxy-agent, …) require() Node's
      // built-in modules, which an ES module bundle must provide.
      banner: { js: "import { createRequire as __bundleCreateRequire } from 'node:module';\nconst require = __bundleCreateRequire(import.meta.url);" },
      logLevel: 'warning',
    });
  }
  return out;
}

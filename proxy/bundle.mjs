// One esbuild bundle of an entry of ours (proxy/ and protocol/ modules; dependencies stay in
// node_modules), for plain node: `npm start` runs the explorer server from one (proxy/start.mjs),
// and the proxy bench runs its explorer the same way. Plain JavaScript: it runs before anything
// could transpile TypeScript.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const sources = ['proxy/src', 'proxy/cluster', 'protocol'].map((d) => join(root, d));

/** Newest modification time of the TypeScript files under the source folders (tests included: cheap, and never wrong). */
function newestSource() {
  let newest = statSync(join(root, 'package.json')).mtimeMs;
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

/**
 * The bundle of `entry` (a path from the repository root) in node_modules/.cache/kube-api-explorer/,
 * built again when a source file is newer than it (about 50 ms). Returns its path.
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
      packages: 'external',
      plugins: [keepModuleUrls],
      logLevel: 'warning',
    });
  }
  return out;
}

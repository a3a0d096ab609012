// `npm pack` / `npm publish` (the prepack script): what `npx kube-api-explorer` runs. The built
// page (dist/) and one ES module, bin/kube-api-explorer.mjs, bundling cli/entry.ts with every
// dependency it imports, so that an install needs nothing but Node 20+: no dependency is left
// for npm to fetch (package.json's are all for building and testing).
//
// Our modules ask import.meta.url where they are (the page next to the repository root, the Go
// wrapper modules of the local control plane); in the bundle each gets the URL its source file
// would have in the installed package, from the bundle's own place (bin/ is one level down).
import { readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { kubeConfigOnly } from '../bundle.mjs';
import { ensureBuilt, REPO_ROOT } from '../src/static';
import { absentOptionals } from './build';

export const NPM_BIN = 'bin/kube-api-explorer.mjs';

const packageUrls: Plugin = {
  name: 'package-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
      const fromRoot = relative(REPO_ROOT, args.path).split(sep).join('/');
      return {
        contents: readFileSync(args.path, 'utf8').replaceAll('import.meta.url', `new URL(${JSON.stringify(`../${fromRoot}`)}, import.meta.url).href`),
        loader: 'ts',
      };
    });
  },
};

export async function buildNpmBin(log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<string> {
  await ensureBuilt(REPO_ROOT, join(REPO_ROOT, 'dist'), log);
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const outfile = join(REPO_ROOT, NPM_BIN);
  const result = await build({
    entryPoints: [join(REPO_ROOT, 'cli/entry.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Vite serves --dev and builds a missing page: neither happens in the package (the page is inside).
    external: ['vite'],
    define: { __EXPLORER_VERSION__: JSON.stringify(version) },
    // CommonJS dependencies require() Node's built-in modules, which an ES module must provide.
    banner: { js: "#!/usr/bin/env node\nimport { createRequire as __bundleCreateRequire } from 'node:module';\nconst require = __bundleCreateRequire(import.meta.url);" },
    plugins: [kubeConfigOnly, absentOptionals, packageUrls],
    legalComments: 'none',
    logLevel: 'warning',
  });
  if (result.errors.length) throw new Error(`esbuild failed: ${result.errors.map((e) => e.text).join('; ')}`);
  log(`${outfile}: the npm package's program`);
  return outfile;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildNpmBin().catch((e: unknown) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}

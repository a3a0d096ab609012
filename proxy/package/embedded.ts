// What the packaged executable (a Node single-executable application, see ./build.ts) carries
// inside itself: the built page (dist/) and the Go wrapper modules of the local control plane, as
// SEA assets. Outside the package (npm start, tests) isSea() is false and every function here
// returns undefined, so callers fall back to the files of the checkout.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { getAsset, isSea } from 'node:sea';

/** The asset listing every embedded file: `{ "dist": [...], "go": [...] }`, paths relative to each root. */
export const MANIFEST_KEY = 'manifest.json';

export interface Manifest {
  version: string;
  dist: string[];
  go: string[];
}

let manifest: Manifest | null | undefined;

/** The manifest when running as the packaged executable; undefined otherwise. */
export function embedded(): Manifest | undefined {
  if (manifest === undefined) {
    manifest = null;
    try {
      if (isSea()) manifest = JSON.parse(getAsset(MANIFEST_KEY, 'utf8')) as Manifest;
    } catch {
      manifest = null;
    }
  }
  return manifest ?? undefined;
}

/** One embedded file's bytes (`dist/index.html`, `go/go.mod`). */
export function embeddedAsset(key: string): Buffer {
  return Buffer.from(getAsset(key));
}

let goDir: string | undefined;

/**
 * The Go wrapper modules the control plane is built from, written out once per process into a
 * temp folder (go build needs real files). Their content is what the binary cache is keyed by, so
 * a cache filled by a checkout of the same version is reused as is.
 */
export function embeddedGoDir(): string | undefined {
  const m = embedded();
  if (!m) return undefined;
  if (goDir) return goDir;
  const dir = mkdtempSync(join(tmpdir(), 'kube-api-explorer-go-'));
  for (const rel of m.go) {
    const file = join(dir, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, embeddedAsset(`go/${rel}`));
  }
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  goDir = dir;
  return dir;
}

/** Where the packaged executable keeps its local control plane's state (a checkout uses .cluster/). */
export function embeddedClusterDir(): string | undefined {
  if (!embedded()) return undefined;
  const base = process.env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state');
  return join(base, 'kube-api-explorer', 'cluster');
}

// What the packaged executable (a Node single-executable application, see ./build.ts) carries
// inside itself: the built page (dist/) and the Go wrapper modules of the local control plane, as
// SEA assets. Outside the package (npm start, tests) isSea() is false and every function here
// returns undefined, so callers fall back to the files of the checkout.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { dirname, extname, join, posix } from 'node:path';
import { getAsset, isSea } from 'node:sea';
import { CONTENT_TYPES as TYPES } from '../src/static';

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

function asset(key: string): Buffer {
  return Buffer.from(getAsset(key));
}


/**
 * Serves the embedded dist/ with the rules of static.ts's createStaticPages: hashed assets/ are
 * immutable, extension-less paths are client routes (index.html, with the per-launch token).
 */
export function createEmbeddedPages(token: string, injectToken: (html: string, token: string) => string) {
  const m = embedded();
  if (!m) throw new Error('not running as the packaged executable');
  const files = new Set(m.dist);
  const send = (res: ServerResponse, code: number, text: string) => {
    res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end(text);
  };
  const indexHtml = asset('dist/index.html').toString('utf8');
  return {
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('allow', 'GET, HEAD');
        return send(res, 405, 'method not allowed');
      }
      const pathname = (req.url ?? '/').split('?')[0]!;
      let decoded: string;
      try {
        decoded = decodeURIComponent(pathname);
      } catch {
        return send(res, 400, 'bad path');
      }
      if (decoded.includes('\0') || decoded.split(/[/\\]/).includes('..')) return send(res, 400, 'bad path');
      const head = req.method === 'HEAD';
      if (pathname !== '/' && pathname !== '/index.html') {
        const rel = posix.normalize(decoded).replace(/^\/+/, '');
        if (files.has(rel)) {
          const body = asset(`dist/${rel}`);
          res.writeHead(200, {
            'content-type': TYPES[extname(rel).toLowerCase()] ?? 'application/octet-stream',
            'content-length': body.length,
            'cache-control': rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          });
          return void res.end(head ? undefined : body);
        }
        if (extname(pathname) !== '') return send(res, 404, 'not found');
      }
      const body = Buffer.from(injectToken(indexHtml, token));
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': body.length });
      res.end(head ? undefined : body);
    },
    async close() {},
  };
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
    writeFileSync(file, asset(`go/${rel}`));
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

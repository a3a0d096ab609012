// The explorer page: built files from dist/ (npm start) or Vite in middleware mode (npm run dev),
// on the proxy's own origin. index.html gets the per-launch token and is never cached.
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EventEmitter } from 'node:events';
import { pipeline } from 'node:stream';
import { extname, join, posix, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const TOKEN_PLACEHOLDER = '__EXPLORER_TOKEN__';

/** The repository root (proxy/src/ is two levels down). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Content-Types of the page's files, by extension (also for the packaged executable's embedded copy). */
export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

export interface PageServer {
  /** Serves a non-API request (the page, its assets, client-side routes). */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  close(): Promise<void>;
}

export function injectToken(html: string, token: string): string {
  return html.split(TOKEN_PLACEHOLDER).join(token);
}

function sendText(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

function sendIndex(res: ServerResponse, html: string, head: boolean): void {
  const body = Buffer.from(html);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': body.length });
  res.end(head ? undefined : body);
}

/** A request for a client-side route (no file extension), answered with index.html. */
function isPageRoute(pathname: string): boolean {
  return extname(pathname) === '';
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Runs `vite build` when dist/ is missing or older than the sources it is built from. */
export async function ensureBuilt(root: string, outDir: string, log: (l: string) => void): Promise<void> {
  const index = join(outDir, 'index.html');
  const sources = ['src', 'protocol', 'public', 'index.html', 'vite.config.ts'].map((p) => newestMtime(join(root, p)));
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (built && built >= Math.max(...sources)) return;
  log(built ? 'The explorer sources changed since the last build: running vite build...' : 'No build of the explorer yet: running vite build...');
  const { build } = await import('vite');
  const started = Date.now();
  // 'error': bundler notices about dependencies ("use client" directives) are not the user's business here.
  await build({ root, logLevel: 'error', build: { outDir } });
  log(`Built the explorer into ${outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/** Serves built files from `dir`; unknown extension-less paths get index.html (client routes). */
/** Where the page's files come from: dist/ on disk, or the packaged executable's embedded copy. */
export interface PageFiles {
  /** A file by its path under the root (`assets/index-abc.js`), or undefined when there is none. */
  file(rel: string): { size: number; send(res: ServerResponse): void } | undefined;
  /** index.html as text; undefined when the page is not built. */
  index(): string | undefined;
  /** What a 503 says when index.html is missing. */
  notBuilt: string;
}

/**
 * The one page server, for dist/ and the embedded copy alike (its path checks are security code:
 * one copy). Hashed assets/ are immutable, extension-less paths are client routes (index.html,
 * with the per-launch token), and a path with `..` or NUL, raw or percent-encoded, is refused.
 */
export function servePages(files: PageFiles, token: string): PageServer {
  return {
    async handle(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('allow', 'GET, HEAD');
        return sendText(res, 405, 'method not allowed');
      }
      const pathname = (req.url ?? '/').split('?')[0]!;
      let decoded: string;
      try {
        decoded = decodeURIComponent(pathname);
      } catch {
        return sendText(res, 400, 'bad path');
      }
      if (decoded.includes('\0') || decoded.split(/[/\\]/).includes('..')) return sendText(res, 400, 'bad path');
      const head = req.method === 'HEAD';
      if (pathname !== '/' && pathname !== '/index.html') {
        const rel = posix.normalize(decoded).replace(/^\/+/, '');
        const file = files.file(rel);
        if (file) {
          res.writeHead(200, {
            'content-type': CONTENT_TYPES[extname(rel).toLowerCase()] ?? 'application/octet-stream',
            'content-length': file.size,
            // Vite puts content-hashed files under assets/: cache them forever; the rest revalidates.
            'cache-control': rel.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          });
          if (head) return void res.end();
          return file.send(res);
        }
        if (!isPageRoute(pathname)) return sendText(res, 404, 'not found');
      }
      const index = files.index();
      if (index === undefined) return sendText(res, 503, files.notBuilt);
      sendIndex(res, injectToken(index, token), head);
    },
    async close() {},
  };
}

/** The built page in `dir` (dist/). */
export function createStaticPages(dir: string, token: string): PageServer {
  const root = resolve(dir);
  const indexFile = join(root, 'index.html');
  return servePages(
    {
      file(rel) {
        const file = join(root, rel);
        const st = file.startsWith(root + sep) && existsSync(file) ? statSync(file) : undefined;
        if (!st?.isFile()) return undefined;
        // pipeline, not pipe: a client that goes away also closes the file.
        return { size: st.size, send: (res) => pipeline(createReadStream(file), res, () => undefined) };
      },
      index: () => (existsSync(indexFile) ? readFileSync(indexFile, 'utf8') : undefined),
      notBuilt: `the explorer is not built: ${indexFile} is missing (run npm run build)`,
    },
    token,
  );
}

/**
 * Vite's dev server in middleware mode on our origin. Its HMR socket is handed upgrades through an
 * emitter that we feed only after our own Host/Origin checks, instead of our http server itself.
 */
export async function createDevPages(root: string, token: string): Promise<PageServer & { hmrUpgrades: EventEmitter }> {
  const { createServer } = await import('vite');
  const hmrUpgrades = new EventEmitter();
  const vite = await createServer({
    root,
    appType: 'custom',
    server: { middlewareMode: true, ws: { server: hmrUpgrades as unknown as import('node:http').Server } },
  });
  return {
    hmrUpgrades,
    async handle(req, res) {
      const pathname = (req.url ?? '/').split('?')[0]!;
      const wantsHtml = (req.headers.accept ?? '').includes('text/html');
      if ((req.method === 'GET' || req.method === 'HEAD') && (pathname === '/' || pathname === '/index.html' || (wantsHtml && extname(pathname) === ''))) {
        try {
          const html = await vite.transformIndexHtml(req.url ?? '/', readFileSync(join(root, 'index.html'), 'utf8'));
          return sendIndex(res, injectToken(html, token), req.method === 'HEAD');
        } catch (e) {
          vite.ssrFixStacktrace(e as Error);
          return sendText(res, 500, (e as Error).message);
        }
      }
      vite.middlewares(req, res, () => sendText(res, 404, 'not found'));
    },
    async close() {
      await vite.close();
    },
  };
}

// The page as the packaged executable carries it (SEA assets listed in its manifest), served by
// the same page server as dist/ on disk.
import { embedded, embeddedAsset } from '../package/embedded';
import { type PageServer, servePages } from './static';

export function createEmbeddedPages(token: string): PageServer {
  const m = embedded();
  if (!m) throw new Error('not running as the packaged executable');
  const files = new Set(m.dist);
  const indexHtml = embeddedAsset('dist/index.html').toString('utf8');
  return servePages(
    {
      file(rel) {
        if (!files.has(rel)) return undefined;
        const body = embeddedAsset(`dist/${rel}`);
        return { size: body.length, send: (res) => void res.end(body) };
      },
      index: () => indexHtml,
      notBuilt: 'the executable carries no page',
    },
    token,
  );
}

// @kubernetes/client-node 2.x depends on undici 8, which declares Node >= 22.19 and, at load time,
// reads two APIs Node 20 lacks (zlib.createZstdDecompress, worker_threads.markAsUncloneable). The
// proxy never goes through undici (it uses node:https; client-node only builds undici dispatchers
// for its own generated API clients), so on Node 20 harmless stand-ins let the library load.
// Import this module before @kubernetes/client-node. Remove it once the project requires Node 22.
import workerThreads from 'node:worker_threads';
import zlib from 'node:zlib';

const z = zlib as unknown as Record<string, unknown>;
if (typeof z.createZstdDecompress !== 'function') {
  z.createZstdDecompress = () => {
    throw new Error('zstd decompression needs Node 22 or newer');
  };
}
const wt = workerThreads as unknown as Record<string, unknown>;
if (typeof wt.markAsUncloneable !== 'function') wt.markAsUncloneable = () => {};

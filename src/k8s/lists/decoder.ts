// Where a list chunk's body is decoded: in a Web Worker when the page can start one, else here.
//
// Why: loading every chunk of a large list, the page's main thread parsed each body whole
// (JSON.parse of the Table, with includeObject=Metadata every object's metadata, managedFields
// and all), kept a few strings per row and left the rest to the garbage collector. A trace of
// the scale bench (150,000 Pods, chunks of 500) put the tasks over 50 ms there: the rows being
// read and major GCs of what the bodies left. The worker gets the bytes by transfer (no copy)
// and sends back the rows only: a structured clone of some thousand strings per chunk.
import { type DecodedPage, type ListMode, pageFromBody, pageFromWire, type WirePage } from './chunkDecode';
import type { Interner } from './rowStore';

export interface DecodeAsk {
  id: number;
  mode: ListMode;
  buffer: ArrayBuffer;
}

export type DecodeAnswer = { id: number; page: WirePage; error?: undefined } | { id: number; error: string; page?: undefined };

interface DecodeWorker {
  postMessage(m: DecodeAsk, transfer: Transferable[]): void;
  addEventListener(type: 'message', l: (ev: MessageEvent<DecodeAnswer>) => void): void;
  addEventListener(type: 'error', l: (ev: Event) => void): void;
}

let worker: DecodeWorker | null | undefined;
let nextId = 1;
const waiting = new Map<number, { resolve: (w: WirePage) => void; reject: (e: Error) => void }>();

function decodeWorker(): DecodeWorker | null {
  if (worker !== undefined) return worker;
  if (typeof Worker === 'undefined') return (worker = null);
  try {
    const w = new Worker(new URL('./decodeWorker.ts', import.meta.url), { type: 'module', name: 'list-decode' }) as DecodeWorker;
    w.addEventListener('message', (ev) => {
      const a = ev.data;
      const p = waiting.get(a.id);
      if (!p) return;
      waiting.delete(a.id);
      if (a.page) p.resolve(a.page);
      else p.reject(new SyntaxError(`the list chunk could not be decoded: ${a.error}`));
    });
    // The worker failed to load or crashed: what waits fails, and later chunks decode here.
    w.addEventListener('error', () => {
      worker = null;
      for (const p of waiting.values()) p.reject(new Error('the list decoding worker failed'));
      waiting.clear();
    });
    worker = w;
  } catch {
    worker = null;
  }
  return worker;
}

/**
 * A chunk's body decoded to rows, its strings interned into the list's `interner`. The bytes are
 * handed to the worker (their buffer is transferred: `bytes` is unusable afterwards).
 */
export async function decodeListBody(bytes: Uint8Array, mode: ListMode, interner: Interner): Promise<DecodedPage> {
  const w = decodeWorker();
  // No worker (Node tests, a worker that failed): the rows are built here, straight into the list's interner.
  if (!w) return pageFromBody(JSON.parse(new TextDecoder().decode(bytes)), mode, interner);
  // A view on part of a larger buffer (a single WebSocket frame, past its stream id) is copied:
  // transferring would hand over bytes that are not the body's.
  const buffer = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes.buffer : bytes.slice().buffer;
  const id = nextId++;
  const wire = await new Promise<WirePage>((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ id, mode, buffer }, [buffer]);
  });
  return pageFromWire(wire, interner);
}

// The Web Worker that decodes list chunks (see decoder.ts): UTF-8, JSON.parse and the reduction to
// rows run here; the page gets a chunk's rows back, never its body.
import { decodeToWire } from './chunkDecode';
import type { DecodeAnswer, DecodeAsk } from './decoder';

const scope = self as unknown as { onmessage: ((ev: MessageEvent<DecodeAsk>) => void) | null; postMessage(m: DecodeAnswer): void };

scope.onmessage = (ev) => {
  const { id, mode, buffer } = ev.data;
  try {
    scope.postMessage({ id, page: decodeToWire(new Uint8Array(buffer), mode) });
  } catch (e) {
    scope.postMessage({ id, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  }
};

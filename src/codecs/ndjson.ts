// Framing for JSON watch streams: the API server writes one JSON-encoded WatchEvent per line
// (`application/json` watch responses are newline-delimited; an event may be split across chunks,
// and one chunk may carry many events). Framing is kept apart from decoding, so callers can keep
// each frame's exact bytes (its size, or to export it as sent).

const NEWLINE = 0x0a;

export interface NdjsonFrame {
  /** The line's bytes without the trailing newline, as the server sent them. */
  bytes: Uint8Array;
  /** The same bytes decoded as UTF-8. */
  text: string;
}

/** Splits a byte stream into lines. Feed chunks with push(); call end() when the stream ends. */
export class NdjsonFramer {
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });

  /** Returns the complete lines in `chunk` (plus whatever was pending before it). */
  push(chunk: Uint8Array): NdjsonFrame[] {
    const frames: NdjsonFrame[] = [];
    let start = 0;
    for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, start)) {
      this.emit(frames, chunk.subarray(start, i));
      start = i + 1;
    }
    if (start < chunk.length) {
      // Copy: the caller may reuse the chunk's buffer (WebSocket frames are views on one buffer).
      this.pending.push(chunk.slice(start));
      this.pendingLength += chunk.length - start;
    }
    return frames;
  }

  /** Bytes received after the last newline (a stream that ended mid-event leaves some). */
  get remainder(): number {
    return this.pendingLength;
  }

  /**
   * Ends the stream. The server ends every event with a newline, so a non-empty remainder means
   * the connection was cut mid-event: it is returned as a frame only when it is whitespace-free
   * JSON that parses, otherwise dropped (the resumed watch will deliver that event again).
   */
  end(): NdjsonFrame[] {
    const frames: NdjsonFrame[] = [];
    if (this.pendingLength > 0) {
      const bytes = this.take(new Uint8Array(0));
      const text = this.decoder.decode(bytes);
      try {
        JSON.parse(text);
        if (text.trim()) frames.push({ bytes, text });
      } catch {
        // An incomplete event: not delivered.
      }
    }
    return frames;
  }

  private emit(frames: NdjsonFrame[], tail: Uint8Array): void {
    const bytes = this.pendingLength > 0 ? this.take(tail) : tail.slice();
    if (bytes.length === 0 || (bytes.length === 1 && bytes[0] === 0x0d)) return;
    frames.push({ bytes, text: this.decoder.decode(bytes) });
  }

  private take(tail: Uint8Array): Uint8Array {
    const out = new Uint8Array(this.pendingLength + tail.length);
    let o = 0;
    for (const p of this.pending) {
      out.set(p, o);
      o += p.length;
    }
    out.set(tail, o);
    this.pending = [];
    this.pendingLength = 0;
    return out;
  }
}

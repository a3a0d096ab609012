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

/** A line as text and its size in bytes, for readers that keep no bytes (pushLines). */
export interface NdjsonLine {
  text: string;
  /** Bytes of the line as sent, without the newline. */
  size: number;
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

  /**
   * Like push(), for a reader that needs each line's text and size but not its bytes (a watch
   * pane): the chunk's complete lines are decoded with one call and split on "\n", instead of a
   * copy and a decode per line, which in a catch-up of 20,000 events were a good part of the
   * worker's time. A newline byte is never part of a multi-byte UTF-8 sequence, and the decoder
   * turns every 0x0A into "\n" (an invalid sequence before it becomes U+FFFD, the newline stays),
   * so the split falls exactly where the newline bytes are. Use one of push() and pushLines() per stream.
   */
  pushLines(chunk: Uint8Array): NdjsonLine[] {
    const lines: NdjsonLine[] = [];
    let start = 0;
    const first = chunk.indexOf(NEWLINE);
    if (first !== -1 && this.pendingLength > 0) {
      // The line that began in an earlier chunk.
      const bytes = this.take(chunk.subarray(0, first));
      addLine(lines, this.decoder.decode(bytes), bytes.length);
      start = first + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last >= start) {
      const texts = this.decoder.decode(chunk.subarray(start, last)).split('\n');
      let from = start;
      for (const text of texts) {
        const nl = chunk.indexOf(NEWLINE, from);
        addLine(lines, text, nl - from);
        from = nl + 1;
      }
      start = last + 1;
    }
    if (start < chunk.length) {
      this.pending.push(chunk.slice(start));
      this.pendingLength += chunk.length - start;
    }
    return lines;
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

/** Keeps a line unless it is empty or a lone "\r" (as emit does). */
function addLine(lines: NdjsonLine[], text: string, size: number): void {
  if (size === 0 || (size === 1 && text === '\r')) return;
  lines.push({ text, size });
}

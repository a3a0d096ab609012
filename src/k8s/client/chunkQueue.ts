// One stream's received chunks, read as an async iterable: the network side pushes them and ends
// the stream, the reader pulls. Shared by the mux client (frames from the WebSocket) and the watch
// worker's host (bytes the page hands over), which differ only in what they do as the reader takes
// a chunk (grant credit to the proxy, acknowledge to the page).
export interface ChunkReaderHooks {
  /** A chunk was handed to the reader; `chunksLeft` are still queued. */
  taken(chunk: Uint8Array, chunksLeft: number): void;
  /** The stream ended (cleanly or with an error) and the reader has seen it. */
  finished(): void;
  /** The reader stopped early (`break`, `return()`). */
  returned(): void;
}

export class ChunkQueue {
  private readonly chunks: Uint8Array[] = [];
  private wake?: () => void;
  private done = false;
  private error?: Error;
  /** Bytes queued, kept as a sum: readers that batch ask for it per chunk. */
  bytes = 0;

  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    this.wake?.();
  }

  /** Ends the stream after what is queued: cleanly, or with the error the reader then gets. */
  end(error?: Error): void {
    if (error) this.error = error;
    else this.done = true;
    this.wake?.();
  }

  /** Drops what is queued and ends the stream: whoever closes it is done reading. */
  drop(): void {
    this.chunks.length = 0;
    this.bytes = 0;
    this.done = true;
    this.wake?.();
  }

  iterable(hooks: ChunkReaderHooks): AsyncIterable<Uint8Array> {
    return {
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<Uint8Array>> => {
          for (;;) {
            const c = this.chunks.shift();
            if (c) {
              this.bytes -= c.length;
              hooks.taken(c, this.chunks.length);
              return { value: c, done: false };
            }
            if (this.error) {
              hooks.finished();
              throw this.error;
            }
            if (this.done) {
              hooks.finished();
              return { value: undefined, done: true };
            }
            await new Promise<void>((r) => (this.wake = r));
            this.wake = undefined;
          }
        },
        return: async (): Promise<IteratorResult<Uint8Array>> => {
          hooks.returned();
          return { value: undefined, done: true };
        },
      }),
    };
  }
}

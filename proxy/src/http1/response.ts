// A framed response as its consumers read it.
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { ResponseHead } from './framer';

export class UpstreamResponse extends EventEmitter {
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly rawHeaders: string[];
  complete = false;
  private headerMap: Record<string, string | undefined> | undefined;
  private paused = false;
  private held: Buffer[] = [];
  private ended = false;
  private closed = false;
  private bodyTaken = false;

  constructor(
    head: ResponseHead,
    private readonly socket: Socket,
    /** The entire body, when it came with the head (see takeBody). */
    private whole?: Buffer,
  ) {
    super();
    this.statusCode = head.statusCode;
    this.statusMessage = head.statusMessage;
    this.rawHeaders = head.rawHeaders;
  }

  /**
   * The entire body, when it arrived in the same read as the head (a small object, a Status, an
   * empty body): the caller answers with it in one go, and no 'data' events follow ('end' and
   * 'close' still do). Undefined when the body is still to come; call it before any 'data'.
   */
  takeBody(): Buffer | undefined {
    const w = this.whole;
    if (w) {
      this.whole = undefined;
      this.bodyTaken = true;
    }
    return w;
  }

  /** Lower-case names; repeated ones joined with ", " (as IncomingMessage does for most). Built when first read. */
  get headers(): Record<string, string | undefined> {
    if (this.headerMap) return this.headerMap;
    const map: Record<string, string | undefined> = {};
    for (let i = 0; i < this.rawHeaders.length; i += 2) {
      const k = this.rawHeaders[i]!.toLowerCase();
      const prev = map[k];
      map[k] = prev === undefined ? this.rawHeaders[i + 1]! : `${prev}, ${this.rawHeaders[i + 1]!}`;
    }
    return (this.headerMap = map);
  }

  /** Stops 'data' events; bytes already read are held until resume(). The socket stops reading. */
  pause(): void {
    if (this.paused || this.closed) return;
    this.paused = true;
    // Once the body is read the connection may already serve the next request: it is not ours to pause.
    if (!this.ended) this.socket.pause();
  }

  resume(): void {
    if (!this.paused || this.closed) return;
    this.paused = false;
    this.drain();
    // A data listener may have paused again.
    if (this.paused || this.closed) return;
    if (this.ended) return this.finish();
    this.socket.resume();
  }

  /** @internal Body bytes: handed on at once, or held while paused. */
  deliver(b: Buffer): void {
    if (this.bodyTaken) return;
    if (this.paused) this.held.push(b);
    else this.emit('data', b);
  }

  /** Hands on what was held, piece by piece (each at most one read of the socket), until paused again. */
  private drain(): void {
    while (this.held.length && !this.paused && !this.closed) this.emit('data', this.held.shift()!);
  }

  /** @internal The body is complete; 'end' and 'close' follow once nothing is held. */
  end(): void {
    this.ended = true;
    this.complete = true;
    if (this.paused) return;
    this.drain();
    if (!this.paused) this.finish();
  }

  /** @internal The exchange broke (or was aborted) before the body ended. */
  abort(): void {
    if (this.closed) return;
    this.closed = true;
    this.held = [];
    this.emit('close');
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('end');
    this.emit('close');
  }
}

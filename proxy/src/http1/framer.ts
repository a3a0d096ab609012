// The response framer: where one response of an upstream connection ends. This is the
// request-smuggling boundary of the lean client (see index.ts): bytes the framer cannot place are
// a FramingError, never a guess, because a proxy that passes bytes through must never hand on a
// truncated body as a whole one, nor read the start of the next response into this one.
//
// The framing follows RFC 9112 §6 for responses: no body after HEAD, 1xx, 204 and 304;
// Transfer-Encoding with chunked last is read as chunks (extensions and trailers skipped); any
// other Transfer-Encoding, or neither it nor Content-Length, is read until the connection closes;
// Content-Length must be digits, and repeated values must agree.
import { TOKEN } from './headers';

/** A response head above this size fails the exchange (kube-apiserver's are well under 4 KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;
/** A chunk-size line above this size fails the exchange. */
const MAX_CHUNK_LINE = 1024;

export class FramingError extends Error {
  readonly code = 'HPE_UPSTREAM_FRAMING';
  constructor(message: string) {
    super(`the API server's response could not be framed: ${message}`);
  }
}

/** A parsed response head. */
export interface ResponseHead {
  statusCode: number;
  statusMessage: string;
  /** Flat name/value list, as node:http's rawHeaders. */
  rawHeaders: string[];
  keepAlive: boolean;
}

interface FramerSink {
  /**
   * The response head; `whole` is its entire body when that came with the head (a body of known
   * length within the bytes pushed, or no body at all): the body() calls for it still follow.
   */
  head(h: ResponseHead, whole: Buffer | undefined): void;
  body(b: Buffer): void;
  /** The message ended where its framing says; `rest` are bytes after it (none expected). */
  done(rest: Buffer | undefined): void;
}

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/;
const CRLF_CRLF = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);

type BodyMode = { kind: 'none' } | { kind: 'length'; left: number } | { kind: 'chunked' } | { kind: 'close' };

/**
 * Frames one response at a time from the bytes of a connection. Pure: push() bytes as they come;
 * it calls the sink's head, body (slices of the pushed buffers, no copies) and done, and throws
 * FramingError on bytes that are not a response it can frame.
 */
export class ResponseFramer {
  private state: 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'close' | 'done' = 'head';
  private pending: Buffer | undefined;
  private left = 0;
  /** Body bytes of the current push(), handed on as one buffer: one write downstream per read. */
  private out: Buffer[] = [];

  constructor(
    private readonly sink: FramerSink,
    /** The request was a HEAD: the response has no body, whatever its headers say. */
    private readonly headRequest: boolean,
  ) {}

  get finished(): boolean {
    return this.state === 'done';
  }

  /** The connection closed: ends a body read until close; anything else unfinished is an error. */
  end(): void {
    if (this.state === 'close') {
      this.state = 'done';
      this.sink.done(undefined);
      return;
    }
    if (this.state !== 'done') throw new FramingError(this.state === 'head' && !this.pending ? 'the connection closed before a response' : 'the connection closed in the middle of the response');
  }

  push(chunk: Buffer): void {
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    let at = 0;
    while (at < buf.length) {
      switch (this.state) {
        case 'head': {
          const end = buf.indexOf(CRLF_CRLF, at);
          if (end < 0) {
            if (buf.length - at > MAX_HEAD_BYTES) throw new FramingError(`a response head over ${MAX_HEAD_BYTES} bytes`);
            this.pending = buf.subarray(at);
            return this.flushBody();
          }
          if (end - at > MAX_HEAD_BYTES) throw new FramingError(`a response head over ${MAX_HEAD_BYTES} bytes`);
          const head = parseHead(buf.toString('latin1', at, end));
          at = end + 4;
          // An interim response (100 Continue, 103 Early Hints) precedes the real one.
          if (head.statusCode >= 100 && head.statusCode < 200) {
            if (head.statusCode === 101) throw new FramingError('101 Switching Protocols, which was not asked for');
            continue;
          }
          const mode = this.bodyMode(head);
          if (mode.kind === 'close') head.keepAlive = false;
          const none = mode.kind === 'none' || (mode.kind === 'length' && mode.left === 0);
          this.sink.head(head, none ? EMPTY : mode.kind === 'length' && mode.left <= buf.length - at ? buf.subarray(at, at + mode.left) : undefined);
          if (none) return this.finish(buf, at);
          if (mode.kind === 'length') {
            this.state = 'length';
            this.left = mode.left;
          } else this.state = mode.kind === 'chunked' ? 'chunk-size' : 'close';
          break;
        }
        case 'length': {
          const n = Math.min(this.left, buf.length - at);
          this.out.push(buf.subarray(at, at + n));
          at += n;
          this.left -= n;
          if (this.left === 0) return this.finish(buf, at);
          break;
        }
        case 'close':
          this.out.push(at === 0 ? buf : buf.subarray(at));
          return this.flushBody();
        case 'chunk-size': {
          const eol = buf.indexOf(10, at);
          if (eol < 0) {
            if (buf.length - at > MAX_CHUNK_LINE) throw new FramingError('a chunk-size line over 1 KiB');
            this.pending = buf.subarray(at);
            return this.flushBody();
          }
          if (eol - at > MAX_CHUNK_LINE) throw new FramingError('a chunk-size line over 1 KiB');
          // chunk-size [ chunk-ext ] CRLF: hex digits, then optionally ";ext" (ignored).
          const line = buf.toString('latin1', at, eol);
          const m = /^([0-9a-fA-F]{1,12})[ \t]*(?:;[^\r]*)?\r$/.exec(line);
          if (!m) throw new FramingError(`a chunk-size line ${JSON.stringify(line.slice(0, 40))}`);
          this.left = parseInt(m[1]!, 16);
          at = eol + 1;
          this.state = this.left === 0 ? 'trailers' : 'chunk-data';
          break;
        }
        case 'chunk-data': {
          const n = Math.min(this.left, buf.length - at);
          this.out.push(buf.subarray(at, at + n));
          at += n;
          this.left -= n;
          if (this.left === 0) this.state = 'chunk-end';
          break;
        }
        case 'chunk-end': {
          if (buf.length - at < 2) {
            this.pending = buf.subarray(at);
            return this.flushBody();
          }
          if (buf[at] !== 13 || buf[at + 1] !== 10) throw new FramingError('a chunk not followed by CRLF');
          at += 2;
          this.state = 'chunk-size';
          break;
        }
        case 'trailers': {
          // trailer-section CRLF: header lines (dropped: kube-apiserver sends none) until an empty one.
          const eol = buf.indexOf(10, at);
          if (eol < 0) {
            if (buf.length - at > MAX_HEAD_BYTES) throw new FramingError('trailers over 64 KiB');
            this.pending = buf.subarray(at);
            return this.flushBody();
          }
          const empty = eol === at + 1 && buf[at] === 13;
          at = eol + 1;
          if (empty) return this.finish(buf, at);
          break;
        }
        case 'done':
          // Unreachable: the owner stops pushing once done() was called.
          return;
      }
    }
    this.flushBody();
  }

  private flushBody(): void {
    const out = this.out;
    if (out.length === 0) return;
    this.out = [];
    // One piece per chunk of kube-apiserver's chunked encoding would be one write each downstream.
    this.sink.body(out.length === 1 ? out[0]! : Buffer.concat(out));
  }

  private finish(buf: Buffer, at: number): void {
    this.flushBody();
    this.state = 'done';
    this.sink.done(at < buf.length ? buf.subarray(at) : undefined);
  }

  private bodyMode(h: ResponseHead): BodyMode {
    if (this.headRequest || h.statusCode === 204 || h.statusCode === 304) return { kind: 'none' };
    let te: string | undefined;
    let length: number | undefined;
    for (let i = 0; i < h.rawHeaders.length; i += 2) {
      const name = h.rawHeaders[i]!.toLowerCase();
      const value = h.rawHeaders[i + 1]!;
      if (name === 'transfer-encoding') te = te === undefined ? value : `${te}, ${value}`;
      else if (name === 'content-length') {
        for (const part of value.split(',')) {
          const v = part.trim();
          if (!/^\d{1,15}$/.test(v)) throw new FramingError(`Content-Length ${JSON.stringify(value)}`);
          if (length !== undefined && Number(v) !== length) throw new FramingError('Content-Length headers that disagree');
          length = Number(v);
        }
      }
    }
    if (te !== undefined) {
      const codings = te.split(',').map((c) => c.trim().toLowerCase());
      // RFC 9112 §6.3: chunked last frames the body; otherwise the body runs to the connection's close.
      return codings[codings.length - 1] === 'chunked' ? { kind: 'chunked' } : { kind: 'close' };
    }
    if (length !== undefined) return { kind: 'length', left: length };
    return { kind: 'close' };
  }
}

function parseHead(text: string): ResponseHead {
  const lines = text.split('\r\n');
  const m = STATUS_LINE.exec(lines[0]!);
  if (!m) throw new FramingError(`a status line ${JSON.stringify(lines[0]!.slice(0, 60))}`);
  const rawHeaders: string[] = [];
  let close = m[1] === '0';
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon) : '';
    // Obsolete line folding and names with spaces are refused (RFC 9112 §5.1, §5.2), as llhttp does.
    if (!TOKEN.test(name)) throw new FramingError(`a header line ${JSON.stringify(line.slice(0, 60))}`);
    const value = line.slice(colon + 1).trim();
    if (/[\0\r\n]/.test(value)) throw new FramingError(`a header value of ${name} with a control character`);
    rawHeaders.push(name, value);
    if (name.length === 10 && name.toLowerCase() === 'connection') {
      const tokens = value.toLowerCase().split(',').map((t) => t.trim());
      if (tokens.includes('close')) close = true;
      else if (m[1] === '0' && tokens.includes('keep-alive')) close = false;
    }
  }
  return { statusCode: Number(m[2]), statusMessage: m[3] ?? '', rawHeaders, keepAlive: !close };
}

/**
 * A response as its consumers (the /k8s/ forwarder and the mux) read it: the parts of node:http's
 * IncomingMessage they use. Events: 'data' (Buffer), 'end' (the whole body arrived), then 'close';
 * or 'close' alone, with `complete` false, when the exchange broke or was aborted.
 */

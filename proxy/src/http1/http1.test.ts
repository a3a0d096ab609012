// The lean client's response framing, on bytes kube-apiserver sent (proxy/src/http1/fixtures, captured by
// capture-http.ts): every response found whole at every cut of the bytes, bodies that parse as the
// server's JSON, and what does not frame (derived from the same bytes) refused, never guessed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HttpFixture } from './fixtures/capture-http';
import { credentialLines, FramingError, headerLines, ResponseFramer, type ResponseHead } from '.';

const dir = join(import.meta.dirname, 'fixtures');
const manifest = JSON.parse(readFileSync(join(dir, 'http-manifest.json'), 'utf8')) as { fixtures: HttpFixture[] };
const bytesOf = (file: string) => readFileSync(join(dir, file));

interface Framed {
  heads: ResponseHead[];
  /** The entire body as handed over with each head, when it was (copied: the framer's are slices). */
  wholes: (Buffer | undefined)[];
  bodies: Buffer[];
  /** Bytes left after the last complete response. */
  rest: Buffer[];
  finished: boolean;
}

/** Frames `bytes` fed in the given pieces, one response after another as a connection would. */
function frame(pieces: Buffer[], head: boolean): Framed {
  const out: Framed = { heads: [], wholes: [], bodies: [], rest: [], finished: false };
  let body: Buffer[] = [];
  let framer: ResponseFramer;
  const next = () => {
    framer = new ResponseFramer(
      {
        head: (h, whole) => {
          out.heads.push(h);
          out.wholes.push(whole && Buffer.from(whole));
        },
        body: (b) => body.push(Buffer.from(b)),
        done: (rest) => {
          out.bodies.push(Buffer.concat(body));
          body = [];
          out.finished = true;
          pending = rest;
        },
      },
      head,
    );
    out.finished = false;
  };
  let pending: Buffer | undefined;
  next();
  for (const p of pieces) {
    framer!.push(p);
    // A kept-alive connection: what follows a response is the next one.
    while (out.finished && pending?.length) {
      const b = pending;
      pending = undefined;
      next();
      framer!.push(b);
    }
  }
  if (pending?.length) out.rest.push(pending);
  return out;
}

function cuts(bytes: Buffer, at: number[]): Buffer[] {
  const points = [0, ...at.filter((x) => x > 0 && x < bytes.length).sort((a, b) => a - b), bytes.length];
  return points.slice(1).map((end, i) => bytes.subarray(points[i], end));
}

/** A deterministic spread of cut points: every offset of short fixtures, else the head and chunk lines and a pseudo-random sample. */
function cutPoints(bytes: Buffer): number[][] {
  if (bytes.length <= 2048) return Array.from({ length: bytes.length }, (_, i) => [i]);
  const near: number[] = [];
  for (let i = bytes.indexOf('\r\n'); i >= 0 && near.length < 4000; i = bytes.indexOf('\r\n', i + 1)) near.push(i - 2, i - 1, i, i + 1, i + 2);
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const sets = near.map((i) => [i]);
  for (let k = 0; k < 200; k++) sets.push([0, 1, 2].map(() => Math.floor(rnd() * bytes.length)));
  return sets;
}

describe('ResponseFramer on captured kube-apiserver responses', () => {
  for (const f of manifest.fixtures.filter((x) => !x.cut)) {
    it(`${f.file}: ${f.responses} response(s), the same at every cut of the bytes`, () => {
      const bytes = bytesOf(f.file);
      const whole = frame([bytes], f.head);
      expect(whole.heads).toHaveLength(f.responses);
      expect(whole.bodies).toHaveLength(f.responses);
      expect(whole.rest).toEqual([]);
      for (const at of cutPoints(bytes)) {
        const split = frame(cuts(bytes, at), f.head);
        expect(split.heads.map((h) => h.statusCode)).toEqual(whole.heads.map((h) => h.statusCode));
        expect(split.bodies.map((b) => b.toString('base64'))).toEqual(whole.bodies.map((b) => b.toString('base64')));
        // A body handed over with its head is the whole body, never a part of it.
        split.wholes.forEach((w, i) => {
          if (w) expect(w.toString('base64')).toBe(split.bodies[i]!.toString('base64'));
        });
      }
    });
  }

  it('hands over the entire body with the head when it came in the same bytes, and only then', () => {
    // One read with head and body: the forwarder answers with it in one end() (takeBody).
    const small = bytesOf('small-get.http');
    const once = frame([small], false);
    expect(once.wholes[0]?.toString('base64')).toBe(once.bodies[0]!.toString('base64'));
    // The last byte of the body in a later read: the head comes without it.
    expect(frame([small.subarray(0, small.length - 1), small.subarray(small.length - 1)], false).wholes).toEqual([undefined]);
    // A chunked body never comes whole with its head (its end is only known at the last chunk).
    expect(frame([bytesOf('chunked-list.http')], false).wholes).toEqual([undefined]);
    // No body at all (HEAD, 304): an empty one.
    expect(frame([bytesOf('head.http')], true).wholes).toEqual([Buffer.alloc(0)]);
    expect(frame([bytesOf('not-modified.http')], false).wholes).toEqual([Buffer.alloc(0)]);
    // Two responses in one read: each head gets its own body, not the bytes of the next.
    const two = frame([bytesOf('keep-alive-two.http')], false);
    expect(two.wholes[0]?.toString('base64')).toBe(two.bodies[0]!.toString('base64'));
  });

  it('reads a Content-Length body as exactly that many bytes: the Namespace', () => {
    const r = frame([bytesOf('small-get.http')], false);
    expect(r.heads[0]!.statusCode).toBe(200);
    expect(r.heads[0]!.keepAlive).toBe(true);
    const len = Number(r.heads[0]!.rawHeaders[r.heads[0]!.rawHeaders.findIndex((h) => h.toLowerCase() === 'content-length') + 1]);
    expect(r.bodies[0]!.length).toBe(len);
    expect(JSON.parse(r.bodies[0]!.toString())).toMatchObject({ kind: 'Namespace', metadata: { name: 'default' } });
  });

  it('decodes the chunked list into the server JSON: every ConfigMap, no chunk framing left', () => {
    const bytes = bytesOf('chunked-list.http');
    expect(bytes.toString('latin1', 0, bytes.indexOf('\r\n\r\n'))).toMatch(/Transfer-Encoding: chunked/);
    const r = frame([bytes], false);
    const list = JSON.parse(r.bodies[0]!.toString()) as { kind: string; items: unknown[] };
    expect(list.kind).toBe('ConfigMapList');
    expect(list.items).toHaveLength(60);
  });

  it('frames two responses of one kept-alive connection apart', () => {
    const r = frame([bytesOf('keep-alive-two.http')], false);
    expect(r.bodies.map((b) => (JSON.parse(b.toString()) as { kind: string }).kind)).toEqual(['Namespace', 'ConfigMapList']);
  });

  it('keeps the Status body of an error response', () => {
    const r = frame([bytesOf('status-404.http')], false);
    expect(r.heads[0]!.statusCode).toBe(404);
    expect(JSON.parse(r.bodies[0]!.toString())).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it('reads no body after HEAD, whatever Content-Length says (kube-apiserver answers HEAD on an object with 405 and a length)', () => {
    const bytes = bytesOf('head.http');
    expect(bytes.toString('latin1')).toMatch(/Content-Length: [1-9]/);
    const asHead = frame([bytes], true);
    expect(asHead.heads[0]!.statusCode).toBe(405);
    expect(asHead.bodies).toEqual([Buffer.alloc(0)]);
    // Taken for a GET, the same bytes would leave the framer waiting for a body that never comes.
    expect(frame([bytes], false).bodies).toEqual([]);
  });

  it('reads no body after 304 Not Modified', () => {
    const r = frame([bytesOf('not-modified.http')], false);
    expect(r.heads[0]!.statusCode).toBe(304);
    expect(r.bodies).toEqual([Buffer.alloc(0)]);
  });

  it('passes a cut watch on as far as it came, each event whole or still pending, and calls the cut an error', () => {
    const bytes = bytesOf('watch-cut.http');
    const parts: Buffer[] = [];
    const framer = new ResponseFramer({ head: () => undefined, body: (b) => parts.push(Buffer.from(b)), done: () => expect.unreachable() }, false);
    framer.push(bytes);
    const text = Buffer.concat(parts).toString();
    const lines = text.split('\n');
    lines.pop();
    expect(lines.length).toBeGreaterThan(60);
    for (const l of lines) expect(['ADDED', 'BOOKMARK']).toContain((JSON.parse(l) as { type: string }).type);
    expect(() => framer.end()).toThrow(FramingError);
  });
});

describe('ResponseFramer refuses what does not frame (derived from captured bytes)', () => {
  const list = bytesOf('chunked-list.http');
  const small = bytesOf('small-get.http');
  const headEnd = (b: Buffer) => b.indexOf('\r\n\r\n');

  it('a chunk-size line that is not hex', () => {
    const at = headEnd(list) + 4;
    const bad = Buffer.concat([list.subarray(0, at), Buffer.from('8z0'), list.subarray(list.indexOf('\r\n', at))]);
    expect(() => frame([bad], false)).toThrow(FramingError);
  });

  it('a chunk not followed by CRLF', () => {
    const at = headEnd(list) + 4;
    const size = parseInt(list.toString('latin1', at, list.indexOf('\r\n', at)), 16);
    const dataEnd = list.indexOf('\r\n', at) + 2 + size;
    const bad = Buffer.from(list);
    bad[dataEnd] = 0x58;
    expect(() => frame([bad], false)).toThrow(FramingError);
  });

  it('two Content-Length headers that disagree', () => {
    const h = headEnd(small);
    const bad = Buffer.concat([small.subarray(0, h), Buffer.from('\r\nContent-Length: 1'), small.subarray(h)]);
    expect(() => frame([bad], false)).toThrow(/Content-Length/);
  });

  it('a folded header line', () => {
    const firstEol = small.indexOf('\r\n');
    const bad = Buffer.concat([small.subarray(0, firstEol + 2), Buffer.from(' folded'), small.subarray(firstEol)]);
    expect(() => frame([bad], false)).toThrow(FramingError);
  });

  it('a status line that is not HTTP/1.x', () => {
    const bad = Buffer.concat([Buffer.from('HTTP/2 200'), small.subarray(small.indexOf('\r\n'))]);
    expect(() => frame([bad], false)).toThrow(/status line/);
  });

  it('a body cut short: the end of the connection is an error, not the end of the body', () => {
    for (const f of ['small-get.http', 'chunked-list.http']) {
      const b = bytesOf(f);
      const framer = new ResponseFramer({ head: () => undefined, body: () => undefined, done: () => expect.unreachable() }, false);
      framer.push(b.subarray(0, b.length - 3));
      expect(() => framer.end()).toThrow(/closed in the middle/);
    }
  });

  it('hands back bytes after a complete response instead of taking them for the next one silently', () => {
    let rest: Buffer | undefined;
    new ResponseFramer({ head: () => undefined, body: () => undefined, done: (r) => (rest = r) }, false).push(Buffer.concat([small, Buffer.from('junk')]));
    expect(rest?.toString()).toBe('junk');
  });
});

describe('headerLines', () => {
  it('lets the kubeconfig credentials win over a header of the same name, whatever its case', () => {
    expect(headerLines([['Accept', 'application/json'], ['authorization', 'Bearer page']], credentialLines({ Authorization: 'Bearer kubeconfig' }))).toBe('Accept: application/json\r\nAuthorization: Bearer kubeconfig\r\n');
  });

  it('refuses a value with CR or LF, and a name that is not a token, before anything is sent', () => {
    expect(() => headerLines([['Accept', 'a\r\nX-Evil: 1']], credentialLines({}))).toThrow(TypeError);
    expect(() => headerLines([['Bad Name', 'x']], credentialLines({}))).toThrow(TypeError);
    expect(() => credentialLines({ Authorization: 'Bearer a\nb' })).toThrow(TypeError);
  });
});

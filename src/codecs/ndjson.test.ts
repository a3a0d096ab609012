import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type NdjsonLine, NdjsonFramer } from './ndjson';

// Framing edge cases; frames of real watch bytes are pinned in src/k8s/watch/session.test.ts.
const bytes = (s: string) => new TextEncoder().encode(s);

describe('NdjsonFramer', () => {
  it('emits nothing until a newline arrives, then the whole line', () => {
    const f = new NdjsonFramer();
    expect(f.push(bytes('{"a":'))).toEqual([]);
    expect(f.remainder).toBe(5);
    expect(f.push(bytes('1}\n{"b":2}\n')).map((x) => x.text)).toEqual(['{"a":1}', '{"b":2}']);
    expect(f.remainder).toBe(0);
  });
  it('joins a multi-byte character split across chunks', () => {
    const all = bytes('{"t":"日本"}\n');
    const f = new NdjsonFramer();
    expect([...f.push(all.subarray(0, 8)), ...f.push(all.subarray(8))].map((x) => x.text)).toEqual(['{"t":"日本"}']);
  });
  it('drops a half event left when the stream ends mid-line, keeps a complete one', () => {
    const f = new NdjsonFramer();
    f.push(bytes('{"a":1'));
    expect(f.end()).toEqual([]);
    const g = new NdjsonFramer();
    g.push(bytes('{"a":1}'));
    expect(g.end().map((x) => x.text)).toEqual(['{"a":1}']);
  });
});

/** Feeds `all` in chunks cut at `cuts` through push() or pushLines(), as lines of text and size. */
function frame(all: Uint8Array, cuts: number[], lines: boolean): NdjsonLine[] {
  const f = new NdjsonFramer();
  const out: NdjsonLine[] = [];
  let at = 0;
  for (const c of [...cuts, all.length]) {
    const chunk = all.subarray(at, c);
    at = c;
    if (lines) out.push(...f.pushLines(chunk));
    else out.push(...f.push(chunk).map((x) => ({ text: x.text, size: x.bytes.length })));
  }
  out.push(...f.end().map((x) => ({ text: x.text, size: x.bytes.length })));
  return out;
}

describe('NdjsonFramer.pushLines', () => {
  // Real watch bytes (captured from kube-apiserver), then the same with what a stream may also
  // carry: CRLF, empty lines, a character of three and one of four bytes, and an invalid byte.
  const captured = new Uint8Array(readFileSync(new URL('./fixtures/watch-configmaps.json', import.meta.url)));
  const extra = new Uint8Array([...captured, ...bytes('\r\n\n{"t":"日本😀"}\r\n'), 0xff, ...bytes('{"x":1}\n{"y":2}')]);

  it('gives the same lines and byte sizes as push(), however the stream is cut', () => {
    for (const all of [captured, extra]) {
      const whole = frame(all, [], false);
      expect(whole.length).toBeGreaterThan(3);
      for (let cut = 0; cut <= all.length; cut++) expect(frame(all, [cut], true)).toEqual(whole);
      // Three cuts at a time, spread over the stream.
      for (let i = 1; i < 200; i++) {
        const cuts = [(i * 7919) % all.length, (i * 104729) % all.length, (i * 1299709) % all.length].sort((a, b) => a - b);
        expect(frame(all, cuts, true)).toEqual(whole);
      }
    }
  });

  it('keeps the size in bytes, not characters, for a line with multi-byte characters', () => {
    const f = new NdjsonFramer();
    expect(f.pushLines(bytes('{"t":"日本😀"}\n'))).toEqual([{ text: '{"t":"日本😀"}', size: 18 }]);
  });
});

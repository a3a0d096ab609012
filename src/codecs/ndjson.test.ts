import { describe, expect, it } from 'vitest';
import { NdjsonFramer } from './ndjson';

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

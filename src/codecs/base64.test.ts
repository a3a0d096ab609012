import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64, fromStdBase64 } from './base64';

describe('base64', () => {
  it('round-trips every byte value, as Go writes []byte in JSON', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(fromBase64(toBase64(all))).toEqual(all);
    expect(toBase64(new TextEncoder().encode('k8s'))).toBe('azhz');
  });
  it('reads URL-safe base64 without padding (continue tokens)', () => {
    expect(new TextDecoder().decode(fromBase64('eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ'))).toBe('{"v":"meta.k8s.io/v1"}');
  });
  it('encodes bodies larger than one argument list', () => {
    const big = new Uint8Array(200_000).fill(7);
    expect(fromBase64(toBase64(big))).toEqual(big);
  });
});

describe('fromStdBase64 (how Go reads []byte in JSON)', () => {
  it('reads standard base64 with padding', () => {
    expect([...fromStdBase64('AP8='), ...fromStdBase64('')]).toEqual([0, 255]);
  });
  it.each(['AP8', 'AP_-', 'A P8=', 'AP8=='])('refuses %j', (text) => {
    expect(() => fromStdBase64(text)).toThrow();
  });
});

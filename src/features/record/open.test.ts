import { describe, expect, it } from 'vitest';
import { ownOriginUrl } from './open';

describe('ownOriginUrl (?replay= links)', () => {
  const origin = 'http://127.0.0.1:7780';
  it("opens this origin's own paths", () => {
    expect(ownOriginUrl('/samples/watch.har', origin)).toBe('http://127.0.0.1:7780/samples/watch.har');
    expect(ownOriginUrl('/a/../b.har?x=1', origin)).toBe('http://127.0.0.1:7780/b.har?x=1');
  });
  it('refuses anything the browser resolves to another origin, backslashes included', () => {
    for (const s of ['/\\evil.example/x.har', '/\\\\evil.example/x.har', '//evil.example/x.har', '/\t/evil.example/x.har', 'https://evil.example/x.har', 'evil.har', '\\\\evil.example/x']) {
      expect(ownOriginUrl(s, origin), s).toBeUndefined();
    }
  });
});

import { createServer, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkHost, checkOrigin, checkToken, readDoorHeaders, tokenMatches } from './guard';
import { appendClientResponseHeaders, clientResponseHeaders, explorerUserAgent, proxiedLocation, recordToRaw, securityHeaders, toHeaderObject, upstreamRequestHeaders, userAgentOf } from './headers';

/** Header names forwarded, leaving out the User-Agent every request gets (tested on its own below). */
const names = (pairs: [string, string][]) => pairs.map(([k]) => k.toLowerCase()).filter((k) => k !== 'user-agent');
const UA = ['User-Agent', explorerUserAgent()];

describe('upstreamRequestHeaders', () => {
  it('passes content negotiation and body headers through', () => {
    const out = upstreamRequestHeaders(['Accept', 'application/vnd.kubernetes.protobuf', 'Accept-Encoding', 'gzip', 'Content-Type', 'application/apply-patch+yaml', 'Content-Length', '12', 'User-Agent', 'ua', 'If-None-Match', '"e"']);
    expect(out).toEqual([
      ['Accept', 'application/vnd.kubernetes.protobuf'],
      ['Accept-Encoding', 'gzip'],
      ['Content-Type', 'application/apply-patch+yaml'],
      ['Content-Length', '12'],
      ['If-None-Match', '"e"'],
      UA,
    ]);
  });

  it('drops hop-by-hop headers and those named in Connection', () => {
    const out = upstreamRequestHeaders([
      'Connection', 'keep-alive, X-Secret-Hop', 'Keep-Alive', 'timeout=5', 'Proxy-Connection', 'x', 'TE', 'trailers', 'Trailer', 'x', 'Transfer-Encoding', 'chunked', 'Upgrade', 'websocket', 'X-Secret-Hop', '1', 'Accept', 'a',
    ]);
    expect(names(out)).toEqual(['accept']);
  });

  it.each([
    ['X-Remote-User', 'admin'], ['X-Remote-Group', 'system:masters'], ['X-Remote-Extra-Scopes', 'x'], ['X-Forwarded-For', '10.0.0.1'],
    ['X-Forwarded-Host', 'evil'], ['Forwarded', 'for=1.2.3.4'], ['X-Real-IP', '1.2.3.4'], ['Impersonate', 'x'], ['Impersonate-Extra', 'x'], ['X-Anything', 'y'],
  ])('drops %s, which is not on the allow-list', (name, value) => {
    expect(upstreamRequestHeaders([name, value, 'Accept', 'a'])).toEqual([['Accept', 'a'], UA]);
  });

  it('drops body framing and type from a bodyless request (GET, HEAD)', () => {
    const raw = ['Content-Length', '10', 'Content-Type', 'application/json', 'Content-Encoding', 'gzip', 'Accept', 'a'];
    expect(names(upstreamRequestHeaders(raw, true))).toEqual(['accept']);
    expect(names(upstreamRequestHeaders(raw, false))).toEqual(['content-length', 'content-type', 'content-encoding', 'accept']);
  });

  it('never forwards browser credentials, the token, Host, Origin, Referer or Proxy-*', () => {
    const out = upstreamRequestHeaders([
      'Authorization', 'Bearer browser', 'Cookie', 'a=b', 'X-Explorer-Token', 't', 'Origin', 'http://localhost:1', 'Referer', 'http://x/', 'Host', 'evil',
      'Proxy-Authorization', 'Basic x', 'Expect', '100-continue', 'Accept', 'a',
    ]);
    expect(names(out)).toEqual(['accept']);
  });

  it('forwards Impersonate-User, -Group (each line), -Uid and -Extra-*, as kubectl --as sends them: the server checks the user\'s impersonate verb', () => {
    const out = upstreamRequestHeaders([
      'Impersonate-User', 'explorer-viewer', 'Impersonate-Group', 'a', 'impersonate-group', 'b', 'Impersonate-Uid', '1', 'Impersonate-Extra-Scopes', 'x', 'Accept', 'a',
    ], true);
    expect(out.slice(0, -1)).toEqual([
      ['Impersonate-User', 'explorer-viewer'], ['Impersonate-Group', 'a'], ['impersonate-group', 'b'], ['Impersonate-Uid', '1'], ['Impersonate-Extra-Scopes', 'x'], ['Accept', 'a'],
    ]);
  });
});

describe('the User-Agent sent upstream', () => {
  it('is the explorer’s, in kubectl’s form, whatever the browser sent', () => {
    expect(userAgentOf('0.1.0', 'linux', 'x64')).toBe('kube-api-explorer/0.1.0 (linux/amd64)');
    expect(userAgentOf('0.1.0', 'win32', 'arm64')).toBe('kube-api-explorer/0.1.0 (windows/arm64)');
    const browser = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
    expect(upstreamRequestHeaders(['User-Agent', browser, 'Accept', 'a'], true, 'kube-api-explorer/1 (linux/amd64)')).toEqual([['Accept', 'a'], ['User-Agent', 'kube-api-explorer/1 (linux/amd64)']]);
    expect(explorerUserAgent()).toMatch(/^kube-api-explorer\/\S+ \(\w+\/\w+\)$/);
  });

  it('is the one the page asked for in X-Explorer-User-Agent, sent as User-Agent only', () => {
    expect(upstreamRequestHeaders(['User-Agent', 'Mozilla/5.0 x', 'X-Explorer-User-Agent', 'curl/8.5.0', 'Accept', 'a'], true, 'own')).toEqual([['Accept', 'a'], ['User-Agent', 'curl/8.5.0']]);
  });

  it.each([[''], ['a\u0000b'], ['é'], ['x'.repeat(513)]])('ignores an unusable override %j', (asked) => {
    expect(upstreamRequestHeaders(['X-Explorer-User-Agent', asked], true, 'own')).toEqual([['User-Agent', 'own']]);
  });
});

describe('clientResponseHeaders', () => {
  it('keeps what the server sent, including repeated Warning headers and Content-Encoding', () => {
    const out = clientResponseHeaders(['Content-Type', 'application/json', 'Content-Encoding', 'gzip', 'Warning', '299 - "a"', 'Warning', '299 - "b"', 'Audit-Id', 'x', 'Content-Length', '5']);
    expect(out).toHaveLength(6);
    expect(toHeaderObject(out).warning).toEqual(['299 - "a"', '299 - "b"']);
  });

  it('drops hop-by-hop headers, cookies and CORS grants', () => {
    const out = clientResponseHeaders(['Connection', 'close', 'Transfer-Encoding', 'chunked', 'Keep-Alive', 'x', 'Set-Cookie', 'session=1', 'Access-Control-Allow-Origin', '*', 'Proxy-Authenticate', 'x', 'Content-Type', 'a']);
    expect(names(out)).toEqual(['content-type']);
  });
});

describe('appendClientResponseHeaders', () => {
  it.each([
    [['Content-Type', 'application/json', 'Warning', '299 - "a"', 'Warning', '299 - "b"', 'Audit-Id', 'x', 'Content-Length', '5']],
    [['Connection', 'close', 'Transfer-Encoding', 'chunked', 'Keep-Alive', 'x', 'Set-Cookie', 'session=1', 'Access-Control-Allow-Origin', '*', 'Proxy-Authenticate', 'x', 'Content-Type', 'a']],
    [['Connection', 'keep-alive, X-Hop', 'X-Hop', '1', 'X-Kept', '2']],
  ])('drops what clientResponseHeaders drops, as a flat list after what is already there', (raw) => {
    const out = appendClientResponseHeaders(raw, ['X-First', '0']);
    expect(out).toEqual(['X-First', '0', ...clientResponseHeaders(raw).flat()]);
  });
});

describe('recordToRaw', () => {
  it('accepts only well-formed header names and single-line string values', () => {
    expect(recordToRaw({ Accept: 'a', 'Bad Name': 'x', 'X-Split': 'a\r\nInjected: 1', 'X-Num': 3 as unknown as string })).toEqual(['Accept', 'a']);
  });
});

describe('securityHeaders', () => {
  it('sets a CSP without inline scripts and the framing and sniffing guards', () => {
    const h = securityHeaders(7780);
    expect(h['content-security-policy']).toContain("script-src 'self';");
    expect(h['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(h['content-security-policy']).toContain('ws://127.0.0.1:7780');
    expect(h['x-content-type-options']).toBe('nosniff');
    expect(h['referrer-policy']).toBe('no-referrer');
    expect(h['x-frame-options']).toBe('DENY');
  });
});

describe('guard', () => {
  it.each(['localhost:7780', '127.0.0.1:7780', '[::1]:7780', 'LOCALHOST:7780'])('accepts Host %s', (host) => {
    expect(checkHost(host, 7780)).toBeNull();
  });
  it.each([undefined, '', 'localhost', '127.0.0.1:7781', 'evil.example:7780', 'localhost.evil.example:7780', '127.0.0.1.nip.io:7780', '0.0.0.0:7780', '[::ffff:127.0.0.1]:7780'])(
    'refuses Host %s',
    (host) => {
      expect(checkHost(host, 7780)?.code).toBe(403);
    },
  );
  it.each(['http://localhost:7780', 'http://127.0.0.1:7780', 'http://[::1]:7780'])('accepts Origin %s', (origin) => {
    expect(checkOrigin({ origin }, 7780)).toBeNull();
  });
  it.each(['null', 'http://evil.example', 'http://localhost:3000', 'https://localhost:7780', 'http://localhost:7780.evil.example', 'file://', 'http://user@localhost:7780'])(
    'refuses Origin %s',
    (origin) => {
      expect(checkOrigin({ origin }, 7780)?.proxyCause).toBe('ForbiddenOrigin');
    },
  );
  it('refuses cross-site fetches, but lets a cross-site navigation open the page when allowed', () => {
    expect(checkOrigin({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' }, 1)?.proxyCause).toBe('CrossSiteRequest');
    expect(checkOrigin({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }, 1)?.proxyCause).toBe('CrossSiteRequest');
    expect(checkOrigin({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }, 1, true)).toBeNull();
    expect(checkOrigin({ 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' }, 1, true)?.proxyCause).toBe('CrossSiteRequest');
    expect(checkOrigin({ 'sec-fetch-site': 'same-origin' }, 1)).toBeNull();
  });
  it('compares tokens', () => {
    expect(tokenMatches('abc', 'abc')).toBe(true);
    expect(tokenMatches('abd', 'abc')).toBe(false);
    expect(tokenMatches('bbc', 'abc')).toBe(false);
    expect(tokenMatches('ABC', 'abc')).toBe(false);
    expect(tokenMatches('abc ', 'abc')).toBe(false);
    expect(tokenMatches('ab', 'abc')).toBe(false);
    expect(tokenMatches(undefined, 'abc')).toBe(false);
    expect(checkToken(undefined, 'abc')?.proxyCause).toBe('MissingToken');
    expect(checkToken('x', 'abc')?.proxyCause).toBe('WrongToken');
    expect(checkToken(['abc', 'abc'], 'abc')?.proxyCause).toBe('WrongToken');
    expect(checkToken('abc', 'abc')).toBeNull();
  });
});

describe('readDoorHeaders', () => {
  /** What node:http parses of a raw request head: its rawHeaders and the req.headers it builds from them. */
  async function parsed(headLines: string[]): Promise<IncomingMessage> {
    // Without a Host line node:http refuses HTTP/1.1 requests before the door sees them (HTTP/1.0
    // ones pass); here the head is parsed either way, to compare.
    const server = createServer({ requireHostHeader: false });
    const got = new Promise<IncomingMessage>((ok) =>
      server.on('request', (req: IncomingMessage, res) => {
        ok(req);
        res.end();
      }),
    );
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const socket = connect((server.address() as { port: number }).port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`GET /k8s/x/api HTTP/1.1\r\n${headLines.map((l) => `${l}\r\n`).join('')}\r\n`);
    try {
      return await got;
    } finally {
      socket.destroy();
      server.close();
    }
  }

  // Each head as a browser or an attacker could send it; what the door reads must be what node:http's
  // req.headers says, repeated lines included (first Host and Content-Length; the rest joined).
  it.each([
    ['a page request', ['Host: localhost:7780', 'Origin: http://localhost:7780', 'Sec-Fetch-Site: same-origin', 'Sec-Fetch-Mode: cors', 'Sec-Fetch-Dest: empty', 'X-Explorer-Token: abc', 'Accept: application/json']],
    ['names in any case', ['hOsT: 127.0.0.1:1', 'ORIGIN: http://x', 'SEC-FETCH-SITE: cross-site', 'x-EXPLORER-token: t', 'content-LENGTH: 0']],
    ['two Host lines', ['Host: localhost:7780', 'Host: evil.test']],
    ['two tokens', ['X-Explorer-Token: abc', 'X-Explorer-Token: abc']],
    ['two origins', ['Origin: http://localhost:7780', 'Origin: http://evil.test']],
    ['two Sec-Fetch-Site lines', ['Sec-Fetch-Site: same-origin', 'Sec-Fetch-Site: cross-site']],
    ['a body', ['Host: localhost:1', 'Content-Length: 5']],
    ['chunked', ['Host: localhost:1', 'Transfer-Encoding: chunked']],
    ['no Host', ['Accept: */*']],
    ['names of the same lengths that are not ours', ['Hose: x', 'Origim: y', 'Sec-Fetch-User: ?1', 'X-Explorer-Tokem: z', 'Transfer-Encodinx: w', 'Content-Lengtx: 9']],
  ])('reads %s as req.headers does', async (_, lines) => {
    const req = await parsed(lines);
    const door = readDoorHeaders(req.rawHeaders);
    const want = req.headers;
    expect(door).toEqual({
      hosts: lines.filter((l) => /^host:/i.test(l)).length,
      ...Object.fromEntries(
        (['host', 'origin', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'x-explorer-token', 'content-length', 'transfer-encoding'] as const).filter((k) => want[k] !== undefined).map((k) => [k, want[k]]),
      ),
    });
  });
});

describe('proxiedLocation', () => {
  const local = { server: 'https://127.0.0.1:6443', basePath: '', context: 'local-admin' };
  const rancher = { server: 'https://rancher.example/k8s/clusters/c-1', basePath: '/k8s/clusters/c-1', context: 'a b' };

  it("sends kube-openapi's redirect to the current hash back through the proxy", () => {
    expect(proxiedLocation('/openapi/v3/apis/apps/v1?hash=ABC', local)).toBe('/k8s/local-admin/openapi/v3/apis/apps/v1?hash=ABC');
  });

  it('strips the kubeconfig path prefix and encodes the context', () => {
    expect(proxiedLocation('/k8s/clusters/c-1/openapi/v3?x=1', rancher)).toBe('/k8s/a%20b/openapi/v3?x=1');
    expect(proxiedLocation('https://rancher.example/k8s/clusters/c-1/api/v1', rancher)).toBe('/k8s/a%20b/api/v1');
    expect(proxiedLocation('/k8s/clusters/c-10/api', rancher)).toBe('/k8s/a%20b/k8s/clusters/c-10/api');
  });

  it('maps a full URL of the API server itself', () => {
    expect(proxiedLocation('https://127.0.0.1:6443/version', local)).toBe('/k8s/local-admin/version');
  });

  it('leaves foreign, protocol-relative and relative redirects alone', () => {
    expect(proxiedLocation('https://evil.example/x', local)).toBe('https://evil.example/x');
    expect(proxiedLocation('//evil.example/x', local)).toBe('//evil.example/x');
    expect(proxiedLocation('v1?hash=1', local)).toBe('v1?hash=1');
    expect(proxiedLocation('http://127.0.0.1:6443/x', local)).toBe('http://127.0.0.1:6443/x');
  });
});

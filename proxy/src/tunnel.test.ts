import { describe, expect, it } from 'vitest';
import { parseProxyUrl, redactProxy } from './tunnel';

describe('parseProxyUrl', () => {
  it('takes the schemes client-go takes: http, https and socks5', () => {
    for (const u of ['http://proxy.corp:3128', 'https://proxy.corp', 'socks5://127.0.0.1:1080', 'http://[::1]:8080']) expect(parseProxyUrl(u, 'c').href).toBe(new URL(u).href);
  });

  it('refuses other schemes in kubectl\'s words, without the credentials', () => {
    expect(() => parseProxyUrl('socks4://u:secret@127.0.0.1:1080', 'prod')).toThrow('invalid \'proxy-url\' "socks4://127.0.0.1:1080" for cluster "prod": unsupported scheme "socks4", must be http, https, or socks5');
    expect(() => parseProxyUrl('proxy.corp:3128', 'prod')).toThrow(/unsupported scheme "proxy\.corp"/);
    expect(() => parseProxyUrl('not a url', 'prod')).toThrow(/for cluster "prod": not a URL/);
  });

  it('names a proxy without its userinfo', () => {
    expect(redactProxy(new URL('http://ops:p%40ss@proxy.corp:3128/'))).toBe('http://proxy.corp:3128');
  });
});

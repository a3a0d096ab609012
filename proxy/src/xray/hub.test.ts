// The journal's bounds: an answer larger than an exchange's budget is kept up to it and counted
// past it (sizes and counts whole, `cut` said), and the journal forgets its oldest ended exchanges
// past its own budget, telling the pages; a page that applies the same messages holds the same.
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import type { XrayMessage } from '../../../protocol/xray';
import { XrayJournal } from '../../../protocol/xrayJournal';
import { XrayHub } from './hub';

const json = [{ name: 'Content-Type', value: 'application/json' }];

function hubWithPage(budgets: { body: number; journal: number }) {
  const hub = new XrayHub(budgets);
  const page = new XrayJournal();
  const seen: XrayMessage[] = [];
  hub.subscribe({ send: (m) => (seen.push(m), page.apply(m)), backlog: () => 0, overflow: () => undefined });
  return { hub, page, seen };
}

describe('the X-ray journal’s bounds', () => {
  it('keeps an answer up to the exchange budget and counts the rest', () => {
    const { hub, page } = hubWithPage({ body: 1_000, journal: 1_000_000 });
    const tap = hub.tap('r', 'ctx', 'GET', '/api/v1/configmaps', []);
    tap.responseHead(200, 'OK', json);
    for (let i = 0; i < 150; i++) tap.chunk(Buffer.alloc(100, 'x'));
    tap.end('server');
    const x = [...hub.journal.exchanges.values()][0]!;
    expect(x.end).toMatchObject({ bytes: 15_000, chunks: 150, cut: true });
    expect(x.chunks.reduce((n, c) => n + c.body.size, 0)).toBeLessThanOrEqual(1_000);
    expect(hub.journal.keptBytes).toBeLessThanOrEqual(1_000);
    const har = hub.journal.toHar({ ctx: 'https://example.invalid' });
    expect(har.log.entries[0]).toMatchObject({ _cut: true, _totals: { bytes: 15_000, chunks: 150 } });
    expect([...page.exchanges.values()][0]!.end).toEqual(x.end);
  });

  it('forgets the oldest ended exchanges past the journal budget, and the page with it', () => {
    const { hub, page, seen } = hubWithPage({ body: 1_000, journal: 5_000 });
    for (let i = 0; i < 20; i++) {
      const tap = hub.tap('r', 'ctx', 'GET', `/api/v1/namespaces/n/configmaps/c${i}`, []);
      tap.responseHead(200, 'OK', json);
      tap.chunk(Buffer.alloc(900, 'y'));
      tap.end('server');
    }
    expect(hub.journal.keptBytes).toBeLessThanOrEqual(5_000);
    expect(seen.some((m) => m.type === 'forget')).toBe(true);
    expect([...page.exchanges.keys()]).toEqual([...hub.journal.exchanges.keys()]);
    expect([...hub.journal.exchanges.values()].at(-1)!.path).toContain('c19');
  });

  it('journals a gzip answer decoded, with the bytes on the wire beside it', async () => {
    const { hub } = hubWithPage({ body: 1_000_000, journal: 1_000_000 });
    const body = JSON.stringify({ kind: 'ConfigMapList', items: Array.from({ length: 50 }, (_, i) => ({ metadata: { name: `c${i}` } })) });
    const wire = gzipSync(body);
    const tap = hub.tap('r', 'ctx', 'GET', '/api/v1/configmaps', []);
    tap.responseHead(200, 'OK', [...json, { name: 'Content-Encoding', value: 'gzip' }]);
    tap.chunk(wire);
    tap.end('server');
    await new Promise<void>((ok) => {
      const check = () => ([...hub.journal.exchanges.values()][0]!.end ? ok() : setImmediate(check));
      check();
    });
    const x = [...hub.journal.exchanges.values()][0]!;
    expect(x.chunks.map((c) => c.body.text).join('')).toBe(body);
    expect(x.end).toMatchObject({ bytes: Buffer.byteLength(body), wireBytes: wire.length });
  });
});

import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../k8s/client';
import { acceptLabel, capHistory, exchangeBytes } from './history';

const x = (id: string, bodyBytes: number): Exchange => ({
  id,
  context: 'c',
  startedAt: '2026-01-01T00:00:00Z',
  request: { method: 'GET', path: '/api/v1/pods', headers: [] },
  response: { status: 200, statusText: 'OK', headers: [], body: new Uint8Array(bodyBytes) },
  timings: {},
  watch: false,
  source: 'live',
});

describe('capHistory', () => {
  it('drops the oldest exchanges beyond the byte budget and counts them', () => {
    const items = [x('new', 1000), x('mid', 1000), x('old', 1000)];
    const budget = exchangeBytes(items[0]!) * 2;
    const out = capHistory({ items, dropped: { count: 1, bytes: 5 } }, budget);
    expect(out.items.map((e) => e.id)).toEqual(['new', 'mid']);
    expect(out.dropped).toEqual({ count: 2, bytes: 5 + exchangeBytes(items[2]!) });
  });

  it('keeps the newest exchange even when it alone is over the budget', () => {
    const out = capHistory({ items: [x('huge', 10_000), x('small', 10)], dropped: { count: 0, bytes: 0 } }, 100);
    expect(out.items.map((e) => e.id)).toEqual(['huge']);
    expect(out.dropped.count).toBe(1);
  });

  it('returns the same state when everything fits', () => {
    const s = { items: [x('a', 10)], dropped: { count: 0, bytes: 0 } };
    expect(capHistory(s, 1e9)).toBe(s);
  });
});

describe('history entries name their Accept header', () => {
  it('shortens the media types the console offers, so GETs of one path can be told apart', () => {
    expect(acceptLabel('application/json')).toBe('json');
    expect(acceptLabel('application/yaml')).toBe('yaml');
    expect(acceptLabel('application/vnd.kubernetes.protobuf')).toBe('protobuf');
    expect(acceptLabel('application/cbor')).toBe('cbor');
    expect(acceptLabel('application/json;as=Table;v=v1;g=meta.k8s.io')).toBe('Table (json)');
    expect(acceptLabel('application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, application/json')).toBe('PartialObjectMetadataList (protobuf) +1');
  });
  it('has no label without an Accept header', () => {
    expect(acceptLabel(undefined)).toBeUndefined();
    expect(acceptLabel('  ')).toBeUndefined();
  });
});

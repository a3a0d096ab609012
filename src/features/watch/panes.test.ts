import { describe, expect, it } from 'vitest';
import { parsePanes, serializePanes, sessionKey, specOf } from './panes';

describe('panes in the URL', () => {
  it('round-trips pane configurations', () => {
    const panes = parsePanes(serializePanes([{ id: 'a1', group: '', version: 'v1', resource: 'configmaps', namespace: 'ns1', mode: 'stream', bookmarks: true, asTable: false, max: 100, types: ['ADDED'], q: 'x' }]));
    expect(panes).toEqual([{ id: 'a1', group: '', version: 'v1', resource: 'configmaps', namespace: 'ns1', mode: 'stream', bookmarks: true, asTable: false, max: 100, types: ['ADDED'], q: 'x' }]);
  });
  it('keeps a Protobuf pane’s encoding; Protobuf and Table rows exclude each other (no Protobuf Table), and the encoding restarts the watch', () => {
    const [pb] = parsePanes('[{"id":"p","resource":"pods","version":"v1","encoding":"protobuf","asTable":true}]');
    expect([pb!.encoding, pb!.asTable]).toEqual(['protobuf', false]);
    expect(specOf('c', pb!)).toMatchObject({ encoding: 'protobuf', asTable: false });
    const [json] = parsePanes('[{"id":"p","resource":"pods","version":"v1","encoding":"cbor"}]');
    expect(json!.encoding).toBeUndefined();
    expect(specOf('c', json!).encoding).toBeUndefined();
    expect(sessionKey('c', pb!)).not.toBe(sessionKey('c', { ...pb!, encoding: undefined }));
  });
  it('gives panes without an id a stable one, so that re-reading the URL does not restart them', () => {
    const text = '[{"resource":"pods","version":"v1"},{"resource":"secrets","version":"v1"}]';
    expect(parsePanes(text).map((p) => p.id)).toEqual(parsePanes(text).map((p) => p.id));
    expect(new Set(parsePanes(text).map((p) => p.id)).size).toBe(2);
  });
  it('ignores what it cannot read instead of failing the view', () => {
    expect(parsePanes('{not json')).toEqual([]);
    expect(parsePanes('[{"resource":1}]')).toEqual([]);
    expect(parsePanes('[{"resource":"pods","version":"v1","mode":"bogus"}]')[0]?.mode).toBe('list-watch');
  });
  it('filters do not restart the watch; selectors do', () => {
    const [p] = parsePanes('[{"id":"a","resource":"pods","version":"v1"}]');
    expect(sessionKey('c', { ...p!, q: 'web', types: ['DELETED'], max: 5 })).toBe(sessionKey('c', p!));
    expect(sessionKey('c', { ...p!, labelSelector: 'app=web' })).not.toBe(sessionKey('c', p!));
  });
});

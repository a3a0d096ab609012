import { fc, test as fcTest } from '@fast-check/vitest';
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
  it('gives a pane copied in the URL with its id an id of its own: closing or editing one must not close or overwrite the other', () => {
    const text = '[{"id":"a","resource":"configmaps","version":"v1","namespace":"one"},{"id":"a","resource":"configmaps","version":"v1","namespace":"two"}]';
    const panes = parsePanes(text);
    expect(panes.map((p) => p.namespace)).toEqual(['one', 'two']);
    expect(new Set(panes.map((p) => p.id)).size).toBe(2);
    // What the view does on × of the first pane: the second stays.
    expect(panes.filter((x) => x.id !== panes[0]!.id).map((p) => p.namespace)).toEqual(['two']);
  });
  // Any mix of given, repeated and missing ids (the fallback `pane-<i>` among them): unique, and the same on every read.
  // Counterexample met on the old code: ['a-1', 'a-1'].
  fcTest.prop([fc.array(fc.option(fc.constantFrom('a', 'pane-0', 'pane-1', 'a-1', 'pane-1-2'), { nil: undefined }), { maxLength: 8 })], { examples: [[['a-1', 'a-1']]] })('pane ids are unique and stable', (ids) => {
    const text = JSON.stringify(ids.map((id, i) => ({ ...(id === undefined ? {} : { id }), resource: 'configmaps', version: 'v1', namespace: `ns${i}` })));
    const panes = parsePanes(text);
    expect(new Set(panes.map((p) => p.id)).size).toBe(ids.length);
    expect(parsePanes(text).map((p) => p.id)).toEqual(panes.map((p) => p.id));
    expect(parsePanes(serializePanes(panes))).toEqual(panes);
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

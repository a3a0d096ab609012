import { describe, expect, it } from 'vitest';
import { DEFAULT_DRAFT, type Draft, draftToRequest } from './draft';
import { draftHeader, draftReducer } from './draftReducer';

const base: Draft = { ...DEFAULT_DRAFT, params: [['limit', '5']] };

describe('draftReducer', () => {
  it('moves a pasted query string into parameter rows, after the existing ones', () => {
    const d = draftReducer(base, { type: 'pathInput', value: '/api/v1/pods?watch=true&labelSelector=app%3Dweb' });
    expect(d.path).toBe('/api/v1/pods');
    expect(d.params).toEqual([['limit', '5'], ['watch', 'true'], ['labelSelector', 'app=web']]);
  });
  it('keeps a query typed key by key in the path box until it loses focus', () => {
    let d: Draft = { ...DEFAULT_DRAFT, path: '/api/v1/configmaps', params: [] };
    for (const c of '?limit=1') d = draftReducer(d, { type: 'pathInput', value: d.path + c });
    expect(d.path).toBe('/api/v1/configmaps?limit=1');
    expect(draftToRequest(d).path).toBe('/api/v1/configmaps?limit=1');
    d = draftReducer(d, { type: 'pathCommit' });
    expect(d.path).toBe('/api/v1/configmaps');
    expect(d.params).toEqual([['limit', '1']]);
    expect(draftToRequest(d).path).toBe('/api/v1/configmaps?limit=1');
  });
  it('sends a typed query and the rows together', () => {
    const d = draftReducer({ ...base, path: '/api/v1/pods' }, { type: 'pathInput', value: '/api/v1/pods?' });
    expect(draftToRequest(d).path).toBe('/api/v1/pods?limit=5');
    expect(draftToRequest({ ...d, path: '/api/v1/pods?watch=1' }).path).toBe('/api/v1/pods?watch=1&limit=5');
  });
  it('keeps a tab as typed (the path is refused, not silently changed)', () => {
    expect(draftReducer(base, { type: 'pathInput', value: '/api/v1/namespaces/d/configmaps/prod\t-db' }).path).toBe('/api/v1/namespaces/d/configmaps/prod\t-db');
  });
  it('starts typed parameters from a valid value', () => {
    expect(draftReducer(base, { type: 'addParam', name: 'watch' }).params.at(-1)).toEqual(['watch', 'true']);
    expect(draftReducer(base, { type: 'addParam', name: 'resourceVersionMatch' }).params.at(-1)).toEqual(['resourceVersionMatch', 'NotOlderThan']);
    expect(draftReducer(base, { type: 'addParam', name: '' }).params.at(-1)).toEqual(['', '']);
  });
  it('keeps one header per name, whatever its case, and removes it when emptied', () => {
    const d = draftReducer(base, { type: 'setHeader', name: 'accept', value: 'application/yaml' });
    expect(d.headers).toEqual([['accept', 'application/yaml']]);
    expect(draftHeader(d, 'Accept')).toBe('application/yaml');
    expect(draftReducer(d, { type: 'setHeader', name: 'Accept', value: '' }).headers).toEqual([]);
  });
  it('edits and removes rows by index without touching the others', () => {
    let d = draftReducer(base, { type: 'addHeader' });
    d = draftReducer(d, { type: 'editHeader', index: 1, name: 'X-Test', value: '1' });
    expect(d.headers).toEqual([['Accept', 'application/json'], ['X-Test', '1']]);
    d = draftReducer(d, { type: 'removeHeader', index: 0 });
    expect(d.headers).toEqual([['X-Test', '1']]);
    d = draftReducer(d, { type: 'setParam', index: 0, name: 'limit', value: '50' });
    expect(draftReducer(d, { type: 'removeParam', index: 0 }).params).toEqual([]);
    expect(d.params).toEqual([['limit', '50']]);
  });
  it('never changes the draft it was given', () => {
    const frozen = Object.freeze({ ...base, params: Object.freeze([...base.params]) as [string, string][] });
    expect(() => draftReducer(frozen, { type: 'pathInput', value: '/x?a=1' })).not.toThrow();
    expect(frozen.params).toEqual([['limit', '5']]);
  });
});

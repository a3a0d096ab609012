import { describe, expect, it } from 'vitest';
import { readScope, writeScope } from './scopeCache';

/** A Storage held in a Map (the browser's sessionStorage has the same interface). */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

describe('scopeCache', () => {
  it('remembers a resource scope and kind per context and group/version/resource', () => {
    const s = memoryStorage();
    expect(readScope(s, 'ctx', '', 'v1', 'configmaps')).toBeUndefined();
    writeScope(s, 'ctx', '', 'v1', 'configmaps', { namespaced: true, kind: 'ConfigMap' });
    writeScope(s, 'ctx', '', 'v1', 'nodes', { namespaced: false, kind: 'Node' });
    expect(readScope(s, 'ctx', '', 'v1', 'configmaps')).toEqual({ namespaced: true, kind: 'ConfigMap' });
    expect(readScope(s, 'ctx', '', 'v1', 'nodes')).toEqual({ namespaced: false, kind: 'Node' });
    expect(readScope(s, 'other', '', 'v1', 'configmaps')).toBeUndefined();
    expect(readScope(s, 'ctx', 'apps', 'v1', 'configmaps')).toBeUndefined();
  });

  it('takes the latest answer when discovery changed its mind', () => {
    const s = memoryStorage();
    writeScope(s, 'ctx', 'example.com', 'v1', 'gadgets', { namespaced: true, kind: 'Gadget' });
    writeScope(s, 'ctx', 'example.com', 'v1', 'gadgets', { namespaced: false, kind: 'Gadget' });
    expect(readScope(s, 'ctx', 'example.com', 'v1', 'gadgets')).toEqual({ namespaced: false, kind: 'Gadget' });
  });

  it('keeps at most 200 entries, dropping the oldest', () => {
    const s = memoryStorage();
    for (let i = 0; i < 250; i++) writeScope(s, 'ctx', 'g', 'v1', `r${i}`, { namespaced: true, kind: `K${i}` });
    expect(readScope(s, 'ctx', 'g', 'v1', 'r0')).toBeUndefined();
    expect(readScope(s, 'ctx', 'g', 'v1', 'r50')).toEqual({ namespaced: true, kind: 'K50' });
    expect(readScope(s, 'ctx', 'g', 'v1', 'r249')).toEqual({ namespaced: true, kind: 'K249' });
  });

  it('ignores what it cannot read, and works without a storage', () => {
    const s = memoryStorage();
    s.setItem('kube-api-explorer.lists.scope', '{not json');
    expect(readScope(s, 'ctx', '', 'v1', 'pods')).toBeUndefined();
    s.setItem('kube-api-explorer.lists.scope', JSON.stringify([['x', { namespaced: 'yes' }]]));
    expect(readScope(s, 'ctx', '', 'v1', 'pods')).toBeUndefined();
    writeScope(s, 'ctx', '', 'v1', 'pods', { namespaced: true, kind: 'Pod' });
    expect(readScope(s, 'ctx', '', 'v1', 'pods')).toEqual({ namespaced: true, kind: 'Pod' });
    expect(readScope(undefined, 'ctx', '', 'v1', 'pods')).toBeUndefined();
    expect(() => writeScope(undefined, 'ctx', '', 'v1', 'pods', { namespaced: true, kind: 'Pod' })).not.toThrow();
  });
});

import { describe, expect, it } from 'vitest';
import { applyWatchEventInPlace, objectKey, watchEffect } from './reducer';
import { applyWatchEvent, diffStates } from './reducer.testkit';
import type { KubeObject } from './types';

const cm = (name: string, rv: string, ns = 'default'): KubeObject => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name, namespace: ns, resourceVersion: rv } });

describe('applyWatchEvent', () => {
  it('adds, modifies and deletes by namespace/name', () => {
    let s: ReadonlyMap<string, KubeObject> = new Map();
    s = applyWatchEvent(s, { type: 'ADDED', object: cm('a', '10') });
    s = applyWatchEvent(s, { type: 'MODIFIED', object: cm('a', '11') });
    expect(s.get('default/a')?.metadata?.resourceVersion).toBe('11');
    s = applyWatchEvent(s, { type: 'DELETED', object: cm('a', '12') });
    expect(s.size).toBe(0);
  });

  it('returns the identical map when nothing changes: bookmarks, errors, replays of the stored version, deletes of unknown objects', () => {
    const s = applyWatchEvent(new Map(), { type: 'ADDED', object: cm('a', '10') });
    expect(applyWatchEvent(s, { type: 'BOOKMARK', object: { kind: 'ConfigMap', metadata: { resourceVersion: '99' } } })).toBe(s);
    expect(applyWatchEvent(s, { type: 'ERROR', object: { kind: 'Status', code: 410 } as KubeObject })).toBe(s);
    expect(applyWatchEvent(s, { type: 'MODIFIED', object: cm('a', '10') })).toBe(s);
    expect(applyWatchEvent(s, { type: 'DELETED', object: cm('b', '11') })).toBe(s);
  });

  it('never orders resourceVersions: a "smaller" RV from the server still wins (they are opaque strings)', () => {
    // Numerically 9 < 10 and "10" < "9" as strings; neither comparison may decide anything.
    const s = applyWatchEvent(applyWatchEvent(new Map(), { type: 'ADDED', object: cm('a', '10') }), { type: 'MODIFIED', object: cm('a', '9') });
    expect(s.get('default/a')?.metadata?.resourceVersion).toBe('9');
    const t = applyWatchEvent(applyWatchEvent(new Map(), { type: 'ADDED', object: cm('a', 'opaque-b') }), { type: 'MODIFIED', object: cm('a', 'opaque-a') });
    expect(t.get('default/a')?.metadata?.resourceVersion).toBe('opaque-a');
  });

  it('does not mutate the map it was given', () => {
    const s = new Map([['default/a', cm('a', '1')]]);
    applyWatchEvent(s, { type: 'DELETED', object: cm('a', '2') });
    expect(s.has('default/a')).toBe(true);
  });

  it('keys as=Table events by the row object', () => {
    const row = { kind: 'Table', apiVersion: 'meta.k8s.io/v1', metadata: { resourceVersion: '5' }, rows: [{ cells: ['a'], object: cm('a', '5', 'ns1') }] };
    const s = applyWatchEvent(new Map(), { type: 'ADDED', object: row });
    expect([...s.keys()]).toEqual(['ns1/a']);
    expect(watchEffect(s.get('ns1/a'), { type: 'MODIFIED', object: row })).toEqual({ op: 'none' });
  });

  it('keys cluster-scoped objects by name alone', () => {
    expect(objectKey({ metadata: { name: 'n1' } })).toBe('n1');
  });
});

describe('applyWatchEventInPlace', () => {
  it('reaches the same state as applyWatchEvent, event for event (what the session keeps)', () => {
    const events = [
      { type: 'ADDED' as const, object: cm('a', '1') },
      { type: 'ADDED' as const, object: cm('b', '2') },
      { type: 'MODIFIED' as const, object: cm('a', '3') },
      { type: 'MODIFIED' as const, object: cm('a', '3') },
      { type: 'BOOKMARK' as const, object: { kind: 'ConfigMap', metadata: { resourceVersion: '4' } } },
      { type: 'DELETED' as const, object: cm('b', '5') },
      { type: 'DELETED' as const, object: cm('zz', '6') },
    ];
    let pure: ReadonlyMap<string, KubeObject> = new Map();
    const held = new Map<string, KubeObject>();
    for (const e of events) {
      pure = applyWatchEvent(pure, e);
      applyWatchEventInPlace(held, e);
      expect([...held.entries()]).toEqual([...pure.entries()]);
    }
    expect([...held.keys()]).toEqual(['default/a']);
  });
});

describe('diffStates', () => {
  it('tells appeared, changed (by resourceVersion) and vanished keys apart', () => {
    const before = new Map([
      ['d/keep', cm('keep', '1', 'd')],
      ['d/change', cm('change', '2', 'd')],
      ['d/gone', cm('gone', '3', 'd')],
    ]);
    const after = new Map([
      ['d/keep', cm('keep', '1', 'd')],
      ['d/change', cm('change', '7', 'd')],
      ['d/new', cm('new', '8', 'd')],
    ]);
    expect(diffStates(before, after)).toEqual({ appeared: ['d/new'], changed: ['d/change'], vanished: ['d/gone'] });
  });
});

import { describe, expect, it } from 'vitest';
import { ObjectState, ObjectSummary, splitKey } from './objects';
import type { KubeObject, WatchEvent } from './types';

const pod = (name: string, rv: string, ns = 'ns'): KubeObject => ({ kind: 'Pod', apiVersion: 'v1', metadata: { name, namespace: ns, resourceVersion: rv } });
const ev = (type: WatchEvent['type'], o: KubeObject): WatchEvent => ({ type, object: o });
const kept = (s: ObjectState) => ['ns/a', 'ns/b', 'ns/c', 'ns/d'].filter((k) => s.body(k));

describe('ObjectState: a row for every object, whole objects within a byte budget', () => {
  it('lets the least recently changed bodies go first, and a change makes a body the newest', () => {
    const s = new ObjectState(300);
    s.apply(ev('ADDED', pod('a', '1')), 100, 1);
    s.apply(ev('ADDED', pod('b', '2')), 100, 2);
    s.apply(ev('ADDED', pod('c', '3')), 100, 3);
    expect(kept(s)).toEqual(['ns/a', 'ns/b', 'ns/c']);
    // a changes: b is now the least recently changed.
    s.apply(ev('MODIFIED', pod('a', '4')), 100, 4);
    s.apply(ev('ADDED', pod('d', '5')), 100, 5);
    expect(kept(s)).toEqual(['ns/a', 'ns/c', 'ns/d']);
    expect(s.stats()).toEqual({ kept: 3, bytes: 300, maxBytes: 300, evicted: 1 });
    // A larger body pushes out as many as it takes.
    s.apply(ev('MODIFIED', pod('c', '6')), 250, 6);
    expect(kept(s)).toEqual(['ns/c']);
    expect(s.stats().bytes).toBe(250);
  });

  it('keeps every row, with its resourceVersion and last event type, when the body is let go', () => {
    const s = new ObjectState(150);
    s.apply(ev('ADDED', pod('a', '1')), 100, 1);
    s.apply(ev('MODIFIED', pod('a', '2')), 100, 2);
    s.apply(ev('ADDED', pod('b', '3')), 100, 3);
    expect(s.body('ns/a')).toBeUndefined();
    expect(s.size).toBe(2);
    expect(s.row('ns/a')).toEqual(new ObjectSummary('2', undefined, 'MODIFIED'));
    expect(s.row('ns/b')).toEqual(new ObjectSummary('3', undefined, 'ADDED'));
  });

  it('keeps the row right for events about an evicted object: a change, a replay, a delete', () => {
    const s = new ObjectState(100);
    s.apply(ev('ADDED', pod('a', '1')), 100, 1);
    s.apply(ev('ADDED', pod('b', '2')), 100, 2);
    expect(s.body('ns/a')).toBeUndefined();
    // A replay of the version the row has (after a resume) changes nothing, body or not.
    expect(s.apply(ev('MODIFIED', pod('a', '1')), 100, 3)).toEqual({ op: 'none' });
    expect(s.body('ns/a')).toBeUndefined();
    // A new version: the row follows, the body comes back as the newest, and the effect says the
    // version it replaced (resourceVersion 1) without a body.
    const e = s.apply(ev('MODIFIED', pod('a', '5')), 100, 4);
    expect(e).toMatchObject({ op: 'set', key: 'ns/a', previous: new ObjectSummary('1', undefined, 'ADDED'), previousBody: undefined });
    expect(s.row('ns/a')?.resourceVersion).toBe('5');
    expect(s.body('ns/a')?.object.metadata?.resourceVersion).toBe('5');
    expect(s.body('ns/b')).toBeUndefined();
    // Deleting an object whose body was let go removes its row.
    expect(s.apply(ev('DELETED', pod('b', '6')), 100, 5)).toMatchObject({ op: 'delete', key: 'ns/b', previousBody: undefined });
    expect(s.row('ns/b')).toBeUndefined();
    expect(s.size).toBe(1);
    expect(s.stats()).toMatchObject({ kept: 1, bytes: 100 });
  });

  it('counts a deleted body out of the budget, and a smaller budget lets the oldest go', () => {
    const s = new ObjectState(1000);
    for (const [i, n] of ['a', 'b', 'c', 'd'].entries()) s.apply(ev('ADDED', pod(n, String(i + 1))), 100, i);
    s.apply(ev('DELETED', pod('b', '9')), 0, 9);
    expect(s.stats()).toMatchObject({ kept: 3, bytes: 300, evicted: 0 });
    s.setMaxBytes(150);
    expect(kept(s)).toEqual(['ns/d']);
    expect(s.size).toBe(3);
    // A budget of 0 keeps no body at all; the rows stay.
    s.setMaxBytes(0);
    expect(kept(s)).toEqual([]);
    expect(s.size).toBe(3);
  });

  it('stays bounded over many changes of a few objects within the budget (no eviction)', () => {
    const s = new ObjectState(10_000);
    for (let i = 0; i < 50_000; i++) s.apply(ev('MODIFIED', pod(`o${i % 3}`, String(i + 1))), 10, i);
    expect(s.stats()).toMatchObject({ kept: 3, bytes: 30, evicted: 0 });
    // The eviction queue was compacted: it holds about the live bodies, not 50,000 entries.
    expect((s as unknown as { queue: unknown[] }).queue.length).toBeLessThan(2000);
  });

  it('ignores bookmarks, errors and deletes of unknown objects', () => {
    const s = new ObjectState();
    expect(s.apply(ev('BOOKMARK', pod('', '5')), 10, 1)).toEqual({ op: 'none' });
    expect(s.apply(ev('DELETED', pod('x', '5')), 10, 1)).toEqual({ op: 'none' });
    expect(s.size).toBe(0);
  });

  it('splits keys: namespace/name, or a cluster-scoped name', () => {
    expect(splitKey('ns/a')).toEqual({ namespace: 'ns', name: 'a' });
    expect(splitKey('node-1')).toEqual({ name: 'node-1' });
  });
});

import { describe, expect, it } from 'vitest';
import type { NoteEntry, PaneEntry } from '../../k8s/watch';
import { Ring } from '../../k8s/watch';
import { entryBySeq, FilteredTimeline } from './filtered';

const note = (seq: number, message: string): NoteEntry => ({ kind: 'note', seq, note: 'open', receivedAt: 0, message });
const list = (l: { length: number; at(i: number): PaneEntry | undefined }) => Array.from({ length: l.length }, (_, i) => (l.at(i) as NoteEntry).message);

describe('FilteredTimeline', () => {
  it('follows the ring: new matching entries appended, entries the ring dropped gone, earlier results unchanged', () => {
    const ring = new Ring<PaneEntry>(4);
    const f = new FilteredTimeline((e) => e.kind === 'note' && e.message.startsWith('x'));
    let seq = 0;
    for (const m of ['x1', 'y1', 'x2']) ring.push(note(++seq, m));
    const a = f.update(ring.view());
    expect(list(a)).toEqual(['x1', 'x2']);
    for (const m of ['x3', 'y2', 'x4']) ring.push(note(++seq, m));
    expect(list(f.update(ring.view()))).toEqual(['x2', 'x3', 'x4']);
    expect(list(a)).toEqual(['x1', 'x2']);
  });

  it('looks only at entries that arrived since the last update', () => {
    const ring = new Ring<PaneEntry>(10_000);
    let calls = 0;
    const f = new FilteredTimeline(() => (calls++, true));
    for (let i = 1; i <= 5000; i++) ring.push(note(i, `m${i}`));
    f.update(ring.view());
    calls = 0;
    ring.push(note(5001, 'm5001'));
    expect(f.update(ring.view()).length).toBe(5001);
    expect(calls).toBe(1);
  });

  it('finds an entry by seq', () => {
    const ring = new Ring<PaneEntry>(2);
    for (let i = 1; i <= 5; i++) ring.push(note(i, `m${i}`));
    expect((entryBySeq(ring.view(), 4) as NoteEntry).message).toBe('m4');
    expect(entryBySeq(ring.view(), 1)).toBeUndefined();
  });
});

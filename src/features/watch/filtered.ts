// The timeline with the pane's filter applied, kept up to date incrementally: per render only the
// entries that arrived (and those the ring let go) are looked at, not the whole timeline.
// Timeline entries carry consecutive seq numbers (every push takes the next), so an entry's index
// in a view is its seq minus the seq of the view's first entry.
import type { PaneEntry } from '../../k8s/watch';

/** Read-only, indexable list: a RingView or a filtered window on one. */
export interface IndexedList<T> {
  readonly length: number;
  at(i: number): T | undefined;
}

export class FilteredTimeline {
  private seqs: number[] = [];
  private head = 0;
  /** Highest seq already looked at. */
  private scanned = 0;

  constructor(readonly keep: (e: PaneEntry) => boolean) {}

  /** The entries of `view` that `keep` accepts, oldest first. */
  update(view: IndexedList<PaneEntry>): IndexedList<PaneEntry> {
    const first = view.at(0);
    if (!first) {
      this.seqs = [];
      this.head = 0;
      return { length: 0, at: () => undefined };
    }
    const base = first.seq;
    // Let go of what the ring let go of.
    while (this.head < this.seqs.length && this.seqs[this.head]! < base) this.head++;
    if (this.head > 1024 && this.head > this.seqs.length - this.head) {
      this.seqs = this.seqs.slice(this.head);
      this.head = 0;
    }
    // Look at what arrived since the last update.
    const from = Math.max(0, this.scanned + 1 - base);
    for (let i = from; i < view.length; i++) {
      const e = view.at(i)!;
      if (this.keep(e)) this.seqs.push(e.seq);
    }
    this.scanned = base + view.length - 1;
    const seqs = this.seqs;
    const head = this.head;
    const length = seqs.length - head;
    return { length, at: (i) => (i >= 0 && i < length ? view.at(seqs[head + i]! - base) : undefined) };
  }
}

/** The entry with a given seq, in O(1). */
export function entryBySeq(view: IndexedList<PaneEntry>, seq: number): PaneEntry | undefined {
  const first = view.at(0);
  if (!first) return undefined;
  const e = view.at(seq - first.seq);
  return e?.seq === seq ? e : undefined;
}

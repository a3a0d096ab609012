// A bounded event log: the last `capacity` entries in a ring buffer, plus how many were dropped.
// push() is O(1), so a fast watch never makes the page's memory or per-event work grow.

export class Ring<T> {
  private buf: (T | undefined)[];
  private start = 0;
  private length = 0;
  /** Entries pushed out to keep the log bounded (not counting clear()). */
  dropped = 0;

  constructor(private cap: number) {
    if (!(cap >= 1)) throw new RangeError('capacity must be at least 1');
    this.buf = new Array<T | undefined>(cap);
  }

  get capacity(): number {
    return this.cap;
  }
  get size(): number {
    return this.length;
  }

  push(v: T): void {
    if (this.length < this.cap) {
      this.buf[(this.start + this.length) % this.cap] = v;
      this.length++;
      return;
    }
    this.buf[this.start] = v;
    this.start = (this.start + 1) % this.cap;
    this.dropped++;
  }

  /** Oldest first. */
  toArray(): T[] {
    const out = new Array<T>(this.length);
    for (let i = 0; i < this.length; i++) out[i] = this.buf[(this.start + i) % this.cap] as T;
    return out;
  }

  clear(): void {
    this.buf = new Array<T | undefined>(this.cap);
    this.start = 0;
    this.length = 0;
    this.dropped = 0;
  }

  /** Changes the capacity, keeping the newest entries. */
  resize(cap: number): void {
    const items = this.toArray();
    const keep = items.slice(Math.max(0, items.length - cap));
    this.dropped += items.length - keep.length;
    this.cap = cap;
    this.buf = new Array<T | undefined>(cap);
    this.start = 0;
    this.length = 0;
    const d = this.dropped;
    for (const v of keep) this.push(v);
    this.dropped = d;
  }
}

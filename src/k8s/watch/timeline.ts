// A bounded event log: the newest entries up to a count and (optionally) a byte budget, plus how
// many were let go. push() is amortised O(1) and a snapshot (view()) is O(1) and immutable: the
// log only ever appends to its backing array, dropping the oldest advances a head index, and the
// array is replaced (never rewritten) when it is compacted or cleared. So a render reads the
// entries it shows by index, and per-frame work follows what is on screen, not the log's length.

/** An immutable window on a Ring at one moment: oldest first, read by index. */
export class RingView<T> {
  constructor(
    private readonly arr: readonly T[],
    private readonly head: number,
    readonly length: number,
  ) {}
  at(i: number): T | undefined {
    return i >= 0 && i < this.length ? this.arr[this.head + i] : undefined;
  }
  toArray(): T[] {
    return this.arr.slice(this.head, this.head + this.length);
  }
  [Symbol.iterator](): Iterator<T> {
    let i = 0;
    return { next: () => (i < this.length ? { value: this.arr[this.head + i++]!, done: false } : { value: undefined, done: true }) };
  }
}

export class Ring<T> {
  private arr: T[] = [];
  private head = 0;
  private bytesKept = 0;
  /** Entries pushed out to keep the log bounded (not counting clear()). */
  dropped = 0;
  /** Bytes of the entries pushed out (with sizeOf). */
  droppedBytes = 0;

  /**
   * @param cap most entries kept
   * @param budget most bytes kept, as sizeOf counts them (the newest entry is always kept)
   */
  constructor(
    private cap: number,
    private readonly budget: { maxBytes: number; sizeOf: (v: T) => number } | undefined = undefined,
  ) {
    if (!(cap >= 1)) throw new RangeError('capacity must be at least 1');
  }

  get capacity(): number {
    return this.cap;
  }
  get size(): number {
    return this.arr.length - this.head;
  }
  /** Bytes of the entries kept (0 without a byte budget). */
  get bytes(): number {
    return this.bytesKept;
  }

  push(v: T): void {
    this.arr.push(v);
    if (this.budget) this.bytesKept += this.budget.sizeOf(v);
    this.trim();
  }

  private trim(): void {
    while (this.size > this.cap || (this.budget && this.bytesKept > this.budget.maxBytes && this.size > 1)) {
      const old = this.arr[this.head]!;
      if (this.budget) {
        const n = this.budget.sizeOf(old);
        this.bytesKept -= n;
        this.droppedBytes += n;
      }
      this.head++;
      this.dropped++;
    }
    // Compact once the dropped prefix outweighs what is kept: a new array, so that views taken
    // before still read their own entries.
    if (this.head > 1024 && this.head > this.size) {
      this.arr = this.arr.slice(this.head);
      this.head = 0;
    }
  }

  /** Lets the oldest go until at most n are kept (a mirror following another ring's count). */
  keepNewest(n: number): void {
    const over = this.size - Math.max(0, n);
    if (over <= 0) return;
    if (this.budget) for (let i = 0; i < over; i++) this.bytesKept -= this.budget.sizeOf(this.arr[this.head + i]!);
    this.head += over;
    this.dropped += over;
    if (this.head > 1024 && this.head > this.size) {
      this.arr = this.arr.slice(this.head);
      this.head = 0;
    }
  }

  /** The entries kept now, as an immutable view (O(1)). */
  view(): RingView<T> {
    return new RingView(this.arr, this.head, this.size);
  }

  /** Oldest first. */
  toArray(): T[] {
    return this.arr.slice(this.head);
  }

  clear(): void {
    this.arr = [];
    this.head = 0;
    this.bytesKept = 0;
    this.dropped = 0;
    this.droppedBytes = 0;
  }

  /** Changes the capacity, keeping the newest entries. */
  resize(cap: number): void {
    this.cap = cap;
    this.arr = this.arr.slice(this.head);
    this.head = 0;
    this.trim();
  }
}

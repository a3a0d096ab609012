// The listener set behind every external store the views read with React's useSyncExternalStore
// (a watch session, the pager, the recorder, replay, the route, the console's history, the
// connection's health): `subscribe` has the shape useSyncExternalStore wants (an arrow, so it can be
// handed over unbound; it returns the unsubscribe), `emit` tells each listener once.

export class Listeners<A extends unknown[] = []> {
  private readonly set = new Set<(...args: A) => void>();

  subscribe = (listener: (...args: A) => void): (() => void) => {
    this.set.add(listener);
    return () => {
      this.set.delete(listener);
    };
  };

  /** Calls every listener; one added or removed while this runs is seen as Set iteration sees it. */
  emit(...args: A): void {
    for (const l of this.set) l(...args);
  }

  get size(): number {
    return this.set.size;
  }
}

// For tests of watch sessions (in the page or through the worker): waiting for a state.

/** What a session offers React's useSyncExternalStore: WatchSession and WorkerWatchSession alike. */
export interface SnapshotSource<S> {
  subscribe(listener: () => void): () => void;
  getSnapshot(): S;
}

/** Resolves with the first snapshot that satisfies `ok`. No timer: the test's own timeout bounds it. */
export function untilSnapshot<S>(s: SnapshotSource<S>, ok: (snap: S) => boolean): Promise<S> {
  return new Promise((resolve) => {
    const check = () => {
      const snap = s.getSnapshot();
      if (ok(snap)) {
        off();
        resolve(snap);
      }
    };
    const off = s.subscribe(check);
    check();
  });
}

// The session's exchanges, newest first, shared by the console's panes. Kept in memory: the HAR
// export is the way to keep them.
import { useSyncExternalStore } from 'react';
import type { Exchange } from './exchange';

let items: Exchange[] = [];
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

export const history = {
  all: () => items,
  /** Adds or replaces (same id) an exchange. */
  put(x: Exchange) {
    const i = items.findIndex((e) => e.id === x.id);
    items = i >= 0 ? items.map((e, j) => (j === i ? x : e)) : [x, ...items];
    emit();
  },
  addMany(xs: Exchange[]) {
    items = [...xs, ...items];
    emit();
  },
  clear() {
    items = [];
    emit();
  },
};

export function useHistory(): Exchange[] {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => items,
    () => items,
  );
}

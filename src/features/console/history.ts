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

/**
 * A short name for an Accept header, for the history list, where five GETs of one path differ only
 * by it: the first media type, `as=` (Table, PartialObjectMetadata...) when set, and `+N` for more.
 */
export function acceptLabel(accept: string | undefined): string | undefined {
  if (!accept?.trim()) return undefined;
  const types = accept.split(',').map((t) => t.trim()).filter(Boolean);
  const [first, ...params] = types[0]!.split(';').map((p) => p.trim());
  const sub = (first ?? '').replace(/^application\//, '').replace(/^vnd\.kubernetes\./, '');
  const as = params.find((p) => p.startsWith('as='))?.slice(3);
  const label = as ? `${as} (${sub})` : sub;
  return types.length > 1 ? `${label} +${types.length - 1}` : label;
}

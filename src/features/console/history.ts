// The session's exchanges, newest first, shared by the console's panes. Kept in memory: the HAR
// export is the way to keep them. Bounded in bytes (a watch body alone may reach 8 MiB): once the
// kept exchanges weigh more than HISTORY_MAX_BYTES, the oldest go, and are counted.
import { useSyncExternalStore } from 'react';
import type { Exchange } from '../../k8s/client';
import { Listeners } from '../../lib/listeners';

export const HISTORY_MAX_BYTES = 48 * 1024 * 1024;

/** An exchange's weight: its bodies, plus a little for the rest. */
export function exchangeBytes(x: Exchange): number {
  return (x.response?.body.length ?? 0) + (x.request.body?.length ?? 0) + x.request.path.length + 512;
}

export interface HistoryState {
  /** Newest first. */
  items: Exchange[];
  /** Exchanges let go to stay within the budget since the last clear, and their bytes. */
  dropped: { count: number; bytes: number };
}

/** Drops the oldest exchanges until the rest fit in maxBytes; the newest is always kept. */
export function capHistory(state: HistoryState, maxBytes: number): HistoryState {
  let total = 0;
  let keep = state.items.length;
  for (let i = 0; i < state.items.length; i++) {
    total += exchangeBytes(state.items[i]!);
    if (total > maxBytes && i > 0) {
      keep = i;
      break;
    }
  }
  if (keep === state.items.length) return state;
  const gone = state.items.slice(keep);
  return {
    items: state.items.slice(0, keep),
    dropped: { count: state.dropped.count + gone.length, bytes: state.dropped.bytes + gone.reduce((n, x) => n + exchangeBytes(x), 0) },
  };
}

let state: HistoryState = { items: [], dropped: { count: 0, bytes: 0 } };
const listeners = new Listeners();

function set(next: HistoryState) {
  state = capHistory(next, HISTORY_MAX_BYTES);
  listeners.emit();
}

export const history = {
  all: () => state.items,
  dropped: () => state.dropped,
  /** Adds or replaces (same id) an exchange. */
  put(x: Exchange) {
    const items = state.items;
    const i = items.findIndex((e) => e.id === x.id);
    set({ ...state, items: i >= 0 ? items.map((e, j) => (j === i ? x : e)) : [x, ...items] });
  },
  addMany(xs: Exchange[]) {
    set({ ...state, items: [...xs, ...state.items] });
  },
  clear() {
    set({ items: [], dropped: { count: 0, bytes: 0 } });
  },
};

function subscribe(cb: () => void) {
  return listeners.subscribe(cb);
}

export function useHistory(): Exchange[] {
  return useSyncExternalStore(
    subscribe,
    () => state.items,
    () => state.items,
  );
}

/** How many exchanges (and bytes) the budget let go. */
export function useHistoryDropped(): HistoryState['dropped'] {
  return useSyncExternalStore(
    subscribe,
    () => state.dropped,
    () => state.dropped,
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

/** Exchanges from elsewhere (a recording being replayed) join the history, newest first. */
export function addToHistory(xs: Exchange[]): void {
  history.addMany([...xs].reverse());
}

// The Lists view's sort and filter as React state: runs rowOrder.ts's sliced work over the pager's
// row store whenever the request changes (another column, direction or filter text: the work in
// flight is dropped) or the list grows (one more chunk: the work in flight finishes, then runs
// once more over every row), and keeps the last finished order on screen meanwhile.
import { useEffect, useRef, useState } from 'react';
import { browserDriver, type CellSource, type OrderRequest, orderRows, type RowOrder, runSliced } from './rowOrder';

export interface RowOrderState {
  /** Indices into the store, in the order to show; null: the store's own order, every row. */
  order: RowOrder | null;
  /** How many rows the order was made from (the list may have grown since). */
  of: number;
  /** Work in flight. */
  busy: boolean;
}

const driver = typeof MessageChannel === 'undefined' ? null : browserDriver();

export function useRowOrder(store: CellSource, rowCount: number, request: OrderRequest | null): RowOrderState {
  const key = request ? JSON.stringify(request) : '';
  const [done, setDone] = useState<{ store: CellSource; key: string; order: RowOrder; of: number } | null>(null);
  const job = useRef<{ store: CellSource; key: string; ac: AbortController } | null>(null);
  const current = !!done && done.store === store && done.key === key;

  useEffect(() => {
    const j = job.current;
    if (j && (j.store !== store || j.key !== key)) {
      j.ac.abort();
      job.current = null;
    }
    if (!request || !driver || job.current) return; // the same work in flight: checked again when it finishes
    if (current && done.of === store.length) return;
    const mine = { store, key, ac: new AbortController() };
    job.current = mine;
    const of = store.length;
    runSliced(orderRows(store, request), driver, mine.ac.signal).then(
      (order) => {
        if (job.current !== mine) return;
        job.current = null;
        // A new `done` runs this effect again: one more pass when the list grew meanwhile.
        setDone({ store, key, order, of });
      },
      () => undefined,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed on the request's text, not its object
  }, [store, key, rowCount, done]);
  useEffect(
    () => () => {
      // Unmounted (or StrictMode's trial unmount, after which the effect above runs again and must
      // start afresh rather than wait for an aborted job).
      job.current?.ac.abort();
      job.current = null;
    },
    [],
  );

  if (!request) return { order: null, of: rowCount, busy: false };
  if (current) return { order: done.order, of: done.of, busy: done.of !== rowCount };
  return { order: null, of: rowCount, busy: true };
}

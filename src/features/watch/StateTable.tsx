// The pane's "Current state" tab: a row per object of the collection (the worker's summaries:
// key, resourceVersion, last event type, Table cells), windowed; a row's name opens it.
import { useMemo, useRef } from 'react';
import { type PaneSnapshot, stateCells, stateVersion } from '../../k8s/watch';
import { useFixedRows } from '../../ui/fixedRows';

const ROW = 24;

export function StateTable({ snap, opened, onOpen }: { snap: PaneSnapshot; opened: string | null; onOpen: (key: string) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  // The keys in order: kept by the worker's mirror as objects come and go (snap.order), so a
  // render reads only the rows on screen; the in-page session's snapshot has none, and is sorted
  // once per rendered batch.
  const order = useMemo(() => snap.order ?? [...snap.objects.keys()].sort(), [snap]);
  const columns = (snap.columns ?? []).filter((c) => !c.priority);
  // Rows found from the scroll offset (every row is ROW high): a streaming list of 150,000 grows
  // the count with each batch, and @tanstack/react-virtual measured every row again for each.
  const v = useFixedRows(scroller, order.length, ROW, 12);
  return (
    <div className="watch-state" ref={scroller}>
      <div role="table" aria-label="Current state" aria-rowcount={order.length + 1}>
        <div role="row" className="st-row st-head">
          <span role="columnheader">namespace/name</span>
          <span role="columnheader">resourceVersion</span>
          <span role="columnheader">last event</span>
          {columns.map((c) => (
            <span key={c.name} role="columnheader" title={c.description}>
              {c.name}
            </span>
          ))}
        </div>
        <div role="rowgroup" style={{ height: v.totalSize, position: 'relative' }}>
          {v.rows.map((item) => {
            const k = order[item.index]!;
            const o = snap.objects.get(k);
            if (!o) return null;
            return (
              <div key={k} role="row" aria-rowindex={item.index + 2} className="st-row" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${item.start}px)` }}>
                <span role="cell">
                  <button type="button" className="st-open" aria-pressed={opened === k} onClick={() => onOpen(k)}>
                    {k}
                  </button>
                </span>
                <span role="cell">{stateVersion(o)}</span>
                <span role="cell">{o.type ?? ''}</span>
                {stateCells(o).slice(0, columns.length).map((c, i) => (
                  <span role="cell" key={i}>
                    {typeof c === 'object' ? JSON.stringify(c) : String(c)}
                  </span>
                ))}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

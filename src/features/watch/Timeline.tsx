// A watch pane's timeline: virtualized rows of events and notes that follow the newest unless the
// reader scrolled up.
import { defaultRangeExtractor, type Range, useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef } from 'react';
import type { PaneEntry } from '../../k8s/watch';
import { focusRow, nextRowIndex, rowIndexOf, tailRange } from '../../ui/rowKeys';
import type { IndexedList } from './filtered';
import { size, time } from './paneFormat';

const ROW = 24;

export function Timeline({ entries, selected, onSelect }: { entries: IndexedList<PaneEntry>; selected: number | null; onSelect: (seq: number) => void }) {
  const scroller = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  const lastTop = useRef(0);
  // While following, the rows at the end are rendered whatever the scroll offset still says: the
  // offset moves only in the next frame (below), and rendering the rows of the old offset first
  // mounted each batch's rows twice, the second time in the frame that scrolled, in one long task.
  const rangeExtractor = useCallback((r: Range) => (follow.current ? tailRange(r) : defaultRangeExtractor(r)), []);
  const v = useVirtualizer({ count: entries.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 12, rangeExtractor });
  // Follow the newest event unless the reader scrolled up. Set directly (the browser clamps it to the
  // end): the virtualizer's scrollToIndex re-reads the layout on every frame until it settles,
  // which during a burst was the main thread's largest cost (bench/watch.ts profile). Set in the
  // next frame's callback, not here: setting scrollTop lays the page out at once, and here that
  // made the render's task and the layout one task (26–37 ms of style and layout in the catch-up's
  // traces); in the frame, it is the layout the frame does anyway.
  useEffect(() => {
    if (!follow.current || !entries.length) return;
    const id = requestAnimationFrame(() => {
      const el = scroller.current;
      if (follow.current && el) el.scrollTop = v.getTotalSize();
    });
    return () => cancelAnimationFrame(id);
  }, [entries.length, v]);
  return (
    <div
      className="watch-timeline"
      ref={scroller}
      // Capture phase: this runs before the virtualizer's own scroll listener, which reads
      // `follow` (rangeExtractor) for the same scroll. At the end (or clamped there, after Clear)
      // the pane follows; it stops when the reader scrolls up, not because rows were added since
      // the frame that scrolled to the end (its scroll event comes a frame later, and a render
      // may have grown the list in between).
      onScrollCapture={(e) => {
        const el = e.currentTarget;
        const top = el.scrollTop;
        if (el.scrollHeight - top - el.clientHeight < ROW * 2) follow.current = true;
        else if (top < lastTop.current - 1) follow.current = false;
        lastTop.current = top;
      }}
    >
      <div
        role="list"
        aria-label="Events"
        style={{ height: v.getTotalSize(), position: 'relative' }}
        onKeyDown={(ev) => {
          // Arrows move between events (only those in view exist in the DOM); Enter/Space select.
          const from = rowIndexOf(ev.target);
          if (from < 0 || ev.altKey || ev.ctrlKey || ev.metaKey) return;
          const to = nextRowIndex(ev.key, from, entries.length, Math.floor((scroller.current?.clientHeight ?? ROW * 10) / ROW) - 1);
          if (to === null) return;
          ev.preventDefault();
          follow.current = to === entries.length - 1;
          v.scrollToIndex(to, { align: 'auto' });
          focusRow(scroller.current, to, 'button');
        }}
      >
        {v.getVirtualItems().map((item) => {
          const e = entries.at(item.index)!;
          return (
            <div
              key={e.seq}
              role="listitem"
              data-row-index={item.index}
              className={`tl-row ${e.kind === 'note' ? `note note-${e.note}` : `ev-${e.type}`}${selected === e.seq ? ' selected' : ''}`}
              style={{ position: 'absolute', top: 0, left: 0, right: 0, height: ROW, transform: `translateY(${item.start}px)` }}
            >
              <button type="button" className="tl-btn" aria-pressed={selected === e.seq} onClick={() => onSelect(e.seq)}>
                <span className="tl-time">{time(e.receivedAt)}</span>
                {e.kind === 'note' ? (
                  <>
                    <span className="tl-type">{e.note}</span>
                    <span className="tl-msg">{e.message}</span>
                  </>
                ) : (
                  <>
                    <span className="tl-type">{e.type}</span>
                    <span className="tl-key">{e.type === 'ERROR' ? `${e.status?.code ?? ''} ${e.status?.reason ?? ''}` : e.type === 'BOOKMARK' ? (e.initialEventsEnd ? 'k8s.io/initial-events-end' : 'bookmark') : e.key}</span>
                    <span className="tl-rv">{e.resourceVersion !== undefined ? `rv ${e.resourceVersion}` : ''}</span>
                    <span className="tl-size">{size(e.size)}</span>
                    {e.origin !== 'live' && <span className={`tl-origin origin-${e.origin}`}>{e.origin === 'list' ? 'from list' : 'initial'}</span>}
                  </>
                )}
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}

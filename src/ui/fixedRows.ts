// Windowing for rows of one fixed height: which rows a scrolled viewport shows, computed from the
// scroll offset alone, whatever the row count. @tanstack/react-virtual (kept where rows are few)
// measures every row again whenever the count changes: over 150,000 rows, growing by 500 per
// chunk, that was the longest main-thread task while a list loaded (a trace of the scale bench:
// getMeasurements and getVirtualItems, 50 of a 153 ms task). Here a new count costs nothing.
import { type RefObject, useCallback, useLayoutEffect, useState } from 'react';
import { flushSync } from 'react-dom';

export interface FixedRow {
  index: number;
  /** Offset of the row's top from the top of the scrolled content, in pixels. */
  start: number;
}

/** The rows to render: those in view and `overscan` more on each side. Pure, for tests. */
export function visibleRows(scrollTop: number, viewport: number, count: number, rowHeight: number, overscan: number): FixedRow[] {
  if (count <= 0 || rowHeight <= 0) return [];
  // An offset past the end (the list just got shorter: a find, a relist) is read as the browser
  // will clamp it, so that the rows are the last ones, never none, even before its scroll event.
  const top = Math.max(0, Math.min(scrollTop, count * rowHeight - viewport));
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const end = Math.min(count, Math.ceil((top + viewport) / rowHeight) + overscan);
  const rows: FixedRow[] = [];
  for (let i = first; i < end; i++) rows.push({ index: i, start: i * rowHeight });
  return rows;
}

/** The scrollTop that brings row `index` into view, moving as little as it can (the "auto" alignment); undefined when it is in view. */
export function scrollTopFor(index: number, scrollTop: number, viewport: number, rowHeight: number): number | undefined {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewport) return bottom - viewport;
  return undefined;
}

export function useFixedRows(scrollRef: RefObject<HTMLElement | null>, count: number, rowHeight: number, overscan: number): { rows: FixedRow[]; totalSize: number; scrollToIndex: (index: number) => void } {
  const [view, setView] = useState({ top: 0, height: 0 });
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const read = (sync: boolean) => {
      const next = { top: el.scrollTop, height: el.clientHeight };
      const update = () => setView((v) => (v.top === next.top && v.height === next.height ? v : next));
      // Rendered before the browser paints the scrolled frame, so that a jump shows rows, not a
      // blank (what react-virtual does on scroll too).
      if (sync) flushSync(update);
      else update();
    };
    read(false);
    const onScroll = () => read(true);
    el.addEventListener('scroll', onScroll, { passive: true });
    const resize = new ResizeObserver(() => read(false));
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      resize.disconnect();
    };
  }, [scrollRef]);
  const scrollToIndex = useCallback(
    (index: number) => {
      const el = scrollRef.current;
      if (!el) return;
      const top = scrollTopFor(index, el.scrollTop, el.clientHeight, rowHeight);
      if (top !== undefined) el.scrollTop = top;
    },
    [scrollRef, rowHeight],
  );
  return { rows: visibleRows(view.top, view.height, count, rowHeight, overscan), totalSize: count * rowHeight, scrollToIndex };
}

// One column layout for many rows: the browser lays out a grid once, in an empty "ruler" row, and
// the rows place their cells at the ruler's column offsets. A row then costs a few fixed boxes to
// lay out, whatever its text, instead of a grid of its own (a scroll jump lays out every row in view).
import { type RefObject, useLayoutEffect, useState } from 'react';

export interface ColumnBox {
  /** Offset of the column's left edge from the row's left border edge, in CSS pixels. */
  left: number;
  width: number;
}

/** Boxes equal to within a hundredth of a pixel (a re-measure that changes nothing re-renders no row). */
export function sameBoxes(a: ColumnBox[] | null, b: ColumnBox[] | null): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((x, i) => Math.abs(x.left - b[i]!.left) < 0.01 && Math.abs(x.width - b[i]!.width) < 0.01);
}

/** The boxes of `ruler`'s children relative to it; null when it has not the expected count or no width (not laid out). */
export function measureColumns(ruler: HTMLElement, count: number): ColumnBox[] | null {
  const cells = ruler.children;
  if (cells.length !== count || count === 0) return null;
  const origin = ruler.getBoundingClientRect();
  if (origin.width === 0) return null;
  const boxes: ColumnBox[] = [];
  for (const cell of cells) {
    const r = cell.getBoundingClientRect();
    boxes.push({ left: r.left - origin.left - ruler.clientLeft, width: r.width });
  }
  return boxes;
}

/**
 * The ruler's column boxes, measured when it is first laid out, when its size changes (a resize)
 * and when `layoutKey` (its columns) changes. Null until measured: the rows lay out their own grid
 * meanwhile.
 */
export function useColumnBoxes(ruler: RefObject<HTMLElement | null>, count: number, layoutKey: string): ColumnBox[] | null {
  const [boxes, setBoxes] = useState<ColumnBox[] | null>(null);
  useLayoutEffect(() => {
    const el = ruler.current;
    if (!el) return;
    const measure = () => {
      const next = measureColumns(el, count);
      setBoxes((prev) => (sameBoxes(prev, next) ? prev : next));
    };
    measure();
    const resize = new ResizeObserver(measure);
    resize.observe(el);
    return () => resize.disconnect();
  }, [ruler, count, layoutKey]);
  return boxes;
}

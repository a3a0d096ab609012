// Keyboard movement through virtualized rows (lists, the watch timeline): only the rows in view
// exist in the DOM, so Tab cannot reach the others; the arrow keys move between rows, scrolling
// the wanted one into existence first. Enter then does what a click does (the row's link or button).

/** The row index a key leads to from `current`, or null when the key is not a row key. */
export function nextRowIndex(key: string, current: number, count: number, pageSize: number): number | null {
  if (count <= 0) return null;
  const clamp = (i: number) => Math.max(0, Math.min(count - 1, i));
  switch (key) {
    case 'ArrowDown':
      return clamp(current + 1);
    case 'ArrowUp':
      return clamp(current - 1);
    case 'PageDown':
      return clamp(current + Math.max(1, pageSize));
    case 'PageUp':
      return clamp(current - Math.max(1, pageSize));
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * Focuses the control of row `index` inside `container` (`[data-row-index]` elements, control
 * matched by `selector`), waiting a few frames for the virtualizer to render it after a scroll.
 */
export function focusRow(container: HTMLElement | null, index: number, selector: string, tries = 20): void {
  if (!container) return;
  const el = container.querySelector<HTMLElement>(`[data-row-index="${index}"] ${selector}`);
  if (el) {
    el.focus();
    return;
  }
  if (tries > 0) requestAnimationFrame(() => focusRow(container, index, selector, tries - 1));
}

/** The row index of the element an event came from, or -1. */
export function rowIndexOf(target: EventTarget | null): number {
  const row = (target as HTMLElement | null)?.closest?.('[data-row-index]');
  return row ? Number(row.getAttribute('data-row-index')) : -1;
}

/**
 * The indexes a follow-the-tail list renders (a virtualizer's rangeExtractor): as many rows as the
 * viewport holds (the range's own size, wherever its offset is) and the overscan before them,
 * ending at the last row.
 */
export function tailRange(r: { startIndex: number; endIndex: number; overscan: number; count: number }): number[] {
  const n = Math.max(0, Math.min(r.count, r.endIndex - r.startIndex + 1 + r.overscan));
  const out: number[] = [];
  for (let i = r.count - n; i < r.count; i++) out.push(i);
  return out;
}

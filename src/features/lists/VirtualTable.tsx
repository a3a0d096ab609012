// Rows are virtualized: only the rows in view (plus a few) exist in the DOM, every row has the same
// height so nothing is measured, and a row's render is a fixed amount of work whatever the list size.
import { memo, useLayoutEffect, useRef, useState } from 'react';
import { type ColumnBox, useColumnBoxes } from '../../ui/columnBoxes';
import { useFixedRows } from '../../ui/fixedRows';
import { focusRow, nextRowIndex, rowIndexOf } from '../../ui/rowKeys';
import type { ListRow, TableColumnDefinition } from '../../k8s/lists';
import { cellText } from './format';

const ROW_HEIGHT = 28;
/** One object for every placed row: React compares it by identity and writes no style on a re-render. */
const ROW_STYLE = { height: ROW_HEIGHT, lineHeight: `${ROW_HEIGHT}px` };
/**
 * Rows rendered beyond the viewport on each side. The rows follow a scroll in the same frame
 * (useFixedRows renders in the scroll event), so overscan only spares a re-render on short
 * scrolls; on a jump every row is new, and each one costs the frame its render, style and layout
 * (12 each side was half of the rows a jump rendered).
 */
const OVERSCAN = 4;

export interface VisibleColumn {
  def: TableColumnDefinition;
  /** Index into the row's cells; -1 for the namespace column we add across namespaces. */
  cell: number;
}

/** What the table reads rows from: the pager's row store, by index. */
export interface RowSource {
  row(i: number): ListRow;
}

export function VirtualTable({
  label,
  columns,
  rows,
  rowCount,
  selectedKey,
  linkFor,
  onOpen,
  sort,
  onSort,
}: {
  label: string;
  columns: VisibleColumn[];
  /** Append-only while the list loads: a row at an index never changes, so rows on screen are not rendered again when a chunk arrives. */
  rows: RowSource;
  /** How many of `rows` to show; the store grows in place as chunks arrive. */
  rowCount: number;
  selectedKey?: string;
  linkFor: (row: ListRow) => string;
  onOpen: (row: ListRow) => void;
  /** The column the rows are sorted by (its name) and the direction. */
  sort?: { column: string; descending: boolean };
  /** A header was clicked: sort by that column (the view decides the direction). */
  onSort?: (column: VisibleColumn) => void;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // Every row has the same height: the rows in view follow from the scroll offset alone, and a
  // longer list (a chunk arriving) costs nothing here (see useFixedRows).
  const windowed = useFixedRows(scrollRef, rowCount, ROW_HEIGHT, OVERSCAN);
  // Roving focus: one row's link is in the Tab order (the last one focused), the arrows move it.
  const [active, setActive] = useState(0);
  const onKeyDown = (e: React.KeyboardEvent) => {
    const from = rowIndexOf(e.target);
    if (from < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    const pageSize = Math.floor((scrollRef.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1;
    const to = nextRowIndex(e.key, from, rowCount, pageSize);
    if (to === null) return;
    e.preventDefault();
    setActive(to);
    windowed.scrollToIndex(to);
    focusRow(scrollRef.current, to, 'a');
  };
  const template = columns.map((c) => (c.def.format === 'name' ? 'minmax(14rem, 2fr)' : 'minmax(6rem, 1fr)')).join(' ');
  // One column layout for every row: the grid is laid out once, in an empty ruler row, and each
  // row's cells are placed at its columns' offsets, so that a row's layout is a few fixed boxes
  // whatever it shows (each row laid out its own grid before: on a jump, every row in view).
  const rulerRef = useRef<HTMLDivElement>(null);
  const boxes = useColumnBoxes(rulerRef, columns.length, template);
  const focusable = Math.min(active, rowCount - 1);
  // Rows are keyed by their place among the rendered rows, not by their index: after a scroll the
  // same elements show other rows (their text and attributes change), where keys by index made a
  // jump remove every row element and create new ones, and Blink style, lay out and paint them
  // afresh. The one thing an element must not carry to another row is focus: Enter would open
  // that other row. So when the rows shift, focus follows its row, or leaves when it is gone.
  const first = windowed.rows[0]?.index ?? 0;
  useLayoutEffect(() => {
    const el = scrollRef.current;
    const focused = document.activeElement;
    if (!el || !(focused instanceof HTMLElement) || !el.contains(focused) || rowIndexOf(focused) === active) return;
    const target = el.querySelector<HTMLElement>(`[data-row-index="${active}"] a`);
    if (target) target.focus({ preventScroll: true });
    else focused.blur();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the rows shift under the elements
  }, [first]);

  return (
    <div className="lists-table" role="table" aria-label={label} aria-rowcount={rowCount + 1}>
      <div role="rowgroup" className="lists-thead">
        <div role="row" aria-rowindex={1} className="lists-row" style={{ gridTemplateColumns: template }}>
          {columns.map((c) => (
            <div
              role="columnheader"
              key={`${c.cell}:${c.def.name}`}
              title={c.def.description || undefined}
              className={c.def.priority > 0 ? 'wide-col' : undefined}
              aria-sort={sort?.column === c.def.name ? (sort.descending ? 'descending' : 'ascending') : undefined}
            >
              {onSort ? (
                <button type="button" className="lists-sort" onClick={() => onSort(c)} title={`Sort by ${c.def.name}, on this page (the server lists in namespace/name order)`}>
                  {c.def.name}
                  {sort?.column === c.def.name ? <span aria-hidden="true">{sort.descending ? ' ▼' : ' ▲'}</span> : null}
                </button>
              ) : (
                c.def.name
              )}
              {c.def.description && <span className="help" aria-hidden="true">?</span>}
            </div>
          ))}
        </div>
      </div>
      <div ref={scrollRef} className="lists-scroll" data-testid="lists-scroll">
        <div role="rowgroup" style={{ height: windowed.totalSize, position: 'relative' }} onKeyDown={onKeyDown}>
          <div ref={rulerRef} className="lists-row lists-ruler" aria-hidden="true" style={{ gridTemplateColumns: template }}>
            {columns.map((c) => (
              <div key={`${c.cell}:${c.def.name}`} />
            ))}
          </div>
          {/* The rows in view, in flow under one offset: a jump moves one box, not each row. */}
          <div className="lists-window" style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
            {windowed.rows.map((v) => (
              <Row
                key={v.index - first}
                rows={rows}
                index={v.index}
                template={template}
                boxes={boxes}
                columns={columns}
                selectedKey={selectedKey}
                focusable={v.index === focusable}
                onFocusRow={setActive}
                linkFor={linkFor}
                onOpen={onOpen}
              />
            ))}
          </div>
        </div>
      </div>
    </div>
  );
}

/**
 * One row. Memoized on what it shows: a chunk arriving (a longer list, one more render of the
 * table) renders no row again, only the rows that scroll into view render.
 */
const Row = memo(function Row({
  rows,
  index,
  template,
  boxes,
  columns,
  selectedKey,
  focusable,
  onFocusRow,
  linkFor,
  onOpen,
}: {
  rows: RowSource;
  index: number;
  template: string;
  /** The columns' places from the ruler; null until it is measured (the row lays out its own grid meanwhile). */
  boxes: ColumnBox[] | null;
  columns: VisibleColumn[];
  selectedKey: string | undefined;
  focusable: boolean;
  onFocusRow: (index: number) => void;
  linkFor: (row: ListRow) => string;
  onOpen: (row: ListRow) => void;
}) {
  const row = rows.row(index);
  const key = row.namespace ? `${row.namespace}/${row.name}` : row.name;
  const now = Date.now();
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      data-row-index={index}
      aria-selected={selectedKey === key || undefined}
      // Striped by the row's index, not its place among the rendered rows (nth-child), which
      // changes with every row scrolled past and made the stripes swap rows while scrolling.
      className={`lists-row${boxes ? ' placed' : ''}${index % 2 === 1 ? ' stripe' : ''}`}
      style={boxes ? ROW_STYLE : { gridTemplateColumns: template, height: ROW_HEIGHT }}
    >
      {columns.map((c, i) => {
        const value = c.cell < 0 ? row.namespace : row.cells[c.cell];
        const { text, title } = cellText(value, c.def.type, now);
        const box = boxes?.[i];
        const style = box ? { left: box.left, width: box.width } : undefined;
        if (c.def.format === 'name') {
          return (
            <div role="cell" key={c.cell} style={style}>
              <a
                href={linkFor(row)}
                tabIndex={focusable ? 0 : -1}
                onFocus={() => onFocusRow(index)}
                onClick={(e) => {
                  if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
                  e.preventDefault();
                  onOpen(row);
                }}
              >
                {text}
              </a>
            </div>
          );
        }
        return (
          <div role="cell" key={c.cell} title={title ?? text} style={style}>
            {text}
          </div>
        );
      })}
    </div>
  );
});

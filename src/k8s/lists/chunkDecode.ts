// A list chunk's body, from bytes to rows: what can run in a Web Worker (decodeWorker.ts) as well
// as in the page. No imports beyond the row store and the types, so the worker's bundle stays small.
import { buildBlock, Interner, type ListRow, RowBlock } from './rowStore';
import { type AnyList, isTable, type ListMeta, type ObjectMetaLite, type TableColumnDefinition } from './types';

export type ListMode = 'table' | 'metadata' | 'full';

/** The columns we show when there is no server Table: the ones every object has. */
export const GENERIC_COLUMNS: TableColumnDefinition[] = [
  { name: 'Name', type: 'string', format: 'name', description: 'metadata.name', priority: 0 },
  { name: 'Namespace', type: 'string', format: '', description: 'metadata.namespace', priority: 0 },
  { name: 'Created', type: 'date', format: '', description: 'metadata.creationTimestamp', priority: 0 },
];

export interface DecodedPage {
  /** The body's kind: `Table`, `PartialObjectMetadataList`, `ConfigMapList`, ... */
  kind: string;
  /** True when the server rendered a Table; false for metadata/full modes and for the fallback. */
  table: boolean;
  columns: TableColumnDefinition[];
  /** The chunk's rows, column by column: `rows.length`, `rows.row(i)`. */
  rows: RowBlock;
  metadata: ListMeta;
  /** The first item of the body as received (metadata and full modes), so the difference shows. */
  sample?: unknown;
}

/**
 * Reduces a response body to rows; exported for tests. Pass the list's Interner so that strings
 * repeated across chunks (namespaces, statuses) are held once for the whole list.
 */
export function pageFromBody(body: unknown, mode: ListMode, interner: Interner = new Interner()): DecodedPage {
  if (isTable(body)) {
    const columns = body.columnDefinitions;
    const nameCol = columns.findIndex((c) => c.format === 'name');
    const rows = buildBlock(
      body.rows.length,
      columns.length,
      interner,
      (i) => {
        const r = body.rows[i]!;
        // With includeObject=Metadata the row carries a PartialObjectMetadata (managedFields and
        // all): its name and namespace are read here, and the rest is dropped with the body.
        const meta = r.object?.metadata;
        const cell = r.cells[nameCol >= 0 ? nameCol : 0];
        const name = typeof cell === 'string' && (meta?.name === undefined || cell === meta.name) ? cell : (meta?.name ?? String(cell));
        return { name, namespace: meta?.namespace || undefined, cells: r.cells };
      },
      nameCol,
    );
    return { kind: 'Table', table: true, columns, rows, metadata: body.metadata ?? {} };
  }
  const list = body as AnyList;
  const items = list.items ?? [];
  const rows = buildBlock(items.length, GENERIC_COLUMNS.length, interner, (i) => genericRow(items[i]!.metadata ?? {}), 0);
  return {
    kind: list.kind ?? 'List',
    table: false,
    columns: GENERIC_COLUMNS,
    rows,
    metadata: list.metadata ?? {},
    sample: mode === 'table' ? undefined : items[0],
  };
}

function genericRow(m: ObjectMetaLite): ListRow {
  const name = m.name ?? '';
  return { name, namespace: m.namespace || undefined, cells: [name, m.namespace ?? '', m.creationTimestamp ?? ''] };
}

/**
 * A decoded page as plain data (arrays and records only), what a worker posts back: a structured
 * clone of a chunk's rows (500 names, namespaces and their cells) instead of its body.
 */
export interface WirePage {
  kind: string;
  table: boolean;
  columns: TableColumnDefinition[];
  metadata: ListMeta;
  sample?: unknown;
  names: string[];
  namespaces: (string | undefined)[] | null;
  cells: unknown[][];
}

/** The bytes of a list body, decoded (UTF-8, JSON.parse) and reduced to rows as plain data. */
export function decodeToWire(bytes: Uint8Array, mode: ListMode): WirePage {
  const body: unknown = JSON.parse(new TextDecoder().decode(bytes));
  const p = pageFromBody(body, mode);
  return { kind: p.kind, table: p.table, columns: p.columns, metadata: p.metadata, sample: p.sample, names: p.rows.names, namespaces: p.rows.namespaces, cells: p.rows.columns };
}

/**
 * The page's rows from plain data: repeated strings go through the list's Interner here, since a
 * structured clone makes a copy of every string (a namespace per row, a status per row). The
 * name column stays the names array when it was (a clone keeps an array's identity within one
 * message), and is not interned (names are unique).
 */
export function pageFromWire(w: WirePage, interner: Interner): DecodedPage {
  const namespaces = w.namespaces;
  if (namespaces) for (let i = 0; i < namespaces.length; i++) if (namespaces[i] !== undefined) namespaces[i] = interner.namespace(namespaces[i]!);
  for (let c = 0; c < w.cells.length; c++) {
    const col = w.cells[c]!;
    if (col === w.names) continue;
    for (let i = 0; i < col.length; i++) col[i] = interner.cell(c, col[i]);
  }
  return { kind: w.kind, table: w.table, columns: w.table ? w.columns : GENERIC_COLUMNS, rows: new RowBlock(w.names, namespaces, w.cells), metadata: w.metadata, sample: w.sample };
}

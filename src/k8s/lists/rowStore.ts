// A list's rows as the page keeps them: column-major blocks, one per chunk, holding the cells and
// each object's name and namespace, and nothing else of the response. A row as an object
// ({name, namespace, cells}) is made only when it is read (the rows on screen), so holding a row
// costs a few array slots and its name string: measured by `npm run bench -- lists` as heap per
// 1,000 rows. What JSON.parse made of the body (row objects, cell arrays, the object metadata
// includeObject=Metadata brings) is garbage as soon as a chunk is decoded.

/** A row as the view reads it: the cells and the object's coordinates, never the object. */
export interface ListRow {
  name: string;
  namespace?: string;
  cells: unknown[];
}

/** Interned strings get one more entry only while the table is below this: past it a column is
 * mostly distinct values (IPs, UIDs), where a table entry would cost more than it saves. */
const MAX_INTERNED = 2048;
/** Longer strings are rarely repeated verbatim (messages, images are the exception, not the rule). */
const MAX_INTERNED_LENGTH = 128;

/**
 * One copy of each repeated string (a namespace, a status like "Running", a node name) for a
 * whole list, instead of one per row as JSON.parse makes them (V8 shares only very short ones).
 */
export class Interner {
  private namespaces = new Map<string, string>();
  private cells: Map<string, string>[] = [];

  namespace(s: string): string {
    const held = this.namespaces.get(s);
    if (held !== undefined) return held;
    // Namespaces are few; no cap needed beyond the cluster's own count.
    this.namespaces.set(s, s);
    return s;
  }

  cell(column: number, v: unknown): unknown {
    if (typeof v !== 'string' || v.length > MAX_INTERNED_LENGTH) return v;
    const table = (this.cells[column] ??= new Map());
    const held = table.get(v);
    if (held !== undefined) return held;
    if (table.size < MAX_INTERNED) table.set(v, v);
    return v;
  }
}

/** The rows of one chunk, column by column; every array is allocated at its exact size. */
export class RowBlock {
  readonly length: number;

  constructor(
    readonly names: string[],
    /** null when no row has a namespace (a namespaced list, a cluster-scoped resource). */
    readonly namespaces: (string | undefined)[] | null,
    /** columns[c][i] is row i's cell c; the name column may be `names` itself. */
    readonly columns: unknown[][],
  ) {
    this.length = names.length;
  }

  name(i: number): string {
    return this.names[i]!;
  }

  namespace(i: number): string | undefined {
    return this.namespaces?.[i];
  }

  /** Row i's cell c without making the row; c = -1 is its namespace. */
  cell(i: number, c: number): unknown {
    return c < 0 ? this.namespaces?.[i] : this.columns[c]?.[i];
  }

  row(i: number): ListRow {
    const cells = new Array<unknown>(this.columns.length);
    for (let c = 0; c < cells.length; c++) cells[c] = this.columns[c]![i];
    const namespace = this.namespace(i);
    return namespace === undefined ? { name: this.names[i]!, cells } : { name: this.names[i]!, namespace, cells };
  }

  toArray(): ListRow[] {
    return Array.from({ length: this.length }, (_, i) => this.row(i));
  }
}

/** Column-major from row-major: what a Table's rows (or a list's items) decode into. */
export function buildBlock(
  count: number,
  columnCount: number,
  interner: Interner,
  rowAt: (i: number) => { name: string; namespace?: string; cells: readonly unknown[] },
  nameColumn: number,
): RowBlock {
  const names = new Array<string>(count);
  let namespaces: (string | undefined)[] | null = null;
  const columns: unknown[][] = Array.from({ length: columnCount }, () => new Array<unknown>(count));
  // The name column usually is the names: then one array serves both.
  let nameCellIsName = nameColumn >= 0 && nameColumn < columnCount;
  for (let i = 0; i < count; i++) {
    const r = rowAt(i);
    names[i] = r.name;
    if (r.namespace) (namespaces ??= new Array<string | undefined>(count))[i] = interner.namespace(r.namespace);
    for (let c = 0; c < columnCount; c++) {
      const v = r.cells[c];
      if (c === nameColumn) {
        columns[c]![i] = v;
        if (v !== r.name) nameCellIsName = false;
      } else {
        columns[c]![i] = interner.cell(c, v);
      }
    }
  }
  if (nameCellIsName) columns[nameColumn] = names;
  return new RowBlock(names, namespaces, columns);
}

/**
 * Every row of a list, chunk after chunk; append-only between resets. Also tells rows seen twice
 * apart: a list the server reads from etcd comes in key order (namespace/name, strictly
 * increasing), where no row can repeat, so only the last key is kept; a list that breaks the
 * order (another storage, an aggregated API) gets a set of what was seen, built then.
 */
export class RowStore {
  readonly interner = new Interner();
  private blocks: RowBlock[] = [];
  /** starts[k] is the index of blocks[k]'s first row. */
  private starts: number[] = [];
  private count = 0;
  private lastNs: string | undefined;
  private lastName: string | undefined;
  private seen: Map<string, Set<string>> | null = null;
  /** The block the last lookup found: reads come in runs of neighbouring rows. */
  private hint = 0;

  get length(): number {
    return this.count;
  }

  /** Adds a chunk's rows; returns how many of them were already in the list. */
  append(block: RowBlock): number {
    if (block.length === 0) return 0;
    let duplicates = 0;
    for (let i = 0; i < block.length; i++) {
      const ns = block.namespace(i) ?? '';
      const name = block.name(i);
      if (!this.seen && this.lastName !== undefined && !keyAfter(ns, name, this.lastNs!, this.lastName)) this.seen = this.index();
      if (this.seen) {
        let names = this.seen.get(ns);
        if (!names) this.seen.set(ns, (names = new Set()));
        if (names.has(name)) duplicates++;
        else names.add(name);
      }
      this.lastNs = ns;
      this.lastName = name;
    }
    this.starts.push(this.count);
    this.blocks.push(block);
    this.count += block.length;
    return duplicates;
  }

  name(i: number): string {
    const [b, j] = this.locate(i);
    return b.name(j);
  }

  namespace(i: number): string | undefined {
    const [b, j] = this.locate(i);
    return b.namespace(j);
  }

  row(i: number): ListRow {
    const [b, j] = this.locate(i);
    return b.row(j);
  }

  /** Row i's cell c (c = -1: its namespace), for sorting and filtering every row without making them. */
  cell(i: number, c: number): unknown {
    const [b, j] = this.locate(i);
    return b.cell(j, c);
  }

  toArray(): ListRow[] {
    return this.blocks.flatMap((b) => b.toArray());
  }

  private locate(i: number): [RowBlock, number] {
    if (!(i >= 0 && i < this.count)) throw new RangeError(`row ${i} of ${this.count}`);
    let k = this.hint;
    if (!(this.starts[k]! <= i && i < this.starts[k]! + this.blocks[k]!.length)) {
      let lo = 0;
      let hi = this.blocks.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.starts[mid]! <= i) lo = mid;
        else hi = mid - 1;
      }
      k = this.hint = lo;
    }
    return [this.blocks[k]!, i - this.starts[k]!];
  }

  /** The set of keys so far, for a list that came out of order. */
  private index(): Map<string, Set<string>> {
    const seen = new Map<string, Set<string>>();
    for (const b of this.blocks) {
      for (let i = 0; i < b.length; i++) {
        const ns = b.namespace(i) ?? '';
        let names = seen.get(ns);
        if (!names) seen.set(ns, (names = new Set()));
        names.add(b.name(i));
      }
    }
    return seen;
  }
}

/**
 * Whether namespace/name sorts after lastNs/lastName as etcd orders keys (byte order of
 * `<namespace>/<name>`; object names and namespaces are ASCII, so UTF-16 order is byte order).
 * Neither part holds a `/`, so when the namespaces differ, `ns + '/'` against `lastNs + '/'`
 * decides, and only then is a string made.
 */
export function keyAfter(ns: string, name: string, lastNs: string, lastName: string): boolean {
  if (ns === lastNs) return name > lastName;
  return `${ns}/` > `${lastNs}/`;
}

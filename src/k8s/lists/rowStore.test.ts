import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERIC_COLUMNS, pageFromBody } from './listClient';
import { buildBlock, Interner, keyAfter, type ListRow, RowStore } from './rowStore';

// Bodies captured from a real kube-apiserver by tools/capture-fixtures.ts.
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../codecs/fixtures/${name}`, import.meta.url), 'utf8'));

/** A block of rows as code builds them (not a server response): [namespace, name] pairs, cells name/data/age. */
function block(keys: [string | undefined, string][], interner = new Interner()) {
  return buildBlock(keys.length, 3, interner, (i) => ({ name: keys[i]![1], namespace: keys[i]![0], cells: [keys[i]![1], i, `${i % 3}m`] }), 0);
}

describe('pageFromBody into a RowBlock', () => {
  it('keeps a Table row as its cells plus name and namespace, nothing of the object metadata (includeObject=Metadata)', () => {
    const page = pageFromBody(fixture('table-pods.json'), 'table');
    expect(page.table).toBe(true);
    expect(page.rows.length).toBe(1);
    const row = page.rows.row(0);
    expect(row).toEqual({ name: 'solo', namespace: expect.any(String), cells: ['solo', '0/1', 'Pending', '0', '10s', '<none>', '<none>', '<none>', '<none>'] });
    // managedFields, uid, labels: gone with the body; the block holds only arrays of cells, names, namespaces.
    expect(JSON.stringify(page.rows)).not.toContain('managedFields');
    expect(Object.keys(row)).toEqual(['name', 'namespace', 'cells']);
  });

  it('falls back to name, namespace and creation time for a plain list', () => {
    const page = pageFromBody(fixture('list-configmaps.json'), 'table');
    expect(page.table).toBe(false);
    expect(page.columns).toBe(GENERIC_COLUMNS);
    expect(page.rows.toArray().map((r) => r.name)).toEqual(['kube-root-ca.crt', 'settings']);
    expect(page.rows.row(1).cells).toEqual(['settings', page.rows.namespace(1), expect.stringMatching(/^\d{4}-\d\d-\d\dT/)]);
  });

  it('holds one copy of a repeated cell string and of a namespace across chunks (one interner per list)', () => {
    const interner = new Interner();
    // Strings built at run time, as JSON.parse makes them: equal, but distinct copies.
    const running = ['Run', 'ning'].join('');
    const a = pageFromBody(fixture('table-pods.json'), 'table', interner);
    const b = pageFromBody(fixture('table-pods.json'), 'table', interner);
    expect(a.rows.namespace(0)).toBe(b.rows.namespace(0));
    expect(interner.cell(2, running)).toBe(interner.cell(2, ['Run', 'ning'].join('')));
    // The name column is the names array itself, not a copy.
    expect(a.rows.columns[0]).toBe(a.rows.names);
  });
});

describe('Interner', () => {
  it('stops growing past its cap and leaves long strings and non-strings alone', () => {
    const interner = new Interner();
    for (let i = 0; i < 5000; i++) interner.cell(0, `10.0.${i >> 8}.${i & 255}`);
    // Past the cap, a new value is returned as it is (not held); a held one is still shared.
    const late = `10.0.99.${7}`;
    expect(interner.cell(0, late)).toBe(late);
    expect(interner.cell(1, 3)).toBe(3);
    const long = 'x'.repeat(500);
    expect(interner.cell(1, long)).toBe(long);
  });
});

describe('RowStore', () => {
  it('reads rows by index across chunks of different sizes', () => {
    const store = new RowStore();
    const names = Array.from({ length: 1234 }, (_, i) => `cm-${String(i).padStart(4, '0')}`);
    for (let at = 0; at < names.length; ) {
      const size = [500, 7, 1, 300][at % 4] ?? 500;
      const part = names.slice(at, at + size);
      expect(store.append(block(part.map((n) => [undefined, n])))).toBe(0);
      at += part.length;
    }
    expect(store.length).toBe(1234);
    for (const i of [0, 499, 500, 506, 507, 508, 807, 1233, 3, 1000]) {
      expect(store.name(i)).toBe(names[i]);
      expect(store.row(i).cells[0]).toBe(names[i]);
    }
    expect(store.toArray().map((r: ListRow) => r.name)).toEqual(names);
    expect(() => store.row(1234)).toThrow(RangeError);
    expect(() => store.row(-1)).toThrow(RangeError);
  });

  it('counts no duplicates for a list in key order across namespaces, and keeps no set for it', () => {
    const store = new RowStore();
    // etcd's order: "kube-public/" < "kube-public-2/" is false ('/' > '-'), so kube-public-2 comes first.
    expect(store.append(block([['default', 'a'], ['default', 'b'], ['kube-public-2', 'a']]))).toBe(0);
    expect(store.append(block([['kube-public', 'a'], ['kube-public', 'z'], ['kube-system', 'a']]))).toBe(0);
    expect((store as unknown as { seen: unknown }).seen).toBeNull();
  });

  it('counts rows seen twice once the order breaks, including rows from before it broke', () => {
    const store = new RowStore();
    expect(store.append(block([['ns', 'a'], ['ns', 'b'], ['ns', 'c']]))).toBe(0);
    // An inconsistent continuation that served b and c again, then something new.
    expect(store.append(block([['ns', 'b'], ['ns', 'c'], ['ns', 'd'], ['other', 'a']]))).toBe(2);
    expect(store.append(block([['ns', 'a'], ['ns', 'e']]))).toBe(1);
    expect(store.length).toBe(9);
  });

  it('tells the same name in two namespaces apart', () => {
    const store = new RowStore();
    expect(store.append(block([['b', 'x'], ['a', 'x'], ['c', 'x']]))).toBe(0);
    expect(store.append(block([['a', 'x']]))).toBe(1);
  });
});

describe('keyAfter', () => {
  it('orders keys as etcd does: bytes of <namespace>/<name>', () => {
    expect(keyAfter('default', 'b', 'default', 'a')).toBe(true);
    expect(keyAfter('default', 'a', 'default', 'a')).toBe(false);
    expect(keyAfter('a', 'x', 'a-b', 'x')).toBe(true); // "a/x" > "a-b/x"
    expect(keyAfter('a-b', 'x', 'a', 'x')).toBe(false);
    expect(keyAfter('', 'node-2', '', 'node-1')).toBe(true);
  });
});

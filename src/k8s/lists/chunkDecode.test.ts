import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeToWire, GENERIC_COLUMNS, pageFromBody, pageFromWire } from './chunkDecode';
import { Interner } from './rowStore';

// Bodies captured from a real kube-apiserver by tools/capture-fixtures.ts.
const bytes = (name: string): Uint8Array => new Uint8Array(readFileSync(new URL(`../../codecs/fixtures/${name}`, import.meta.url)));

/** What the page gets from the decoding worker: the plain rows, through a structured clone as postMessage makes it. */
const acrossWorker = (name: string, mode: 'table' | 'metadata' | 'full' = 'table') => structuredClone(decodeToWire(bytes(name), mode));

describe('a chunk decoded in the worker and rebuilt in the page', () => {
  it('gives the rows, columns and ListMeta the page would have decoded itself', () => {
    const body: unknown = JSON.parse(new TextDecoder().decode(bytes('table-pods.json')));
    const here = pageFromBody(body, 'table');
    const there = pageFromWire(acrossWorker('table-pods.json'), new Interner());
    expect(there.kind).toBe('Table');
    expect(there.table).toBe(true);
    expect(there.columns).toEqual(here.columns);
    expect(there.metadata).toEqual(here.metadata);
    expect(there.rows.toArray()).toEqual(here.rows.toArray());
    // Only rows crossed: none of the object metadata includeObject=Metadata brought.
    expect(JSON.stringify(acrossWorker('table-pods.json'))).not.toContain('managedFields');
  });

  it('puts the namespaces and cells through the list interner (a clone copies every string), the names not', () => {
    // Strings cannot be told apart by identity in a test; what goes through the interner can.
    const seen: { namespaces: string[]; cells: [number, unknown][] } = { namespaces: [], cells: [] };
    const interner = new (class extends Interner {
      override namespace(s: string): string {
        seen.namespaces.push(s);
        return super.namespace(s);
      }
      override cell(column: number, v: unknown): unknown {
        seen.cells.push([column, v]);
        return super.cell(column, v);
      }
    })();
    const page = pageFromWire(acrossWorker('table-pods.json'), interner);
    expect(seen.namespaces).toEqual([page.rows.namespace(0)]);
    // Every cell but the name column's (the names array itself, not a second array of the same strings).
    expect(seen.cells.map(([c]) => c)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(page.rows.columns[0]).toBe(page.rows.names);
  });

  it('falls back to the generic columns for a plain list, and keeps its first item in metadata and full modes', () => {
    const page = pageFromWire(acrossWorker('list-configmaps.json', 'full'), new Interner());
    expect(page.table).toBe(false);
    expect(page.columns).toBe(GENERIC_COLUMNS);
    expect(page.rows.toArray().map((r) => r.name)).toEqual(['kube-root-ca.crt', 'settings']);
    expect((page.sample as { metadata: { name: string } }).metadata.name).toBe('kube-root-ca.crt');
  });

  it('throws on a body that is not JSON, as JSON.parse does', () => {
    expect(() => decodeToWire(new TextEncoder().encode('{"kind":"Table",'), 'table')).toThrow(SyntaxError);
  });
});

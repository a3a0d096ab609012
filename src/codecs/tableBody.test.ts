// The one Table check, on bodies the real server sent (golden fixtures from tools/capture-fixtures.ts).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isTableBody } from './mediaTypes';

const fixture = (f: string): unknown => JSON.parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'fixtures', f), 'utf8'));

describe('isTableBody', () => {
  it('knows a Table the server rendered', () => {
    expect(isTableBody(fixture('table-pods.json'))).toBe(true);
  });
  it('does not take the object or list the Table replaces for one', () => {
    expect(isTableBody(fixture('configmap.json'))).toBe(false);
    expect(isTableBody(fixture('list-configmaps.json'))).toBe(false);
  });
  it("refuses a custom resource of kind Table from another group", () => {
    expect(isTableBody({ kind: 'Table', apiVersion: 'furniture.example.com/v1', rows: [] })).toBe(false);
    expect(isTableBody(null)).toBe(false);
  });
});

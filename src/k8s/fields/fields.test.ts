// The FieldsV1 reader and the ownership tree, first on hand-written tries (odd keys included), then
// on managedFields the real API server wrote after Server-Side Apply patches and plain updates.
import { describe, expect, it } from 'vitest';
import { buildOwnershipTree, formatPath, nodeAt, type OwnershipTree, parseFieldsV1 } from '.';

function owners(tree: OwnershipTree, path: string): string[] {
  const node = nodeAt(tree, path);
  if (!node) throw new Error(`no node at ${path}; have ${JSON.stringify(tree.entries.map((e) => e.paths))}`);
  return node.owners.map((o) => `${o.manager}/${o.operation}${o.subresource ? `/${o.subresource}` : ''}`).sort();
}

describe('parseFieldsV1', () => {
  it('reads f:, k:, v:, i: and "." and prints paths as conflict messages do', () => {
    const parsed = parseFieldsV1({
      'f:spec': {
        'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {} } },
        'f:finalizers': { 'v:"a/b"': {} },
        'f:args': { 'i:2': {} },
      },
    });
    expect(parsed.problems).toEqual([]);
    expect(parsed.owned.map(formatPath)).toEqual(['.spec.containers[name="nginx"]', '.spec.containers[name="nginx"].image', '.spec.finalizers[="a/b"]', '.spec.args[2]']);
  });

  it('reports unreadable keys and keeps reading the rest', () => {
    const parsed = parseFieldsV1({ 'f:data': { 'k:{bad json': { 'f:x': {} }, 'q:what': {}, 'i:-1': {}, 'f:ok': {}, 'f:weird': 3 } });
    expect(parsed.owned.map(formatPath)).toEqual(['.data.ok']);
    expect(parsed.problems.map((p) => p.key)).toEqual(['k:{bad json', 'q:what', 'i:-1', 'f:weird']);
    expect(parseFieldsV1('nonsense').problems).toHaveLength(1);
  });

  it('marks fields that no entry names as owned by nobody, and paths that match nothing as unmatched', () => {
    const tree = buildOwnershipTree({
      metadata: { name: 'x', managedFields: [{ manager: 'm', operation: 'Update', fieldsV1: { 'f:data': { 'f:a': {}, 'f:gone': {} } } }] },
      data: { a: '1', b: '2' },
    });
    expect(owners(tree, '.data.a')).toEqual(['m/Update']);
    expect(owners(tree, '.data.b')).toEqual([]);
    expect(tree.entries[0]!.unmatched).toEqual(['.data.gone']);
  });
});

import { describe, expect, it } from 'vitest';
import { differences, fourBodies, reasonFor } from './fourWays';

const base = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'n', resourceVersion: '5' }, data: { a: '1' }, list: [1, 2] };

describe('four ways', () => {
  it('builds the four bodies from one edit', () => {
    const b = fourBodies(base, { ...base, data: { a: '2' } });
    expect(JSON.parse(b['json-patch'])).toEqual([{ op: 'replace', path: '/data/a', value: '2' }]);
    expect(JSON.parse(b['merge-patch'])).toEqual({ data: { a: '2' } });
    expect(JSON.parse(b.apply)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'n' }, data: { a: '2' } });
  });

  it('lists the paths where two results differ, a list of another length as a whole', () => {
    expect(differences({ a: { b: 1, c: [1, 2] } }, { a: { b: 2, c: [1, 2, 3] } })).toEqual(['.a.b', '.a.c']);
    expect(differences({ c: [{ x: 1 }] }, { c: [{ x: 2 }] })).toEqual(['.c[0].x']);
    expect(differences({ a: 1 }, { a: 1 })).toEqual([]);
  });

  it('explains a difference from the body that made it', () => {
    const merge = JSON.stringify({ spec: { containers: [{ name: 'b' }] } });
    expect(reasonFor('merge-patch', merge, '.spec.containers', 'json-patch')).toContain('replaces a list wholesale');
    expect(reasonFor('strategic-merge-patch', JSON.stringify({ spec: { containers: [{ name: 'a', $patch: 'delete' }] } }), '.spec.containers', 'json-patch')).toContain('$-directives');
    expect(reasonFor('apply', JSON.stringify({ data: { a: '1' } }), '.data.b', 'json-patch')).toContain('does not mention this field');
  });
});

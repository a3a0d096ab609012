import { describe, expect, it } from 'vitest';
import { applyMergePatch, applyPatch, conflictManager, dropFields, escapePointerToken, jsonPatch, mergePatch, resolveFieldPath, unescapePointerToken } from './patch';

describe('JSON Pointer tokens', () => {
  it('escapes ~ before / and reads them back in the opposite order', () => {
    expect(escapePointerToken('a/b')).toBe('a~1b');
    expect(escapePointerToken('a~b')).toBe('a~0b');
    expect(escapePointerToken('~1')).toBe('~01');
    expect(unescapePointerToken('~01')).toBe('~1');
    expect(unescapePointerToken('app.kubernetes.io~1name')).toBe('app.kubernetes.io/name');
  });
});

describe('jsonPatch', () => {
  it('gives the minimal ops between two objects', () => {
    const from = { metadata: { name: 'x', labels: { 'app.kubernetes.io/name': 'a', keep: 'k' } }, data: { a: '1', b: '2', 'x~y': 'old' } };
    const to = { metadata: { name: 'x', labels: { keep: 'k', 'new/label': 'n' } }, data: { a: '10', 'x~y': 'new', c: '3' } };
    expect(jsonPatch(from, to)).toEqual([
      { op: 'remove', path: '/metadata/labels/app.kubernetes.io~1name' },
      { op: 'add', path: '/metadata/labels/new~1label', value: 'n' },
      { op: 'remove', path: '/data/b' },
      { op: 'replace', path: '/data/a', value: '10' },
      { op: 'replace', path: '/data/x~0y', value: 'new' },
      { op: 'add', path: '/data/c', value: '3' },
    ]);
  });

  it('diffs lists element by element, removing a shorter tail from the end backwards', () => {
    expect(jsonPatch({ l: [1, 2, 3, 4] }, { l: [1, 5] })).toEqual([
      { op: 'replace', path: '/l/1', value: 5 },
      { op: 'remove', path: '/l/3' },
      { op: 'remove', path: '/l/2' },
    ]);
    expect(jsonPatch({ l: [{ n: 'a' }] }, { l: [{ n: 'b' }, { n: 'c' }] })).toEqual([
      { op: 'replace', path: '/l/0/n', value: 'b' },
      { op: 'add', path: '/l/1', value: { n: 'c' } },
    ]);
  });

  it('gives no ops for equal objects, whatever the key order', () => {
    expect(jsonPatch({ a: 1, b: { c: [1] } }, { b: { c: [1] }, a: 1 })).toEqual([]);
  });
});

describe('mergePatch', () => {
  it('sends changed fields, nulls for removals and whole lists', () => {
    const from = { metadata: { labels: { a: '1', b: '2' } }, spec: { list: [1, 2], same: true, gone: { x: 1 } } };
    const to = { metadata: { labels: { a: '1', c: '3' } }, spec: { list: [2], same: true } };
    const p = mergePatch(from, to);
    expect(p).toEqual({ metadata: { labels: { b: null, c: '3' } }, spec: { list: [2], gone: null } });
    // Applying the patch to the original gives the edit back (RFC 7386's algorithm).
    expect(applyMergePatch(from, p)).toEqual(to);
  });

  it('is empty when nothing changed', () => {
    expect(mergePatch({ a: { b: 1 } }, { a: { b: 1 } })).toEqual({});
  });
});

describe('applyPatch', () => {
  it('keeps the identity and the edited fields, never server-set metadata or removals', () => {
    const from = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'n', namespace: 'ns', resourceVersion: '5', uid: 'u', labels: { x: '1' } }, data: { a: '1', b: '2' } };
    const to = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'n', namespace: 'ns', resourceVersion: '6', uid: 'u', labels: { x: '1', y: '2' } }, data: { a: '9' } };
    expect(applyPatch(from, to)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'n', namespace: 'ns', labels: { y: '2' } }, data: { a: '9' } });
  });
});

describe('conflict paths', () => {
  const body = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', labels: { 'app.kubernetes.io/name': 'x' } },
    spec: { replicas: 3, template: { spec: { containers: [{ name: 'nginx', image: 'nginx:2', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } } },
  };

  it('resolves printed field paths, including keys with dots and associative-list keys', () => {
    expect(resolveFieldPath(body, '.metadata.labels.app.kubernetes.io/name')).toEqual(['metadata', 'labels', 'app.kubernetes.io/name']);
    expect(resolveFieldPath(body, '.spec.template.spec.containers[name="nginx"].image')).toEqual(['spec', 'template', 'spec', 'containers', 0, 'image']);
    expect(resolveFieldPath(body, '.spec.template.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"]')).toEqual(['spec', 'template', 'spec', 'containers', 0, 'ports', 0]);
    expect(resolveFieldPath(body, '.spec.nope')).toBeNull();
  });

  it('drops conflicting fields and the maps they leave empty', () => {
    const r = dropFields(body, ['.spec.replicas', '.metadata.labels.app.kubernetes.io/name', '.spec.missing']);
    expect(r.missing).toEqual(['.spec.missing']);
    expect(r.body.spec).not.toHaveProperty('replicas');
    expect(r.body.metadata).toEqual({ name: 'd' });
    const only = dropFields({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } }, ['.data.k']);
    expect(only.body).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } });
  });

  it('reads the other manager from a conflict message', () => {
    expect(conflictManager('conflict with "a" using v1')).toBe('a');
    expect(conflictManager('no manager here')).toBeUndefined();
  });
});

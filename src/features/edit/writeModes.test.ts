import { describe, expect, it } from 'vitest';
import { NO_HINTS } from '../../k8s/patch';
import { generateBody } from './body';
import { bodyGuarded } from './recovery';
import { buildWriteRequest } from './request';
import { PATCH_MODES, WRITE_MODE_TABLE, WRITE_MODES } from './writeModes';

const paths = { objectPath: '/api/v1/namespaces/n/configmaps/c', collectionPath: '/api/v1/namespaces/n/configmaps' };
const opts = { dryRun: false, fieldValidation: '' as const, fieldManager: 'm', force: false };
const loaded = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n', resourceVersion: '7' }, data: { a: '1' } };
const edited = { ...loaded, data: { a: '2' } };

describe('the write-mode table', () => {
  it('gives every PATCH a patch Content-Type of its own: none falls back to application/json (kube-apiserver answers 415)', () => {
    const types = PATCH_MODES.map((m) => buildWriteRequest(m, paths, '{}', opts).headers['Content-Type']);
    expect(PATCH_MODES.every((m) => WRITE_MODE_TABLE[m].method === 'PATCH')).toBe(true);
    expect(types).toEqual(PATCH_MODES.map((m) => WRITE_MODE_TABLE[m].contentType));
    expect(new Set(types).size).toBe(PATCH_MODES.length);
    expect(types.filter((t) => !/^application\/[a-z-]+-patch\+(json|yaml)$/.test(t ?? ''))).toEqual([]);
  });

  it('sends each mode with its method to its target, and the body guard its entry says', () => {
    for (const m of WRITE_MODES) {
      const r = buildWriteRequest(m, paths, '{}', opts);
      expect(r.method).toBe(WRITE_MODE_TABLE[m].method);
      expect(r.path).toBe(WRITE_MODE_TABLE[m].target === 'collection' ? paths.collectionPath : paths.objectPath);
    }
    // "Only if unchanged" rides in every patch body the table builds, where recovery.ts looks for it.
    for (const m of PATCH_MODES) {
      const body = (guard: boolean) => generateBody({ mode: m, format: 'yaml', base: loaded, live: loaded, edited, guard, fieldManager: 'm', touchedOnly: false, hints: NO_HINTS });
      expect([m, bodyGuarded(m, body(true), '7'), bodyGuarded(m, body(false), '7')]).toEqual([m, true, false]);
    }
  });

  it('offers create mode only the modes that can make an object', () => {
    expect(WRITE_MODES.filter((m) => WRITE_MODE_TABLE[m].offered.create)).toEqual(['create', 'apply']);
    expect(WRITE_MODES.filter((m) => WRITE_MODE_TABLE[m].offered.object)).toEqual(['replace', 'json-patch', 'merge-patch', 'strategic-merge-patch', 'apply', 'delete']);
  });
});

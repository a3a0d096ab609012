import { describe, expect, it } from 'vitest';
import type { RecordedExchange } from './recorder';
import { fieldChanges, versionsOf, type VersionTarget } from './versions';

const T0 = Date.parse('2026-01-01T10:00:00Z');
const enc = (s: string) => new TextEncoder().encode(s);
const NS = '/api/v1/namespaces/d/configmaps';
const target: VersionTarget = { context: 'c', objectPath: `${NS}/web`, collectionPaths: [NS, '/api/v1/configmaps'], namespace: 'd', name: 'web' };

const mf = (manager: string, operation: string, time: string, fields: object) => ({ manager, operation, time, apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: fields });
const v = (rv: string, replicas: string, managedFields: object[]) => ({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'web', namespace: 'd', resourceVersion: rv, managedFields }, data: { replicas } });
const applied = mf('deployer', 'Apply', '2026-01-01T10:00:01Z', { 'f:data': { 'f:replicas': {} } });
const V9 = v('9', '1', [applied]);
const V12 = v('12', '3', [applied, mf('kubectl-scale', 'Update', '2026-01-01T10:00:05Z', { 'f:data': { 'f:replicas': {} } })]);
const V15 = v('15', '5', [applied, mf('hpa', 'Update', '2026-01-01T10:00:09Z', { 'f:data': { 'f:replicas': {} } })]);

function x(method: string, path: string, chunks: string[], more: Partial<RecordedExchange> = {}): RecordedExchange {
  return {
    id: path,
    context: 'c',
    startedAt: new Date(T0).toISOString(),
    request: { method, path, headers: [] },
    response: { status: 200, statusText: 'OK', headers: [['Content-Type', 'application/json']], body: new Uint8Array() },
    timings: {},
    watch: /watch=1/.test(path),
    source: 'live',
    via: 'http',
    chunks: chunks.map((c, i) => ({ at: T0 + 100 * (i + 1), bytes: enc(c) })),
    endedAt: T0 + 1000,
    ...more,
  };
}

describe('versionsOf', () => {
  it('keeps each version once, ordered by resourceVersion, from lists, watch events, reads and writes; not dry-runs, other contexts or metadata-only answers', () => {
    const event = (type: string, o: object) => `${JSON.stringify({ type, object: o })}\n`;
    const watchText = event('MODIFIED', V15) + event('BOOKMARK', { kind: 'ConfigMap', metadata: { resourceVersion: '16' } });
    const exchanges = [
      x('GET', `${NS}?labelSelector=a`, [JSON.stringify({ kind: 'ConfigMapList', items: [V12, { ...V12, metadata: { ...V12.metadata, name: 'other', resourceVersion: '13' } }] })]),
      // One event split over two chunks: seen when the chunk that completes it arrives.
      x('GET', `${NS}?watch=1&resourceVersion=12`, [watchText.slice(0, 40), watchText.slice(40)], { endedAt: undefined }),
      x('PATCH', `${NS}/web?fieldManager=deployer`, [JSON.stringify(V9)]),
      x('PATCH', `${NS}/web?dryRun=All`, [JSON.stringify(v('99', '7', []))]),
      x('GET', `${NS}/web`, [JSON.stringify(v('77', '7', []))], { context: 'another-cluster' }),
      x('GET', `${NS}?watch=1&resourceVersion=1`, [event('ADDED', { kind: 'PartialObjectMetadata', metadata: { name: 'web', namespace: 'd', resourceVersion: '8' } })]),
      // A read the page stopped reading is no version.
      x('GET', `${NS}/web`, [JSON.stringify(v('50', '9', []))], { closedByReader: true }),
    ];
    const versions = versionsOf(exchanges, target);
    expect(versions.map((o) => [o.resourceVersion, o.seenIn])).toEqual([
      ['9', 'PATCH response'],
      ['12', 'list'],
      ['15', 'watch MODIFIED'],
    ]);
    expect(versions[2]!.at).toBe(T0 + 200);
  });

  it('follows a watch as it grows (the journal asks again after every chunk)', () => {
    const w = x('GET', `${NS}?watch=1&fieldSelector=metadata.name%3Dweb`, [`${JSON.stringify({ type: 'ADDED', object: V9 })}\n`], { endedAt: undefined });
    expect(versionsOf([w], target).map((o) => o.resourceVersion)).toEqual(['9']);
    w.chunks.push({ at: T0 + 500, bytes: enc(`${JSON.stringify({ type: 'MODIFIED', object: V12 })}\n`) });
    expect(versionsOf([w], target).map((o) => o.resourceVersion)).toEqual(['9', '12']);
    // Another target asks anew.
    expect(versionsOf([w], { ...target, name: 'nope' })).toEqual([]);
  });

  it('orders by resourceVersion as numbers (KEP-5504), not as strings', () => {
    const w = x('GET', `${NS}?watch=1`, [V12, v('100', '8', []), V9].map((o) => `${JSON.stringify({ type: 'MODIFIED', object: o })}\n`), { endedAt: undefined });
    expect(versionsOf([w], target).map((o) => o.resourceVersion)).toEqual(['9', '12', '100']);
  });
});

describe('fieldChanges', () => {
  it('names the manager and operation whose entry moved with the field: who changed replicas', () => {
    const first = fieldChanges(V9, V12).find((c) => c.path === '.data.replicas');
    expect(first).toMatchObject({ change: 'changed', before: '1', after: '3', by: [{ manager: 'kubectl-scale', operation: 'Update', time: '2026-01-01T10:00:05Z' }] });
    const second = fieldChanges(V12, V15).find((c) => c.path === '.data.replicas');
    expect(second?.by.map((b) => b.manager)).toEqual(['hpa']);
  });
});

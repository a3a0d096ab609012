// Patches by merge key against the real server: each generated patch, sent with dryRun=All, must
// give exactly the edited object back (server-set fields and defaults aside).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson } from '../client';
import { fetchGroupVersionDocument, fieldHintsFrom, findKindSchema, type OpenApiIndex } from '../openapi';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import type { FieldHints } from './hints';
import { differencesFromEdit, keyedJsonPatch, strategicMergePatch } from './keyed';
import { type JsonObject, mergePatch, PATCH_CONTENT_TYPES, withoutManagedFields } from './patch';

const ns = `keyed-${randomBytes(3).toString('hex')}`;
const json = <T = JsonObject>(method: string, path: string, body?: unknown, headers?: Record<string, string>, query?: Record<string, string>) =>
  kubeJson<T>({ context: TEST_CONTEXT, method, path, query, headers, body: body === undefined ? undefined : JSON.stringify(body) });
const dryPatch = (path: string, type: keyof typeof PATCH_CONTENT_TYPES, body: unknown) => json('PATCH', path, body, { 'Content-Type': PATCH_CONTENT_TYPES[type] }, { dryRun: 'All' });

type Container = { name: string; image: string; env?: { name: string; value: string }[] };
type Dep = JsonObject & { metadata: JsonObject & { finalizers?: string[] }; spec: { template: { spec: { containers: Container[] } } } };

let hints: FieldHints;
const depPath = `/apis/apps/v1/namespaces/${ns}/deployments/web`;

beforeAll(async () => {
  useRealProxy();
  await json('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const index = await json<OpenApiIndex>('GET', '/openapi/v3');
  const doc = await fetchGroupVersionDocument(TEST_CONTEXT, index, 'apps', 'v1');
  hints = fieldHintsFrom(doc, findKindSchema(doc, 'apps', 'v1', 'Deployment')!.schema);
  await json('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', finalizers: ['example.com/a', 'example.com/b'] },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            { name: 'nginx', image: 'nginx:1', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }, { name: 'C', value: '3' }] },
            { name: 'side', image: 'busybox:1' },
            { name: 'last', image: 'busybox:2' },
          ],
        },
      },
    },
  });
});

afterAll(async () => {
  await json('PATCH', depPath, { metadata: { finalizers: null } }, { 'Content-Type': PATCH_CONTENT_TYPES.merge }).catch(() => undefined);
  await json('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

async function loaded(): Promise<Dep> {
  return withoutManagedFields(await json('GET', depPath)) as Dep;
}

describe('strategic merge patch by merge key', () => {
  it('removes a container ($patch: delete), reorders env ($setElementOrder) and removes a finalizer ($deleteFromPrimitiveList); the dry run equals the edit', async () => {
    const base = await loaded();
    const edit = structuredClone(base);
    edit.spec.template.spec.containers = edit.spec.template.spec.containers.filter((c) => c.name !== 'side');
    const env = edit.spec.template.spec.containers[0]!.env!;
    edit.spec.template.spec.containers[0]!.env = [env[2]!, env[0]!, env[1]!];
    edit.metadata.finalizers = ['example.com/b'];

    const smp = strategicMergePatch(base, edit, hints);
    const text = JSON.stringify(smp);
    expect(text).toContain('"$patch":"delete"');
    expect(text).toContain('$setElementOrder/env');
    expect(text).toContain('"$deleteFromPrimitiveList/finalizers":["example.com/a"]');
    const result = await dryPatch(depPath, 'strategic', smp);
    expect(differencesFromEdit(edit, result, base, hints)).toEqual([]);

    // The same edit as a plain merge patch is not the edit: the check names where it differs.
    const merge = await dryPatch(depPath, 'strategic', mergePatch(base, edit));
    const diffs = differencesFromEdit(edit, merge, base, hints).map((d) => d.path);
    expect(diffs.length).toBeGreaterThan(0);
  });
});

describe('JSON Patch with keyed lists', () => {
  it('an inserted container is one add; the dry run equals the edit', async () => {
    const base = await loaded();
    const edit = structuredClone(base);
    edit.spec.template.spec.containers.splice(1, 0, { name: 'inserted', image: 'busybox:3' });
    edit.spec.template.spec.containers[2]!.image = 'busybox:9';
    const ops = keyedJsonPatch(base, edit, hints);
    expect(ops).toEqual([
      { op: 'add', path: '/spec/template/spec/containers/1', value: { name: 'inserted', image: 'busybox:3' } },
      { op: 'replace', path: '/spec/template/spec/containers/2/image', value: 'busybox:9' },
    ]);
    const result = await dryPatch(depPath, 'json', ops);
    expect(differencesFromEdit(edit, result, base, hints)).toEqual([]);
  });
});

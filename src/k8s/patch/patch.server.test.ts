// Against the real local control plane, through the real proxy: each generated body, sent with
// its Content-Type, must give the edit back from the server.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KubeApiError, kubeJson } from '../client';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { applyPatch, dropFields, guardJsonPatch, guardMergePatch, type JsonObject, jsonPatch, mergePatch, PATCH_CONTENT_TYPES, withoutManagedFields } from './patch';

const ns = `patch-${randomBytes(3).toString('hex')}`;
const cmPath = (name: string) => `/api/v1/namespaces/${ns}/configmaps/${name}`;
const req = <T = JsonObject>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}, query?: Record<string, string | boolean>) =>
  kubeJson<T>({ context: TEST_CONTEXT, method, path, query, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });

async function createCm(name: string, data: Record<string, string>, labels?: Record<string, string>): Promise<JsonObject> {
  return req('POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });
}

async function expectError(p: Promise<unknown>): Promise<KubeApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof KubeApiError) return e;
    throw e;
  }
  throw new Error('expected the request to fail');
}

beforeAll(async () => {
  useRealProxy();
  await req('POST', '/api/v1/namespaces', { metadata: { name: ns } });
});

afterAll(async () => {
  await req('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

describe('generated patches against the real server', () => {
  it('JSON Patch: the ops (with / escaped in label keys) turn the object into the edit', async () => {
    const before = await createCm('jp', { a: '1', b: '2', 'x.y': 'old' }, { 'app.kubernetes.io/name': 'demo' });
    const edit = structuredClone(before) as { metadata: { labels: Record<string, string> }; data: Record<string, string> };
    delete edit.metadata.labels['app.kubernetes.io/name'];
    edit.metadata.labels['new/label'] = 'n';
    edit.data.a = '10';
    delete edit.data.b;
    edit.data['x.y'] = 'new';
    const ops = jsonPatch(before, edit as unknown as JsonObject);
    // ConfigMap keys may not hold `~` (the server validates them), so `~` is covered by the unit tests.
    expect(ops.map((o) => o.path)).toContain('/metadata/labels/app.kubernetes.io~1name');
    const after = await req<typeof edit>('PATCH', cmPath('jp'), ops, { 'Content-Type': PATCH_CONTENT_TYPES.json });
    expect(after.data).toEqual({ a: '10', 'x.y': 'new' });
    expect(after.metadata.labels).toEqual({ 'new/label': 'n' });
  });

  it('JSON Merge Patch: nulls remove fields on the server', async () => {
    const before = await createCm('mp', { a: '1', b: '2' });
    const edit = { ...before, data: { a: '1', c: '3' } };
    const body = mergePatch(before, edit);
    expect(body).toEqual({ data: { b: null, c: '3' } });
    const after = await req<{ data: Record<string, string> }>('PATCH', cmPath('mp'), body, { 'Content-Type': PATCH_CONTENT_TYPES.merge });
    expect(after.data).toEqual({ a: '1', c: '3' });
  });

  it('Strategic Merge Patch: a Deployment container changes by name', async () => {
    const dep = await req<JsonObject>('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web' },
      spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1' }, { name: 'side', image: 'busybox:1' }] } } },
    });
    const edit = structuredClone(dep) as { spec: { replicas: number; template: { spec: { containers: { name: string; image: string }[] } } } };
    edit.spec.replicas = 2;
    edit.spec.template.spec.containers[0]!.image = 'nginx:2';
    const body = mergePatch(dep, edit as unknown as JsonObject);
    const after = await req<typeof edit>('PATCH', `/apis/apps/v1/namespaces/${ns}/deployments/web`, body, { 'Content-Type': PATCH_CONTENT_TYPES.strategic });
    expect(after.spec.replicas).toBe(2);
    expect(after.spec.template.spec.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['nginx=nginx:2', 'side=busybox:1']);
  });

  it('Server-Side Apply: the edited fields, a conflict with another manager, dropping them or force', async () => {
    // Manager "a" owns data.shared.
    await req('PATCH', cmPath('ssa'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data: { shared: 'from-a' } }, { 'Content-Type': PATCH_CONTENT_TYPES.apply }, { fieldManager: 'a' });
    const before = await req<JsonObject>('GET', cmPath('ssa'));
    const edit = structuredClone(withoutManagedFields(before)) as { data: Record<string, string> };
    edit.data.shared = 'mine';
    edit.data.own = 'x';
    const body = applyPatch(withoutManagedFields(before), edit as unknown as JsonObject);
    expect(body).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa', namespace: ns }, data: { shared: 'mine', own: 'x' } });
    const send = (b: JsonObject, query: Record<string, string | boolean>) => req<{ data: Record<string, string>; metadata: { managedFields: { manager: string; fieldsV1: unknown }[] } }>('PATCH', cmPath('ssa'), JSON.stringify(b), { 'Content-Type': PATCH_CONTENT_TYPES.apply }, query);
    const err = await expectError(send(body, { fieldManager: 'kube-api-explorer' }));
    expect(err.code).toBe(409);
    expect(err.reason).toBe('Conflict');
    const causes = err.status.details?.causes ?? [];
    expect(causes).toEqual([expect.objectContaining({ reason: 'FieldManagerConflict', field: '.data.shared' })]);
    expect(causes[0]?.message).toContain('"a"');
    // Dropping the conflicting field: the rest applies, "a" keeps its value.
    const dropped = dropFields(body, causes.map((c) => c.field!));
    const partial = await send(dropped.body, { fieldManager: 'kube-api-explorer' });
    expect(partial.data).toEqual({ shared: 'from-a', own: 'x' });
    // Forcing: the field changes and moves to our manager.
    const forced = await send(body, { fieldManager: 'kube-api-explorer', force: true });
    expect(forced.data.shared).toBe('mine');
    const ours = forced.metadata.managedFields.find((m) => m.manager === 'kube-api-explorer');
    expect(JSON.stringify(ours?.fieldsV1)).toContain('f:shared');
    expect(JSON.stringify(forced.metadata.managedFields.find((m) => m.manager === 'a')?.fieldsV1 ?? {})).not.toContain('f:shared');
  });

  it('a PUT with a stale resourceVersion gets 409 Conflict', async () => {
    const before = await createCm('put', { a: '1' });
    await req('PATCH', cmPath('put'), { data: { a: 'changed-elsewhere' } }, { 'Content-Type': PATCH_CONTENT_TYPES.merge });
    const err = await expectError(req('PUT', cmPath('put'), { ...before, data: { a: 'mine' } }));
    expect(err.code).toBe(409);
    expect(err.reason).toBe('Conflict');
    const now = await req<{ data: Record<string, string> }>('GET', cmPath('put'));
    expect(now.data.a).toBe('changed-elsewhere');
  });

  it('guarded patches: a stale resourceVersion fails a JSON Patch test op and a merge patch (409)', async () => {
    const before = await createCm('guard', { a: '1' });
    const rv = (before.metadata as { resourceVersion: string }).resourceVersion;
    await req('PATCH', cmPath('guard'), { data: { a: 'elsewhere' } }, { 'Content-Type': PATCH_CONTENT_TYPES.merge });
    const edit = { ...before, data: { a: 'mine' } };
    const jp = await expectError(req('PATCH', cmPath('guard'), guardJsonPatch(jsonPatch(before, edit), rv), { 'Content-Type': PATCH_CONTENT_TYPES.json }));
    const mp = await expectError(req('PATCH', cmPath('guard'), guardMergePatch(mergePatch(before, edit), rv), { 'Content-Type': PATCH_CONTENT_TYPES.merge }));
    const sp = await expectError(req('PATCH', cmPath('guard'), guardMergePatch(mergePatch(before, edit), rv), { 'Content-Type': PATCH_CONTENT_TYPES.strategic }));
    // A failed `test` op is not a conflict to the server: it answers 422 Invalid.
    expect(jp.code).toBe(422);
    expect(jp.reason).toBe('Invalid');
    expect(mp.code).toBe(409);
    expect(sp.code).toBe(409);
    expect((await req<{ data: Record<string, string> }>('GET', cmPath('guard'))).data.a).toBe('elsewhere');
  });

  it('a PUT without managedFields (the editor hides them) leaves the server entries in place', async () => {
    await req('PATCH', cmPath('keep'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'keep' }, data: { a: '1' } }, { 'Content-Type': PATCH_CONTENT_TYPES.apply }, { fieldManager: 'a' });
    const before = withoutManagedFields(await req<JsonObject>('GET', cmPath('keep')));
    const after = await req<{ metadata: { managedFields: { manager: string }[] } }>('PUT', cmPath('keep'), { ...before, data: { a: '1', b: '2' } }, {}, { fieldManager: 'kube-api-explorer' });
    expect(after.metadata.managedFields.map((m) => m.manager).sort()).toEqual(['a', 'kube-api-explorer']);
  });
});

// The requests the Edit view builds, sent through the real proxy to the real server: DeleteOptions
// in the body (preconditions, dry run, finalizers holding the object) and the 415 a custom
// resource gives a strategic merge patch.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson } from '../../k8s/client';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { buildWriteRequest, sendExchange, type WriteOptions } from './request';

const ns = `edit-${randomBytes(3).toString('hex')}`;
const group = `e${randomBytes(3).toString('hex')}.example.com`;
const opts: WriteOptions = { dryRun: false, fieldValidation: '', fieldManager: 'kube-api-explorer', force: false };
const json = <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  kubeJson<T>({ context: TEST_CONTEXT, method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });
type Meta = { metadata: { resourceVersion: string; uid: string; deletionTimestamp?: string; finalizers?: string[] } };

beforeAll(async () => {
  useRealProxy();
  await json('POST', '/api/v1/namespaces', { metadata: { name: ns } });
});

afterAll(async () => {
  await json('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.${group}`).catch(() => undefined);
  await json('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

describe('edit requests against the real server', () => {
  it('delete: a stale precondition gives 409, a finalizer keeps the object with a deletionTimestamp', async () => {
    const collectionPath = `/api/v1/namespaces/${ns}/configmaps`;
    const objectPath = `${collectionPath}/held`;
    const cm = await json<Meta>('POST', collectionPath, { metadata: { name: 'held', finalizers: ['example.com/hold'] }, data: { a: '1' } });
    const paths = { objectPath, collectionPath };

    const stale = await sendExchange(TEST_CONTEXT, 'delete', buildWriteRequest('delete', paths, '', opts, { propagationPolicy: 'Background', gracePeriodSeconds: '', preconditionResourceVersion: '1' }));
    expect(stale.response?.status).toBe(409);
    expect(JSON.parse(stale.response!.body)).toMatchObject({ kind: 'Status', reason: 'Conflict' });

    const dry = await sendExchange(TEST_CONTEXT, 'delete', buildWriteRequest('delete', paths, '', { ...opts, dryRun: true }, { propagationPolicy: 'Foreground', gracePeriodSeconds: '0', preconditionUid: cm.metadata.uid }));
    expect(dry.response?.status).toBe(200);
    expect((await json<Meta>('GET', objectPath)).metadata.deletionTimestamp).toBeUndefined();

    const real = await sendExchange(TEST_CONTEXT, 'delete', buildWriteRequest('delete', paths, '', opts, { propagationPolicy: 'Background', gracePeriodSeconds: '', preconditionUid: cm.metadata.uid, preconditionResourceVersion: cm.metadata.resourceVersion }));
    expect(real.response?.status).toBe(200);
    const returned = JSON.parse(real.response!.body) as Meta & { kind: string };
    expect(returned.kind).toBe('ConfigMap');
    expect(returned.metadata.deletionTimestamp).toBeTruthy();
    expect(returned.metadata.finalizers).toEqual(['example.com/hold']);
    // Releasing the finalizer lets the deletion finish.
    await json('PATCH', objectPath, { metadata: { finalizers: null } }, { 'Content-Type': 'application/merge-patch+json' });
    await expect(json('GET', objectPath)).rejects.toMatchObject({ httpStatus: 404 });
  });

  it('a custom resource answers a strategic merge patch with 415, a merge patch works', async () => {
    await json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      metadata: { name: `widgets.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } } } }],
      },
    });
    const collectionPath = `/apis/${group}/v1/namespaces/${ns}/widgets`;
    // The new resource is served once the CRD is Established; retry the create until then.
    for (let i = 0; ; i++) {
      try {
        await json('POST', collectionPath, { apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
        break;
      } catch (e) {
        if (i > 50) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const paths = { objectPath: `${collectionPath}/w`, collectionPath };
    const smp = await sendExchange(TEST_CONTEXT, 'strategic-merge-patch', buildWriteRequest('strategic-merge-patch', paths, '{"spec":{"size":2}}', opts));
    expect(smp.response?.status).toBe(415);
    expect(JSON.parse(smp.response!.body)).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType' });
    const merge = await sendExchange(TEST_CONTEXT, 'merge-patch', buildWriteRequest('merge-patch', paths, '{"spec":{"size":2}}', opts));
    expect(merge.response?.status).toBe(200);
    expect(JSON.parse(merge.response!.body)).toMatchObject({ spec: { size: 2 } });
  });
});

// applyConfiguration against the real server: the managedFields it reads are the ones the server
// wrote, and each configuration is checked twice: with dryRun=All (the server's answer must be the
// edit) and then for real, for the first, second and third apply to the same object.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toYaml } from '../../codecs/yaml';
import { kubeJson } from '../client';
import { fetchGroupVersionDocument, fieldHintsFrom, findKindSchema, type OpenApiIndex } from '../openapi';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { applyConfiguration, applyOwnershipPreview } from './apply';
import { type FieldHints, NO_HINTS } from './hints';
import { differencesFromEdit } from './keyed';
import { type JsonObject, PATCH_CONTENT_TYPES, withoutManagedFields } from './patch';

const ns = `apply-${randomBytes(3).toString('hex')}`;
const group = `a${randomBytes(3).toString('hex')}.example.com`;
const M = 'kube-api-explorer';
const json = <T = JsonObject>(method: string, path: string, body?: unknown, headers?: Record<string, string>, query?: Record<string, string>) =>
  kubeJson<T>({ context: TEST_CONTEXT, method, path, query, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
const apply = (path: string, body: JsonObject, manager: string, dryRun = false) =>
  json('PATCH', path, toYaml(body), { 'Content-Type': PATCH_CONTENT_TYPES.apply }, { fieldManager: manager, ...(dryRun ? { dryRun: 'All' } : {}) });

/**
 * What the Edit view does: build the configuration from the live object and the edit, preview it
 * with dryRun=All (which must give the edit back), then send it.
 */
async function applyEdit(path: string, live: JsonObject, edited: JsonObject, hints: FieldHints = NO_HINTS) {
  const body = applyConfiguration(live, edited, M, { hints });
  const dry = await apply(path, body, M, true);
  expect(differencesFromEdit(edited, dry, live, hints)).toEqual([]);
  const preview = applyOwnershipPreview(live, dry, M);
  const stored = await apply(path, body, M);
  expect(withoutManagedFields(stored)).toMatchObject(withoutServerFields(dry));
  return { body, preview, stored };
}

function withoutServerFields(o: JsonObject): JsonObject {
  // Controllers may write status between the dry run and the real apply (a Deployment's conditions).
  const { metadata, status: _s, ...rest } = withoutManagedFields(o) as { metadata: Record<string, unknown>; status?: unknown };
  const { resourceVersion: _r, generation: _g, ...meta } = metadata;
  return { ...rest, metadata: meta } as JsonObject;
}

async function hintsFor(g: string, v: string, kind: string): Promise<FieldHints> {
  // A new CRD's schema reaches /openapi/v3 a moment after it is served.
  for (let i = 0; ; i++) {
    try {
      const index = await json<OpenApiIndex>('GET', '/openapi/v3');
      const doc = await fetchGroupVersionDocument(TEST_CONTEXT, index, g, v);
      return fieldHintsFrom(doc, findKindSchema(doc, g, v, kind)!.schema);
    } catch (e) {
      if (i > 100) throw e;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}

beforeAll(async () => {
  useRealProxy();
  await json('POST', '/api/v1/namespaces', { metadata: { name: ns } });
});

afterAll(async () => {
  await json('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/things.${group}`).catch(() => undefined);
  await json('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

type Cm = JsonObject & { data: Record<string, string>; metadata: JsonObject & { labels?: Record<string, string> } };

describe('applyConfiguration: the manager’s whole intent, against real managedFields', () => {
  it('ConfigMap: a second apply keeps the first’s fields, a third removes only what the user deleted, other managers keep theirs', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps/cm`;
    // First apply creates: the whole object is the configuration.
    const first = applyConfiguration(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: ns, labels: { tier: 'web' } }, data: { a: '1', b: '2' } }, M);
    await apply(path, first, M);
    // Another manager applies its own key.
    await apply(path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { o: 'other' } }, 'other');

    // Second apply: the user adds c. The body carries a and b too (M owns them), never o.
    let live = await json<Cm>('GET', path);
    const second = structuredClone(withoutManagedFields(live)) as Cm;
    second.data.c = '3';
    const r2 = await applyEdit(path, live, second);
    expect(r2.body.data).toEqual({ a: '1', b: '2', c: '3' });
    expect((r2.body.metadata as JsonObject).labels).toEqual({ tier: 'web' });
    expect(r2.preview.gained).toEqual(['.data.c']);
    expect(r2.preview.released).toEqual([]);
    expect((r2.stored as Cm).data).toEqual({ a: '1', b: '2', c: '3', o: 'other' });

    // Third apply: the user deletes b and o (o is not M's: it stays) and changes a.
    live = await json<Cm>('GET', path);
    const third = structuredClone(withoutManagedFields(live)) as Cm;
    delete third.data.b;
    delete third.data.o;
    third.data.a = '10';
    const body3 = applyConfiguration(live, third, M);
    expect(body3.data).toEqual({ a: '10', c: '3' });
    const dry3 = await apply(path, body3, M, true);
    const preview3 = applyOwnershipPreview(live, dry3, M);
    expect(preview3.released).toEqual([{ path: '.data.b', removed: true, keptBy: [] }]);
    const stored3 = (await apply(path, body3, M)) as Cm;
    expect(stored3.data).toEqual({ a: '10', c: '3', o: 'other' });
    expect(stored3.metadata.labels).toEqual({ tier: 'web' });
  });

  it('with the loaded resourceVersion in it, an apply after someone else’s write gets 409 and changes nothing', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps/guarded`;
    await apply(path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'guarded' }, data: { a: '1' } }, M);
    const live = await json<Cm>('GET', path);
    await json('PATCH', path, { data: { theirs: 't' } }, { 'Content-Type': PATCH_CONTENT_TYPES.merge });
    const edited = structuredClone(withoutManagedFields(live)) as Cm;
    edited.data.a = '2';
    const body = applyConfiguration(live, edited, M, { resourceVersion: live.metadata.resourceVersion as string });
    await expect(apply(path, body, M)).rejects.toMatchObject({ httpStatus: 409 });
    expect((await json<Cm>('GET', path)).data).toEqual({ a: '1', theirs: 't' });
  });

  it('a manager that owns nothing yet sends only what the edit changed', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps/fresh`;
    await apply(path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fresh' }, data: { o: 'theirs' } }, 'other');
    const live = await json<Cm>('GET', path);
    const edited = structuredClone(withoutManagedFields(live)) as Cm;
    edited.data.a = '1';
    const r = await applyEdit(path, live, edited);
    expect(r.body.data).toEqual({ a: '1' });
    expect(r.preview.gained).toEqual(['.data.a']);
  });

  it('a field shared with another manager stays when this manager lets go of it', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps/shared`;
    await apply(path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { s: 'same', mine: 'x' } }, M);
    await apply(path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data: { s: 'same' } }, 'other');
    const live = await json<Cm>('GET', path);
    const edited = structuredClone(withoutManagedFields(live)) as Cm;
    delete edited.data.s;
    const body = applyConfiguration(live, edited, M);
    const dry = await apply(path, body, M, true);
    expect(applyOwnershipPreview(live, dry, M).released).toEqual([{ path: '.data.s', removed: false, keptBy: ['other'] }]);
    expect(((await apply(path, body, M)) as Cm).data).toEqual({ s: 'same', mine: 'x' });
  });

  it('Deployment: containers (k:{"name"}), ports (k:{"containerPort","protocol"}) and env over three applies', async () => {
    const hints = await hintsFor('apps', 'v1', 'Deployment');
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
    const container = (name: string, image: string, extra: JsonObject = {}) => ({ name, image, ...extra });
    const created = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              container('nginx', 'nginx:1', { ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }], env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }),
              container('side', 'busybox:1'),
            ],
          },
        },
      },
    };
    await apply(path, applyConfiguration(undefined, created, M), M);
    // Read the Deployment once its controller has caught up (it writes the revision annotation and
    // status after each template change): the dry run must compare against that same object.
    const settled = async () => {
      for (let i = 0; ; i++) {
        const d = await json('GET', path);
        const seen = d as { metadata?: { generation?: number }; status?: { observedGeneration?: number } };
        if (seen.status?.observedGeneration === seen.metadata?.generation || i > 100) return d;
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    let live = await settled();
    const fields = JSON.stringify((live.metadata as { managedFields: { manager: string; fieldsV1: unknown }[] }).managedFields.find((e) => e.manager === M)!.fieldsV1);
    // The keyed elements this test is about, as the server recorded them.
    expect(fields).toContain('"k:{\\"name\\":\\"nginx\\"}"');
    expect(fields).toContain('"k:{\\"containerPort\\":80,\\"protocol\\":\\"TCP\\"}"');

    // Second apply: a new image for nginx, a port added (53/TCP next to 53/UDP), env C.
    type Dep = { spec: { replicas: number; template: { spec: { containers: (JsonObject & { name: string; image: string; ports?: JsonObject[]; env?: JsonObject[] })[] } } } };
    let edited = structuredClone(withoutManagedFields(live)) as unknown as Dep;
    const nginx = edited.spec.template.spec.containers[0]!;
    nginx.image = 'nginx:2';
    nginx.ports!.push({ containerPort: 53, protocol: 'TCP' });
    nginx.env!.push({ name: 'C', value: '3' });
    const r2 = await applyEdit(path, live, edited as unknown as JsonObject, hints);
    const sent2 = (r2.body as unknown as Dep).spec.template.spec.containers;
    // Both containers stay in the body: M owns them.
    expect(sent2.map((c) => c.name)).toEqual(['nginx', 'side']);
    expect(r2.preview.gained).toContain('.spec.template.spec.containers[name="nginx"].ports[containerPort=53,protocol="TCP"]');
    expect(r2.preview.released).toEqual([]);

    // Third apply: remove the side container and env A; the server's defaults stay out of the body.
    live = await settled();
    edited = structuredClone(withoutManagedFields(live)) as unknown as Dep;
    edited.spec.template.spec.containers = edited.spec.template.spec.containers.filter((c) => c.name !== 'side');
    edited.spec.template.spec.containers[0]!.env = edited.spec.template.spec.containers[0]!.env!.filter((e) => e.name !== 'A');
    const r3 = await applyEdit(path, live, edited as unknown as JsonObject, hints);
    const c3 = (r3.body as unknown as Dep).spec.template.spec.containers;
    expect(c3).toHaveLength(1);
    expect(c3[0]).not.toHaveProperty('imagePullPolicy');
    expect(r3.preview.released.map((r) => r.path)).toContain('.spec.template.spec.containers[name="side"]');
    expect(r3.preview.released.find((r) => r.path === '.spec.template.spec.containers[name="side"]')?.removed).toBe(true);
    const stored = r3.stored as unknown as Dep;
    expect(stored.spec.template.spec.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['nginx=nginx:2']);
    expect(stored.spec.template.spec.containers[0]!.env).toEqual([
      { name: 'B', value: '2' },
      { name: 'C', value: '3' },
    ]);
    expect(stored.spec.template.spec.containers[0]!.ports!.map((p) => `${p.containerPort}/${p.protocol}`)).toEqual(['80/TCP', '53/UDP', '53/TCP']);
  });

  it('finalizers are a set (v:"…" elements): one removed, the others kept', async () => {
    const path = `/api/v1/namespaces/${ns}/configmaps/fin`;
    await apply(path, applyConfiguration(undefined, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fin', finalizers: ['example.com/a', 'example.com/b'] }, data: { k: 'v' } }, M), M);
    const live = await json('GET', path);
    expect(JSON.stringify(live.metadata)).toContain('v:\\"example.com/a\\"');
    const edited = structuredClone(withoutManagedFields(live)) as { metadata: { finalizers: string[] } };
    edited.metadata.finalizers = ['example.com/b'];
    const r = await applyEdit(path, live, edited as unknown as JsonObject);
    expect(r.preview.released).toEqual([{ path: '.metadata.finalizers[="example.com/a"]', removed: true, keptBy: [] }]);
    expect((r.stored.metadata as { finalizers: string[] }).finalizers).toEqual(['example.com/b']);
    await json('PATCH', path, { metadata: { finalizers: null } }, { 'Content-Type': PATCH_CONTENT_TYPES.merge });
  });

  it('an i: element (written into managedFields by an update) is read as an index', async () => {
    // The server never records i: for an apply today, but stores what an update writes into
    // managedFields when it is well-formed; the builder must still read it.
    const path = `/api/v1/namespaces/${ns}/configmaps/idx`;
    await apply(path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'idx' }, data: { k: 'v' } }, M);
    const live = await json('GET', path);
    const meta = live.metadata as { managedFields: JsonObject[] };
    const entry = meta.managedFields.find((e) => e.manager === M)!;
    entry.fieldsV1 = { 'f:data': { 'f:k': {} }, 'f:metadata': { 'f:finalizers': { 'i:0': {} } } };
    const put = await json('PUT', path, { ...live, metadata: { ...meta, finalizers: ['example.com/x'] } });
    expect(JSON.stringify((put.metadata as { managedFields: unknown }).managedFields)).toContain('i:0');
    const edited = structuredClone(withoutManagedFields(put)) as { data: Record<string, string> };
    edited.data.k = 'w';
    const body = applyConfiguration(put, edited as unknown as JsonObject, M);
    // The i: list is sent whole (a list without keys is atomic for apply).
    expect((body.metadata as JsonObject).finalizers).toEqual(['example.com/x']);
    expect(body.data).toEqual({ k: 'w' });
    const dry = await apply(path, body, M, true);
    expect(differencesFromEdit(edited as unknown as JsonObject, dry, put)).toEqual([]);
    await json('PATCH', path, { metadata: { finalizers: null } }, { 'Content-Type': PATCH_CONTENT_TYPES.merge });
  });

  it('a custom resource: a keyed list (x-kubernetes-list-map-keys) and preserve-unknown-fields, three applies', async () => {
    await json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      metadata: { name: `things.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'things', singular: 'thing', kind: 'Thing', listKind: 'ThingList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: {
                    type: 'object',
                    properties: {
                      size: { type: 'integer' },
                      items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['id'], items: { type: 'object', required: ['id'], properties: { id: { type: 'string' }, v: { type: 'string' } } } },
                      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    },
                  },
                },
              },
            },
          },
        ],
      },
    });
    const path = `/apis/${group}/v1/namespaces/${ns}/things/t`;
    const created = { apiVersion: `${group}/v1`, kind: 'Thing', metadata: { name: 't', namespace: ns }, spec: { size: 1, items: [{ id: 'x', v: '1' }, { id: 'y', v: '2' }], free: { a: 'yes', n: { deep: 1 } } } };
    for (let i = 0; ; i++) {
      try {
        await apply(path, applyConfiguration(undefined, created, M), M);
        break;
      } catch (e) {
        if (i > 100) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    const hints = await hintsFor(group, 'v1', 'Thing');
    type Thing = { spec: { size: number; items: { id: string; v: string }[]; free: JsonObject } };
    let live = await json('GET', path);
    expect(JSON.stringify(live.metadata)).toContain('k:{\\"id\\":\\"x\\"}');
    let edited = structuredClone(withoutManagedFields(live)) as unknown as Thing;
    edited.spec.items.push({ id: 'z', v: '3' });
    edited.spec.free.b = 'on';
    const r2 = await applyEdit(path, live, edited as unknown as JsonObject, hints);
    expect((r2.body as unknown as Thing).spec.items.map((x) => x.id)).toEqual(['x', 'y', 'z']);
    expect((r2.stored as unknown as Thing).spec.free).toEqual({ a: 'yes', b: 'on', n: { deep: 1 } });

    live = await json('GET', path);
    edited = structuredClone(withoutManagedFields(live)) as unknown as Thing;
    edited.spec.items = edited.spec.items.filter((x) => x.id !== 'x');
    delete edited.spec.free.n;
    edited.spec.size = 2;
    const r3 = await applyEdit(path, live, edited as unknown as JsonObject, hints);
    expect(r3.preview.released.filter((r) => r.removed).map((r) => r.path)).toEqual(expect.arrayContaining(['.spec.items[id="x"]', '.spec.free.n']));
    const stored = r3.stored as unknown as Thing;
    expect(stored.spec).toEqual({ size: 2, items: [{ id: 'y', v: '2' }, { id: 'z', v: '3' }], free: { a: 'yes', b: 'on' } });
  });
});

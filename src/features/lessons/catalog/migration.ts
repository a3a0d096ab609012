// Storage version migration (storagemigration.k8s.io/v1, GA in 1.37): a CRD with two versions,
// objects stored at v1, storage switched to v2, and a StorageVersionMigration that makes the
// controller in kube-controller-manager rewrite every object, after which the CRD's
// status.storedVersions says only v2 and v1 may leave spec.versions.
import { compareResourceVersions } from '../../../k8s/rv';
import { expectations, field, type KitExchange, type KitLesson, label, type StepContext } from '../kit';
import { sleep } from '../../../lib/sleep';

const GROUP = 'lessons.explorer.dev';
const PLURAL = 'lessonmoves';
export const MOVE_CRD = `${PLURAL}.${GROUP}`;
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const SVMS = '/apis/storagemigration.k8s.io/v1/storageversionmigrations';
const NAMES = ['move-a', 'move-b', 'move-c'];
const msg = (x: KitExchange) => String(field(x.response, 'message') ?? '');
const moves = (c: StepContext, v = 'v1', name = '') => `/apis/${GROUP}/${v}/namespaces/${encodeURIComponent(c.ns)}/${PLURAL}${name ? `/${name}` : ''}`;
const svmName = (c: StepContext) => `${c.ns}-${PLURAL}`;
const stored = (x: KitExchange) => (field(x.response, 'status', 'storedVersions') as string[] | undefined) ?? [];
type Condition = { type: string; status: string; reason?: string; message?: string };
const conditions = (x: KitExchange) => (field(x.response, 'status', 'conditions') as Condition[] | undefined) ?? [];
const condition = (x: KitExchange, type: string) => conditions(x).find((k) => k.type === type);
const rv = (o: unknown) => String(field(o, 'metadata', 'resourceVersion') ?? '');

const schema = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string' } } } } };
const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: MOVE_CRD, labels: label('migrate') },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: PLURAL, singular: 'lessonmove', kind: 'LessonMove', listKind: 'LessonMoveList' },
    versions: [
      { name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema } },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: schema } },
    ],
  },
};

async function until(f: () => Promise<KitExchange>, done: (x: KitExchange) => boolean, tries: number, ms = 1000): Promise<KitExchange> {
  for (let i = 0; ; i++) {
    const x = await f();
    if (done(x) || i >= tries) return x;
    await sleep(ms);
  }
}

const showCrd = (x: KitExchange) =>
  x.status >= 300
    ? x.response
    : field(x.response, 'kind') === 'CustomResourceDefinition'
      ? { spec: { versions: ((field(x.response, 'spec', 'versions') as { name: string; storage: boolean }[] | undefined) ?? []).map((v) => `${v.name}${v.storage ? ' (storage)' : ''}`) }, status: { storedVersions: stored(x), conditions: conditions(x).filter((k) => k.type === 'StorageMigrating') } }
      : field(x.response, 'kind') === 'LessonMoveList'
        ? { items: ((field(x.response, 'items') as unknown[] | undefined) ?? []).map((o) => ({ name: field(o, 'metadata', 'name'), resourceVersion: rv(o), spec: field(o, 'spec') })) }
        : { kind: field(x.response, 'kind'), metadata: { name: field(x.response, 'metadata', 'name'), resourceVersion: rv(x.response) }, status: field(x.response, 'status') };

const removeAll = async (c: StepContext) => [await c.send('DELETE', `${SVMS}/${svmName(c)}`), await c.send('DELETE', `${CRDS}/${MOVE_CRD}`)];

export const storageVersionMigration: KitLesson = {
  id: 'storage-version-migration',
  topic: 'migrate',
  title: 'Storage version migration: rewriting every object in the new storage version',
  scope: 'cluster',
  since: '1.37',
  clusterObjects: `the CustomResourceDefinition ${MOVE_CRD} and a StorageVersionMigration named after the scratch namespace`,
  paragraphs: [
    'Every object is stored in etcd in one version of its type, the storage version of the moment it was written. Changing a CRD\'s storage version changes how new writes are stored; objects already there keep their old form until something rewrites them. The CRD\'s `status.storedVersions` lists every version that may still be in storage, and the server will not let a version in that list leave `spec.versions`.',
    'A StorageVersionMigration (`storagemigration.k8s.io/v1`, served by 1.37) names a group and resource; the storage version migrator, a controller in kube-controller-manager, then rewrites every object of that resource unchanged, which stores it in the current storage version, and for a CRD sets `storedVersions` to that version alone. (Background: the local control plane runs kube-controller-manager, whose log says the `storage-version-migrator-controller` is starting.)',
  ],
  needs: [
    { verb: 'create', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'patch', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'delete', group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' },
    { verb: 'create', group: 'storagemigration.k8s.io', resource: 'storageversionmigrations' },
    { verb: 'delete', group: 'storagemigration.k8s.io', resource: 'storageversionmigrations' },
    { verb: 'create', group: GROUP, resource: PLURAL, namespaced: true },
  ],
  steps: [
    {
      id: 'define',
      title: 'A CRD with v1 and v2, three objects stored as v1',
      text: `Create the CRD \`${MOVE_CRD}\` with versions \`v1\` (storage) and \`v2\`, wait until it is served, and create three LessonMoves through \`v1\`.`,
      lookFor: 'HTTP 201 for the CRD and each object; the CRD\'s `status.storedVersions` is `["v1"]`.',
      run: async (c) => {
        const made = await c.send('POST', CRDS, { body: crd });
        await until(() => c.send('GET', moves(c)), (x) => x.status === 200, 60, 500);
        const objects = [];
        for (const name of NAMES) objects.push(await c.send('POST', moves(c), { body: { apiVersion: `${GROUP}/v1`, kind: 'LessonMove', metadata: { name, labels: label('migrate') }, spec: { size: name.slice(-1) } } }));
        const after = await c.send('GET', `${CRDS}/${MOVE_CRD}`);
        return [made, ...objects, after];
      },
      show: showCrd,
      check: (xs) => {
        const { want, result } = expectations();
        const after = xs.at(-1)!;
        for (const x of xs.slice(0, -1)) want(x.status === 201, `${x.path}: HTTP ${x.status} ${msg(x)}`);
        want(JSON.stringify(stored(after)) === '["v1"]', `storedVersions: ${JSON.stringify(stored(after))}`);
        return result;
      },
    },
    {
      id: 'switch',
      title: 'Storage moves to v2',
      text: 'A JSON Patch on the CRD: `v1` no longer storage, `v2` storage. Then try to remove `v1` from `spec.versions`, and read the objects.',
      lookFor: 'HTTP 200 with `storedVersions: ["v1", "v2"]`: the old objects may still be stored as v1. Removing v1 now is refused with 422: "v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1". The objects read as before (right after a CRD changes, a list may answer 429 for a moment while the server rebuilds that resource\'s cache; the step reads until it does not).',
      run: async (c) => {
        const sw = await c.send('PATCH', `${CRDS}/${MOVE_CRD}`, {
          body: JSON.stringify([
            { op: 'test', path: '/spec/versions/0/name', value: 'v1' },
            { op: 'replace', path: '/spec/versions/0/storage', value: false },
            { op: 'replace', path: '/spec/versions/1/storage', value: true },
          ]),
          contentType: 'application/json-patch+json',
        });
        const drop = await c.send('PATCH', `${CRDS}/${MOVE_CRD}`, { body: JSON.stringify([{ op: 'test', path: '/spec/versions/0/name', value: 'v1' }, { op: 'remove', path: '/spec/versions/0' }]), contentType: 'application/json-patch+json' });
        // The CRD's change rebuilds the resource's storage and its watch cache: until that is done a list answers 429.
        const list = await until(() => c.send('GET', moves(c, 'v2')), (x) => x.status !== 429, 60, 500);
        c.memo.before = JSON.stringify(Object.fromEntries(((field(list.response, 'items') as unknown[] | undefined) ?? []).map((o) => [field(o, 'metadata', 'name'), rv(o)])));
        return [sw, drop, list];
      },
      show: showCrd,
      check: ([sw, drop, list]) => {
        const { want, result } = expectations();
        want(sw!.status === 200 && JSON.stringify(stored(sw!)) === '["v1","v2"]', `switch: HTTP ${sw!.status} ${msg(sw!)}; storedVersions ${JSON.stringify(stored(sw!))}`);
        want(drop!.status === 422 && msg(drop!).includes('must remain in spec.versions until a storage migration ensures no data remains persisted in v1'), `removing v1: HTTP ${drop!.status} ${msg(drop!)}`);
        want(list!.status === 200 && ((field(list!.response, 'items') as unknown[] | undefined) ?? []).length === NAMES.length, `list: HTTP ${list!.status}`);
        return result;
      },
    },
    {
      id: 'migrate',
      title: 'A StorageVersionMigration for lessonmoves',
      text: `Create a StorageVersionMigration named after the scratch namespace with \`spec.resource: {group: ${GROUP}, resource: ${PLURAL}}\`, then read it every second until a condition \`Succeeded\` or \`Failed\` is True. (Background, from the controller's source: it first waits until the garbage collector's view of the resource is in sync, which for a new CRD can take half a minute.)`,
      lookFor: 'HTTP 201 with no status (nothing has looked at it yet). At the end, written by the controller: `Succeeded` True (reason `StorageVersionMigrationSucceeded`), `Running` False, and a `status.resourceVersion` (the version from which the migration listed the objects). A read that falls while it works shows `Running` True.',
      run: async (c) => {
        const made = await c.send('POST', SVMS, { body: { apiVersion: 'storagemigration.k8s.io/v1', kind: 'StorageVersionMigration', metadata: { name: svmName(c), labels: label('migrate') }, spec: { resource: { group: GROUP, resource: PLURAL } } } });
        const seen: string[] = [];
        const done = await until(
          () => c.send('GET', `${SVMS}/${svmName(c)}`),
          (x) => {
            const now = conditions(x).filter((k) => k.status === 'True').map((k) => k.type).join('+');
            if (now && seen.at(-1) !== now) seen.push(now);
            return ['Succeeded', 'Failed'].some((t) => condition(x, t)?.status === 'True');
          },
          150,
        );
        c.memo.seen = seen.join(' → ');
        return [made, done];
      },
      show: showCrd,
      check: ([made, done]) => {
        const { want, result } = expectations();
        want(made!.status === 201 && !field(made!.response, 'status', 'conditions'), `create: HTTP ${made!.status} ${msg(made!)}`);
        want(condition(done!, 'Succeeded')?.status === 'True' && condition(done!, 'Succeeded')?.reason === 'StorageVersionMigrationSucceeded', `conditions: ${JSON.stringify(conditions(done!))} (no status at all: is the storage version migrator running in kube-controller-manager?)`);
        want(condition(done!, 'Running')?.status === 'False', `Running: ${JSON.stringify(condition(done!, 'Running'))}`);
        want(String(field(done!.response, 'status', 'resourceVersion') ?? '') !== '', 'no status.resourceVersion');
        return result;
      },
    },
    {
      id: 'stored',
      title: 'What changed: storedVersions, the objects, and v1 may go',
      text: 'Read the CRD and the objects again, then remove `v1` from `spec.versions`.',
      lookFor: '`storedVersions: ["v2"]` and the condition `StorageMigrating` False with "The migration has succeeded and the stored versions have been updated". Every object has a newer `resourceVersion` than before (each was rewritten) and the same `spec`. Removing v1 now answers 200.',
      run: async (c) => {
        const got = await c.send('GET', `${CRDS}/${MOVE_CRD}`);
        const list = await until(() => c.send('GET', moves(c, 'v2')), (x) => x.status !== 429, 60, 500);
        const drop = await c.send('PATCH', `${CRDS}/${MOVE_CRD}`, { body: JSON.stringify([{ op: 'test', path: '/spec/versions/0/name', value: 'v1' }, { op: 'remove', path: '/spec/versions/0' }]), contentType: 'application/json-patch+json' });
        return [got, list, drop];
      },
      show: showCrd,
      check: ([got, list, drop], c) => {
        const { want, result } = expectations();
        const cond = condition(got!, 'StorageMigrating');
        want(JSON.stringify(stored(got!)) === '["v2"]', `storedVersions: ${JSON.stringify(stored(got!))}`);
        want(cond?.status === 'False' && String(cond.message).includes('The migration has succeeded and the stored versions have been updated'), `StorageMigrating: ${JSON.stringify(cond)}`);
        const before = JSON.parse(c.memo.before ?? '{}') as Record<string, string>;
        for (const o of (field(list!.response, 'items') as unknown[] | undefined) ?? []) {
          const name = String(field(o, 'metadata', 'name'));
          want(compareResourceVersions(rv(o), before[name] ?? '') === 1, `${name}: resourceVersion ${rv(o)}, before ${before[name] ?? '?'}`);
          want(field(o, 'spec', 'size') === name.slice(-1), `${name}: spec ${JSON.stringify(field(o, 'spec'))}`);
        }
        want(drop!.status === 200 && ((field(drop!.response, 'spec', 'versions') as { name: string }[] | undefined) ?? []).map((v) => v.name).join() === 'v2', `removing v1: HTTP ${drop!.status} ${msg(drop!)}`);
        return result;
      },
    },
    {
      id: 'cleanup',
      title: 'Remove the migration and the CRD',
      text: 'DELETE the StorageVersionMigration and the CRD (its LessonMoves go with it).',
      lookFor: 'HTTP 200 for each.',
      run: removeAll,
      check: (xs) => xs.filter((x) => x.status !== 200).map((x) => `${x.path}: HTTP ${x.status} ${msg(x)}`),
    },
  ],
  cleanup: removeAll,
};

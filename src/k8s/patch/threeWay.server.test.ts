// threeWayMerge against the real server: someone else really changes the object (a strategic merge
// patch, as `kubectl patch --type strategic` sends, or a JSON Patch for a custom resource), the
// merge of the user's edit with the server's latest version is sent with dryRun=All, as a PUT and
// as the Edit view's default guarded merge patch, and the server's result keeps both sides' changes.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useRealProxy } from '../proxy.testkit';
import type { FieldHints } from './hints';
import { differencesFromEdit } from './keyed';
import { guardMergePatch, type JsonObject, mergePatch, withoutManagedFields } from './patch';
import { createRouteCrd, hintsFor, kube, patchAs, settled } from './server.testkit';
import { threeWayMerge } from './threeWay';

const ns = `threeway-${randomBytes(3).toString('hex')}`;
const group = `tw${randomBytes(3).toString('hex')}.example.com`;
const depPath = `/apis/apps/v1/namespaces/${ns}/deployments/web`;
const routePath = `/apis/${group}/v1/namespaces/${ns}/routes/r`;

type Container = { name: string; image: string; env?: { name: string; value: string }[]; ports?: { containerPort: number; protocol?: string; name?: string }[] };
type Dep = JsonObject & { metadata: JsonObject & { finalizers?: string[]; resourceVersion: string }; spec: { template: { spec: { containers: Container[]; volumes?: JsonObject[] } } } };
type Route = JsonObject & { metadata: JsonObject & { resourceVersion: string }; spec: { routes: { host: string; port: number; weight?: number }[]; tags: string[]; args: string[] } };

let depHints: FieldHints;
let routeHints: FieldHints;

beforeAll(async () => {
  useRealProxy();
  await kube('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  depHints = await hintsFor('apps', 'v1', 'Deployment');
  routeHints = await createRouteCrd(group);
});

afterAll(async () => {
  await patchAs(depPath, 'merge', { metadata: { finalizers: null } }).catch(() => undefined);
  await kube('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/routes.${group}`).catch(() => undefined);
  await kube('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

const read = async <T,>(path: string) => withoutManagedFields(await kube('GET', path)) as T;
const container = (d: Dep, name: string) => d.spec.template.spec.containers.find((c) => c.name === name)!;

/** The merged object as the Edit view sends it, twice with dryRun=All: a PUT, and the guarded merge patch from the latest version. */
async function sendMerged(path: string, latest: JsonObject, merged: JsonObject, hints: FieldHints) {
  const put = await kube('PUT', path, merged, undefined, { dryRun: 'All' });
  const rv = (latest.metadata as { resourceVersion: string }).resourceVersion;
  const patched = await patchAs(path, 'merge', guardMergePatch(mergePatch(latest, merged), rv), { dryRun: 'All' });
  for (const result of [put, patched]) expect(differencesFromEdit(merged, result, latest, hints)).toEqual([]);
  return [put, patched] as const;
}

describe('threeWayMerge against the real server', () => {
  it('Deployment: containers, env, ports (containerPort+protocol), volumes and finalizers changed on both sides; both sides’ changes stay', async () => {
    await kube('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'web', finalizers: ['example.com/a', 'example.com/b'] },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }], ports: [{ containerPort: 53, protocol: 'TCP', name: 'dns' }] },
              { name: 'b', image: 'b:1' },
            ],
            volumes: [{ name: 'v1', emptyDir: {} }],
          },
        },
      },
    });
    const original = withoutManagedFields(await settled(depPath)) as Dep;

    // Mine: a's image and env X, a new UDP port 53, v1 switched to a configMap, finalizer a out and m in.
    const mine = structuredClone(original);
    const a = container(mine, 'a');
    a.image = 'a:mine';
    a.env = [{ name: 'X', value: 'mine' }];
    a.ports!.push({ containerPort: 53, protocol: 'UDP', name: 'dns-udp' });
    mine.spec.template.spec.volumes = [{ name: 'v1', configMap: { name: 'cm' } }];
    mine.metadata.finalizers = ['example.com/b', 'example.com/m'];

    // Theirs, stored: b's image and env Y, a's TCP port renamed, a volume v2, finalizer b out and t in.
    await patchAs(depPath, 'strategic', {
      metadata: { finalizers: ['example.com/t'], '$deleteFromPrimitiveList/finalizers': ['example.com/b'] },
      spec: {
        template: {
          spec: {
            containers: [
              { name: 'b', image: 'b:theirs', env: [{ name: 'Y', value: 'theirs' }] },
              { name: 'a', ports: [{ containerPort: 53, protocol: 'TCP', name: 'dns-tcp' }] },
            ],
            volumes: [{ name: 'v2', secret: { secretName: 's' } }],
          },
        },
      },
    });
    const latest = withoutManagedFields(await settled(depPath)) as Dep;

    const { merged, conflicts } = threeWayMerge(original, mine, latest, depHints);
    expect(conflicts).toEqual([]);
    for (const result of await sendMerged(depPath, latest, merged, depHints)) {
      const r = result as Dep;
      expect(container(r, 'a')).toMatchObject({ image: 'a:mine', env: [{ name: 'X', value: 'mine' }] });
      expect(container(r, 'a').ports!.map((p) => `${p.containerPort}/${p.protocol}/${p.name}`)).toEqual(['53/TCP/dns-tcp', '53/UDP/dns-udp']);
      expect(container(r, 'b')).toMatchObject({ image: 'b:theirs', env: [{ name: 'Y', value: 'theirs' }] });
      // (Their strategic merge patch put v2 first: the merge keeps their order.)
      expect(r.spec.template.spec.volumes!.map((v) => [v.name, Object.keys(v).filter((k) => k !== 'name')[0]]).sort()).toEqual([
        ['v1', 'configMap'],
        ['v2', 'secret'],
      ]);
      expect([...r.metadata.finalizers!].sort()).toEqual(['example.com/m', 'example.com/t']);
    }

    // Both change b's image: a conflict, and each choice is what the server gets.
    const mine2 = structuredClone(latest);
    container(mine2, 'b').image = 'b:mine';
    await patchAs(depPath, 'strategic', { spec: { template: { spec: { containers: [{ name: 'b', image: 'b:theirs2' }] } } } });
    const latest2 = withoutManagedFields(await settled(depPath)) as Dep;
    const undecided = threeWayMerge(latest, mine2, latest2, depHints);
    expect(undecided.conflicts).toEqual([{ path: '.spec.template.spec.containers[name="b"].image', mine: 'b:mine', theirs: 'b:theirs2' }]);
    for (const side of ['mine', 'theirs'] as const) {
      const { merged: chosen } = threeWayMerge(latest, mine2, latest2, depHints, { [undecided.conflicts[0]!.path]: side });
      const [put] = await sendMerged(depPath, latest2, chosen, depHints);
      expect(container(put as Dep, 'b').image).toBe(side === 'mine' ? 'b:mine' : 'b:theirs2');
    }
  });

  it('a volume’s source changed on both sides is one choice (issue 41): one conflict, and either choice is a valid volume', async () => {
    const path = `/apis/apps/v1/namespaces/${ns}/deployments/vol`;
    await kube('POST', `/apis/apps/v1/namespaces/${ns}/deployments`, {
      metadata: { name: 'vol' },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'vol' } },
        template: { metadata: { labels: { app: 'vol' } }, spec: { containers: [{ name: 'a', image: 'a:1' }], volumes: [{ name: 'data', configMap: { name: 'cm' } }, { name: 'other', emptyDir: {} }] } },
      },
    });
    const original = withoutManagedFields(await settled(path)) as Dep;
    // Mine: data from configMap to emptyDir. Theirs, stored: data from configMap to a secret, as
    // kubectl sends it (a strategic merge patch that keeps only secret).
    const mine = structuredClone(original);
    mine.spec.template.spec.volumes![0] = { name: 'data', emptyDir: {} };
    await patchAs(path, 'strategic', { spec: { template: { spec: { volumes: [{ name: 'data', secret: { secretName: 's' }, $retainKeys: ['name', 'secret'] }] } } } });
    const latest = withoutManagedFields(await settled(path)) as Dep;
    expect(latest.spec.template.spec.volumes![0]).toMatchObject({ name: 'data', secret: { secretName: 's' } });

    const undecided = threeWayMerge(original, mine, latest, depHints);
    expect(undecided.conflicts.map((c) => c.path)).toEqual(['.spec.template.spec.volumes[name="data"]']);
    // kubectl edit keeps mine; here each choice is one source, and the server takes both.
    for (const [side, source] of [['mine', 'emptyDir'], ['theirs', 'secret']] as const) {
      const { merged } = threeWayMerge(original, mine, latest, depHints, { [undecided.conflicts[0]!.path]: side });
      for (const r of await sendMerged(path, latest, merged, depHints)) {
        const data = (r as Dep).spec.template.spec.volumes!.find((v) => v.name === 'data')!;
        expect(Object.keys(data).filter((k) => k !== 'name')).toEqual([source]);
      }
    }
  });

  it('a custom resource with x-kubernetes-list-map-keys [host, port], a set and an atomic list', async () => {
    await kube('POST', `/apis/${group}/v1/namespaces/${ns}/routes`, {
      apiVersion: `${group}/v1`,
      kind: 'Route',
      metadata: { name: 'r' },
      spec: { routes: [{ host: 'a', port: 80, weight: 1 }, { host: 'a', port: 443, weight: 1 }], tags: ['t1', 't2'], args: ['--x'] },
    });
    const original = await read<Route>(routePath);
    const mine = structuredClone(original);
    mine.spec.routes[0]!.weight = 5;
    mine.spec.tags = ['t1', 't2', 'mine'];
    mine.spec.args = ['--x', '--mine'];
    // Theirs, as a JSON Patch (a custom resource takes no strategic merge patch).
    await patchAs(routePath, 'json', [
      { op: 'replace', path: '/spec/routes/1/weight', value: 9 },
      { op: 'add', path: '/spec/routes/-', value: { host: 'b', port: 80, weight: 1 } },
      { op: 'remove', path: '/spec/tags/0' },
    ]);
    const latest = await read<Route>(routePath);
    const { merged, conflicts } = threeWayMerge(original, mine, latest, routeHints);
    expect(conflicts).toEqual([]);
    for (const r of (await sendMerged(routePath, latest, merged, routeHints)) as unknown as Route[]) {
      expect(r.spec.routes).toEqual([
        { host: 'a', port: 80, weight: 5 },
        { host: 'a', port: 443, weight: 9 },
        { host: 'b', port: 80, weight: 1 },
      ]);
      expect([...r.spec.tags].sort()).toEqual(['mine', 't2']);
      expect(r.spec.args).toEqual(['--x', '--mine']);
    }
  });
});

// threeWayMerge on its own (pure), one row per kind of list: the user's change (original → mine)
// and the server's (original → theirs) both survive, and a field both changed differently is a
// conflict with both values, never decided silently.
import { describe, expect, it } from 'vitest';
import type { FieldHints } from './hints';
import type { JsonObject } from './patch';
import { threeWayMerge } from './threeWay';

// The hints the server's OpenAPI v3 documents give for these fields (apps/v1 Deployment, core/v1
// Pod and a CRD with x-kubernetes-list-type: map).
const hints: FieldHints = (path) => {
  const p = path.join('.');
  if (p === 'spec.template.spec.containers') return { mergeKey: 'name', strategy: 'merge', listType: 'map', mapKeys: ['name'] };
  if (p === 'spec.template.spec.containers.env') return { mergeKey: 'name', strategy: 'merge', listType: 'map', mapKeys: ['name'] };
  if (p === 'spec.template.spec.containers.ports') return { mergeKey: 'containerPort', strategy: 'merge', listType: 'map', mapKeys: ['containerPort', 'protocol'] };
  if (p === 'spec.template.spec.volumes') return { mergeKey: 'name', strategy: 'merge,retainKeys', listType: 'map', mapKeys: ['name'] };
  if (p === 'metadata.finalizers') return { strategy: 'merge', listType: 'set' };
  if (p === 'spec.template.spec.containers.args') return { listType: 'atomic' };
  if (p === 'spec.routes') return { listType: 'map', mapKeys: ['host', 'port'] };
  if (p === 'spec.tags') return { listType: 'set' };
  return undefined;
};

type C = JsonObject;
const dep = (containers: C[], extra: JsonObject = {}, meta: JsonObject = {}): JsonObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', resourceVersion: '1', ...meta },
  spec: { template: { spec: { containers, ...extra } } },
});
const containersOf = (o: JsonObject) => ((o.spec as JsonObject).template as { spec: { containers: C[] } }).spec.containers;
const specOf = (o: JsonObject) => ((o.spec as JsonObject).template as { spec: JsonObject }).spec;

interface Row {
  name: string;
  original: JsonObject;
  mine: JsonObject;
  theirs: JsonObject;
  merged: JsonObject;
  conflicts?: { path: string; mine: unknown; theirs: unknown }[];
}

const rows: Row[] = [
  {
    name: 'containers: I change a’s image, they change b’s image and add env Y to b (issue 28, case 1)',
    original: dep([{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }]),
    mine: dep([{ name: 'a', image: 'a:2' }, { name: 'b', image: 'b:1' }]),
    theirs: dep([{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:2', env: [{ name: 'Y', value: 'y' }] }], {}, { resourceVersion: '2' }),
    merged: dep([{ name: 'a', image: 'a:2' }, { name: 'b', image: 'b:2', env: [{ name: 'Y', value: 'y' }] }], {}, { resourceVersion: '2' }),
  },
  {
    name: 'containers: I add one at the end, they insert one at the start; both are kept, each where its side put it',
    original: dep([{ name: 'a', image: 'a:1' }]),
    mine: dep([{ name: 'a', image: 'a:1' }, { name: 'mine', image: 'm' }]),
    theirs: dep([{ name: 'theirs', image: 't' }, { name: 'a', image: 'a:1' }]),
    merged: dep([{ name: 'theirs', image: 't' }, { name: 'a', image: 'a:1' }, { name: 'mine', image: 'm' }]),
  },
  {
    name: 'containers: I remove b, they change a',
    original: dep([{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }]),
    mine: dep([{ name: 'a', image: 'a:1' }]),
    theirs: dep([{ name: 'a', image: 'a:2' }, { name: 'b', image: 'b:1' }]),
    merged: dep([{ name: 'a', image: 'a:2' }]),
  },
  {
    name: 'containers: I remove b, they changed b: a conflict on the element',
    original: dep([{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }]),
    mine: dep([{ name: 'a', image: 'a:1' }]),
    theirs: dep([{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:2' }]),
    merged: dep([{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:2' }]),
    conflicts: [{ path: '.spec.template.spec.containers[name="b"]', mine: undefined, theirs: { name: 'b', image: 'b:2' } }],
  },
  {
    name: 'containers: both change a’s image differently: a conflict with both values',
    original: dep([{ name: 'a', image: 'a:1' }]),
    mine: dep([{ name: 'a', image: 'a:mine' }]),
    theirs: dep([{ name: 'a', image: 'a:theirs' }]),
    merged: dep([{ name: 'a', image: 'a:theirs' }]),
    conflicts: [{ path: '.spec.template.spec.containers[name="a"].image', mine: 'a:mine', theirs: 'a:theirs' }],
  },
  {
    name: 'env: I change X and remove Z, they add Y and change W',
    original: dep([{ name: 'a', env: [{ name: 'X', value: '1' }, { name: 'Z', value: 'z' }, { name: 'W', value: 'w' }] }]),
    mine: dep([{ name: 'a', env: [{ name: 'X', value: '2' }, { name: 'W', value: 'w' }] }]),
    theirs: dep([{ name: 'a', env: [{ name: 'X', value: '1' }, { name: 'Z', value: 'z' }, { name: 'W', value: 'w2' }, { name: 'Y', value: 'y' }] }]),
    merged: dep([{ name: 'a', env: [{ name: 'X', value: '2' }, { name: 'W', value: 'w2' }, { name: 'Y', value: 'y' }] }]),
  },
  {
    name: 'env: both add the same variable with the same value: no conflict',
    original: dep([{ name: 'a', env: [] }]),
    mine: dep([{ name: 'a', env: [{ name: 'N', value: '1' }] }]),
    theirs: dep([{ name: 'a', env: [{ name: 'N', value: '1' }] }]),
    merged: dep([{ name: 'a', env: [{ name: 'N', value: '1' }] }]),
  },
  {
    name: 'env: both add the same variable with different values: a conflict',
    original: dep([{ name: 'a' }]),
    mine: dep([{ name: 'a', env: [{ name: 'N', value: 'mine' }] }]),
    theirs: dep([{ name: 'a', env: [{ name: 'N', value: 'theirs' }] }]),
    merged: dep([{ name: 'a', env: [{ name: 'N', value: 'theirs' }] }]),
    conflicts: [{ path: '.spec.template.spec.containers[name="a"].env[name="N"].value', mine: 'mine', theirs: 'theirs' }],
  },
  {
    name: 'ports (composite key containerPort+protocol): I add 53/UDP, they change 53/TCP’s name',
    original: dep([{ name: 'a', ports: [{ containerPort: 53, protocol: 'TCP', name: 'dns' }] }]),
    mine: dep([{ name: 'a', ports: [{ containerPort: 53, protocol: 'TCP', name: 'dns' }, { containerPort: 53, protocol: 'UDP', name: 'dns-udp' }] }]),
    theirs: dep([{ name: 'a', ports: [{ containerPort: 53, protocol: 'TCP', name: 'dns-tcp' }] }]),
    merged: dep([{ name: 'a', ports: [{ containerPort: 53, protocol: 'TCP', name: 'dns-tcp' }, { containerPort: 53, protocol: 'UDP', name: 'dns-udp' }] }]),
  },
  {
    name: 'ports: a new port without protocol (the server defaults it) is matched by the merge key',
    original: dep([{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP' }] }]),
    mine: dep([{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 8080 }] }]),
    theirs: dep([{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }] }]),
    merged: dep([{ name: 'a', ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 8080 }] }]),
  },
  {
    name: 'volumes: I switch v1 from emptyDir to configMap, they add v2',
    original: dep([{ name: 'a' }], { volumes: [{ name: 'v1', emptyDir: {} }] }),
    mine: dep([{ name: 'a' }], { volumes: [{ name: 'v1', configMap: { name: 'cm' } }] }),
    theirs: dep([{ name: 'a' }], { volumes: [{ name: 'v1', emptyDir: {} }, { name: 'v2', secret: { secretName: 's' } }] }),
    merged: dep([{ name: 'a' }], { volumes: [{ name: 'v1', configMap: { name: 'cm' } }, { name: 'v2', secret: { secretName: 's' } }] }),
  },
  {
    // A volume's source is one choice (retainKeys): one conflict on the volume, never two sources.
    name: 'volumes: I switch v1 to configMap, they resize its emptyDir: one conflict on the volume',
    original: dep([{ name: 'a' }], { volumes: [{ name: 'v1', emptyDir: {} }] }),
    mine: dep([{ name: 'a' }], { volumes: [{ name: 'v1', configMap: { name: 'cm' } }] }),
    theirs: dep([{ name: 'a' }], { volumes: [{ name: 'v1', emptyDir: { sizeLimit: '1Gi' } }] }),
    merged: dep([{ name: 'a' }], { volumes: [{ name: 'v1', emptyDir: { sizeLimit: '1Gi' } }] }),
    conflicts: [{ path: '.spec.template.spec.volumes[name="v1"]', mine: { name: 'v1', configMap: { name: 'cm' } }, theirs: { name: 'v1', emptyDir: { sizeLimit: '1Gi' } } }],
  },
  {
    name: 'finalizers (a set): I remove a and add m, they remove b and add t (each new value after the one it follows on its side)',
    original: dep([], {}, { finalizers: ['x/a', 'x/b', 'x/c'] }),
    mine: dep([], {}, { finalizers: ['x/b', 'x/c', 'x/m'] }),
    theirs: dep([], {}, { finalizers: ['x/a', 'x/c', 'x/t'] }),
    merged: dep([], {}, { finalizers: ['x/c', 'x/m', 'x/t'] }),
  },
  {
    name: 'args (atomic): both change them: one conflict for the whole list',
    original: dep([{ name: 'a', args: ['--x'] }]),
    mine: dep([{ name: 'a', args: ['--x', '--mine'] }]),
    theirs: dep([{ name: 'a', args: ['--theirs', '--x'] }]),
    merged: dep([{ name: 'a', args: ['--theirs', '--x'] }]),
    conflicts: [{ path: '.spec.template.spec.containers[name="a"].args', mine: ['--x', '--mine'], theirs: ['--theirs', '--x'] }],
  },
  {
    name: 'a CRD list with x-kubernetes-list-map-keys [host, port]: elements merged by the composite key',
    original: { apiVersion: 'x/v1', kind: 'Route', spec: { routes: [{ host: 'a', port: 80, weight: 1 }, { host: 'a', port: 443, weight: 1 }], tags: ['t1'] } },
    mine: { apiVersion: 'x/v1', kind: 'Route', spec: { routes: [{ host: 'a', port: 80, weight: 5 }, { host: 'a', port: 443, weight: 1 }], tags: ['t1', 'mine'] } },
    theirs: { apiVersion: 'x/v1', kind: 'Route', spec: { routes: [{ host: 'a', port: 80, weight: 1 }, { host: 'a', port: 443, weight: 9 }, { host: 'b', port: 80, weight: 1 }], tags: ['theirs'] } },
    merged: { apiVersion: 'x/v1', kind: 'Route', spec: { routes: [{ host: 'a', port: 80, weight: 5 }, { host: 'a', port: 443, weight: 9 }, { host: 'b', port: 80, weight: 1 }], tags: ['mine', 'theirs'] } },
  },
  {
    name: 'maps: I change a label, they add one and change an annotation',
    original: dep([], {}, { labels: { app: 'web' }, annotations: { n: '1' } }),
    mine: dep([], {}, { labels: { app: 'web2' }, annotations: { n: '1' } }),
    theirs: dep([], {}, { labels: { app: 'web', team: 't' }, annotations: { n: '2' } }),
    merged: dep([], {}, { labels: { app: 'web2', team: 't' }, annotations: { n: '2' } }),
  },
];

describe('threeWayMerge', () => {
  it.each(rows)('$name', ({ original, mine, theirs, merged, conflicts = [] }) => {
    const r = threeWayMerge(original, mine, theirs, hints);
    expect(r.merged).toEqual(merged);
    expect(r.conflicts).toEqual(conflicts);
  });

  it('a list without hints is atomic: both sides’ element changes are one conflict, not a silent pick', () => {
    const original = dep([{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }]);
    const mine = dep([{ name: 'a', image: 'a:2' }, { name: 'b', image: 'b:1' }]);
    const theirs = dep([{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:2' }]);
    const r = threeWayMerge(original, mine, theirs);
    expect(r.conflicts.map((c) => c.path)).toEqual(['.spec.template.spec.containers']);
  });

  it('a choice takes the chosen side at that path only', () => {
    const original = dep([{ name: 'a', image: 'a:1', args: ['x'] }]);
    const mine = dep([{ name: 'a', image: 'a:mine', args: ['m'] }]);
    const theirs = dep([{ name: 'a', image: 'a:theirs', args: ['t'] }]);
    const r = threeWayMerge(original, mine, theirs, hints, { '.spec.template.spec.containers[name="a"].image': 'mine' });
    expect(containersOf(r.merged)[0]).toEqual({ name: 'a', image: 'a:mine', args: ['t'] });
    expect(r.conflicts).toHaveLength(2);
  });

  it('choosing mine on an element the edit removed removes it', () => {
    const original = dep([{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }]);
    const mine = dep([{ name: 'a', image: 'a:1' }]);
    const theirs = dep([{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:2' }]);
    const r = threeWayMerge(original, mine, theirs, hints, { '.spec.template.spec.containers[name="b"]': 'mine' });
    expect(containersOf(r.merged).map((c) => c.name)).toEqual(['a']);
  });

  it('with no change on my side the result is the server’s version, and with none on theirs it is my edit', () => {
    const original = dep([{ name: 'a', image: 'a:1' }], { volumes: [] });
    const theirs = dep([{ name: 'a', image: 'a:2' }], {}, { resourceVersion: '9' });
    expect(threeWayMerge(original, structuredClone(original), theirs, hints)).toEqual({ merged: theirs, conflicts: [] });
    const mine = dep([{ name: 'a', image: 'a:3' }]);
    expect(threeWayMerge(original, mine, structuredClone(original), hints)).toEqual({ merged: mine, conflicts: [] });
    expect(specOf(threeWayMerge(original, mine, theirs, hints).merged).volumes).toBeUndefined();
  });
});

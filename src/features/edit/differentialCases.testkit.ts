// Generated write cases for the differential tests (differential.server.test.ts): objects of three
// kinds (a ConfigMap, a PodTemplate with keyed containers, env and ports, and the Route custom
// resource with a list keyed by two fields, a set, an atomic list, an int64 and a preserve-unknown
// map), the user's edit and a concurrent edit by another manager, each as a list of operations.
// Pure: fast-check arbitraries and the functions that apply operations to an object.
import fc from 'fast-check';
import { type FieldHints, isObject, type Json, type JsonObject, listKeys } from '../../k8s/patch';

export type Kind = 'ConfigMap' | 'PodTemplate' | 'Route';

export type Op =
  | { op: 'label'; key: string; value: string | null }
  | { op: 'data'; key: string; value: string | null }
  | { op: 'image'; c: string; image: string }
  | { op: 'container'; c: string; present: boolean }
  | { op: 'env'; c: string; name: string; value: string | null }
  | { op: 'port'; c: string; port: number; protocol: string; present: boolean }
  | { op: 'route'; host: string; port: number; weight: number | null }
  | { op: 'tag'; tag: string; present: boolean }
  | { op: 'args'; args: string[] }
  | { op: 'count'; count: number }
  | { op: 'free'; key: string; value: Json | null };

export interface Case {
  kind: Kind;
  base: JsonObject;
  mine: Op[];
  theirs: Op[];
}

const word = fc.constantFrom('a', 'b', 'c');
const value = fc.constantFrom('1', '2', 'x', 'yes', '');
const labelOp = fc.record({ op: fc.constant('label' as const), key: fc.constantFrom('app', 'tier', 'example.com/team'), value: fc.option(value, { nil: null }) });

const configMapOps: fc.Arbitrary<Op> = fc.oneof(labelOp, fc.record({ op: fc.constant('data' as const), key: fc.constantFrom('a', 'b', 'c', 'd.txt'), value: fc.option(value, { nil: null }) }));

// Container a is never removed: a PodTemplate needs one container, on both sides of the merge.
const podOps: fc.Arbitrary<Op> = fc.oneof(
  labelOp,
  fc.record({ op: fc.constant('image' as const), c: word, image: fc.constantFrom('img:1', 'img:2', 'img:3') }),
  fc.record({ op: fc.constant('container' as const), c: fc.constantFrom('b', 'c'), present: fc.boolean() }),
  fc.record({ op: fc.constant('env' as const), c: word, name: fc.constantFrom('X', 'Y', 'Z'), value: fc.option(value, { nil: null }) }),
  // One protocol per containerPort: the strategic merge patch kubectl edit sends keys ports by
  // containerPort alone (x-kubernetes-patch-merge-key), so it folds 80/TCP and 80/UDP into one
  // element, where the list-map-keys (containerPort, protocol) and the three-way merge keep both
  // (a known divergence, table-tested in threeWay.test.ts and threeWay.server.test.ts).
  fc.record({ op: fc.constant('port' as const), c: word, port: fc.constantFrom(53, 80, 443), present: fc.boolean() }).map((p) => ({ ...p, protocol: p.port === 53 ? 'UDP' : 'TCP' })),
);

// int64 values within 2^53 (exact numbers beyond it are another part of issue 28).
const int64 = fc.integer({ min: -1_000_000, max: 1_000_000 });
const freeValue: fc.Arbitrary<Json> = fc.oneof(value, int64, fc.record({ deep: value }));
const routeScalarOps: fc.Arbitrary<Op> = fc.oneof(
  labelOp,
  fc.record({ op: fc.constant('count' as const), count: int64 }),
  fc.record({ op: fc.constant('free' as const), key: fc.constantFrom('x', 'y', 'z'), value: fc.option(freeValue, { nil: null }) }),
);
const routeOps: fc.Arbitrary<Op> = fc.oneof(
  routeScalarOps,
  fc.record({ op: fc.constant('route' as const), host: fc.constantFrom('a', 'b'), port: fc.constantFrom(80, 443), weight: fc.option(fc.integer({ min: 0, max: 9 }), { nil: null }) }),
  fc.record({ op: fc.constant('tag' as const), tag: fc.constantFrom('t1', 't2', 't3'), present: fc.boolean() }),
  fc.record({ op: fc.constant('args' as const), args: fc.array(fc.constantFrom('--a', '--b', '-v'), { maxLength: 3 }) }),
);

/** A base object of the kind, made by a few operations on a minimal one. */
function baseOf(kind: Kind, group: string, ops: Op[]): JsonObject {
  const start: JsonObject =
    kind === 'ConfigMap'
      ? { apiVersion: 'v1', kind, metadata: { name: '' }, data: {} }
      : kind === 'PodTemplate'
        ? { apiVersion: 'v1', kind, metadata: { name: '' }, template: { spec: { containers: [{ name: 'a', image: 'img:1' }] } } }
        : { apiVersion: `${group}/v1`, kind, metadata: { name: '' }, spec: { routes: [], tags: [], args: [], count: 0, free: {} } };
  return applyOps(start, ops);
}

/**
 * A case of the kind. Against a custom resource, `kubectl edit` sends a JSON merge patch (its
 * lists whole): the concurrent edit there stays off the lists, where kubectl would drop it by
 * design and the three-way merge keeps it.
 */
export function caseArb(kind: Kind, group: string): fc.Arbitrary<Case> {
  const ops = kind === 'ConfigMap' ? configMapOps : kind === 'PodTemplate' ? podOps : routeOps;
  const theirsOps = kind === 'Route' ? routeScalarOps : ops;
  return fc.record({
    kind: fc.constant(kind),
    base: fc.array(ops, { maxLength: 6 }).map((o) => baseOf(kind, group, o)),
    mine: fc.array(ops, { minLength: 1, maxLength: 4 }),
    theirs: fc.array(theirsOps, { minLength: 1, maxLength: 4 }),
  });
}

const metaOf = (o: JsonObject) => o.metadata as JsonObject;

function setIn(map: JsonObject, key: string, v: Json | null): void {
  if (v === null) delete map[key];
  else map[key] = v;
}

function containers(o: JsonObject): JsonObject[] {
  return ((o.template as JsonObject).spec as JsonObject).containers as JsonObject[];
}

function applyOp(o: JsonObject, op: Op): void {
  const named = (list: JsonObject[], name: string) => list.find((x) => x.name === name);
  switch (op.op) {
    case 'label': {
      const labels = (metaOf(o).labels ??= {}) as JsonObject;
      setIn(labels, op.key, op.value);
      if (Object.keys(labels).length === 0) delete metaOf(o).labels;
      return;
    }
    case 'data':
      // (The server leaves out an empty map.)
      return setIn((o.data ??= {}) as JsonObject, op.key, op.value);
    case 'image': {
      const c = named(containers(o), op.c);
      if (c) c.image = op.image;
      return;
    }
    case 'container': {
      const list = containers(o);
      const i = list.findIndex((x) => x.name === op.c);
      if (op.present && i < 0) list.push({ name: op.c, image: 'img:1' });
      if (!op.present && i >= 0) list.splice(i, 1);
      return;
    }
    case 'env': {
      const c = named(containers(o), op.c);
      if (!c) return;
      const env = (c.env ??= []) as JsonObject[];
      const i = env.findIndex((e) => e.name === op.name);
      if (op.value === null) {
        if (i >= 0) env.splice(i, 1);
      } else if (i >= 0) env[i] = { name: op.name, value: op.value };
      else env.push({ name: op.name, value: op.value });
      if (env.length === 0) delete c.env;
      return;
    }
    case 'port': {
      const c = named(containers(o), op.c);
      if (!c) return;
      const ports = (c.ports ??= []) as JsonObject[];
      const i = ports.findIndex((p) => p.containerPort === op.port && p.protocol === op.protocol);
      if (op.present && i < 0) ports.push({ containerPort: op.port, protocol: op.protocol });
      if (!op.present && i >= 0) ports.splice(i, 1);
      if (ports.length === 0) delete c.ports;
      return;
    }
    case 'route': {
      const routes = ((o.spec as JsonObject).routes ??= []) as JsonObject[];
      const i = routes.findIndex((r) => r.host === op.host && r.port === op.port);
      if (op.weight === null) {
        if (i >= 0) routes.splice(i, 1);
      } else if (i >= 0) routes[i] = { ...routes[i], weight: op.weight };
      else routes.push({ host: op.host, port: op.port, weight: op.weight });
      return;
    }
    case 'tag': {
      const tags = ((o.spec as JsonObject).tags ??= []) as string[];
      const i = tags.indexOf(op.tag);
      if (op.present && i < 0) tags.push(op.tag);
      if (!op.present && i >= 0) tags.splice(i, 1);
      return;
    }
    case 'args':
      (o.spec as JsonObject).args = [...op.args];
      return;
    case 'count':
      (o.spec as JsonObject).count = op.count;
      return;
    case 'free':
      return setIn(((o.spec as JsonObject).free ??= {}) as JsonObject, op.key, op.value);
  }
}

/** The object after the operations (a copy); operations that do not apply are skipped. */
export function applyOps(o: JsonObject, ops: Op[]): JsonObject {
  const out = structuredClone(o);
  for (const op of ops) applyOp(out, op);
  return out;
}

const SERVER_SET = ['name', 'uid', 'resourceVersion', 'creationTimestamp', 'managedFields', 'generation'];

/**
 * What two stored objects are compared on: without the server's bookkeeping and the name (twins
 * differ by name), with keyed lists and sets in key order (the three-way merge and the server's
 * strategic merge may place another side's new element differently; atomic lists keep their order).
 */
export function canonical(o: Json, hints: FieldHints, path: string[] = []): Json {
  if (isObject(o)) {
    const out: JsonObject = {};
    for (const k of Object.keys(o).sort()) {
      if (path.length === 1 && path[0] === 'metadata' && SERVER_SET.includes(k)) continue;
      if (path.length === 0 && k === 'status') continue;
      out[k] = canonical(o[k]!, hints, [...path, k]);
    }
    return out;
  }
  if (Array.isArray(o)) {
    const items = o.map((x) => canonical(x, hints, path));
    const hint = hints(path);
    const keys = listKeys(hint);
    const sortKey = (x: Json) => (keys && isObject(x) ? JSON.stringify(keys.map((k) => x[k] ?? null)) : JSON.stringify(x));
    return keys || hint?.listType === 'set' || (hint?.strategy?.includes('merge') && !hint.mergeKey) ? items.sort((a, b) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0)) : items;
  }
  return o;
}

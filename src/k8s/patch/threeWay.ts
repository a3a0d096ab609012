// A three-way merge of the object the user loaded (original), the user's edit (edited, "mine") and
// the server's latest version (latest, "theirs"), for the Edit view's rebase.
//
// kubectl edit keeps a concurrent change because it sends only its own change: a strategic merge
// patch computed from original to edited (strategicpatch.CreateTwoWayMergePatch, or
// CreateThreeWayMergePatch in kubectl apply), which the server merges into the latest version list
// element by list element, by the schema's merge keys. A JSON merge patch carries lists whole and
// so puts back the list as the user loaded it. Here the same rules are applied client side, so the
// editor can show the merged object before anything is sent:
// - a field only one side changed takes that side's value;
// - maps merge key by key;
// - lists with a key (x-kubernetes-list-map-keys, or the strategic merge key with strategy merge)
//   merge element by element, matched by key; sets (x-kubernetes-list-type: set, or a merged list
//   of scalars such as finalizers) merge by value;
// - any other list is atomic: one value;
// - a field both sides changed to different values is a conflict: it is reported with both values
//   and never decided here. Until the caller chooses, the merged object holds the server's value
//   (sending that changes nothing there).
import { type FieldHints, NO_HINTS, strategyHas } from './hints';
import { deepEqual, isObject, type Json, type JsonObject, own, setField } from './patch';
import { toJson } from '../../codecs/json';

export interface MergeConflict {
  /** Where, as the API server prints field paths: `.spec.template.spec.containers[name="b"].image`. */
  path: string;
  /** The edit's value (undefined: the edit removed the field). */
  mine: Json | undefined;
  /** The server's latest value (undefined: removed on the server). */
  theirs: Json | undefined;
}

export interface ThreeWayMergeResult {
  merged: JsonObject;
  conflicts: MergeConflict[];
}

/** Which side a conflict takes, by its path; a conflict not listed keeps the server's value. */
export type ConflictChoices = Readonly<Record<string, 'mine' | 'theirs'>>;

type Value = Json | undefined;

interface Ctx {
  hints: FieldHints;
  choices: ConflictChoices;
  conflicts: MergeConflict[];
}

/**
 * Merges the user's changes (original → edited) and the server's (original → latest). Returns
 * the merged object and the fields both sides changed differently.
 */
export function threeWayMerge(original: JsonObject, edited: JsonObject, latest: JsonObject, hints: FieldHints = NO_HINTS, choices: ConflictChoices = {}): ThreeWayMergeResult {
  const ctx: Ctx = { hints, choices, conflicts: [] };
  const merged = mergeValue(original, edited, latest, '', [], ctx);
  return { merged: isObject(merged) ? merged : {}, conflicts: ctx.conflicts };
}

function mergeValue(o: Value, m: Value, t: Value, path: string, fieldPath: string[], ctx: Ctx): Value {
  if (same(m, o)) return t;
  if (same(t, o) || same(m, t)) return m;
  if (isObject(m) && isObject(t)) return mergeMaps(isObject(o) ? o : undefined, m, t, path, fieldPath, ctx);
  if (Array.isArray(m) && Array.isArray(t)) {
    const merged = mergeLists(Array.isArray(o) ? o : [], m, t, path, fieldPath, ctx);
    if (merged !== undefined) return merged;
  }
  return conflict(m, t, path, ctx);
}

function same(a: Value, b: Value): boolean {
  return a === undefined || b === undefined ? a === b : deepEqual(a, b);
}

function conflict(m: Value, t: Value, path: string, ctx: Ctx): Value {
  ctx.conflicts.push({ path: path || '.', mine: m, theirs: t });
  return ctx.choices[path || '.'] === 'mine' ? m : t;
}

function fieldStep(path: string, k: string): string {
  return `${path}.${k}`;
}

function mergeMaps(o: JsonObject | undefined, m: JsonObject, t: JsonObject, path: string, fieldPath: string[], ctx: Ctx): JsonObject {
  const out: JsonObject = {};
  // The server's order first, then the fields only the edit has, in the edit's order.
  const keys = [...Object.keys(t), ...Object.keys(m).filter((k) => !Object.hasOwn(t, k)), ...Object.keys(o ?? {}).filter((k) => !Object.hasOwn(t, k) && !Object.hasOwn(m, k))];
  for (const k of keys) {
    const v = mergeValue(own(o, k), own(m, k), own(t, k), fieldStep(path, k), [...fieldPath, k], ctx);
    if (v !== undefined) setField(out, k, v);
  }
  return out;
}

type Key = string;

function keyOf(el: Json, keys: string[]): Key | undefined {
  if (!isObject(el) || !keys.every((k) => k in el)) return undefined;
  return toJson(keys.map((k) => el[k]));
}

function keysOf(list: Json[], keyOfEl: (el: Json) => Key | undefined): Key[] | undefined {
  const out: Key[] = [];
  const seen = new Set<Key>();
  for (const el of list) {
    const k = keyOfEl(el);
    if (k === undefined || seen.has(k)) return undefined;
    seen.add(k);
    out.push(k);
  }
  return out;
}

/** The key fields that tell every element of the three lists apart, if any. */
function keyedBy(lists: Json[][], fieldPath: string[], ctx: Ctx): string[] | undefined {
  const hint = ctx.hints(fieldPath);
  const candidates: string[][] = [];
  if (hint?.mapKeys?.length) candidates.push(hint.mapKeys);
  if (hint?.mergeKey && strategyHas(hint, 'merge')) candidates.push([hint.mergeKey]);
  // A new element may lack a key field the server defaults (a port's protocol): then the merge
  // key alone identifies it, as in a strategic merge patch.
  return candidates.find((keys) => lists.every((l) => keysOf(l, (el) => keyOf(el, keys)) !== undefined));
}

function isSetList(fieldPath: string[], lists: Json[][], ctx: Ctx): boolean {
  const hint = ctx.hints(fieldPath);
  if (hint?.listType !== 'set' && !(strategyHas(hint, 'merge') && !hint?.mergeKey)) return false;
  return lists.every((l) => l.every((v) => !isObject(v) && !Array.isArray(v)) && keysOf(l, (v) => toJson(v)) !== undefined);
}

/** Merged list, or undefined when the list is atomic (then the caller reports a conflict). */
function mergeLists(o: Json[], m: Json[], t: Json[], path: string, fieldPath: string[], ctx: Ctx): Json[] | undefined {
  if (isSetList(fieldPath, [o, m, t], ctx)) {
    const k = (v: Json) => toJson(v);
    const removedByMine = new Set(o.filter((v) => !m.some((x) => k(x) === k(v))).map(k));
    const addedByMine = m.filter((v) => !o.some((x) => k(x) === k(v)) && !t.some((x) => k(x) === k(v)));
    const kept = t.filter((v) => !removedByMine.has(k(v)));
    const order = mergeOrder(o.map(k), m.map(k), t.map(k), new Set([...kept, ...addedByMine].map(k)));
    const byKey = new Map([...t, ...m].map((v) => [k(v), v]));
    return order.map((key) => byKey.get(key)!);
  }
  const keys = keyedBy([o, m, t], fieldPath, ctx);
  if (!keys) return undefined;
  const kOf = (el: Json) => keyOf(el, keys)!;
  const [ok, mk, tk] = [o.map(kOf), m.map(kOf), t.map(kOf)];
  const byKey = (list: Json[], ks: Key[], key: Key) => {
    const i = ks.indexOf(key);
    return i < 0 ? undefined : list[i];
  };
  const union = strategyHas(ctx.hints(fieldPath), 'retainKeys');
  const values = new Map<Key, Json>();
  for (const key of new Set([...tk, ...mk, ...ok])) {
    const el = byKey(t, tk, key) ?? byKey(m, mk, key) ?? byKey(o, ok, key)!;
    const args = [byKey(o, ok, key), byKey(m, mk, key), byKey(t, tk, key), `${path}[${selector(el, keys)}]`, fieldPath, ctx] as const;
    const v = union ? mergeUnionElement(...args, keys) : mergeValue(...args);
    if (v !== undefined) values.set(key, v);
  }
  return mergeOrder(ok, mk, tk, new Set(values.keys())).map((key) => values.get(key)!);
}

/**
 * An element of a list with strategy retainKeys (a Pod's volumes): its fields besides the key are
 * the members of a union, exactly one of which is set (a Volume's source: configMap, emptyDir,
 * secret...). kubectl edit's strategic merge patch says which members it keeps ($retainKeys) and
 * the server drops the others, so its change of source wins whole. Here, when either side chose
 * another member, the source is one value: taken from the side that changed it, or one conflict
 * on the element when both did (merged member by member, the element got two sources: 422).
 */
function mergeUnionElement(o: Value, m: Value, t: Value, path: string, fieldPath: string[], ctx: Ctx, keys: string[]): Value {
  const members = (x: Value) => (isObject(x) ? Object.keys(x).filter((k) => !keys.includes(k)).sort() : []);
  if (isObject(m) && isObject(t) && (!deepEqual(members(m), members(o)) || !deepEqual(members(t), members(o)))) {
    if (same(m, o)) return t;
    if (same(t, o) || same(m, t)) return m;
    return conflict(m, t, path, ctx);
  }
  return mergeValue(o, m, t, path, fieldPath, ctx);
}

function selector(el: Json, keys: string[]): string {
  return keys.map((k) => `${k}=${toJson((el as JsonObject)[k])}`).join(',');
}

/**
 * The order of the merged list: the order of the side that reordered (the server's when neither
 * did), with the other side's new elements placed after the element they follow on that side.
 */
function mergeOrder(o: Key[], m: Key[], t: Key[], keep: Set<Key>): Key[] {
  const relative = (list: Key[]) => list.filter((k) => o.includes(k) && keep.has(k));
  const mineReordered = !deepEqual(relative(m), relative(o).filter((k) => m.includes(k)));
  const [base, other] = mineReordered ? [m, t] : [t, m];
  const out = base.filter((k) => keep.has(k));
  other.forEach((k, i) => {
    if (!keep.has(k) || out.includes(k)) return;
    let at = 0;
    for (let j = i - 1; j >= 0; j--) {
      const p = out.indexOf(other[j]!);
      if (p >= 0) {
        at = p + 1;
        break;
      }
    }
    out.splice(at, 0, k);
  });
  return out;
}

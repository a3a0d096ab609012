// Patches that address list elements by their key, as the schema defines it.
//
// A strategic merge patch (k8s.io/apimachinery/pkg/util/strategicpatch) merges lists whose schema
// says `x-kubernetes-patch-strategy: merge` element by element, matched by
// `x-kubernetes-patch-merge-key`; an element missing from the patch is kept. So removing an element
// takes a `$patch: delete` directive, a new order takes `$setElementOrder/<field>`, and removing a
// value from a merged list of scalars (finalizers) takes `$deleteFromPrimitiveList/<field>`.
// Lists without a merge strategy are replaced whole, like in a JSON merge patch.
//
// A JSON Patch addresses elements by index: diffing lists by index makes one insertion rewrite
// every element after it. Lists with a key are diffed by key here (remove, move, add), other lists
// by index. (Not fast-json-patch's `compare`: it deep-clones added values through JSON.stringify,
// which throws on the bigint of an int64 beyond 2^53.)
import { type FieldHints, listKeys, NO_HINTS, strategyHas } from './hints';
import { deepEqual, isObject, type Json, type JsonObject, type JsonPatchOp, own, pointer, setField } from './patch';
import { toJson } from '../../codecs/json';

type Key = string;

function keyOf(el: Json, keys: string[]): Key | undefined {
  if (!isObject(el) || !keys.every((k) => k in el)) return undefined;
  return toJson(keys.map((k) => el[k]));
}

/** Keys of every element, or undefined when an element has no key or two share one. */
function keysOfList(list: Json[], keys: string[]): Key[] | undefined {
  const out: Key[] = [];
  for (const el of list) {
    const k = keyOf(el, keys);
    if (k === undefined || out.includes(k)) return undefined;
    out.push(k);
  }
  return out;
}

function isScalar(v: Json): boolean {
  return !isObject(v) && !Array.isArray(v);
}

/**
 * The strategic merge patch that turns `from` into `to`, using merge keys and strategies from
 * `hints`. Returns {} when nothing changed.
 */
export function strategicMergePatch(from: JsonObject, to: JsonObject, hints: FieldHints = NO_HINTS): JsonObject {
  return smpMap(from, to, [], hints, false);
}

function smpMap(from: JsonObject, to: JsonObject, path: string[], hints: FieldHints, retainKeys: boolean): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) setField(out, k, null);
  for (const k of Object.keys(to)) {
    const a = from[k];
    const b = to[k]!;
    const p = [...path, k];
    if (!Object.hasOwn(from, k)) setField(out, k, b);
    else if (isObject(a) && isObject(b)) {
      const sub = smpMap(a, b, p, hints, strategyHas(hints(p), 'retainKeys'));
      if (Object.keys(sub).length) setField(out, k, sub);
    } else if (Array.isArray(a) && Array.isArray(b)) {
      if (!deepEqual(a, b)) for (const [f, v] of Object.entries(smpList(k, a, b, p, hints))) setField(out, f, v);
    } else if (!deepEqual(a, b)) setField(out, k, b);
  }
  // retainKeys: the fields not listed are cleared (a volume changed from emptyDir to configMap
  // would otherwise keep both sources).
  if (retainKeys && Object.keys(out).length) out.$retainKeys = Object.keys(to).sort();
  return out;
}

function smpList(field: string, from: Json[], to: Json[], path: string[], hints: FieldHints): JsonObject {
  const hint = hints(path);
  if (!strategyHas(hint, 'merge')) return { [field]: to }; // (a computed key is defined, never a prototype)
  const order = `$setElementOrder/${field}`;
  if (from.every(isScalar) && to.every(isScalar)) {
    const added = to.filter((v) => !from.some((f) => deepEqual(f, v)));
    const removed = from.filter((v) => !to.some((t) => deepEqual(t, v)));
    const out: JsonObject = { [order]: to };
    if (added.length) out[field] = added;
    if (removed.length) out[`$deleteFromPrimitiveList/${field}`] = removed;
    return out;
  }
  const mergeKey = hint?.mergeKey;
  const fromKeys = mergeKey ? keysOfList(from, [mergeKey]) : undefined;
  const toKeys = mergeKey ? keysOfList(to, [mergeKey]) : undefined;
  if (!mergeKey || !fromKeys || !toKeys) {
    // Elements the merge key cannot tell apart: replace the list as a whole.
    return { [field]: [{ $patch: 'replace' }, ...to] };
  }
  const elementRetainKeys = strategyHas(hint, 'retainKeys');
  const items: Json[] = [];
  to.forEach((el, i) => {
    const j = fromKeys.indexOf(toKeys[i]!);
    if (j < 0) items.push(el);
    else {
      const sub = smpMap(from[j] as JsonObject, el as JsonObject, path, hints, elementRetainKeys);
      if (Object.keys(sub).length) items.push({ [mergeKey]: (el as JsonObject)[mergeKey]!, ...sub });
    }
  });
  from.forEach((el, j) => {
    if (!toKeys.includes(fromKeys[j]!)) items.push({ [mergeKey]: (el as JsonObject)[mergeKey]!, $patch: 'delete' });
  });
  const out: JsonObject = { [order]: to.map((el) => ({ [mergeKey]: (el as JsonObject)[mergeKey]! })) };
  if (items.length) out[field] = items;
  return out;
}

/**
 * RFC 6902 operations from `from` to `to`. Lists with a key (schema map keys or merge key) are
 * diffed by key: an inserted element is one `add`, a removed one one `remove`, a moved one one
 * `move`, and changes inside an element address it at its new index. Other lists are diffed by
 * index.
 */
export function keyedJsonPatch(from: Json, to: Json, hints: FieldHints = NO_HINTS): JsonPatchOp[] {
  return diff(from, to, [], [], hints);
}

function diff(from: Json, to: Json, tokens: (string | number)[], fieldPath: string[], hints: FieldHints): JsonPatchOp[] {
  if (deepEqual(from, to)) return [];
  if (isObject(from) && isObject(to)) {
    const ops: JsonPatchOp[] = [];
    for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) ops.push({ op: 'remove', path: pointer([...tokens, k]) });
    for (const k of Object.keys(to)) {
      if (!Object.hasOwn(from, k)) ops.push({ op: 'add', path: pointer([...tokens, k]), value: to[k]! });
      else ops.push(...diff(from[k]!, to[k]!, [...tokens, k], [...fieldPath, k], hints));
    }
    return ops;
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    const hint = hints(fieldPath);
    const keys = listKeys(hint);
    const fromKeys = keys ? keysOfList(from, keys) : hint?.listType === 'set' || strategyHas(hint, 'merge') ? setKeys(from) : undefined;
    const toKeys = keys ? keysOfList(to, keys) : hint?.listType === 'set' || strategyHas(hint, 'merge') ? setKeys(to) : undefined;
    if (fromKeys && toKeys) return diffKeyedList(from, to, fromKeys, toKeys, tokens, fieldPath, hints);
    // By index: common elements in place, a shorter list's tail removed from the end backwards
    // (earlier indices stay valid), a longer one's appended.
    const ops: JsonPatchOp[] = [];
    const common = Math.min(from.length, to.length);
    for (let i = 0; i < common; i++) ops.push(...diff(from[i]!, to[i]!, [...tokens, i], fieldPath, hints));
    for (let i = from.length - 1; i >= to.length; i--) ops.push({ op: 'remove', path: pointer([...tokens, i]) });
    for (let i = from.length; i < to.length; i++) ops.push({ op: 'add', path: pointer([...tokens, i]), value: to[i]! });
    return ops;
  }
  return [{ op: 'replace', path: pointer(tokens), value: to }];
}

/** Lists of distinct scalars are keyed by their values. */
function setKeys(list: Json[]): Key[] | undefined {
  if (!list.every(isScalar)) return undefined;
  const keys = list.map((v) => toJson(v));
  return new Set(keys).size === keys.length ? keys : undefined;
}

function diffKeyedList(from: Json[], to: Json[], fromKeys: Key[], toKeys: Key[], tokens: (string | number)[], fieldPath: string[], hints: FieldHints): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [];
  // The list as the server will hold it after each op, by key.
  const cur = [...fromKeys];
  const values = new Map(fromKeys.map((k, i) => [k, from[i]!]));
  for (let i = cur.length - 1; i >= 0; i--) {
    if (!toKeys.includes(cur[i]!)) {
      ops.push({ op: 'remove', path: pointer([...tokens, i]) });
      cur.splice(i, 1);
    }
  }
  toKeys.forEach((k, i) => {
    if (cur[i] === k) ops.push(...diff(values.get(k)!, to[i]!, [...tokens, i], fieldPath, hints));
    else if (cur.includes(k)) {
      const j = cur.indexOf(k);
      ops.push({ op: 'move', from: pointer([...tokens, j]), path: pointer([...tokens, i]) });
      cur.splice(j, 1);
      cur.splice(i, 0, k);
      ops.push(...diff(values.get(k)!, to[i]!, [...tokens, i], fieldPath, hints));
    } else {
      ops.push({ op: 'add', path: pointer([...tokens, i]), value: to[i]! });
      cur.splice(i, 0, k);
    }
  });
  return ops;
}


/** Where the server's result of a write differs from what the user edited. */
export interface EditDifference {
  path: string;
  edited: Json | undefined;
  result: Json | undefined;
}

const IGNORED_METADATA = new Set(['resourceVersion', 'managedFields', 'generation', 'uid', 'creationTimestamp', 'selfLink']);

/**
 * Compares the object the server returned for a write (a dry run) with the user's edit. Server-set
 * metadata and status are ignored, and so are fields the server added that neither the loaded
 * object nor the edit had (defaults). Anything else is a difference: a value the edit set that the
 * result lacks or holds otherwise, or a field the user removed that is still there.
 */
export function differencesFromEdit(edited: JsonObject, result: JsonObject, base: JsonObject | undefined, hints: FieldHints = NO_HINTS): EditDifference[] {
  const out: EditDifference[] = [];
  walkCompare(edited, result, base, [], [], hints, out);
  return out;
}

function walkCompare(edited: Json | undefined, result: Json | undefined, base: Json | undefined, tokens: (string | number)[], fieldPath: string[], hints: FieldHints, out: EditDifference[]): void {
  if (tokens.length === 1 && tokens[0] === 'status') return;
  if (tokens.length === 2 && tokens[0] === 'metadata' && IGNORED_METADATA.has(String(tokens[1]))) return;
  if (edited === undefined) {
    // A field only the result has: a default, unless the user removed it from the loaded object.
    if (result !== undefined && base !== undefined) out.push({ path: pointer(tokens), edited, result });
    return;
  }
  if (isObject(edited) && isObject(result)) {
    const b = isObject(base) ? base : undefined;
    for (const k of new Set([...Object.keys(edited), ...Object.keys(result)])) {
      walkCompare(own(edited, k), own(result, k), own(b, k), [...tokens, k], [...fieldPath, k], hints, out);
    }
    return;
  }
  if (Array.isArray(edited) && Array.isArray(result) && edited.length === result.length) {
    const keys = listKeys(hints(fieldPath));
    const b = Array.isArray(base) ? base : [];
    edited.forEach((el, i) => {
      const k = keys ? keyOf(el, keys) : undefined;
      const baseEl = k !== undefined ? b.find((x) => keyOf(x, keys!) === k) : b[i];
      walkCompare(el, result[i], baseEl, [...tokens, i], fieldPath, hints, out);
    });
    return;
  }
  if ((!deepEqual(edited, result ?? null) && !sameQuantity(edited, result)) || result === undefined) out.push({ path: pointer(tokens), edited, result });
}

const QUANTITY = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:(n|u|m|k|M|G|T|P|E)|(Ki|Mi|Gi|Ti|Pi|Ei)|[eE]([+-]?[0-9]+))?$/;
const SI: Record<string, number> = { n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

/** A resource.Quantity as an exact fraction [numerator, denominator], or undefined when it is none. */
function quantityValue(v: Json | undefined): [bigint, bigint] | undefined {
  const m = typeof v === 'string' || typeof v === 'number' ? QUANTITY.exec(String(v)) : null;
  if (!m) return undefined;
  const [, sign, mantissa, si, binary, exp] = m;
  const [int, frac = ''] = mantissa!.split('.');
  let num = BigInt(`${int || '0'}${frac}`) * (sign === '-' ? -1n : 1n);
  let den = 10n ** BigInt(frac.length);
  const e = si !== undefined ? SI[si]! : exp !== undefined ? Number(exp) : 0;
  if (binary) num *= 1024n ** BigInt('KMGTPE'.indexOf(binary[0]!) + 1);
  if (e >= 0) num *= 10n ** BigInt(e);
  else den *= 10n ** BigInt(-e);
  return [num, den];
}

/**
 * The server writes every resource.Quantity in its canonical form (`1000m` comes back `1`,
 * `1024Mi` comes back `1Gi`): the same amount is no difference between the edit and the result.
 */
function sameQuantity(edited: Json | undefined, result: Json | undefined): boolean {
  const a = quantityValue(edited);
  const b = quantityValue(result);
  return !!a && !!b && typeof result === 'string' && a[0] * b[1] === b[0] * a[1];
}

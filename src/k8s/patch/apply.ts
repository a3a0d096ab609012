// Server-Side Apply configurations that carry a manager's whole intent.
//
// Under SSA, an apply from manager M says "these are all the fields M wants to own". A field M
// applied before and leaves out now is taken from M, and deleted when no other manager owns it
// (KEP-555; "Server-Side Apply" docs, "Merge strategy"). So a body with only the fields changed in
// this edit deletes everything else M applied before: apply `data: {a, b}`, then apply `data: {c}`
// and the ConfigMap holds only `c`. The configuration is therefore built like client-go's
// Extract<Kind>() functions build one: the fields M owns now (metadata.managedFields, entries of
// manager M with operation Apply, no subresource), with their current values, then the user's edit
// laid over it: changed and added fields set, fields the user deleted left out.
import { type ManagedFieldsEntry, formatPath, parseFieldsKey, parseFieldsV1, type PathElement } from '../fields';
import { type FieldHints, listKeys, NO_HINTS } from './hints';
import { deepEqual, isObject, type Json, type JsonObject, own, resolveFieldPath, setField } from './patch';

/** Metadata the server sets: never part of an apply configuration. */
export const SERVER_SET_METADATA = ['managedFields', 'resourceVersion', 'uid', 'creationTimestamp', 'generation', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds'];

type Trie = { [k: string]: Trie };
const OMIT = Symbol('omit');
type Built = Json | typeof OMIT;

function asTrie(v: unknown): Trie | undefined {
  return isObject(v) ? (v as unknown as Trie) : undefined;
}

/** Union of fieldsV1 tries (a manager may hold several entries, e.g. one per apiVersion). */
function unionTries(tries: Trie[]): Trie | undefined {
  if (tries.length === 0) return undefined;
  const out: Trie = {};
  for (const t of tries) {
    for (const [k, v] of Object.entries(t)) out[k] = k in out ? unionTries([out[k]!, v])! : v;
  }
  return out;
}

/** The managedFields entries in which `manager` applied to the main resource. */
export function applyEntries(live: JsonObject | undefined, manager: string): ManagedFieldsEntry[] {
  const meta = live && isObject(live.metadata) ? live.metadata : undefined;
  const entries = Array.isArray(meta?.managedFields) ? (meta.managedFields as ManagedFieldsEntry[]) : [];
  return entries.filter((e) => e.manager === manager && e.operation === 'Apply' && !e.subresource);
}

function ownedTrie(live: JsonObject | undefined, manager: string): Trie | undefined {
  return unionTries(applyEntries(live, manager).flatMap((e) => (asTrie(e.fieldsV1) ? [asTrie(e.fieldsV1)!] : [])));
}

function parsedChildren(trie: Trie | undefined): { key: string; el: PathElement }[] {
  if (!trie) return [];
  return Object.keys(trie).flatMap((key) => {
    if (key === '.') return [];
    const el = parseFieldsKey(key);
    return el instanceof Error ? [] : [{ key, el }];
  });
}

function matchesKey(el: Json, fields: [string, unknown][]): boolean {
  return isObject(el) && fields.every(([k, v]) => deepEqual(el[k], v as Json));
}

/** The trie under the element `el` of a keyed list (`k:{"name":"nginx"}`). */
function keyedChild(trie: Trie | undefined, el: Json): Trie | undefined {
  for (const { key, el: step } of parsedChildren(trie)) if (step.kind === 'key' && matchesKey(el, step.fields)) return trie![key];
  return undefined;
}

function build(live: Json | undefined, edited: Json, trie: Trie | undefined, path: string[], hints: FieldHints): Built {
  // `{}`: the node is owned as a whole (a scalar, an atomic list or map): the edit's value is the intent.
  if (trie && Object.keys(trie).length === 0) return structuredClone(edited);
  const owned = trie !== undefined;
  const changed = live === undefined || !deepEqual(live, edited);
  if (!owned && !changed) return OMIT;

  if (isObject(edited)) {
    // An atomic map or struct (x-kubernetes-map-type: atomic) is one value, like an atomic list:
    // the server replaces it whole and its owner owns all of it. Sent by keys, a changed key
    // alone would become the whole map (a forced apply dropped the other keys).
    if (hints(path)?.mapType === 'atomic') return structuredClone(edited);
    if (!isObject(live) && !owned) return structuredClone(edited);
    const liveMap = isObject(live) ? live : {};
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(edited)) {
      const b = build(own(liveMap, k), v, trie?.[`f:${k}`], [...path, k], hints);
      if (b !== OMIT) setField(out, k, b);
    }
    if (Object.keys(out).length > 0) return out;
    // Nothing of M's left in the map: keep it empty only if M owns the map itself, or the user
    // added it empty.
    return (owned && '.' in trie) || live === undefined ? {} : OMIT;
  }

  if (Array.isArray(edited)) {
    const liveList = Array.isArray(live) ? live : [];
    const children = parsedChildren(trie);
    const keyStep = children.find((c) => c.el.kind === 'key')?.el;
    const keys = keyStep?.kind === 'key' ? keyStep.fields.map(([k]) => k) : listKeys(hints(path));
    const isSet = children.some((c) => c.el.kind === 'value') || hints(path)?.listType === 'set';
    const keyDefaults = (hints(path)?.keyDefaults ?? {}) as JsonObject;
    if (keys && edited.every((e) => isObject(e) && keys.every((k) => k in e || k in keyDefaults))) {
      // An associative list: the elements M owns and the ones the user changed or added, each
      // with its key fields (the server needs them to find the element). A key field left out
      // takes the schema's default, as the server keys it (a port without protocol is TCP's).
      const out: Json[] = [];
      for (const el of edited) {
        const fields: [string, unknown][] = keys.map((k) => [k, k in (el as JsonObject) ? (el as JsonObject)[k] : keyDefaults[k]]);
        const liveEl = liveList.find((x) => matchesKey(x, fields));
        const b = build(liveEl, el, keyedChild(trie, el), path, hints);
        if (b === OMIT) continue;
        const keyPart: JsonObject = Object.fromEntries(fields.map(([k, v]) => [k, v as Json]));
        out.push(isObject(b) ? { ...keyPart, ...b } : b);
      }
      return out.length > 0 || owned ? out : OMIT;
    }
    if (isSet && edited.every((e) => !isObject(e) && !Array.isArray(e))) {
      const ownedValues = children.flatMap((c) => (c.el.kind === 'value' ? [c.el.value as Json] : []));
      const out = edited.filter((v) => ownedValues.some((o) => deepEqual(o, v)) || !liveList.some((l) => deepEqual(l, v)));
      return out.length > 0 || owned ? out : OMIT;
    }
    // Atomic (or unknown): the list is one value; sending it whole never drops an element the user kept.
    return structuredClone(edited);
  }
  return edited;
}

export interface ApplyConfigurationOptions {
  /** Merge keys and list types from the schema, for lists the manager does not own yet. */
  hints?: FieldHints;
  /** Adds metadata.resourceVersion: the apply then fails with 409 if the object changed since. */
  resourceVersion?: string;
}

/**
 * The apply configuration for `fieldManager` after the user edited `live` into `edited`: the
 * fields the manager owns now (read from managedFields) with the edit laid over them. Fields the
 * user deleted are left out (and so will be removed when no other manager owns them); fields of
 * other managers the edit did not touch are not sent (they stay theirs). apiVersion, kind, name
 * and namespace are always sent; server-set metadata and status never. With no `live` (create),
 * the whole edited object is the configuration.
 */
export function applyConfiguration(live: JsonObject | undefined, edited: JsonObject, fieldManager: string, options: ApplyConfigurationOptions = {}): JsonObject {
  const hints = options.hints ?? NO_HINTS;
  let body: JsonObject;
  if (!live) body = structuredClone(edited);
  else {
    // No trie when the manager owns nothing yet: then only the changed fields are its intent
    // (an empty trie would read as "owns the whole object").
    const b = build(live, edited, ownedTrie(live, fieldManager), [], hints);
    body = isObject(b) ? b : {};
  }
  const editedMeta = isObject(edited.metadata) ? edited.metadata : {};
  const meta: JsonObject = isObject(body.metadata) ? { ...body.metadata } : {};
  for (const k of SERVER_SET_METADATA) delete meta[k];
  const id: JsonObject = {};
  if (typeof editedMeta.name === 'string') id.name = editedMeta.name;
  if (typeof editedMeta.namespace === 'string') id.namespace = editedMeta.namespace;
  if (options.resourceVersion) id.resourceVersion = options.resourceVersion;
  const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...rest } = body;
  return { apiVersion: edited.apiVersion ?? null, kind: edited.kind ?? null, metadata: { ...id, ...meta }, ...rest };
}

/** A field a manager stops owning, and what becomes of it. */
export interface ReleasedField {
  path: string;
  /** The field is gone from the object the server returned (nobody else owned it). */
  removed: boolean;
  /** Other managers that still own it (then it stays, with their value). */
  keptBy: string[];
}

export interface OwnershipPreview {
  manager: string;
  /** Fields the manager will own that it does not own now. */
  gained: string[];
  /** Fields the manager owns now and will not own after the apply. */
  released: ReleasedField[];
}

function ownedPaths(obj: JsonObject | undefined, filter: (e: ManagedFieldsEntry) => boolean): Map<string, string[]> {
  const meta = obj && isObject(obj.metadata) ? obj.metadata : undefined;
  const entries = Array.isArray(meta?.managedFields) ? (meta.managedFields as ManagedFieldsEntry[]) : [];
  const out = new Map<string, string[]>();
  for (const e of entries) {
    if (!filter(e)) continue;
    for (const p of parseFieldsV1(e.fieldsV1).owned) {
      const s = formatPath(p);
      out.set(s, [...(out.get(s) ?? []), e.manager ?? '?']);
    }
  }
  return out;
}

/**
 * What an apply does to ownership, read from the object before it and the server's answer to the
 * same apply sent with dryRun=All (the server computes managedFields on dry runs too).
 */
export function applyOwnershipPreview(before: JsonObject | undefined, after: JsonObject, manager: string): OwnershipPreview {
  const mine = (e: ManagedFieldsEntry) => e.manager === manager && e.operation === 'Apply' && !e.subresource;
  const was = ownedPaths(before, mine);
  const now = ownedPaths(after, mine);
  const others = ownedPaths(after, (e) => !mine(e));
  const gained = [...now.keys()].filter((p) => !was.has(p));
  const released = [...was.keys()]
    .filter((p) => !now.has(p))
    .map((path) => ({ path, removed: resolveFieldPath(after, path) === null, keptBy: [...new Set(others.get(path) ?? [])] }));
  return { manager, gained, released };
}

/**
 * The lists of objects an edit changed for which the hints name no key (a kind with no schema, or
 * hints not loaded): an apply must send them whole, and so owns every element in them. Lists the
 * schema declares atomic are one value by design and are not listed. Paths as the API prints them.
 */
export function unkeyedLists(live: JsonObject | undefined, edited: JsonObject, hints: FieldHints = NO_HINTS): string[] {
  const out: string[] = [];
  const walk = (a: Json | undefined, b: Json, path: string[], shown: string) => {
    if (a !== undefined && deepEqual(a, b)) return;
    if (isObject(b)) {
      for (const [k, v] of Object.entries(b)) walk(isObject(a) ? own(a, k) : undefined, v, [...path, k], `${shown}.${k}`);
      return;
    }
    if (!Array.isArray(b) || !b.some(isObject)) return;
    const hint = hints(path);
    const keys = listKeys(hint);
    const defaults = hint?.keyDefaults ?? {};
    if (hint?.listType === 'atomic' || (keys && b.every((e) => isObject(e) && keys.every((k) => k in e || k in defaults)))) {
      if (keys) b.forEach((e, i) => walk(Array.isArray(a) ? a.find((x) => isObject(x) && isObject(e) && keys.every((k) => deepEqual(x[k], e[k]))) : undefined, e, path, `${shown}[${i}]`));
      return;
    }
    out.push(shown);
  };
  walk(live, edited, [], '');
  return out;
}

/** Two elements of a keyed list with the same key: Server-Side Apply would merge them into one. */
export interface DuplicateKey {
  /** Keys and indexes from the root to the second element. */
  path: (string | number)[];
  /** The list as the API prints it, and the key (`name: "X"`). */
  shown: string;
  key: string;
}

/**
 * The keyed-list elements of `obj` whose key (key fields, or their schema defaults) an earlier
 * element of the same list already has. kubectl refuses such a manifest before sending it; the
 * server would merge the elements of an apply configuration by key and keep one of them.
 */
export function duplicateKeys(obj: Json, hints: FieldHints = NO_HINTS): DuplicateKey[] {
  const out: DuplicateKey[] = [];
  const walk = (v: Json, path: string[], at: (string | number)[], shown: string) => {
    if (isObject(v)) {
      for (const [k, c] of Object.entries(v)) walk(c, [...path, k], [...at, k], `${shown}.${k}`);
      return;
    }
    if (!Array.isArray(v)) return;
    const hint = hints(path);
    const keys = listKeys(hint);
    const defaults = (hint?.keyDefaults ?? {}) as JsonObject;
    const seen: Json[][] = [];
    v.forEach((el, i) => {
      if (keys && isObject(el) && keys.every((k) => k in el || k in defaults)) {
        const key = keys.map((k) => (k in el ? el[k]! : defaults[k]!));
        if (seen.some((s) => deepEqual(s, key))) out.push({ path: [...at, i], shown, key: keys.map((k, j) => `${k}: ${JSON.stringify(key[j])}`).join(', ') });
        seen.push(key);
      }
      walk(el, path, [...at, i], `${shown}[${i}]`);
    });
  };
  walk(obj, [], [], '');
  return out;
}

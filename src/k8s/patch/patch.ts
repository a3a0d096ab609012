// Pure builders for the four PATCH bodies the API server accepts, from two versions of an object
// (the one loaded from the server and the user's edit). No React, no fetch.
import { ownValue, setOwn } from '../../codecs/json';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };

/** The PATCH Content-Types, one per patch strategy the API server implements. */
export const PATCH_CONTENT_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;
export type PatchType = keyof typeof PATCH_CONTENT_TYPES;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Sets a field of an object being built. `obj[k] = v` with the key `__proto__` (a valid ConfigMap
 * data key, any key of a preserve-unknown-fields map) sets the object's prototype instead, and the
 * field is silently missing from the body; defining the property keeps it as data (codecs/json.ts,
 * which the CBOR codec shares).
 */
export const setField: (obj: JsonObject, k: string, v: Json) => void = setOwn;

/** A field's own value (`obj.__proto__` of an object without that key is Object.prototype, not undefined). */
export const own: (obj: JsonObject | undefined, k: string) => Json | undefined = ownValue;

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** One reference token of a JSON Pointer (RFC 6901 §3): `~` becomes `~0` first, then `/` becomes `~1`. */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The inverse, in the order RFC 6901 §4 prescribes (`~1` before `~0`, so `~01` stays `~1`). */
export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function pointer(tokens: (string | number)[]): string {
  return tokens.map((t) => `/${escapePointerToken(String(t))}`).join('');
}

export type JsonPatchOp =
  | { op: 'add' | 'replace' | 'test'; path: string; value: Json }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

/**
 * RFC 6902 operations that turn `from` into `to`: objects are compared key by key, lists element
 * by element (a changed tail is removed from the end backwards, so the indices of earlier removals
 * stay valid, or appended), anything else is replaced. Unchanged values give no operation.
 */
export function jsonPatch(from: Json, to: Json, base: (string | number)[] = []): JsonPatchOp[] {
  if (deepEqual(from, to)) return [];
  const path = pointer(base);
  if (isObject(from) && isObject(to)) {
    const ops: JsonPatchOp[] = [];
    for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) ops.push({ op: 'remove', path: pointer([...base, k]) });
    for (const k of Object.keys(to)) {
      if (!Object.hasOwn(from, k)) ops.push({ op: 'add', path: pointer([...base, k]), value: to[k]! });
      else ops.push(...jsonPatch(from[k]!, to[k]!, [...base, k]));
    }
    return ops;
  }
  if (Array.isArray(from) && Array.isArray(to)) {
    const ops: JsonPatchOp[] = [];
    const common = Math.min(from.length, to.length);
    for (let i = 0; i < common; i++) ops.push(...jsonPatch(from[i]!, to[i]!, [...base, i]));
    for (let i = from.length - 1; i >= to.length; i--) ops.push({ op: 'remove', path: pointer([...base, i]) });
    for (let i = from.length; i < to.length; i++) ops.push({ op: 'add', path: pointer([...base, i]), value: to[i]! });
    return ops;
  }
  // The document root cannot be removed or added, only replaced (RFC 6902 §4.3 with path "").
  return [{ op: 'replace', path, value: to }];
}

/**
 * RFC 7386 merge patch from `from` to `to`: changed and new fields carry their new value, removed
 * fields carry null (the only way a merge patch deletes), lists are sent whole (a merge patch
 * cannot address list elements). Returns {} when nothing changed.
 */
export function mergePatch(from: JsonObject, to: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(from)) if (!Object.hasOwn(to, k)) setField(out, k, null);
  for (const k of Object.keys(to)) {
    const a = from[k];
    const b = to[k]!;
    if (!Object.hasOwn(from, k)) setField(out, k, b);
    else if (isObject(a) && isObject(b)) {
      const sub = mergePatch(a, b);
      if (Object.keys(sub).length) setField(out, k, sub);
    } else if (!deepEqual(a, b)) setField(out, k, b);
  }
  return out;
}

/** Applies an RFC 7386 merge patch (used to check builders and to preview). */
export function applyMergePatch(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else setField(out, k, applyMergePatch(Object.hasOwn(out, k) ? out[k]! : null, v));
  }
  return out;
}

/** Drops the null leaves of a merge patch (an apply configuration has no "delete" marker). */
function withoutNulls(v: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) {
    if (x === null) continue;
    if (isObject(x)) {
      const sub = withoutNulls(x);
      if (Object.keys(sub).length) setField(out, k, sub);
    } else setField(out, k, x);
  }
  return out;
}

/** Metadata the server sets: never part of what a user manages in an apply configuration. */
const SERVER_METADATA = ['managedFields', 'resourceVersion', 'uid', 'creationTimestamp', 'generation', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds'];

/**
 * A Server-Side Apply body with the fields the user edited: apiVersion, kind and the identifying
 * metadata (apply needs them: "invalid object type" otherwise) plus every changed or added field.
 * Status is left out: apply to the main resource ignores it. Removing a field from a configuration
 * only deletes it if this manager owned it before, so removals are not expressed here.
 * With no `from` (create mode) the whole object is the configuration.
 */
export function applyPatch(from: JsonObject | undefined, to: JsonObject): JsonObject {
  const changed = from ? withoutNulls(mergePatch(from, to)) : structuredClone(to);
  const meta: JsonObject = isObject(changed.metadata) ? { ...changed.metadata } : {};
  for (const k of SERVER_METADATA) delete meta[k];
  const toMeta = isObject(to.metadata) ? to.metadata : {};
  const id: JsonObject = {};
  if (typeof toMeta.name === 'string') id.name = toMeta.name;
  if (typeof toMeta.namespace === 'string') id.namespace = toMeta.namespace;
  const { apiVersion: _a, kind: _k, metadata: _m, status: _s, ...rest } = changed;
  return { apiVersion: to.apiVersion ?? null, kind: to.kind ?? null, metadata: { ...id, ...meta }, ...rest };
}

/** A copy without metadata.managedFields (hidden in the editor by default: it is the server's bookkeeping). */
export function withoutManagedFields(obj: JsonObject): JsonObject {
  if (!isObject(obj.metadata) || !('managedFields' in obj.metadata)) return obj;
  const { managedFields: _, ...meta } = obj.metadata;
  return { ...obj, metadata: meta };
}

type FieldStep = { field: string } | { keys: JsonObject } | { value: Json } | { index: number };

/**
 * Reads a field path as the API server prints it in conflict causes
 * (`.spec.template.spec.containers[name="nginx"].image`, `.data.key`, `.spec.ports[containerPort=80,protocol="TCP"]`,
 * `.metadata.finalizers[="x"]`, `[3]`). Field names may themselves contain dots (label keys), so
 * names are resolved against the object: the longest key present wins.
 */
export function resolveFieldPath(obj: Json, path: string): (string | number)[] | null {
  const tokens: (string | number)[] = [];
  let cur: Json = obj;
  let i = 0;
  while (i < path.length) {
    if (path[i] === '.') {
      if (!isObject(cur)) return null;
      const rest = path.slice(i + 1);
      const candidates = Object.keys(cur)
        .filter((k) => rest === k || rest.startsWith(`${k}.`) || rest.startsWith(`${k}[`))
        .sort((a, b) => b.length - a.length);
      const k = candidates[0];
      if (k === undefined) return null;
      tokens.push(k);
      cur = cur[k]!;
      i += 1 + k.length;
    } else if (path[i] === '[') {
      const end = findClose(path, i);
      if (end < 0 || !Array.isArray(cur)) return null;
      const step = parseSelector(path.slice(i + 1, end));
      if (!step) return null;
      const list: Json[] = cur;
      const idx =
        'index' in step
          ? step.index
          : 'value' in step
            ? list.findIndex((x) => deepEqual(x, step.value))
            : 'keys' in step
              ? list.findIndex((x) => isObject(x) && Object.entries(step.keys).every(([k, v]) => deepEqual(x[k], v)))
              : -1;
      if (idx < 0 || idx >= list.length) return null;
      tokens.push(idx);
      cur = list[idx]!;
      i = end + 1;
    } else return null;
  }
  return tokens;
}

function findClose(s: string, open: number): number {
  let inStr = false;
  for (let j = open + 1; j < s.length; j++) {
    const c = s[j];
    if (inStr) {
      if (c === '\\') j++;
      else if (c === '"') inStr = false;
    } else if (c === '"') inStr = true;
    else if (c === ']') return j;
  }
  return -1;
}

function parseSelector(inner: string): FieldStep | null {
  if (/^\d+$/.test(inner)) return { index: Number(inner) };
  try {
    if (inner.startsWith('=')) return { value: JSON.parse(inner.slice(1)) as Json };
    // key=value pairs, values in JSON: split on commas outside strings.
    const keys: JsonObject = {};
    let start = 0;
    let inStr = false;
    const parts: string[] = [];
    for (let j = 0; j < inner.length; j++) {
      const c = inner[j];
      if (inStr) {
        if (c === '\\') j++;
        else if (c === '"') inStr = false;
      } else if (c === '"') inStr = true;
      else if (c === ',') {
        parts.push(inner.slice(start, j));
        start = j + 1;
      }
    }
    parts.push(inner.slice(start));
    for (const p of parts) {
      const eq = p.indexOf('=');
      if (eq <= 0) return null;
      keys[p.slice(0, eq)] = JSON.parse(p.slice(eq + 1)) as Json;
    }
    return { keys };
  } catch {
    return null;
  }
}

/**
 * Removes the fields named by conflict causes from an apply configuration, so that re-sending it
 * leaves those fields to their current owners. Parent maps left empty are removed too. Returns
 * the new body and the paths it could not find.
 */
export function dropFields(body: JsonObject, fieldPaths: string[]): { body: JsonObject; missing: string[] } {
  const out = structuredClone(body);
  const missing: string[] = [];
  for (const fp of fieldPaths) {
    const tokens = resolveFieldPath(out, fp);
    if (!tokens || tokens.length === 0) {
      missing.push(fp);
      continue;
    }
    removeAt(out, tokens);
  }
  return { body: out, missing };
}

function removeAt(root: JsonObject, tokens: (string | number)[]): void {
  const parents: Json[] = [root];
  let cur: Json = root;
  for (const t of tokens.slice(0, -1)) {
    cur = (cur as Record<string | number, Json>)[t]!;
    parents.push(cur);
  }
  const last = tokens[tokens.length - 1]!;
  if (Array.isArray(cur)) cur.splice(last as number, 1);
  else delete (cur as JsonObject)[last as string];
  // Prune maps emptied by the removal (an empty map would still claim the parent field), but never
  // the identifying top level.
  for (let d = tokens.length - 1; d >= 1; d--) {
    const node = parents[d]!;
    if (d === 1 && ['apiVersion', 'kind', 'metadata'].includes(String(tokens[0]))) break;
    if (isObject(node) && Object.keys(node).length === 0) {
      const parent = parents[d - 1]!;
      const key = tokens[d - 1]!;
      if (Array.isArray(parent)) parent.splice(key as number, 1);
      else delete (parent as JsonObject)[key as string];
    } else break;
  }
}

/** The manager named in a FieldManagerConflict message (`conflict with "a" using v1`). */
export function conflictManager(message: string | undefined): string | undefined {
  return message?.match(/conflict with "((?:[^"\\]|\\.)*)"/)?.[1];
}

/**
 * Makes a JSON Patch conditional on the object being unchanged: a leading `test` op on
 * metadata.resourceVersion fails the whole patch when someone else wrote in between.
 */
export function guardJsonPatch(ops: JsonPatchOp[], resourceVersion: string): JsonPatchOp[] {
  return [{ op: 'test', path: '/metadata/resourceVersion', value: resourceVersion }, ...ops.filter((o) => o.path !== '/metadata/resourceVersion')];
}

/**
 * The same for merge and strategic merge patches: a resourceVersion in the patch body is a
 * precondition the server checks like a PUT's (409 Conflict when stale).
 */
export function guardMergePatch(patch: JsonObject, resourceVersion: string): JsonObject {
  const meta = isObject(patch.metadata) ? patch.metadata : {};
  return { ...patch, metadata: { ...meta, resourceVersion } };
}

/**
 * The edit with the server-set metadata the editor may not show (uid, creationTimestamp,
 * managedFields, resourceVersion, generation…) taken from the loaded object where the edit lacks
 * it. A user cannot remove these fields (the server sets them again), so a patch that removes or
 * nulls them would show, as "your change", something the user never did.
 */
export function withServerSetMetadata(base: JsonObject, edited: JsonObject): JsonObject {
  const baseMeta = isObject(base.metadata) ? base.metadata : undefined;
  if (!baseMeta) return edited;
  const meta: JsonObject = isObject(edited.metadata) ? { ...edited.metadata } : {};
  let restored = false;
  for (const k of SERVER_METADATA) {
    if (Object.hasOwn(baseMeta, k) && !Object.hasOwn(meta, k)) {
      meta[k] = baseMeta[k]!;
      restored = true;
    }
  }
  return restored ? { ...edited, metadata: meta } : edited;
}

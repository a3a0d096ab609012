// The same change four ways: from one edit, the bodies of every patch mode of the write-mode table
// (JSON Patch, JSON Merge Patch, Strategic Merge Patch, Server-Side Apply), and, once each has
// been sent with dryRun=All, where their results differ and why. Pure: no I/O.
import { deepEqual, type FieldHints, isObject, type Json, type JsonObject, NO_HINTS, withoutManagedFields } from '../../k8s/patch';
import { parseJsonExact } from '../../codecs/json';
import { APPLY_MANAGER, generateBody } from './body';
import { PATCH_MODES, type PatchMode, WRITE_MODE_TABLE } from './writeModes';

/** The ways compared: every patch mode of the write-mode table. */
export const WAYS = PATCH_MODES;
export type Way = PatchMode;

export const WAY_LABEL = Object.fromEntries(WAYS.map((w) => [w, WRITE_MODE_TABLE[w].label])) as Record<Way, string>;

/**
 * The bodies for one edit of `base` into `edited` (both without managedFields), built by the
 * Edit view's own builder (generateBody, from the write-mode table): JSON Patch and strategic
 * merge by merge key from the schema's hints, and the apply configuration as the manager's whole
 * intent (its fields in `live`'s managedFields with the edit laid over), all as JSON and unguarded.
 */
export function fourBodies(base: JsonObject, edited: JsonObject, opts: { live?: JsonObject; fieldManager?: string; hints?: FieldHints } = {}): Record<Way, string> {
  const input = { format: 'json', base, live: opts.live ?? base, edited, guard: false, fieldManager: opts.fieldManager || APPLY_MANAGER, touchedOnly: false, hints: opts.hints ?? NO_HINTS } as const;
  return Object.fromEntries(WAYS.map((mode) => [mode, generateBody({ ...input, mode })])) as Record<Way, string>;
}

/** What a result is compared on: the stored object, without the server's bookkeeping of who wrote it. */
export function comparable(o: JsonObject): JsonObject {
  const out = withoutManagedFields(o);
  return out;
}

/** Paths (as the API prints them, `.spec.replicas`, `[1]`) where two values differ; at most `limit`. */
export function differences(a: Json | undefined, b: Json | undefined, path = '', out: string[] = [], limit = 20): string[] {
  if (out.length >= limit || deepEqual(a, b)) return out;
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[k], b[k], `${path}.${k}`, out, limit);
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => differences(x, b[i], `${path}[${i}]`, out, limit));
    return out;
  }
  out.push(path || '(root)');
  return out;
}

function steps(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/\.([^.[]+)|\[(\d+)\]/g)) out.push(m[1] !== undefined ? m[1] : Number(m[2]));
  return out;
}

/** The first list on the way to `path` in a patch body, if the body carries one. */
function listInBody(body: Json | undefined, path: string): string | undefined {
  let cur: Json | undefined = body;
  let at = '';
  for (const s of steps(path)) {
    if (Array.isArray(cur)) return at;
    if (!isObject(cur) || typeof s !== 'string' || !(s in cur)) return undefined;
    cur = cur[s];
    at += `.${s}`;
  }
  return Array.isArray(cur) ? at : undefined;
}

function parse(text: string): Json | undefined {
  try {
    return parseJsonExact(text) as Json;
  } catch {
    return undefined;
  }
}

/** Why `way`'s result differs from the reference at `path`, as far as its body tells. */
export function reasonFor(way: Way, body: string, path: string, referenceWay: Way): string {
  const parsed = parse(body);
  if (way === 'merge-patch') {
    const list = listInBody(parsed, path);
    if (list) return `the merge patch carries the list ${list} and JSON Merge Patch replaces a list wholesale (it has no merge keys), so the list became exactly the one sent`;
  }
  if (way === 'strategic-merge-patch') {
    if (body.includes('"$patch"') || body.includes('"$setElementOrder') || body.includes('"$retainKeys"') || body.includes('"$deleteFromPrimitiveList')) return 'the strategic merge patch carries $-directives ($patch, $setElementOrder, $retainKeys, $deleteFromPrimitiveList), which only strategic merge reads';
    const list = listInBody(parsed, path);
    if (list) return `strategic merge merges the list ${list} element by element when the schema gives it a patch strategy and merge key (and replaces it otherwise), where ${WAY_LABEL[referenceWay]} did not`;
  }
  if (way === 'apply') {
    if (!listInBody(parsed, path) && !hasPath(parsed, path)) return 'the apply configuration does not mention this field: apply leaves fields it does not name to their owners, and removes only fields this manager owned before and dropped';
    return 'apply merges by the schema’s list-type and list-map-keys (not the patch strategy), and records this manager as owner of what it sent';
  }
  if (way === 'json-patch') return 'JSON Patch operations address list elements by position: an index that meant one element when the patch was made may name another on the server';
  if (referenceWay === 'merge-patch' && listInBody(parse(body), path) === undefined) return `the reference (${WAY_LABEL[referenceWay]}) replaced a list wholesale`;
  return 'the bodies say different things here';
}

function hasPath(body: Json | undefined, path: string): boolean {
  let cur: Json | undefined = body;
  for (const s of steps(path)) {
    if (typeof s === 'number') return Array.isArray(cur);
    if (!isObject(cur) || !(s in cur)) return false;
    cur = cur[s];
  }
  return true;
}

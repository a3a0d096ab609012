// The write-mode table: one entry per way the Edit view writes an object (POST, PUT, the four
// PATCH types, DELETE). Everything that differs between modes and is not the mode's own panel text
// is read from here: the method and the verb SelfSubjectAccessReview is asked for, the Content-Type
// (every entry names its own, so no mode can fall back to application/json unseen), where the
// request goes, how the body is built from an edit, how "only if unchanged" rides in the body, the
// preview button, and what the mode can never do. The Edit view, the four-ways comparison
// (fourWays.ts: the entries with `fourWays`) and the lessons (through index.ts) read it. Pure.
import {
  applyConfiguration,
  guardJsonPatch,
  guardMergePatch,
  type FieldHints,
  type JsonObject,
  type JsonPatchOp,
  keyedJsonPatch,
  mergePatch,
  PATCH_CONTENT_TYPES,
  strategicMergePatch,
} from '../../k8s/patch';

/** What a body builder is given: the edit against the loaded object, already prepared (body.ts generateBody). */
export interface BuildInput {
  /** The object as last read from the server, in the editor's view (undefined in create mode). */
  base?: JsonObject;
  /** The full loaded object (with managedFields): applyConfiguration reads ownership from it. */
  live?: JsonObject;
  edited: JsonObject;
  /** The loaded resourceVersion when "only if unchanged" is on. */
  guardRv?: string;
  fieldManager: string;
  hints: FieldHints;
}

export interface WriteModeEntry {
  label: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The verb RBAC authorizes this request as (asked with a SelfSubjectAccessReview before sending). */
  verb: 'create' | 'update' | 'patch' | 'delete';
  /** The request's Content-Type. */
  contentType: string;
  /** POST goes to the collection; every other mode to the object. */
  target: 'collection' | 'object';
  /** Offered in create mode (no object loaded yet) and/or on a loaded object. */
  offered: { create: boolean; object: boolean };
  semantics: string;
  /** What no body of this mode can express, whatever the user types. */
  never: string;
  /**
   * A patch: its body is the difference between the loaded object and the edit, so server-set
   * metadata missing from the edit is not a removal, and it is offered in the four-ways comparison.
   */
  patch: boolean;
  /**
   * Builds the value to send (undefined: nothing to send yet). Absent for delete, whose body is
   * DeleteOptions (request.ts).
   */
  build?: (i: BuildInput) => unknown;
  /** The body goes out in the editor's format (YAML, KYAML or JSON) rather than always as JSON. */
  editorFormat: boolean;
  /** How "only if unchanged" rides in the body, read back by recovery.ts bodyGuarded. */
  guard: 'test-op' | 'resourceVersion' | 'none';
  /** Keyed lists are built from the schema's merge keys: the body waits for them (`true`), or only on a loaded object (`'object'`). */
  needsHints: boolean | 'object';
  /** The dryRun=All button of this mode, when it has one. */
  preview?: string;
}

const PATCH_PREVIEW = 'Check the result (dryRun=All)';

const table = {
  create: {
    label: 'Create (POST)',
    method: 'POST',
    verb: 'create',
    contentType: 'application/json',
    target: 'collection',
    offered: { create: true, object: false },
    semantics: 'POST to the collection. The body is the whole new object; 409 AlreadyExists if the name is taken.',
    never: 'change an object that exists',
    patch: false,
    build: (i) => i.edited,
    editorFormat: false,
    guard: 'none',
    needsHints: false,
  },
  replace: {
    label: 'Replace (PUT)',
    method: 'PUT',
    verb: 'update',
    contentType: 'application/json',
    target: 'object',
    offered: { create: false, object: true },
    semantics:
      'PUT the whole object. Its metadata.resourceVersion is an optimistic lock: if the object changed since you loaded it, the server answers 409 Conflict and nothing is written.',
    never: 'leave a field it does not carry: whatever the body omits is removed',
    patch: false,
    build: (i) => i.edited,
    editorFormat: false,
    guard: 'resourceVersion',
    needsHints: false,
  },
  'json-patch': {
    label: 'JSON Patch',
    method: 'PATCH',
    verb: 'patch',
    contentType: PATCH_CONTENT_TYPES.json,
    target: 'object',
    offered: { create: false, object: true },
    semantics: `${PATCH_CONTENT_TYPES.json} (RFC 6902): a list of operations on JSON Pointers; the first failing op fails the whole patch.`,
    never: 'name a list element by its key: operations address elements by position',
    patch: true,
    build: (i) => (i.base ? guardOps(keyedJsonPatch(i.base, i.edited, i.hints), i.guardRv) : undefined),
    editorFormat: false,
    guard: 'test-op',
    needsHints: true,
    preview: PATCH_PREVIEW,
  },
  'merge-patch': {
    label: 'JSON Merge Patch',
    method: 'PATCH',
    verb: 'patch',
    contentType: PATCH_CONTENT_TYPES.merge,
    target: 'object',
    offered: { create: false, object: true },
    semantics: `${PATCH_CONTENT_TYPES.merge} (RFC 7386): fields replace the server's, null deletes a field, lists are replaced whole.`,
    never: 'change one element of a list: a list is sent, and stored, whole',
    patch: true,
    build: (i) => (i.base ? guardMerge(mergePatch(i.base, i.edited), i.guardRv) : undefined),
    editorFormat: false,
    guard: 'resourceVersion',
    needsHints: false,
    preview: PATCH_PREVIEW,
  },
  'strategic-merge-patch': {
    label: 'Strategic Merge Patch',
    method: 'PATCH',
    verb: 'patch',
    contentType: PATCH_CONTENT_TYPES.strategic,
    target: 'object',
    offered: { create: false, object: true },
    semantics: `${PATCH_CONTENT_TYPES.strategic}: a merge patch where lists the schema marks (e.g. containers, by name) merge element by element. Built-in types only: custom resources answer 415.`,
    never: 'patch a custom resource (415 Unsupported Media Type: a CRD schema has no patch strategies)',
    patch: true,
    build: (i) => (i.base ? guardMerge(strategicMergePatch(i.base, i.edited, i.hints), i.guardRv) : undefined),
    editorFormat: false,
    guard: 'resourceVersion',
    needsHints: true,
    preview: PATCH_PREVIEW,
  },
  apply: {
    label: 'Server-Side Apply',
    method: 'PATCH',
    verb: 'patch',
    contentType: PATCH_CONTENT_TYPES.apply,
    target: 'object',
    offered: { create: true, object: true },
    semantics: `${PATCH_CONTENT_TYPES.apply}: the fields this fieldManager wants to own. A field another manager owns with another value gives 409 Conflict unless force=true. Creates the object if it does not exist.`,
    never: 'be held by its resourceVersion guard when it creates: the server ignores the guard then (sendWrite checks with a GET first)',
    patch: true,
    // "Only the fields I touched" is the same builder under a manager of its own (the state gives
    // it the -touched suffix): a manager that owns nothing yet sends only the changed fields, keyed
    // list elements with their key and changed fields only (never whole lists, which would make it
    // co-own every element), and later touched applies keep what it touched before (leaving a
    // field out of an apply would release it, and the server would delete it if nobody else owned it).
    build: (i) => applyConfiguration(i.live, i.edited, i.fieldManager, { hints: i.hints, resourceVersion: i.guardRv }),
    editorFormat: true,
    guard: 'resourceVersion',
    needsHints: 'object',
    preview: 'Preview ownership (dryRun=All)',
  },
  delete: {
    label: 'Delete',
    method: 'DELETE',
    verb: 'delete',
    // The body is DeleteOptions, as JSON.
    contentType: 'application/json',
    target: 'object',
    offered: { create: false, object: true },
    semantics: 'DELETE with DeleteOptions. Finalizers keep the object (with a deletionTimestamp) until they are removed; Foreground waits for dependents.',
    never: 'remove an object its finalizers still hold: it stays, with a deletionTimestamp, until they are gone',
    patch: false,
    editorFormat: false,
    guard: 'none',
    needsHints: false,
  },
} satisfies Record<string, WriteModeEntry>;

export type WriteMode = keyof typeof table;
export const WRITE_MODE_TABLE: Readonly<Record<WriteMode, WriteModeEntry>> = table;
export const WRITE_MODES = Object.keys(table) as WriteMode[];

/** The modes whose entry says `patch: true`. */
export type PatchMode = { [M in WriteMode]: (typeof table)[M]['patch'] extends true ? M : never }[WriteMode];
/** The patch modes, in the table's order (the four-ways comparison, the Edit view's mode list). */
export const PATCH_MODES = WRITE_MODES.filter((m): m is PatchMode => WRITE_MODE_TABLE[m].patch);

function guardOps(ops: JsonPatchOp[], rv: string | undefined): JsonPatchOp[] {
  return rv ? guardJsonPatch(ops, rv) : ops;
}

function guardMerge(patch: JsonObject, rv: string | undefined): JsonObject {
  return rv ? guardMergePatch(patch, rv) : patch;
}

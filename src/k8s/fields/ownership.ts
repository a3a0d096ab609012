// Who owns which field of a live object: the object's JSON as a tree, each node carrying the
// managedFields entries whose fieldsV1 name it. Several entries may name the same field: Server-Side
// Apply records shared ownership when appliers set a field to the same value, and an Update keeps
// its own entry next to the appliers'. Paths are matched against the object as the server returned
// it; an owned path that matches nothing (e.g. an entry written by hand) is reported, not dropped.
import { type FieldPath, type FieldsProblem, formatPath, formatElement, type PathElement, parseFieldsV1 } from './fieldsV1';

/** `metadata.managedFields[]` (meta/v1 ManagedFieldsEntry) as read from JSON. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  fieldsV1?: unknown;
  subresource?: string;
}

/** One managedFields entry, with the paths it owns. */
export interface ManagerEntry {
  /** Position in metadata.managedFields. */
  index: number;
  /** The API server keeps one entry per manager, operation and subresource; this joins the three. */
  key: string;
  manager: string;
  operation: string;
  subresource?: string;
  apiVersion?: string;
  time?: string;
  fieldsType?: string;
  /** Owned paths, printed. */
  paths: string[];
  /** Owned paths that matched nothing in the object. */
  unmatched: string[];
  problems: (FieldsProblem & { atText: string })[];
}

export interface OwnershipNode {
  /** null for the root. */
  element: PathElement | null;
  /** What to print for this step: the map key, or the list element's `[name="x"]` / `[3]`. */
  label: string;
  path: string;
  depth: number;
  type: 'object' | 'array' | 'scalar';
  /** Scalars only. */
  value?: unknown;
  children: OwnershipNode[];
  /** Entries that own this node itself. */
  owners: ManagerEntry[];
  /** Number of owned nodes under this one (not counting itself). */
  ownedBelow: number;
}

export interface OwnershipTree {
  root: OwnershipNode;
  entries: ManagerEntry[];
}

export function entryKey(e: ManagedFieldsEntry): string {
  return `${e.manager ?? ''}\u0000${e.operation ?? ''}\u0000${e.subresource ?? ''}`;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The fields SSA keeps for itself under metadata; rendering them as a tree would double the page. */
const SUMMARIZED = new Set(['.metadata.managedFields']);

function buildNode(value: unknown, element: PathElement | null, depth: number, path: string): OwnershipNode {
  const label = element === null ? '' : element.kind === 'field' ? element.name : formatElement(element);
  const node: OwnershipNode = { element, label, path, depth, type: 'scalar', children: [], owners: [], ownedBelow: 0 };
  if (SUMMARIZED.has(path)) {
    node.value = Array.isArray(value) ? `${value.length} entries (listed under Managers)` : value;
    return node;
  }
  if (Array.isArray(value)) {
    node.type = 'array';
    node.children = value.map((v, i) => buildNode(v, { kind: 'index', index: i }, depth + 1, `${path}[${i}]`));
  } else if (typeof value === 'object' && value !== null) {
    node.type = 'object';
    node.children = Object.entries(value).map(([k, v]) => buildNode(v, { kind: 'field', name: k }, depth + 1, `${path}.${k}`));
  } else node.value = value;
  return node;
}

/** Finds the child a path step names; list elements are matched by key fields, value or position. */
function findChild(node: OwnershipNode, el: PathElement, object: unknown): { child: OwnershipNode; value: unknown } | undefined {
  if (el.kind === 'field') {
    if (node.type !== 'object' || typeof object !== 'object' || object === null || Array.isArray(object)) return undefined;
    const child = node.children.find((c) => c.element?.kind === 'field' && c.element.name === el.name);
    return child && { child, value: (object as Record<string, unknown>)[el.name] };
  }
  if (node.type !== 'array' || !Array.isArray(object)) return undefined;
  let i: number;
  if (el.kind === 'index') i = el.index < object.length ? el.index : -1;
  else if (el.kind === 'value') i = object.findIndex((item) => deepEqual(item, el.value));
  else
    i = object.findIndex(
      (item) => typeof item === 'object' && item !== null && !Array.isArray(item) && el.fields.every(([k, v]) => deepEqual((item as Record<string, unknown>)[k], v)),
    );
  const child = i >= 0 ? node.children[i] : undefined;
  if (!child) return undefined;
  // The list element takes the name the managers use for it (`[name="nginx"]`), not its position.
  if (el.kind !== 'index' && child.element?.kind === 'index') {
    child.element = el;
    child.label = formatElement(el);
  }
  return { child, value: object[i] };
}

function renumber(node: OwnershipNode, parentPath: string): number {
  node.path = node.element === null ? '' : parentPath + formatElement(node.element);
  let below = 0;
  for (const c of node.children) below += renumber(c, node.path) + (c.owners.length > 0 ? 1 : 0);
  node.ownedBelow = below;
  return below;
}

/** Builds the ownership tree of an object from its own metadata.managedFields. */
export function buildOwnershipTree(object: unknown): OwnershipTree {
  const meta = typeof object === 'object' && object !== null ? (object as { metadata?: { managedFields?: unknown } }).metadata : undefined;
  const raw = Array.isArray(meta?.managedFields) ? (meta.managedFields as ManagedFieldsEntry[]) : [];
  const root = buildNode(object, null, 0, '');
  const entries: ManagerEntry[] = raw.map((e, index) => {
    const parsed = parseFieldsV1(e?.fieldsV1);
    const entry: ManagerEntry = {
      index,
      key: entryKey(e ?? {}),
      manager: e?.manager ?? '',
      operation: e?.operation ?? '',
      subresource: e?.subresource || undefined,
      apiVersion: e?.apiVersion,
      time: e?.time,
      fieldsType: e?.fieldsType,
      paths: [],
      unmatched: [],
      problems: parsed.problems.map((p) => ({ ...p, atText: formatPath(p.at) || '(root)' })),
    };
    for (const path of parsed.owned) {
      const text = formatPath(path);
      const target = resolve(root, object, path);
      if (target) {
        if (!target.owners.includes(entry)) target.owners.push(entry);
      } else entry.unmatched.push(text);
    }
    return entry;
  });
  renumber(root, '');
  // Paths printed after matching, so that list elements show their keys everywhere.
  for (const entry of entries) entry.paths = collectPaths(root, entry);
  return { root, entries };
}

function resolve(root: OwnershipNode, object: unknown, path: FieldPath): OwnershipNode | undefined {
  let node = root;
  let value = object;
  for (const el of path) {
    const found = findChild(node, el, value);
    if (!found) return undefined;
    node = found.child;
    value = found.value;
  }
  return node;
}

function collectPaths(node: OwnershipNode, entry: ManagerEntry, out: string[] = []): string[] {
  if (node.owners.includes(entry)) out.push(node.path);
  for (const c of node.children) collectPaths(c, entry, out);
  return out;
}

/** Every node, depth first; handy for tests and for lookups by path. */
export function flattenTree(node: OwnershipNode, out: OwnershipNode[] = []): OwnershipNode[] {
  out.push(node);
  for (const c of node.children) flattenTree(c, out);
  return out;
}

export function nodeAt(tree: OwnershipTree, path: string): OwnershipNode | undefined {
  return flattenTree(tree.root).find((n) => n.path === path);
}

/** How one manager's entry differs between two reads of the same object. */
export interface EntryChange {
  key: string;
  manager: string;
  operation: string;
  subresource?: string;
  change: 'added' | 'updated' | 'removed' | 'unchanged';
  timeBefore?: string;
  timeAfter?: string;
  gained: string[];
  lost: string[];
}

function ownedTexts(e: ManagedFieldsEntry): string[] {
  return parseFieldsV1(e.fieldsV1).owned.map(formatPath);
}

/**
 * Compares two reads' managedFields entry by entry. Entries are matched by manager, operation and
 * subresource, the triple the API server keeps one entry for. Paths are compared as the entries
 * spell them (key fields, not positions), so reordering a list is not a change.
 */
export function diffManagedFields(before: ManagedFieldsEntry[], after: ManagedFieldsEntry[]): EntryChange[] {
  const prev = new Map(before.map((e) => [entryKey(e), e]));
  const next = new Map(after.map((e) => [entryKey(e), e]));
  const out: EntryChange[] = [];
  for (const [key, e] of next) {
    const b = prev.get(key);
    const nowPaths = ownedTexts(e);
    const thenPaths = b ? ownedTexts(b) : [];
    const gained = nowPaths.filter((p) => !thenPaths.includes(p));
    const lost = thenPaths.filter((p) => !nowPaths.includes(p));
    const changed = !b || b.time !== e.time || b.apiVersion !== e.apiVersion || gained.length > 0 || lost.length > 0;
    out.push({
      key,
      manager: e.manager ?? '',
      operation: e.operation ?? '',
      subresource: e.subresource || undefined,
      change: !b ? 'added' : changed ? 'updated' : 'unchanged',
      timeBefore: b?.time,
      timeAfter: e.time,
      gained,
      lost,
    });
  }
  for (const [key, e] of prev) {
    if (next.has(key)) continue;
    out.push({ key, manager: e.manager ?? '', operation: e.operation ?? '', subresource: e.subresource || undefined, change: 'removed', timeBefore: e.time, gained: [], lost: ownedTexts(e) });
  }
  return out;
}

/** Entries oldest first (by `time`, then by position); entries without a time go last. */
export function sortEntriesByTime(entries: ManagerEntry[]): ManagerEntry[] {
  return [...entries].sort((a, b) => {
    if (a.time === b.time) return a.index - b.index;
    if (!a.time) return 1;
    if (!b.time) return -1;
    return a.time < b.time ? -1 : 1;
  });
}

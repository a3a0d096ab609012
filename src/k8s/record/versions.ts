// Time travel for one object: every version of it the explorer has seen in a recording (the one
// being made, or the one replayed), from lists, watch events, reads and write responses, ordered
// by resourceVersion (KEP-5504: comparable versions are compared as numbers, within one
// resource), and, between any two versions, which fields changed and which manager changed them.
//
// Who changed a field is read from the newer version's managedFields: the entries that own the
// field there (Server-Side Apply records an owner per field, an Update gets one too), narrowed to
// the entries that changed between the two versions (a new `time`, other fields): that is the
// manager and operation of the write. managedFields' `time` is when that entry last changed, so
// it dates the change to the second; a field the server dropped is reported with its old owners.
import { buildOwnershipTree, diffManagedFields, flattenTree, type ManagedFieldsEntry, type ManagerEntry, type OwnershipNode } from '../fields';
import { compareResourceVersions } from '../rv';
import type { KubeObject } from '../watch/types';
import { joinChunks, type RecordedExchange } from './recorder';
import { framesOf } from './har';

export interface ObjectVersion {
  resourceVersion: string;
  /** Date.now() when the explorer received it. */
  at: number;
  /** Where it was seen first: a list, a watch event (its type), a read, or a write's response. */
  seenIn: string;
  object: KubeObject;
}

export interface VersionTarget {
  /** The object's path (`/api/v1/namespaces/ns/configmaps/name`). */
  objectPath: string;
  /** The collection paths whose lists and watches hold it (namespaced and cluster-wide). */
  collectionPaths: string[];
  namespace?: string;
  name: string;
}

const pathOf = (p: string) => p.split('?')[0]!;
const isDryRun = (p: string) => /[?&]dryRun=/.test(p);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function same(o: KubeObject | undefined, t: VersionTarget): o is KubeObject {
  return !!o && o.metadata?.name === t.name && (t.namespace === undefined || (o.metadata?.namespace ?? undefined) === t.namespace);
}

/** Every version of the target in the exchanges, oldest first by resourceVersion, each once. */
export function versionsOf(exchanges: RecordedExchange[], t: VersionTarget): ObjectVersion[] {
  const seen = new Map<string, ObjectVersion>();
  const add = (o: unknown, at: number, seenIn: string) => {
    const obj = o as KubeObject | undefined;
    if (!same(obj, t)) return;
    const rv = obj.metadata?.resourceVersion;
    if (!rv || seen.has(rv)) return;
    seen.set(rv, { resourceVersion: rv, at, seenIn, object: obj });
  };
  for (const x of exchanges) {
    const path = pathOf(x.request.path);
    if (!x.response || x.response.status >= 300 || isDryRun(x.request.path)) continue;
    const mime = x.response.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    if (!mime.includes('json')) continue;
    if (x.watch && t.collectionPaths.includes(path)) {
      for (const f of framesOf(x.chunks, mime)) {
        const e = parse(f.text ?? '') as { type?: string; object?: unknown } | undefined;
        if (e?.type && e.type !== 'BOOKMARK' && e.type !== 'ERROR') add(e.object, f.at, `watch ${e.type}`);
      }
      continue;
    }
    const at = x.endedAt ?? Date.parse(x.startedAt);
    if (path === t.objectPath) {
      add(parse(new TextDecoder().decode(joinChunks(x.chunks))), at, x.request.method === 'GET' ? 'read' : `${x.request.method} response`);
    } else if (t.collectionPaths.includes(path) && x.request.method === 'GET') {
      const list = parse(new TextDecoder().decode(joinChunks(x.chunks))) as { items?: unknown[] } | undefined;
      for (const item of list?.items ?? []) add(item, at, 'list');
    }
  }
  return [...seen.values()].sort((a, b) => compareResourceVersions(a.resourceVersion, b.resourceVersion) ?? a.at - b.at);
}

export interface ChangedBy {
  manager: string;
  operation: string;
  subresource?: string;
  time?: string;
}

export interface FieldChange {
  /** The field's path as managedFields name it (`.spec.replicas`, `.data.x`, `[name="c"]`). */
  path: string;
  change: 'added' | 'changed' | 'removed';
  before?: unknown;
  after?: unknown;
  /** The managers whose entry owns the field and changed between the versions (else every owner). */
  by: ChangedBy[];
}

/** Fields the server keeps for itself that change on every write: not a change anyone made. */
const IGNORED = /^\.metadata\.(resourceVersion|managedFields|generation)(\.|\[|$)/;

function leaves(object: KubeObject): Map<string, OwnershipNode> {
  const out = new Map<string, OwnershipNode>();
  for (const n of flattenTree(buildOwnershipTree(object).root)) {
    if (n.type === 'scalar' && n.path !== '' && !IGNORED.test(n.path)) out.set(n.path, n);
  }
  return out;
}

function ownersOf(n: OwnershipNode): ManagerEntry[] {
  return n.owners.length ? n.owners : (n.ownedWith?.owners ?? []);
}

/** What changed from `older` to `newer`, field by field, and who changed each field. */
export function fieldChanges(older: KubeObject, newer: KubeObject): FieldChange[] {
  const before = leaves(older);
  const after = leaves(newer);
  const moved = new Set(
    diffManagedFields((older.metadata?.managedFields ?? []) as ManagedFieldsEntry[], (newer.metadata?.managedFields ?? []) as ManagedFieldsEntry[])
      .filter((c) => c.change === 'added' || c.change === 'updated')
      .map((c) => c.key),
  );
  const by = (owners: ManagerEntry[]): ChangedBy[] => {
    const changed = owners.filter((o) => moved.has(o.key));
    return (changed.length ? changed : owners).map((o) => ({ manager: o.manager, operation: o.operation, ...(o.subresource ? { subresource: o.subresource } : {}), ...(o.time ? { time: o.time } : {}) }));
  };
  const out: FieldChange[] = [];
  for (const [path, n] of after) {
    const b = before.get(path);
    if (!b) out.push({ path, change: 'added', after: n.value, by: by(ownersOf(n)) });
    else if (JSON.stringify(b.value) !== JSON.stringify(n.value)) out.push({ path, change: 'changed', before: b.value, after: n.value, by: by(ownersOf(n)) });
  }
  for (const [path, b] of before) if (!after.has(path)) out.push({ path, change: 'removed', before: b.value, by: ownersOf(b).map((o) => ({ manager: o.manager, operation: o.operation, ...(o.time ? { time: o.time } : {}) })) });
  return out;
}

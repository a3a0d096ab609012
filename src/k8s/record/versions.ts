// Time travel for one object: every version of it the explorer has seen (the tab's journal, live,
// or the recording replayed), from lists, watch events, reads and write responses, ordered
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

export interface ObjectVersion {
  resourceVersion: string;
  /** Date.now() when the explorer received it. */
  at: number;
  /** Where it was seen first: a list, a watch event (its type), a read, or a write's response. */
  seenIn: string;
  object: KubeObject;
}

export interface VersionTarget {
  /** The kubeconfig context (another cluster's object of the same name is another object). */
  context?: string;
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

/**
 * The target itself, whole: metadata-only answers (PartialObjectMetadata, asked for with
 * `as=PartialObjectMetadata`) have no spec or data, so a diff against them would report every
 * field as removed.
 */
function same(o: KubeObject | undefined, t: VersionTarget): o is KubeObject {
  return !!o && o.kind !== 'PartialObjectMetadata' && o.metadata?.name === t.name && (t.namespace === undefined || (o.metadata?.namespace ?? undefined) === t.namespace);
}

type Found = Omit<ObjectVersion, 'resourceVersion'>;

/**
 * What one exchange holds of the target, kept per exchange: the journal grows with every chunk,
 * and time travel asks again each time, so an ended body is read once and a watch only from the
 * chunks that came since. Bodies that do not name the target are not parsed at all.
 */
interface Scan {
  key: string;
  chunks: number;
  ended: boolean;
  pending: string;
  decoder: TextDecoder;
  found: Found[];
}
const scans = new WeakMap<RecordedExchange, Scan>();

function keyOf(t: VersionTarget): string {
  return JSON.stringify([t.context, t.objectPath, t.collectionPaths, t.namespace, t.name]);
}

function scanWatch(x: RecordedExchange, t: VersionTarget, scan: Scan, needle: string): void {
  const add = (line: string, at: number) => {
    if (!line.includes(needle)) return;
    const e = parse(line) as { type?: string; object?: unknown } | undefined;
    if (e?.type && e.type !== 'BOOKMARK' && e.type !== 'ERROR' && same(e.object as KubeObject, t)) scan.found.push({ at, seenIn: `watch ${e.type}`, object: e.object as KubeObject });
  };
  for (const c of x.chunks.slice(scan.chunks)) {
    scan.pending += scan.decoder.decode(c.bytes, { stream: true });
    let nl: number;
    while ((nl = scan.pending.indexOf('\n')) >= 0) {
      add(scan.pending.slice(0, nl), c.at);
      scan.pending = scan.pending.slice(nl + 1);
    }
  }
  // A recording's last frame may lack its newline (framesOf keeps it as a frame too).
  if (x.endedAt !== undefined && scan.pending.trim() !== '') {
    add(scan.pending, x.chunks[x.chunks.length - 1]?.at ?? x.endedAt);
    scan.pending = '';
  }
}

function scanBody(x: RecordedExchange, t: VersionTarget, path: string, needle: string): Found[] {
  const text = new TextDecoder().decode(joinChunks(x.chunks));
  if (!text.includes(needle)) return [];
  const at = x.endedAt ?? Date.parse(x.startedAt);
  const body = parse(text) as (KubeObject & { items?: unknown[] }) | undefined;
  if (path === t.objectPath) return same(body, t) ? [{ at, seenIn: x.request.method === 'GET' ? 'read' : `${x.request.method} response`, object: body }] : [];
  if (x.request.method !== 'GET') return [];
  return (body?.items ?? []).filter((o): o is KubeObject => same(o as KubeObject, t)).map((object) => ({ at, seenIn: 'list', object }));
}

/** What one exchange holds of the target (lists, watch events, reads, write responses). */
function scanOf(x: RecordedExchange, t: VersionTarget, key: string): Found[] {
  if (t.context !== undefined && x.context !== t.context) return [];
  const path = pathOf(x.request.path);
  if (!x.response || x.response.status >= 300 || isDryRun(x.request.path)) return [];
  if (path !== t.objectPath && !t.collectionPaths.includes(path)) return [];
  const mime = x.response.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  if (!mime.includes('json')) return [];
  const needle = JSON.stringify(t.name);
  let scan = scans.get(x);
  if (!scan || scan.key !== key || (!x.watch && scan.chunks > x.chunks.length)) {
    scan = { key, chunks: 0, ended: false, pending: '', decoder: new TextDecoder(), found: [] };
    scans.set(x, scan);
  }
  const ended = x.endedAt !== undefined;
  if (scan.chunks === x.chunks.length && scan.ended === ended) return scan.found;
  if (x.watch) {
    if (t.collectionPaths.includes(path)) scanWatch(x, t, scan, needle);
  } else if (ended && !x.closedByReader) {
    // Only a whole body: half a list does not parse, and a body still arriving is read at its end.
    scan.found = scanBody(x, t, path, needle);
  }
  scan.chunks = x.chunks.length;
  scan.ended = ended;
  return scan.found;
}

/** Every version of the target in the exchanges, oldest first by resourceVersion, each once. */
export function versionsOf(exchanges: RecordedExchange[], t: VersionTarget): ObjectVersion[] {
  const key = keyOf(t);
  const seen = new Map<string, ObjectVersion>();
  for (const x of exchanges) {
    for (const f of scanOf(x, t, key)) {
      const rv = f.object.metadata?.resourceVersion;
      if (rv && !seen.has(rv)) seen.set(rv, { resourceVersion: rv, ...f });
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

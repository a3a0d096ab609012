// Deletion as it happens: the owner and its dependents (objects whose ownerReferences point at
// the owner, and theirs in turn), followed with watches while a delete runs. What shows is what
// kube-controller-manager's garbage collector does with each propagationPolicy:
// - Foreground: the owner gets deletionTimestamp and the `foregroundDeletion` finalizer and stays
//   until the collector has deleted the dependents that block it (blockOwnerDeletion); then goes.
// - Background: the owner goes at once; the collector then deletes the dependents.
// - Orphan: the owner gets the `orphan` finalizer; the collector removes the ownerReference from
//   each dependent, then the finalizer, and the owner goes; the dependents stay.
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { DeletionTree } from './DeletionTree';
import { sharedMux } from '../../k8s/client';
import type { ApiResource, Discovery } from '../../k8s/discovery';
import { findResource } from '../../k8s/discovery';
import type { ResourceRef } from '../../k8s/paths';
import { inform } from '../../k8s/watch';
import type { KubeObject } from '../../k8s/watch';
import { blockingLeft } from './blocking';
import { dependentScanQuery, type ScanResult } from '../../k8s/objects';

/** Where the dependents of a kind live, as the built-in controllers create them. */
const DEPENDENTS: Record<string, [string, string, string][]> = {
  Deployment: [
    ['apps', 'v1', 'replicasets'],
    ['', 'v1', 'pods'],
  ],
  ReplicaSet: [['', 'v1', 'pods']],
  StatefulSet: [
    ['', 'v1', 'pods'],
    ['apps', 'v1', 'controllerrevisions'],
  ],
  DaemonSet: [
    ['', 'v1', 'pods'],
    ['apps', 'v1', 'controllerrevisions'],
  ],
  Job: [['', 'v1', 'pods']],
  CronJob: [
    ['batch', 'v1', 'jobs'],
    ['', 'v1', 'pods'],
  ],
};

interface OwnerRef {
  uid?: string;
  kind?: string;
  name?: string;
  blockOwnerDeletion?: boolean;
  controller?: boolean;
}

export interface Row {
  uid: string;
  kind: string;
  name: string;
  /** Depth in the ownership chain: 0 for the owner. */
  depth: number;
  ownerUid?: string;
  state: 'present' | 'deleting' | 'deleted' | 'orphaned';
  deletionTimestamp?: string;
  finalizers: string[];
  ownerReferences: OwnerRef[];
}

export interface LogLine {
  at: string;
  kind: string;
  name: string;
  what: string;
}

/** How long the owner's "deleted" waits at most for the dependents that block it to be seen gone. */
const HOLD_MS = 5000;

function metaOf(o: KubeObject) {
  const m = o.metadata ?? {};
  return {
    uid: String(m.uid ?? ''),
    name: String(m.name ?? ''),
    deletionTimestamp: typeof m.deletionTimestamp === 'string' ? m.deletionTimestamp : undefined,
    finalizers: Array.isArray(m.finalizers) ? (m.finalizers as string[]) : [],
    ownerReferences: Array.isArray(m.ownerReferences) ? (m.ownerReferences as OwnerRef[]) : [],
  };
}

/**
 * The tree of the owner and its dependents, recomputed from every watched collection's objects,
 * and the log of what happened to each, in order.
 */
function useDeletionRows(ownerKind: string) {
  const [rows, setRows] = useState<Map<string, Row>>(new Map());
  const [log, setLog] = useState<LogLine[]>([]);
  // Each watched collection's objects; rows are recomputed from all of them together.
  const sources = useRef(new Map<string, ReadonlyMap<string, KubeObject>>());
  const rowsRef = useRef(new Map<string, Row>());
  const note = useCallback((kind: string, name: string, what: string) => setLog((l) => [...l, { at: new Date().toISOString().slice(11, 23), kind, name, what }].slice(-300)), []);
  // The owner's "deleted", held while dependents that block it are not yet seen gone. In a
  // Foreground deletion the garbage collector removes the owner only after every dependent with
  // blockOwnerDeletion is deleted, but the two DELETED events come on two watches, and nothing
  // orders events across watches (CI once saw the owner's first). Released once they are seen
  // gone, or after HOLD_MS (a dependent's watch may be down).
  const held = useRef<{ row: Row; timer: ReturnType<typeof setTimeout> } | undefined>(undefined);
  const release = useCallback(() => {
    const h = held.current;
    if (!h) return;
    held.current = undefined;
    clearTimeout(h.timer);
    note(h.row.kind, h.row.name, 'deleted');
  }, [note]);
  useEffect(() => () => clearTimeout(held.current?.timer), []);
  const recompute = useCallback(() => {
    const all: { o: KubeObject; kind: string }[] = [];
    for (const [id, objs] of sources.current) if (!id.startsWith('owner|')) for (const o of objs.values()) all.push({ o, kind: o.kind ?? id.split('|')[1]! });
    const prev = rowsRef.current;
    const next = new Map<string, Row>();
    const ownerObj = [...(sources.current.get(`owner|${ownerKind}`)?.values() ?? [])].map((o) => ({ o }))[0];
    // The owner first, then whatever points at something already in the tree (breadth first).
    if (ownerObj) next.set(metaOf(ownerObj.o).uid, toRow(ownerObj.o, ownerKind, 0));
    let grew = true;
    while (grew) {
      grew = false;
      for (const { o, kind } of all) {
        const m = metaOf(o);
        if (next.has(m.uid)) continue;
        // A deleted owner still counts: its dependents wait for the collector.
        const parent = m.ownerReferences.find((r) => r.uid && (next.has(r.uid) || prev.has(r.uid)));
        if (parent) {
          next.set(m.uid, { ...toRow(o, kind, (next.get(parent.uid!) ?? prev.get(parent.uid!))!.depth + 1), ownerUid: parent.uid });
          grew = true;
        }
      }
    }
    // What was in the tree and is not now: gone, or still there without its ownerReference.
    for (const [uid, row] of prev) {
      if (next.has(uid)) continue;
      if (row.state === 'deleted' || row.state === 'orphaned') {
        next.set(uid, row);
        continue;
      }
      const still = all.find(({ o }) => metaOf(o).uid === uid);
      if (still && row.depth > 0) {
        next.set(uid, { ...toRow(still.o, row.kind, row.depth), ownerUid: row.ownerUid, state: 'orphaned' });
        note(row.kind, row.name, 'orphaned: its ownerReference was removed, the object stays');
      } else {
        next.set(uid, { ...row, state: 'deleted' });
        if (row.depth === 0 && row.finalizers.includes('foregroundDeletion') && blockingLeft(next, uid)) held.current ??= { row, timer: setTimeout(release, HOLD_MS) };
        else note(row.kind, row.name, 'deleted');
      }
    }
    if (held.current && !blockingLeft(next, held.current.row.uid)) release();
    for (const [uid, row] of next) {
      const before = prev.get(uid);
      if (!before) {
        if (prev.size > 0 || row.depth === 0) note(row.kind, row.name, row.depth === 0 ? 'watching (the owner)' : `appeared, owned by ${next.get(row.ownerUid ?? '')?.name ?? '?'}`);
        continue;
      }
      if (!before.deletionTimestamp && row.deletionTimestamp) note(row.kind, row.name, `deletionTimestamp set${row.finalizers.length ? `; finalizers: ${row.finalizers.join(', ')}` : ''}`);
      else if (before.finalizers.join() !== row.finalizers.join() && row.state !== 'deleted') note(row.kind, row.name, `finalizers now: ${row.finalizers.join(', ') || '(none)'}`);
    }
    rowsRef.current = next;
    setRows(next);
  }, [ownerKind, note, release]);

  return { rows, log, sources, recompute };
}

export function DeletionWatch({ context, discovery, owner, resource }: { context: string; discovery: Discovery | undefined; owner: ResourceRef; resource: ApiResource }) {
  const { rows, log, sources, recompute } = useDeletionRows(resource.kind);
  const [problem, setProblem] = useState<string>();

  // Where the built-in controllers put dependents: watched at once, before the scan below is done.
  const knownRefs = useMemo(() => {
    const wanted = DEPENDENTS[resource.kind] ?? [[resource.group, resource.version, resource.resource], ['', 'v1', 'configmaps'], ['', 'v1', 'pods']];
    const seen = new Set<string>();
    return wanted
      .map(([g, v, r]) => findResource(discovery, g, v, r))
      .filter((r): r is ApiResource => !!r && r.verbs.includes('watch') && !seen.has(r.resource + r.group) && !!seen.add(r.resource + r.group));
  }, [discovery, resource]);

  const follow = useCallback(
    (id: string, collection: { group: string; version: string; resource: string; namespace?: string }, name?: string) =>
      inform(
        { context, ...collection, name },
        {
          mux: sharedMux(),
          onProblem: (message) => message !== undefined && setProblem(message),
          onChange: (objs) => {
          // List items carry no kind; tag each with the kind of its collection.
          const kind = id.split('|')[1]!;
            sources.current.set(id, new Map([...objs].map(([k, o]) => [k, { ...o, kind: o.kind ?? kind }])));
            recompute();
          },
        },
      ),
    [context, recompute, sources],
  );

  useEffect(
    () => follow(`owner|${resource.kind}`, { group: owner.group, version: owner.version, resource: owner.resource, namespace: owner.namespace }, owner.name),
    // Keyed on the owner's identity (its fields), not on the object passed in, which is new on every render.
    [follow, resource.kind, owner.group, owner.version, owner.resource, owner.namespace, owner.name],
  );
  // Two effects, so that the scan's types add watches without restarting (and relisting) the known ones.
  const followAll = useCallback(
    (refs: ApiResource[]) => {
      const stops = refs.map((r) => follow(`dep-${r.group}-${r.resource}|${r.kind}`, { group: r.group, version: r.version, resource: r.resource, namespace: r.namespaced ? owner.namespace : undefined }));
      return () => stops.forEach((s) => s());
    },
    [follow, owner.namespace],
  );
  useEffect(() => followAll(knownRefs), [followAll, knownRefs]);

  // Once the owner is known (its uid), one pass over every resource type finds where else its
  // dependents are: the garbage collector follows ownerReferences in any type.
  const ownerUid = [...rows.values()].find((r) => r.depth === 0)?.uid;
  const scanned = useQuery(dependentScanQuery(context, discovery, ownerUid ? { namespace: owner.namespace, namespaced: resource.namespaced, uid: ownerUid } : undefined));
  const scan: ScanResult | 'scanning' | { error: string } | undefined = scanned.error ? { error: scanned.error instanceof Error ? scanned.error.message : String(scanned.error) } : scanned.data ?? (scanned.isFetching ? 'scanning' : undefined);
  // Any other type where the scan found objects that lead to the owner.
  const foundRefs = useMemo(() => (scanned.data ? scanned.data.types.filter((r) => !knownRefs.some((k) => k.group === r.group && k.resource === r.resource)) : []), [scanned.data, knownRefs]);

  useEffect(() => followAll(foundRefs), [followAll, foundRefs]);

  const watched = [...knownRefs, ...foundRefs];
  return <DeletionTree resource={resource} owner={owner} watched={watched} foundRefs={foundRefs} scan={scan} problem={problem} rows={[...rows.values()]} log={log} />;
}

function toRow(o: KubeObject, kind: string, depth: number): Row {
  const m = metaOf(o);
  return { uid: m.uid, kind, name: m.name, depth, state: m.deletionTimestamp ? 'deleting' : 'present', deletionTimestamp: m.deletionTimestamp, finalizers: m.finalizers, ownerReferences: m.ownerReferences };
}

// Finding an owner's dependents as kube-controller-manager's garbage collector does: by the
// ownerReferences of objects of every resource type, not only where the built-in controllers put
// theirs (a ConfigMap can own a Secret, a custom resource a Service). The collector's graph is
// built from metadata alone, so metadata-only lists (PartialObjectMetadataList) are enough.
//
// Scope, as the garbage collection page states it: a namespaced dependent's owner is in the same
// namespace or cluster-scoped; a cluster-scoped dependent can only have cluster-scoped owners. So a
// namespaced owner's dependents are in its namespace, and a cluster-scoped owner's anywhere.
import { queryOptions, skipToken } from '@tanstack/react-query';
import { type ApiResource, type Discovery, preferredResources } from '../discovery';
import { apiPathWithQuery, kubeJson } from '../client';
import { METADATA_ACCEPT } from '../lists';
import { resourcePath } from '../paths';

export interface TypeListing {
  /** `group/version/resource`, see {@link typeKey}. */
  type: string;
  items: { uid: string; ownerUids: string[] }[];
}

export const typeKey = (r: Pick<ApiResource, 'group' | 'version' | 'resource'>) => `${r.group}/${r.version}/${r.resource}`;

/**
 * The resource types that may hold dependents of an owner of this scope: one version per group
 * (the server's preferred one: every version shows the same objects), listable and watchable.
 */
export function candidateTypes(d: Discovery, ownerNamespaced: boolean): ApiResource[] {
  return preferredResources(d).filter((r) => r.verbs.includes('list') && r.verbs.includes('watch') && (!ownerNamespaced || r.namespaced));
}

/**
 * The types holding objects that lead to the owner through ownerReferences, at any depth (a
 * Deployment's ReplicaSets, then their Pods): a pure closure over what was listed.
 */
export function dependentTypeKeys(listings: TypeListing[], ownerUid: string): Set<string> {
  const inTree = new Set([ownerUid]);
  const types = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const l of listings) {
      for (const o of l.items) {
        if (inTree.has(o.uid) || !o.ownerUids.some((u) => inTree.has(u))) continue;
        inTree.add(o.uid);
        types.add(l.type);
        grew = true;
      }
    }
  }
  return types;
}

interface MetaList {
  items?: { metadata?: { name?: string; namespace?: string; uid?: string; ownerReferences?: { uid?: string }[] } }[];
  metadata?: { continue?: string };
}

/** What the scan asks for: the metadata-only list, JSON for the servers that cannot make one. */
export const SCAN_ACCEPT = `${METADATA_ACCEPT},application/json;q=0.9`;

export interface ScanResult {
  types: ApiResource[];
  /** The objects whose own ownerReferences name the owner (its direct dependents). */
  direct: { resource: ApiResource; name: string; namespace?: string }[];
  /** Types listed, and types that could not be (forbidden, an aggregated API down). */
  listed: number;
  failed: string[];
  /** Every request sent, as its path and query (each page of a list is one). */
  sent: string[];
}

/** Lists every candidate type (metadata only, a few at a time) and returns those that hold dependents. */
export async function scanDependents(context: string, d: Discovery, owner: { namespace?: string; namespaced: boolean; uid: string }, signal?: AbortSignal): Promise<ScanResult> {
  const candidates = candidateTypes(d, owner.namespaced);
  const listings: TypeListing[] = [];
  const failed: string[] = [];
  const sent: string[] = [];
  const direct: ScanResult['direct'] = [];
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const r = candidates[next++]!;
      const items: TypeListing['items'] = [];
      try {
        let token: string | undefined;
        do {
          const path = apiPathWithQuery(resourcePath({ group: r.group, version: r.version, resource: r.resource, namespace: r.namespaced ? owner.namespace : undefined }), { limit: 500, continue: token });
          sent.push(path);
          const page = await kubeJson<MetaList>({ context, path, headers: { Accept: SCAN_ACCEPT }, signal });
          for (const o of page.items ?? []) {
            const refs = (o.metadata?.ownerReferences ?? []).map((x) => x.uid).filter((u): u is string => !!u);
            if (o.metadata?.uid) items.push({ uid: o.metadata.uid, ownerUids: refs });
            if (refs.includes(owner.uid)) direct.push({ resource: r, name: o.metadata?.name ?? '', namespace: o.metadata?.namespace });
          }
          token = page.metadata?.continue || undefined;
        } while (token);
        listings.push({ type: typeKey(r), items });
      } catch (e) {
        if (signal?.aborted) throw e;
        failed.push(r.group ? `${r.resource}.${r.group}` : r.resource);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, candidates.length) }, worker));
  const keys = dependentTypeKeys(listings, owner.uid);
  return { types: candidates.filter((r) => keys.has(typeKey(r))), direct, listed: listings.length, failed, sent };
}

/** The scan as a query: skipped until discovery and the owner's uid are known. */
export const dependentScanQuery = (context: string, d: Discovery | undefined, owner: { namespace?: string; namespaced: boolean; uid: string } | undefined) =>
  queryOptions({
    queryKey: ['k8s', context, 'dependents', owner?.namespace ?? '', owner?.uid ?? ''],
    queryFn: d && owner ? ({ signal }) => scanDependents(context, d, owner, signal) : skipToken,
    refetchOnWindowFocus: false,
    retry: false,
  });

// Discovery: what groups, versions and resources the server has. Aggregated discovery
// (apidiscovery.k8s.io/v2 on /api and /apis, one request each) with the legacy fallback
// (APIVersions/APIGroupList, then one APIResourceList per group version) for older servers.
import { queryOptions } from '@tanstack/react-query';
import { kubeFetch, kubeJson, errorFromResponse } from '../client';
import { groupVersionPath } from '../paths';

export interface ApiSubresource {
  name: string;
  kind?: string;
  verbs: string[];
}

export interface ApiResource {
  group: string;
  version: string;
  resource: string;
  kind: string;
  singular: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  categories: string[];
  subresources: ApiSubresource[];
}

export interface ApiGroupVersion {
  version: string;
  /** Aggregated discovery only: 'Stale' when an aggregated API server did not answer. */
  freshness?: 'Current' | 'Stale';
  /** Legacy discovery only: this version's document could not be read (an aggregated API server that is down answers 503). */
  failed?: string;
  resources: ApiResource[];
}

export interface ApiGroup {
  /** '' for the core group. */
  name: string;
  /** The server's preferred version: the first one listed (aggregated) or preferredVersion (legacy). */
  preferredVersion: string;
  versions: ApiGroupVersion[];
}

export interface Discovery {
  groups: ApiGroup[];
  source: 'aggregated' | 'legacy';
}

export const AGGREGATED_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

interface AggResource {
  resource: string;
  responseKind?: { group: string; version: string; kind: string };
  scope: 'Namespaced' | 'Cluster';
  singularResource?: string;
  verbs?: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource: string; responseKind?: { kind: string }; verbs?: string[] }[];
}
interface AggList {
  kind?: string;
  items: { metadata: { name?: string }; versions: { version: string; freshness?: 'Current' | 'Stale'; resources?: AggResource[] }[] }[];
}

export function fromAggregated(lists: AggList[]): ApiGroup[] {
  const groups: ApiGroup[] = [];
  for (const list of lists) {
    for (const item of list.items) {
      const name = item.metadata.name ?? '';
      groups.push({
        name,
        preferredVersion: item.versions[0]?.version ?? '',
        versions: item.versions.map((v) => ({
          version: v.version,
          freshness: v.freshness,
          resources: (v.resources ?? []).map((r) => ({
            group: name,
            version: v.version,
            resource: r.resource,
            kind: r.responseKind?.kind ?? '',
            singular: r.singularResource ?? '',
            namespaced: r.scope === 'Namespaced',
            verbs: r.verbs ?? [],
            shortNames: r.shortNames ?? [],
            categories: r.categories ?? [],
            subresources: (r.subresources ?? []).map((s) => ({ name: s.subresource, kind: s.responseKind?.kind, verbs: s.verbs ?? [] })),
          })),
        })),
      });
    }
  }
  return groups;
}

interface LegacyResourceList {
  resources: { name: string; singularName?: string; namespaced: boolean; kind: string; verbs?: string[]; shortNames?: string[]; categories?: string[] }[];
}

export function fromLegacyResourceList(group: string, version: string, list: LegacyResourceList): ApiResource[] {
  const top = list.resources.filter((r) => !r.name.includes('/'));
  return top.map((r) => ({
    group,
    version,
    resource: r.name,
    kind: r.kind,
    singular: r.singularName ?? '',
    namespaced: r.namespaced,
    verbs: r.verbs ?? [],
    shortNames: r.shortNames ?? [],
    categories: r.categories ?? [],
    subresources: list.resources
      .filter((s) => s.name.startsWith(`${r.name}/`))
      .map((s) => ({ name: s.name.slice(r.name.length + 1), kind: s.kind, verbs: s.verbs ?? [] })),
  }));
}

async function fetchAggregated(context: string, path: string, signal?: AbortSignal): Promise<AggList | null> {
  const res = await kubeFetch({ context, path, headers: { Accept: AGGREGATED_ACCEPT }, signal });
  if (!res.ok) throw await errorFromResponse(res);
  // A server without aggregated discovery ignores the first media type and answers with the
  // legacy kind; the Content-Type tells which one we got.
  const type = res.headers.get('Content-Type') ?? '';
  if (!type.includes('as=APIGroupDiscoveryList')) return null;
  return (await res.json()) as AggList;
}

export async function fetchDiscovery(context: string, signal?: AbortSignal): Promise<Discovery> {
  const [core, apis] = await Promise.all([fetchAggregated(context, '/api', signal), fetchAggregated(context, '/apis', signal)]);
  if (core && apis) return { groups: fromAggregated([core, apis]), source: 'aggregated' };

  const versions = await kubeJson<{ versions: string[] }>({ context, path: '/api', signal });
  const groupList = await kubeJson<{ groups: { name: string; versions: { version: string }[]; preferredVersion?: { version: string } }[] }>({ context, path: '/apis', signal });
  const specs = [
    { name: '', versions: versions.versions, preferred: versions.versions[0] ?? 'v1' },
    ...groupList.groups.map((g) => ({ name: g.name, versions: g.versions.map((v) => v.version), preferred: g.preferredVersion?.version ?? g.versions[0]?.version ?? '' })),
  ];
  const groups = await Promise.all(
    specs.map(async (g) => ({
      name: g.name,
      preferredVersion: g.preferred,
      versions: await Promise.all(
        g.versions.map(async (v) => {
          // One group version that cannot be read (its aggregated server down: 503) leaves the others listed.
          try {
            return { version: v, resources: fromLegacyResourceList(g.name, v, await kubeJson<LegacyResourceList>({ context, path: groupVersionPath(g.name, v), signal })) };
          } catch (e) {
            if (signal?.aborted) throw e;
            return { version: v, resources: [], failed: e instanceof Error ? e.message : String(e) };
          }
        }),
      ),
    })),
  );
  return { groups, source: 'legacy' };
}

export const discoveryQuery = (context: string) =>
  queryOptions({
    queryKey: ['k8s', context, 'discovery'],
    queryFn: ({ signal }) => fetchDiscovery(context, signal),
    staleTime: 5 * 60_000,
  });

/** Every resource of every version, preferred versions first. */
export function allResources(d: Discovery): ApiResource[] {
  return d.groups.flatMap((g) => [...g.versions].sort((a, b) => Number(b.version === g.preferredVersion) - Number(a.version === g.preferredVersion)).flatMap((v) => v.resources));
}

export function findResource(d: Discovery | undefined, group: string | undefined, version: string | undefined, resource: string | undefined): ApiResource | undefined {
  if (!d || group === undefined || !version || !resource) return undefined;
  return d.groups.find((g) => g.name === group)?.versions.find((v) => v.version === version)?.resources.find((r) => r.resource === resource);
}

/** The resources of each group's preferred version (each object once: every version serves the same objects). */
export function preferredResources(d: Discovery): ApiResource[] {
  return d.groups.flatMap((g) => g.versions.find((v) => v.version === g.preferredVersion)?.resources ?? []);
}

/** Resolves what a person might type (`po`, `deploy`, `deployments.apps`, `Pod`) to resources in preferred versions. */
export function resolveResource(d: Discovery, text: string): ApiResource[] {
  const t = text.trim().toLowerCase();
  if (!t) return [];
  const [name, ...groupParts] = t.split('.');
  const group = groupParts.join('.');
  return preferredResources(d).filter(
    (r) => (!group || r.group === group) && (r.resource === name || r.singular === name || r.shortNames.includes(name!) || r.kind.toLowerCase() === name),
  );
}

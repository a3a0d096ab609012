// Where an aggregated API server is down or serves less than kube-apiserver, in words a view can
// show. What the server does (seen on 1.37.1 with k8s.io/sample-apiserver, wardle.example.com):
// - its backend stopped (SIGSTOP): the APIService turns Available=False (FailedDiscoveryCheck, the
//   message naming the URL that did not answer); aggregated discovery still lists the group, each
//   version with `freshness: Stale` and no resources; every request under /apis/<group>/<version>
//   gets a plain-text `service unavailable` 503 from kube-apiserver's aggregator; the other groups
//   are served;
// - an aggregated server built on k8s.io/apiserver without Protobuf or CBOR for its types answers
//   406 NotAcceptable to those Accept headers (and a Protobuf watch 200 with no events at all).
import { queryOptions } from '@tanstack/react-query';
import { kubeFetch } from '../client';
import type { Discovery } from './discovery';

export interface GroupVersionRef {
  group: string;
  version: string;
}

/** An APIService's Available condition, as kube-apiserver's aggregator reports it. */
export interface ApiServiceState {
  /** `<version>.<group>`, the APIService's name. */
  name: string;
  group: string;
  version: string;
  /** Served by kube-apiserver itself (no spec.service): never down on its own. */
  local: boolean;
  available: boolean | undefined;
  reason?: string;
  message?: string;
}

interface ApiServiceList {
  items: {
    metadata: { name: string };
    spec: { group?: string; version?: string; service?: { name: string; namespace: string } | null };
    status?: { conditions?: { type: string; status: string; reason?: string; message?: string }[] };
  }[];
}

export function apiServiceStates(list: ApiServiceList): ApiServiceState[] {
  return list.items.map((s) => {
    const c = s.status?.conditions?.find((x) => x.type === 'Available');
    return {
      name: s.metadata.name,
      group: s.spec.group ?? '',
      version: s.spec.version ?? '',
      local: !s.spec.service,
      available: c ? c.status === 'True' : undefined,
      ...(c?.reason ? { reason: c.reason } : {}),
      ...(c?.message ? { message: c.message } : {}),
    };
  });
}

/**
 * The APIServices (apiregistration.k8s.io/v1), or undefined when they cannot be read (a user who
 * may not list them): the views then name the group from discovery alone.
 */
export const apiServicesQuery = (context: string) =>
  queryOptions({
    queryKey: ['k8s', context, 'apiservices'],
    queryFn: async ({ signal }): Promise<ApiServiceState[] | undefined> => {
      const res = await kubeFetch({ context, path: '/apis/apiregistration.k8s.io/v1/apiservices', headers: { Accept: 'application/json' }, signal });
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        return undefined;
      }
      return apiServiceStates((await res.json()) as ApiServiceList);
    },
    staleTime: 30_000,
  });

export interface UnavailableGroup {
  group: string;
  /** The versions discovery could not read (stale or failed), preferred first as listed. */
  versions: string[];
  /** What kube-apiserver says of each version's APIService, when it could be read. */
  apiServices: ApiServiceState[];
}

/**
 * The groups an aggregated API server did not answer for: versions aggregated discovery marks
 * `Stale`, or whose legacy document failed, plus APIServices reported unavailable.
 */
export function unavailableGroups(d: Discovery | undefined, apiServices: ApiServiceState[] | undefined): UnavailableGroup[] {
  const byGroup = new Map<string, Set<string>>();
  const add = (group: string, version: string) => {
    if (!byGroup.has(group)) byGroup.set(group, new Set());
    byGroup.get(group)!.add(version);
  };
  for (const g of d?.groups ?? []) for (const v of g.versions) if (v.freshness === 'Stale' || v.failed) add(g.name, v.version);
  for (const s of apiServices ?? []) if (!s.local && s.available === false) add(s.group, s.version);
  return [...byGroup].map(([group, versions]) => ({
    group,
    versions: [...versions],
    apiServices: (apiServices ?? []).filter((s) => s.group === group && versions.has(s.version)),
  }));
}

/** One sentence naming a group that is down and what kube-apiserver says of it. */
export function unavailableSentence(u: UnavailableGroup): string {
  const gvs = u.versions.map((v) => `${u.group}/${v}`).join(', ');
  const down = u.apiServices.filter((s) => s.available === false);
  const why = down.length
    ? ` APIService ${down.map((s) => `${s.name}: Available=False${s.reason ? ` (${s.reason})` : ''}${s.message ? `, “${s.message}”` : ''}`).join('; ')}.`
    : '';
  return `${gvs}: the aggregated API server behind ${u.versions.length > 1 ? 'these versions' : 'this version'} did not answer, so discovery lists no resources for ${u.versions.length > 1 ? 'them' : 'it'} and its requests get 503.${why} The other groups are served.`;
}

/** `group/version` (or `v1` for the core group) of an API path, or undefined when it names none. */
export function groupVersionOf(path: string): GroupVersionRef | undefined {
  const parts = path.split('?')[0]!.split('/').filter(Boolean);
  if (parts[0] === 'api' && parts[1]) return { group: '', version: parts[1] };
  if (parts[0] === 'apis' && parts[1] && parts[2]) return { group: parts[1], version: parts[2] };
  return undefined;
}

const gvText = (gv: GroupVersionRef) => (gv.group ? `${gv.group}/${gv.version}` : gv.version);

/**
 * What the server refused, in words: "wardle.example.com/v1alpha1 does not serve CBOR (406)".
 * `what` names the representation asked for; undefined when the answer is not a refusal of it.
 */
export function refusalSentence(path: string, what: string, httpStatus: number): string | undefined {
  const gv = groupVersionOf(path);
  const who = gv ? gvText(gv) : 'This path';
  if (httpStatus === 406) return `${who} does not serve ${what} (406)`;
  if (httpStatus === 415) return `${who} does not take ${what} bodies (415)`;
  if (httpStatus === 503) return `${who} is unavailable (503): the server behind it did not answer`;
  return undefined;
}

/**
 * Why discovery lists no such resource when its group version is down: a sentence for a view that
 * would otherwise say "not served". Undefined when the group version was read (then it is not served).
 */
export function downBecause(d: Discovery | undefined, group: string | undefined, version: string | undefined): string | undefined {
  const gv = d?.groups.find((g) => g.name === (group ?? ''))?.versions.find((v) => v.version === version);
  if (!gv || (gv.freshness !== 'Stale' && !gv.failed)) return undefined;
  return `${group ? `${group}/` : ''}${version} is unavailable: the aggregated API server behind it did not answer discovery (the other groups are served), so its resources are not known now.`;
}

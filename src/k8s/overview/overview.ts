// What the first screen says about a cluster: its version (/version), its readiness
// (/readyz?verbose, readyz.ts), what the user may do in a namespace (SelfSubjectRulesReview) and how many of a
// few common resources exist. Every call is a read or a review (reviews store nothing).
import { queryOptions } from '@tanstack/react-query';
import { kubeJson } from '../client';

export interface ServerVersion {
  major: string;
  minor: string;
  gitVersion: string;
  platform?: string;
  goVersion?: string;
}

export function serverVersion(context: string, signal?: AbortSignal): Promise<ServerVersion> {
  return kubeJson<ServerVersion>({ context, path: '/version', signal });
}

export const serverVersionQuery = (context: string) => queryOptions({ queryKey: ['k8s', context, 'version'], queryFn: ({ signal }) => serverVersion(context, signal), staleTime: 60_000 });

export interface ResourceRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
}

export interface NonResourceRule {
  verbs: string[];
  nonResourceURLs?: string[];
}

export interface RulesReview {
  resourceRules: ResourceRule[];
  nonResourceRules: NonResourceRule[];
  /** True when an authorizer could not list its rules: the lists may then say less than is allowed. */
  incomplete: boolean;
  evaluationError?: string;
}

export const RULES_REVIEW_PATH = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';

export async function rulesReview(context: string, namespace: string, signal?: AbortSignal): Promise<RulesReview> {
  const r = await kubeJson<{ status?: Partial<RulesReview> }>({
    context,
    method: 'POST',
    path: RULES_REVIEW_PATH,
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } }),
    signal,
  });
  const s = r.status ?? {};
  const out: RulesReview = { resourceRules: s.resourceRules ?? [], nonResourceRules: s.nonResourceRules ?? [], incomplete: s.incomplete ?? false };
  if (s.evaluationError) out.evaluationError = s.evaluationError;
  return out;
}

/** The review for one namespace, shared by Welcome and Discovery (same key: asked once). */
export const rulesReviewQuery = (context: string, namespace: string) =>
  queryOptions({
    queryKey: ['k8s', context, 'rules', namespace],
    queryFn: ({ signal }) => rulesReview(context, namespace, signal),
    staleTime: 30_000,
  });

/** `group/resource` labels of rules, `*` kept as the server says it; used for a one-line summary. */
export function ruleLabel(r: ResourceRule): string {
  const groups = r.apiGroups ?? [''];
  const resources = r.resources ?? [];
  const names = r.resourceNames?.length ? ` (only ${r.resourceNames.join(', ')})` : '';
  const what = resources.flatMap((res) => groups.map((g) => (g === '' ? res : g === '*' ? `${res} (all groups)` : `${res}.${g}`))).join(', ');
  return `${r.verbs.join(', ')}: ${what || '(no resources)'}${names}`;
}

export interface CountTarget {
  group: string;
  version: string;
  resource: string;
  namespaced: boolean;
}

export const COMMON_RESOURCES: CountTarget[] = [
  { group: '', version: 'v1', resource: 'namespaces', namespaced: false },
  { group: '', version: 'v1', resource: 'pods', namespaced: true },
  { group: 'apps', version: 'v1', resource: 'deployments', namespaced: true },
  { group: '', version: 'v1', resource: 'services', namespaced: true },
  { group: '', version: 'v1', resource: 'configmaps', namespaced: true },
  { group: '', version: 'v1', resource: 'secrets', namespaced: true },
];

export function collectionPath(t: CountTarget, namespace?: string): string {
  const base = t.group === '' ? `/api/${t.version}` : `/apis/${t.group}/${t.version}`;
  return t.namespaced && namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${t.resource}` : `${base}/${t.resource}`;
}

export interface Count {
  /** Items in the collection, as far as one small page tells. */
  count: number;
  /**
   * False when the count is a lower bound: the server gave a continue token without a
   * remainingItemCount (it may omit it, e.g. with a selector).
   */
  exact: boolean;
}

/**
 * Counts a collection with one page of limit=1 in metadata-only form: the server answers one item
 * plus `metadata.remainingItemCount` (the items after this page), instead of the whole list.
 */
export async function countResource(context: string, t: CountTarget, namespace?: string, signal?: AbortSignal): Promise<Count> {
  const list = await kubeJson<{ items?: unknown[]; metadata?: { continue?: string; remainingItemCount?: number } }>({
    context,
    path: collectionPath(t, namespace),
    query: { limit: 1 },
    headers: { Accept: 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;q=0.9' },
    signal,
  });
  const items = list.items?.length ?? 0;
  const remaining = list.metadata?.remainingItemCount;
  if (remaining !== undefined) return { count: items + remaining, exact: true };
  return { count: items, exact: !list.metadata?.continue };
}

/** One count of the Welcome page (a GET with limit=1). */
export const countQuery = (context: string, t: CountTarget, namespace: string | undefined) =>
  queryOptions({ queryKey: ['k8s', context, 'count', t.group, t.resource, namespace ?? ''], queryFn: ({ signal }) => countResource(context, t, namespace, signal), staleTime: 15_000 });

// What the current user may do, asked of the server before trying: one SelfSubjectAccessReview per
// verb (authorization.k8s.io/v1). The reviewer answers for whoever sends the request, so through the
// proxy it answers for the context's credentials. `allowed: false` without `denied` means no
// authorizer said yes (RBAC only allows); `reason` carries the authorizer's explanation when it has one.
import { queryOptions, skipToken } from '@tanstack/react-query';
import { kubeJson } from '../client';

export interface ResourceAttributes {
  verb: string;
  group: string;
  resource: string;
  namespace?: string;
  subresource?: string;
  name?: string;
}

export interface AccessDecision {
  verb: string;
  allowed: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

interface SelfSubjectAccessReview {
  status?: { allowed: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

export async function reviewAccess(context: string, attrs: ResourceAttributes, signal?: AbortSignal): Promise<AccessDecision> {
  const resourceAttributes: Record<string, string> = { verb: attrs.verb, group: attrs.group, resource: attrs.resource };
  if (attrs.namespace) resourceAttributes.namespace = attrs.namespace;
  if (attrs.subresource) resourceAttributes.subresource = attrs.subresource;
  if (attrs.name) resourceAttributes.name = attrs.name;
  const review = await kubeJson<SelfSubjectAccessReview>({
    context,
    method: 'POST',
    path: '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
    body: JSON.stringify({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } }),
    signal,
  });
  const s = review.status ?? { allowed: false };
  const d: AccessDecision = { verb: attrs.verb, allowed: s.allowed };
  if (s.denied) d.denied = true;
  if (s.reason) d.reason = s.reason;
  if (s.evaluationError) d.evaluationError = s.evaluationError;
  return d;
}

/** One review per verb, in parallel; no target (the resource not known yet) or no verb asks nothing. */
export const accessQuery = (context: string, target: Omit<ResourceAttributes, 'verb'> | undefined, verbs: string[]) =>
  queryOptions({
    queryKey: ['k8s', context, 'access', target?.group, target?.resource, target?.subresource ?? '', target?.namespace ?? '', target?.name ?? '', verbs.join(',')],
    queryFn: target && verbs.length > 0 ? async ({ signal }) => Promise.all(verbs.map((verb) => reviewAccess(context, { ...target, verb }, signal))) : skipToken,
    staleTime: 30_000,
  });

/** One review of one set of attributes (the console's request); `null` (not a resource request) asks nothing. */
export const accessReviewQuery = (context: string, attrs: ResourceAttributes | null) =>
  queryOptions({
    queryKey: ['k8s', context, 'access', 'review', attrs],
    queryFn: attrs ? ({ signal }) => reviewAccess(context, attrs, signal) : skipToken,
    staleTime: 30_000,
  });

// Query options for the shell: contexts from the proxy, namespaces from the cluster.
// Keys run general → specific (['k8s', context, ...]) so that a prefix invalidates a whole context.
import { queryOptions, skipToken } from '@tanstack/react-query';
import type { ContextList } from '../../../protocol/contexts';
import { kubeJson, proxyJson, rememberProxyUserAgent } from '../client';

/** The prefix of every answer of an API server: removed when where answers come from changes (a replay). */
export const K8S_QUERY_PREFIX = ['k8s'] as const;

export const contextsQuery = () =>
  queryOptions({
    queryKey: ['proxy', 'contexts'],
    queryFn: async ({ signal }) => {
      const list = await proxyJson<ContextList>('contexts', { signal });
      rememberProxyUserAgent(list.userAgent);
      return list;
    },
    staleTime: 60_000,
  });

interface NamespaceList {
  items: { metadata: { name: string } }[];
}

/** `undefined` (no context known yet) asks nothing. */
export const namespacesQuery = (context: string | undefined) =>
  queryOptions({
    queryKey: ['k8s', context, 'namespaces'],
    queryFn: context === undefined ? skipToken : async ({ signal }) => {
      // includeObject=None would be leaner as a Table, but the namespace list is small; plain JSON
      // keeps this independent of Table support.
      const list = await kubeJson<NamespaceList>({ context, path: '/api/v1/namespaces', signal });
      return list.items.map((n) => n.metadata.name).sort();
    },
    staleTime: 30_000,
  });

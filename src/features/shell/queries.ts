// Query options for the shell: contexts from the proxy, namespaces from the cluster.
// Keys run general → specific (['k8s', context, ...]) so that a prefix invalidates a whole context.
import { queryOptions } from '@tanstack/react-query';
import { kubeJson, proxyJson } from '../../k8s/client';

export interface ContextInfo {
  name: string;
  cluster: string;
  server: string;
  user: string;
  namespace?: string;
  current: boolean;
  /** Set when kubectl needs --kubeconfig to find this context (see proxy/src/server.ts). */
  kubeconfig?: string;
}

export const contextsQuery = () =>
  queryOptions({
    queryKey: ['proxy', 'contexts'],
    queryFn: ({ signal }) => proxyJson<{ contexts: ContextInfo[]; current?: string }>('contexts', { signal }),
    staleTime: 60_000,
  });

interface NamespaceList {
  items: { metadata: { name: string } }[];
}

export const namespacesQuery = (context: string) =>
  queryOptions({
    queryKey: ['k8s', context, 'namespaces'],
    queryFn: async ({ signal }) => {
      // includeObject=None would be leaner as a Table, but the namespace list is small; plain JSON
      // keeps this independent of Table support.
      const list = await kubeJson<NamespaceList>({ context, path: '/api/v1/namespaces', signal });
      return list.items.map((n) => n.metadata.name).sort();
    },
    staleTime: 30_000,
  });

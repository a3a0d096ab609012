// API Priority and Fairness names: a response names the FlowSchema and PriorityLevelConfiguration
// that handled it by UID only (X-Kubernetes-PF-FlowSchema-UID, X-Kubernetes-PF-PriorityLevel-UID:
// apiserver/pkg/server/filters/priority-and-fairness.go); one list of each turns UIDs into names.
import { queryOptions } from '@tanstack/react-query';
import { kubeJson } from '../client';

const FLOWCONTROL = '/apis/flowcontrol.apiserver.k8s.io/v1';

interface NamedList { items?: { metadata?: { uid?: string; name?: string } }[] }

/** UID → name of every FlowSchema and PriorityLevelConfiguration (empty when they cannot be read). */
export function apfNamesQuery(context: string) {
  return queryOptions({
    queryKey: ['k8s', context, 'audit', 'apf-names'],
    staleTime: 60_000,
    queryFn: async ({ signal }) => {
      const names = new Map<string, string>();
      const [fs, pl] = await Promise.allSettled([
        kubeJson<NamedList>({ context, path: `${FLOWCONTROL}/flowschemas`, signal }),
        kubeJson<NamedList>({ context, path: `${FLOWCONTROL}/prioritylevelconfigurations`, signal }),
      ]);
      for (const r of [fs, pl]) {
        if (r.status !== 'fulfilled') continue;
        for (const i of r.value.items ?? []) if (i.metadata?.uid && i.metadata.name) names.set(i.metadata.uid, i.metadata.name);
      }
      return names;
    },
  });
}

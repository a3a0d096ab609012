// Names the API groups whose aggregated API server did not answer, with what kube-apiserver says of
// their APIServices, so that a group that is down is said to be down instead of silently missing
// from the list (aggregated discovery lists its versions as Stale with no resources).
import { useQuery } from '@tanstack/react-query';
import { apiServicesQuery, type Discovery, unavailableGroups, unavailableSentence } from '../../k8s/discovery';

export function UnavailablePanel({ context, discovery }: { context: string; discovery: Discovery | undefined }) {
  const apiServices = useQuery(apiServicesQuery(context));
  const down = unavailableGroups(discovery, apiServices.data);
  if (!discovery || !down.length) return null;
  return (
    <section className="warning-list small" aria-label="Unavailable API groups">
      <strong>{down.length === 1 ? `API group ${down[0]!.group} is unavailable` : `${down.length} API groups are unavailable`}</strong>
      <ul>
        {down.map((u) => (
          <li key={u.group}>{unavailableSentence(u)}</li>
        ))}
      </ul>
    </section>
  );
}

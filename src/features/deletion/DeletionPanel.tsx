// The lifecycle side of deleting: the object's dependents followed live while the delete runs,
// what gracePeriodSeconds does, and deleting a whole collection by selector.
import type { ApiResource, Discovery } from '../../k8s/discovery';
import type { ResourceRef } from '../../k8s/paths';
import { DeleteCollection } from './DeleteCollection';
import { DeletionWatch } from './DeletionWatch';

export function DeletionPanel({ context, discovery, resource, owner }: { context: string; discovery: Discovery | undefined; resource: ApiResource; owner: ResourceRef }) {
  return (
    <div className="stack">
      <DeletionWatch context={context} discovery={discovery} resource={resource} owner={owner} />
      <p className="muted small">
        <strong>gracePeriodSeconds</strong> matters for Pods: a Pod bound to a node gets deletionTimestamp and stays until its kubelet has stopped the containers (at most that many seconds), while a Pod no node took (as in the
        local control plane, which runs no scheduler or kubelet) is removed at once. 0 asks for immediate removal. Other kinds have no grace period and go as soon as their finalizers are gone.
      </p>
      <DeleteCollection context={context} resource={resource} namespace={owner.namespace} />
    </div>
  );
}

// Every experiment starts by creating a scratch namespace. A context restricted to one namespace
// may not (403 at the first step); said before the user tries, from one SelfSubjectAccessReview
// (create namespaces), so that the lessons read as text and the user knows which context to use.
import { useQuery } from '@tanstack/react-query';
import { accessQuery } from '../../k8s/access';

export function ScratchAccess({ context }: { context: string }) {
  const review = useQuery(accessQuery(context, { group: '', resource: 'namespaces' }, ['create']));
  const decision = review.data?.[0];
  if (!decision || decision.allowed) return null;
  return (
    <p className="small lesson-no-scratch" role="note" data-testid="scratch-forbidden">
      Context {context} may not create namespaces (SelfSubjectAccessReview: {decision.reason || 'no rule allows it'}): each experiment's first step would answer 403
      Forbidden. The lessons still read as text; run their experiments with a context that may create namespaces.
    </p>
  );
}

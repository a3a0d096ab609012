// A list the user may not read (403 Forbidden): beside the server's Status, what this context may
// list where it asked (one SelfSubjectRulesReview), with links, and the context's own namespace
// when the list was across all namespaces or in another one. A restricted user then has a way on
// instead of a dead end.
import { useQuery } from '@tanstack/react-query';
import { hrefFor } from '../../routing';
import { rulesAllow } from '../../k8s/access';
import { allResources, discoveryQuery } from '../../k8s/discovery';
import { rulesReviewQuery } from '../../k8s/overview';
import { contextsQuery } from '../../k8s/cluster';

export function ForbiddenHint({ context, namespace, namespaced }: { context: string; namespace?: string; namespaced: boolean }) {
  const contexts = useQuery(contextsQuery());
  const own = contexts.data?.contexts.find((c) => c.name === context)?.namespace;
  const where = namespace || own || 'default';
  const rules = useQuery(rulesReviewQuery(context, where));
  const discovery = useQuery(discoveryQuery(context));
  const listable =
    rules.data && discovery.data
      ? allResources(discovery.data).filter((r) => r.namespaced && r.verbs.includes('list') && rulesAllow(rules.data.resourceRules, r.group, r.resource, 'list'))
      : [];
  return (
    <div className="lists-notice small" role="note" data-testid="forbidden-hint">
      {namespaced && !namespace ? (
        <p>
          This was a list across all namespaces, which needs <code>list</code> granted cluster-wide.
          {own ? (
            <>
              {' '}
              The kubeconfig gives this context the namespace <a href={hrefFor({ namespace: own }, true)}>{own}</a>: list it there.
            </>
          ) : (
            ' Type a namespace in the bar above.'
          )}
        </p>
      ) : !namespaced ? (
        <p>This resource is cluster-scoped: reading it needs a ClusterRole bound cluster-wide, which this context does not have.</p>
      ) : null}
      {listable.length > 0 && (
        <p>
          What this context may list in {where} (SelfSubjectRulesReview):{' '}
          {listable.map((r, i) => (
            <span key={`${r.group}/${r.version}/${r.resource}`}>
              {i > 0 && ', '}
              <a href={hrefFor({ namespace: where, group: r.group, version: r.version, resource: r.resource, name: undefined })}>{r.group ? `${r.resource}.${r.group}` : r.resource}</a>
            </span>
          ))}
          .
        </p>
      )}
    </div>
  );
}

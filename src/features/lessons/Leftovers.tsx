// Scratch namespaces outlive the page (a reload keeps one in the URL; switching lessons or
// closing the tab does not delete it). They all carry the lesson label, so one list finds them.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorBox } from '../../ui/ErrorBox';
import { RELIC_CRD, removeRelicCrd } from './catalog';
import { LESSON_LABEL, send } from './exchange';
import { kitSend } from './kit';

interface Ns {
  name: string;
  phase?: string;
  /** Collection path for a cluster-scoped object a lesson made (CRD, policy); namespaces have none. */
  under?: string;
  kind?: string;
}

/** Cluster-scoped kinds a lesson may create (the CEL, policy and API Priority and Fairness lessons), listed by the same label. */
const CLUSTER_KINDS = [
  ['CustomResourceDefinition', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions'],
  ['ValidatingAdmissionPolicy', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies'],
  ['ValidatingAdmissionPolicyBinding', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings'],
  ['ValidatingWebhookConfiguration', '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations'],
  // Not served before 1.36 (the list's 404 is skipped like a 403).
  ['MutatingAdmissionPolicy', '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicies'],
  ['MutatingAdmissionPolicyBinding', '/apis/admissionregistration.k8s.io/v1/mutatingadmissionpolicybindings'],
  ['FlowSchema', '/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas'],
  ['PriorityLevelConfiguration', '/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations'],
  ['StorageVersionMigration', '/apis/storagemigration.k8s.io/v1/storageversionmigrations'],
] as const;

/** What the lessons left in the cluster: namespaces with the lesson label, and the cluster-scoped kinds a lesson may create. */
async function findLeftovers(context: string): Promise<{ items: Ns[]; forbidden: boolean }> {
  const x = await send(context, 'GET', `/api/v1/namespaces?labelSelector=${encodeURIComponent(LESSON_LABEL)}`);
  // A context restricted to its namespace: nothing to find, and not an error to show.
  if (x.status === 403) return { items: [], forbidden: true };
  if (x.status !== 200) throw new Error(`listing namespaces: HTTP ${x.status}`);
  const list = x.response as { items?: { metadata?: { name?: string }; status?: { phase?: string } }[] };
  const found: Ns[] = (list.items ?? []).map((n) => ({ name: n.metadata?.name ?? '', phase: n.status?.phase }));
  for (const [kind, under] of CLUSTER_KINDS) {
    // Someone without the right to list these just does not see them here.
    const c = await send(context, 'GET', `${under}?labelSelector=${encodeURIComponent(LESSON_LABEL)}`);
    if (c.status !== 200) continue;
    for (const o of (c.response as { items?: { metadata?: { name?: string; deletionTimestamp?: string } }[] }).items ?? []) found.push({ name: o.metadata?.name ?? '', kind, under, phase: o.metadata?.deletionTimestamp ? 'Terminating' : undefined });
  }
  return { items: found, forbidden: false };
}

const leftoversPrefix = (context: string) => ['k8s', context, 'lessons', 'leftovers'] as const;

/** Asked again when the lesson's own namespace comes or goes (`current` is in the key). */
const leftoversQuery = (context: string, current: string | undefined) =>
  queryOptions({
    queryKey: [...leftoversPrefix(context), current ?? ''],
    queryFn: () => findLeftovers(context),
    retry: false,
  });

async function removeLeftover(context: string, name: string, under = '/api/v1/namespaces'): Promise<void> {
  if (name === RELIC_CRD && under.endsWith('/customresourcedefinitions')) {
    // The force-deletion lesson's CRD may hold an undecodable object, which would hang its
    // deletion: the lesson's own remover makes it readable first.
    const xs = await removeRelicCrd((m, p, o) => kitSend(context, m, p, o));
    const del = xs.find((x) => x.method === 'DELETE');
    if (del && del.status >= 300 && del.status !== 404) throw new Error(`deleting ${name}: HTTP ${del.status}`);
    return;
  }
  const x = await send(context, 'DELETE', `${under}/${encodeURIComponent(name)}`);
  if (x.status >= 300 && x.status !== 404) throw new Error(`deleting ${name}: HTTP ${x.status}`);
}

export function Leftovers({ context, current }: { context: string; current: string | undefined }) {
  const queryClient = useQueryClient();
  const q = useQuery(leftoversQuery(context, current));
  const items = q.data?.items ?? null;
  const forbidden = q.data?.forbidden ?? false;
  // A deletion's failure is shown; the list is read again either way.
  const remove = useMutation({
    mutationFn: ({ name, under }: { name: string; under?: string }) => removeLeftover(context, name, under),
    onSettled: () => queryClient.invalidateQueries({ queryKey: leftoversPrefix(context) }),
  });
  const error = remove.error ?? q.error;

  return (
    <div className="lesson-leftovers small" role="region" aria-label="Lesson namespaces">
      <div className="row">
        <strong>Lesson namespaces (and cluster-scoped lesson objects) here</strong>
        <button type="button" onClick={() => void q.refetch()}>
          Refresh
        </button>
      </div>
      {forbidden ? (
        <p className="muted" data-testid="leftovers-forbidden">
          This context may not list namespaces (403 Forbidden), so lesson namespaces cannot be looked up with it.
        </p>
      ) : (
        items && items.length === 0 && <p className="muted">none</p>
      )}
      <ul>
        {items?.map((n) => (
          <li key={`${n.kind ?? 'Namespace'}/${n.name}`}>
            {n.kind && <span className="muted">{n.kind} </span>}
            <code>{n.name}</code> {n.phase === 'Terminating' ? <span className="muted">(terminating)</span> : n.name === current ? <span className="muted">(this lesson's)</span> : null}{' '}
            {(n.phase !== 'Terminating' || (n.kind === 'CustomResourceDefinition' && n.name === RELIC_CRD)) && (
              <button type="button" aria-label={`Delete ${n.name}`} onClick={() => remove.mutate({ name: n.name, under: n.under })}>
                delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {error != null && <ErrorBox error={error} />}
    </div>
  );
}

// A kit lesson's state: the permissions it needs, asked first (one SelfSubjectAccessReview per
// need, through a queryOptions factory), the confirmation, and the steps and the cleanup as
// mutations (their errors are shown by the view). KitLessonView.tsx renders it.
import { queryOptions, skipToken, useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { duringLessonStep } from '../../k8s/record';
import { checkStep, type KitExchange, type KitLesson, kitSend, kitWatch, type LessonStep, markDone, type Needed, type StepContext } from './kit';

export interface Access {
  need: Needed;
  allowed: boolean;
  reason?: string;
}

async function review(context: string, ns: string, need: Needed): Promise<Access> {
  const x = await kitSend(context, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    body: {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: { resourceAttributes: { verb: need.verb, group: need.group ?? '', resource: need.resource, subresource: need.subresource, namespace: need.namespaced ? ns : undefined } },
    },
  });
  const st = (x.response as { status?: { allowed?: boolean; reason?: string; evaluationError?: string } }).status;
  return { need, allowed: x.status === 201 && st?.allowed === true, reason: st?.reason ?? st?.evaluationError ?? (x.status !== 201 ? `HTTP ${x.status}` : undefined) };
}

/** The lesson's needs, reviewed for the current credentials; skipped until the lesson may run. */
const needsQuery = (context: string, ns: string, lesson: KitLesson, ready: boolean) =>
  queryOptions({
    queryKey: ['k8s', context, 'lessons', 'needs', lesson.id, ns],
    queryFn: ready ? () => Promise.all(lesson.needs.map((n) => review(context, ns, n))) : skipToken,
    // Asked again each time the lesson opens (a Role may have been granted meanwhile); a failed
    // review is shown, not retried.
    retry: false,
  });

export interface StepResult {
  xs: KitExchange[];
  differs: string[];
}

export function useKitLesson(lesson: KitLesson, context: string, scratch: string | undefined) {
  const [confirmed, setConfirmed] = useState(false);
  const [results, setResults] = useState<Record<string, StepResult>>({});
  const memo = useRef<Record<string, string>>({});
  const ns = scratch ?? '';
  const ready = lesson.scope === 'read' || Boolean(scratch);

  const ctx: StepContext = useMemo(
    () => ({
      context,
      ns,
      memo: memo.current,
      send: (m, p, o) => kitSend(context, m, p, o),
      sendAs: (other, m, p, o) => kitSend(other, m, p, o),
      watch: (p, o) => kitWatch(context, p, o),
    }),
    [context, ns],
  );

  const needs = useQuery(needsQuery(context, ns, lesson, ready));
  const access = needs.data ?? null;
  const denied = access?.filter((a) => !a.allowed) ?? [];
  const mayRun = ready && access !== null && denied.length === 0 && (lesson.scope !== 'cluster' || confirmed);

  const cleaning = useMutation({
    mutationFn: async () => (lesson.cleanup ? lesson.cleanup(ctx) : null),
  });
  const stepping = useMutation({
    // A recording marks the step and tags what it sends (k8s/record).
    mutationFn: (s: LessonStep) => duringLessonStep({ id: lesson.id, step: s.id }, () => s.run(ctx)),
    onMutate: () => cleaning.reset(),
    onSuccess: (xs, s) => {
      const differs = checkStep(s, xs, ctx);
      setResults((r) => ({ ...r, [s.id]: { xs, differs } }));
      if (differs.length === 0) markDone(lesson.id, s.id);
    },
  });
  // A step that fails shows its error and does not stop "Run all steps" (the next step may run).
  const runStep = (s: LessonStep) => stepping.mutateAsync(s).catch(() => undefined);
  const runAll = async () => {
    for (const s of lesson.steps) if (!s.blocked?.(ctx)) await runStep(s);
  };
  const cleanup = () => {
    if (lesson.cleanup) cleaning.mutate();
  };
  const busy = stepping.isPending ? stepping.variables.id : cleaning.isPending ? 'cleanup' : null;
  const error = stepping.error ?? cleaning.error ?? needs.error;
  return { ctx, ready, access, denied, mayRun, confirmed, setConfirmed, results, busy, error, cleaned: cleaning.data ?? null, runStep, runAll, cleanup };
}

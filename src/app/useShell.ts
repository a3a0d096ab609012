// The shell's state: the contexts and the context shown, the namespaces (or why they cannot be
// listed), a replay and what it makes the page forget, and the route kept complete (the context
// and, for a user who may not list namespaces, the context's namespace put into the URL).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { navigate, useRoute } from '../routing';
import { openRecordingFrom, useReplay } from '../features/record';
import { KubeApiError } from '../k8s/client';
import { contextsQuery, K8S_QUERY_PREFIX, namespacesQuery } from '../k8s/cluster';

export function useShell(bootReplayProblem: string | undefined) {
  const route = useRoute();
  const queryClient = useQueryClient();
  const { session: replay, epoch } = useReplay();
  const contexts = useQuery(contextsQuery());
  const [replayProblem, setReplayProblem] = useState<string | undefined>(bootReplayProblem);

  // Started with --replay FILE: the server has no contexts, only the recording to open.
  const askedServer = useRef(false);
  useEffect(() => {
    if (!contexts.data?.replay || replay || askedServer.current) return;
    askedServer.current = true;
    openRecordingFrom('server', route.extra.at !== undefined ? Number(route.extra.at) : undefined).catch((e: unknown) => setReplayProblem(e instanceof Error ? e.message : String(e)));
  }, [contexts.data?.replay, replay, route.extra.at]);
  // A replay that starts (or ends) changes where every answer comes from: forget them all.
  const shownReplay = useRef(replay);
  useEffect(() => {
    if (shownReplay.current === replay) return;
    shownReplay.current = replay;
    queryClient.removeQueries({ queryKey: K8S_QUERY_PREFIX });
    void queryClient.invalidateQueries({ queryKey: contextsQuery().queryKey });
  }, [replay, queryClient]);
  // The clock went back: the views start again from the recording (see k8s/record/replay.ts).
  useEffect(() => {
    if (epoch > 0) queryClient.removeQueries({ queryKey: K8S_QUERY_PREFIX });
  }, [epoch, queryClient]);

  const context = route.context ?? (contexts.data?.current || contexts.data?.contexts[0]?.name);
  const ctxInfo = contexts.data?.contexts.find((c) => c.name === context);
  // A context named by the URL that the kubeconfig does not have: said so, rather than showing
  // another context in the picker and the proxy's 404 in the view.
  const unknownContext = route.context && contexts.data && !ctxInfo ? route.context : undefined;
  const namespaces = useQuery(namespacesQuery(context));

  // Put the chosen context into the URL once known, so the view is shareable as it is.
  useEffect(() => {
    if (!route.context && context) navigate({ context, namespace: route.namespace ?? ctxInfo?.namespace }, { replace: true });
  }, [route.context, context, route.namespace, ctxInfo?.namespace]);

  // A user who may not list namespaces (403: a context restricted to one namespace) is rarely
  // allowed anything across all of them either: a link that names the context but no namespace
  // opens in the context's namespace, as kubectl would. Decided once per context, when the
  // namespaces answer arrives: emptying the field afterwards (all namespaces) stays empty.
  const namespaceForbidden = namespaces.error instanceof KubeApiError && namespaces.error.httpStatus === 403;
  const decided = useRef('');
  const namespacesSettled = !!ctxInfo && (namespaces.isSuccess || namespaces.isError);
  useEffect(() => {
    if (!route.context || !namespacesSettled || decided.current === route.context) return;
    decided.current = route.context;
    if (!route.namespace && ctxInfo?.namespace && namespaceForbidden) navigate({ namespace: ctxInfo.namespace }, { replace: true });
  }, [route.context, route.namespace, ctxInfo?.namespace, namespaceForbidden, namespacesSettled]);

  return { route, replay, epoch, contexts, replayProblem, context, ctxInfo, unknownContext, namespaces, namespaceForbidden };
}

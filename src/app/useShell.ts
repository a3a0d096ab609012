// The shell's state: the contexts and the context shown, the namespaces (or why they cannot be
// listed), a replay and what it makes the page forget, and the route kept complete (the context
// and, for a link that names no namespace, the context's namespace put into the URL).
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { contextNamespaceFor, navigate, useRoute } from '../routing';
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
    // The namespace follows from the context (below).
    if (!route.context && context) navigate({ context }, { replace: true });
  }, [route.context, context]);

  // A link that names the context but no namespace opens in the context's namespace from the
  // kubeconfig, as kubectl does (`kubectl --context X get configmaps` lists X's namespace); all
  // namespaces is asked for by name (`namespace=*`, the picker's "All namespaces", an emptied field).
  const namespaceForbidden = namespaces.error instanceof KubeApiError && namespaces.error.httpStatus === 403;
  const fillNamespace = contextNamespaceFor(route, ctxInfo?.namespace);
  useEffect(() => {
    if (fillNamespace) navigate({ namespace: fillNamespace }, { replace: true });
  }, [fillNamespace]);

  return { route, replay, epoch, contexts, replayProblem, context, ctxInfo, unknownContext, namespaces, namespaceForbidden };
}

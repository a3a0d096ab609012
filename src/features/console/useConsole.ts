// The request console's state: the draft kept in step with the URL, the body encoded as its
// Content-Type says, the access check, sending (a watch streams until stopped), the link's
// restore plan and path completion. ConsoleView.tsx renders it with the panels.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { isWatchRequest } from '../../../protocol/watch';
import { loadedK8sSchema, loadK8sSchema } from '../../codecs/protobuf';
import type { WireFormatId } from '../../codecs/formats';
import { accessReviewQuery } from '../../k8s/access';
import { contextsQuery } from '../../k8s/cluster';
import { allResources, discoveryQuery } from '../../k8s/discovery';
import { pathProblem, resourcePath } from '../../k8s/paths';
import { navigate, parseRoute, type Route } from '../../routing';
import { encodeRequestBody, type EncodedBody, isBinaryContentType } from './binaryBody';
import { type Draft, draftFromExtra, draftToExtra, draftToRequest } from './draft';
import { type DraftAction, draftReducer } from './draftReducer';
import { type Exchange, type ExchangeRequest, runExchange } from '../../k8s/client';
import { history, useHistory } from './history';
import { refetchable, requestOfExtra, restorePlan, sameRequest, SENT_KEY } from './restore';
import { requestAttributes } from './verb';

/**
 * The draft as the URL can hold it: the route serializer drops empty values, so a parameter row
 * still waiting for its value is not in the URL. Comparing normalized forms keeps such a row from
 * being mistaken for an outside change of the URL.
 */
function normalized(extra: Record<string, string>): string {
  return JSON.stringify(draftToExtra(draftFromExtra(Object.fromEntries(Object.entries(extra).filter(([, v]) => v !== '')))));
}

/** The draft, kept in step with the URL both ways: edits write the URL; Back or a link replaces the draft. */
function useUrlDraft(route: Route): [Draft, (a: DraftAction) => void] {
  const [draft, apply] = useReducer(draftReducer, route.extra, draftFromExtra);
  const written = useRef<string>(normalized(draftToExtra(draft)));
  const routeExtra = normalized(route.extra);
  useEffect(() => {
    if (routeExtra !== written.current && ('p' in route.extra || 'm' in route.extra)) {
      written.current = routeExtra;
      apply({ type: 'replace', draft: draftFromExtra(route.extra) });
    }
  }, [routeExtra, route.extra]);
  const dispatch = (a: DraftAction) => {
    const next = draftReducer(draft, a);
    apply({ type: 'replace', draft: next });
    const extra = draftToExtra(next);
    written.current = normalized(extra);
    navigate({ extra }, { replace: true, keepExtra: false });
  };
  return [draft, dispatch];
}

/**
 * Protobuf and CBOR Content-Types: the edited object is sent encoded (the schemas load on demand).
 * Returns the request as it will be sent and how its body was encoded.
 */
function useEncodedRequest(textRequest: ExchangeRequest): { request: ExchangeRequest; encoded: EncodedBody; binaryType: WireFormatId | undefined } {
  const contentType = textRequest.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const binaryType = textRequest.method !== 'GET' && textRequest.method !== 'HEAD' ? isBinaryContentType(contentType) : undefined;
  const [schemaReady, setSchemaReady] = useState(() => !!loadedK8sSchema());
  useEffect(() => {
    if (binaryType && !schemaReady) void loadK8sSchema().then(() => setSchemaReady(true));
  }, [binaryType, schemaReady]);
  const body = textRequest.body;
  const encoded = useMemo(
    () => (binaryType ? encodeRequestBody(body ?? '', contentType, loadedK8sSchema()) : ({ kind: 'text' } as const)),
    // schemaReady: re-encode once the schemas are in.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [binaryType, body, contentType, schemaReady],
  );
  return { request: encoded.kind === 'binary' ? { ...textRequest, bodyBytes: encoded.bytes } : textRequest, encoded, binaryType };
}

export function useConsole(route: Route, context: string) {
  const [draft, dispatch] = useUrlDraft(route);
  const exchanges = useHistory();
  const [currentId, setCurrentId] = useState<string | undefined>();
  const [streamingId, setStreamingId] = useState<string | undefined>();
  const [compare, setCompare] = useState<string[]>([]);
  const abort = useRef<AbortController | null>(null);
  const discovery = useQuery(discoveryQuery(context));
  const contexts = useQuery(contextsQuery());
  const servers = useMemo(() => Object.fromEntries((contexts.data?.contexts ?? []).map((c) => [c.name, c.server])), [contexts.data]);

  useEffect(() => () => abort.current?.abort(), []);
  // Decided once, from the URL the view opened on (restore.ts).
  const [plan] = useState(() => restorePlan(route.extra));

  const { request, encoded, binaryType } = useEncodedRequest(draftToRequest(draft));
  // Asked before sending, so that a refusal is explained rather than a surprise 403.
  const attrs = requestAttributes(request.method, request.path);
  const access = useQuery(accessReviewQuery(context, attrs));
  const current = exchanges.find((x) => x.id === currentId);

  async function send(req: ExchangeRequest = request) {
    // A path the browser would rewrite before sending is refused, with the reason (k8s/paths/safety.ts).
    if (pathProblem(req.path)) return;
    // A body that could not be encoded as its Content-Type says is not sent (the reason is shown).
    if (req === request && (encoded.kind === 'error' || encoded.kind === 'pending')) return;
    abort.current?.abort();
    const ctrl = new AbortController();
    abort.current = ctrl;
    // A request still running when another is sent (a watch, say) is stopped; its late updates go
    // to the history only and do not take the inspector back.
    const latest = () => abort.current === ctrl;
    let id: string | undefined;
    const watching = isWatchRequest(req.path, req.method.toUpperCase());
    const x = await runExchange(context, req, {
      signal: ctrl.signal,
      onUpdate: (partial) => {
        history.put(partial);
        if (!id && latest()) {
          id = partial.id;
          setCurrentId(id);
          if (watching) setStreamingId(id);
        }
      },
    });
    history.put(x);
    if (latest()) {
      setCurrentId(x.id);
      setStreamingId(undefined);
      abort.current = null;
      // The URL now says this read was sent, so that the link shows its answer too; only while the
      // form still holds what was sent (an edit rewrites the URL without the mark).
      const now = parseRoute(location.search).extra;
      if (x.response && refetchable(req) && sameRequest(requestOfExtra(now), req)) navigate({ extra: { [SENT_KEY]: '1' } }, { replace: true });
    }
  }

  // A link to a read that was sent: the answer this page already holds, or the read sent again.
  useEffect(() => {
    if (plan.kind !== 'refetch') return;
    const held = history.all().find((x) => x.context === context && x.response && sameRequest(x.request, plan.request));
    if (held) {
      setCurrentId(held.id);
      return;
    }
    // Deferred and cancelled on cleanup, so that a mount run twice (StrictMode) sends once.
    const t = setTimeout(() => void send(plan.request), 0);
    return () => clearTimeout(t);
    // Once, when the view opens on its URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Path completion: collection paths of every resource discovery lists, in the chosen namespace.
  const completions = useMemo(() => {
    const out = new Set<string>(['/api', '/apis', '/version', '/openapi/v3', '/healthz', '/livez', '/readyz', '/metrics']);
    for (const r of discovery.data ? allResources(discovery.data) : []) {
      out.add(resourcePath({ group: r.group, version: r.version, resource: r.resource }));
      if (r.namespaced && route.namespace) out.add(resourcePath({ group: r.group, version: r.version, resource: r.resource, namespace: route.namespace }));
    }
    return [...out];
  }, [discovery.data, route.namespace]);

  // Oldest first: the history lists newest first.
  const compared: Exchange[] = exchanges.filter((x) => compare.includes(x.id)).reverse();

  return {
    draft,
    dispatch,
    exchanges,
    current,
    currentId,
    setCurrentId,
    streamingId,
    stop: () => abort.current?.abort(),
    compare,
    setCompare,
    compared,
    servers,
    kubeconfig: contexts.data?.contexts.find((c) => c.name === context)?.kubeconfig,
    plan,
    request,
    encoded,
    binaryType,
    attrs,
    access: access.data,
    completions,
    send,
  };
}

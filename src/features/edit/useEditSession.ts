// The Edit view's state: its queries (discovery, the shared object query, the OpenAPI hints, the
// access check), the object's watch, the reducer, and the write mutation, as one hook. The panels
// (editPanels.tsx, panels.tsx) render what it returns and call its actions; nothing else reads or
// writes the server.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Dispatch, useEffect, useMemo, useReducer } from 'react';
import { navigate, type Route } from '../../routing';
import { accessQuery } from '../../k8s/access';
import { discoveryQuery, findResource } from '../../k8s/discovery';
import { invalidateObject, objectQuery, setObject } from '../../k8s/objects';
import { fieldHintsFrom, groupVersionKey, openApiIndexQuery, schemaAnswerQuery } from '../../k8s/openapi';
import { apiVersionOf, type ResourceRef, resourcePath } from '../../k8s/paths';
import { type FieldHints, type JsonObject, NO_HINTS, unkeyedLists } from '../../k8s/patch';
import { classifyOutcome, type Format, generateBody, metaOf, parseText, viewOf, withoutServerMetadata } from './body';
import { editorKey, handOver, initialState } from './handover';
import { bodyGuarded, type Resend } from './recovery';
import { buildWriteRequest, sendWrite, type WireRequest } from './request';
import { type EditAction, editReducer, type EditState, undecidedConflicts } from './state';
import { applyRefusal, bodyToSend, requestToSend } from './toSend';
import { useObjectWatch } from './useObjectWatch';
import { WRITE_MODE_TABLE, type WriteMode } from './writeModes';

interface WriteVars {
  request: WireRequest;
  mode: WriteMode;
  dryRun: boolean;
  preview: boolean;
  before?: JsonObject;
  edited?: JsonObject;
  guardedApply: boolean;
  createOnly: boolean;
  sent: { text: string; format: Format };
}

/** Merge keys and list types of the route's kind, from the OpenAPI v3 document of its group version. */
function useFieldHints(context: string, group: string | undefined, version: string | undefined, kind: string | undefined): { hints: FieldHints; loading: boolean } {
  const index = useQuery({ ...openApiIndexQuery(context), enabled: !!version && !!kind });
  const url = group !== undefined && version ? index.data?.paths[groupVersionKey(group, version)]?.serverRelativeURL : undefined;
  // The kind's subtree without descriptions, from the schema worker: the page never holds the whole document.
  const sub = useQuery(schemaAnswerQuery(context, url, kind && version && group !== undefined ? { q: 'hints', group, version, kind } : undefined));
  const hints = useMemo(() => (sub.data?.found === 'subtree' ? fieldHintsFrom(sub.data.doc, sub.data.root) : NO_HINTS), [sub.data]);
  return { hints, loading: index.isLoading || (!!url && sub.isLoading) };
}

/** Where the route points: the resource from discovery, the object's ref and paths. */
function useTarget(context: string, route: Route) {
  const discovery = useQuery(discoveryQuery(context));
  const res = findResource(discovery.data, route.group, route.version, route.resource);
  const hasType = route.group !== undefined && !!route.version && !!route.resource;
  const isCreate = hasType && !route.name;
  const namespace = res && !res.namespaced ? undefined : route.namespace;
  const collectionPath = hasType ? resourcePath({ group: route.group!, version: route.version!, resource: route.resource!, namespace }) : '';
  const ref: ResourceRef | undefined = hasType && route.name ? { group: route.group!, version: route.version!, resource: route.resource!, namespace, name: route.name } : undefined;
  const loadedPath = ref ? resourcePath(ref) : undefined;
  return { discovery, res, hasType, isCreate, namespace, collectionPath, ref, loadedPath };
}

/** The write: sent as shown, its outcome to the reducer and the server's answer to every view of the object. */
function useWriteMutation(p: { context: string; route: Route; isCreate: boolean; namespace?: string; ref?: ResourceRef; objectPath?: string; hints: FieldHints; s: EditState; dispatch: Dispatch<EditAction> }) {
  const { context, route, isCreate, namespace, ref, objectPath, hints, s, dispatch } = p;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: WriteVars) => sendWrite(context, v.mode, v.request, { guardedApply: v.guardedApply, createOnly: v.createOnly }),
    onSuccess: (ex, v) => {
      const outcome = classifyOutcome(ex, { mode: v.mode, dryRun: v.dryRun, before: v.before, edited: v.edited, hints });
      const stored = outcome.ok && !v.dryRun && v.mode !== 'delete';
      // (The editor stays open while the request is on its way: what was typed since is kept.)
      dispatch({ type: 'sent', outcome, stored, preview: v.preview, sent: v.sent, hints });
      // Every view of this object now shows the server's answer.
      if (stored && outcome.object && objectPath) setObject(queryClient, context, { group: route.group!, version: route.version!, resource: route.resource!, namespace, name: metaOf(outcome.object).name }, outcome.object);
      if (outcome.ok && !v.dryRun && v.mode === 'delete' && ref) void invalidateObject(queryClient, context, ref);
      // Created (a POST's 201, or an apply that made the object): edit it from now on.
      const created = metaOf(outcome.object).name;
      if (isCreate && stored && created) {
        handOver(editorKey({ ...route, name: created }), { outcome, mode: v.mode === 'apply' ? 'apply' : 'merge-patch', editor: { text: s.text, format: s.format, sent: v.sent, hints } });
        navigate({ name: created });
      }
    },
  });

}

export function useEditSession(context: string, route: Route) {
  const queryClient = useQueryClient();
  const t = useTarget(context, route);
  const { discovery, res, hasType, isCreate, namespace, collectionPath, ref, loadedPath } = t;

  // The one object query shared with Lists and Ownership. Wait for discovery: it says whether the
  // resource is namespaced, and a cluster-scoped object read under /namespaces/<ns>/ is a 404.
  const loaded = useQuery(objectQuery<JsonObject & { metadata?: Record<string, unknown> }>(context, discovery.isLoading ? undefined : ref));
  const { hints, loading: hintsLoading } = useFieldHints(context, route.group, route.version, res?.kind);

  const [s, dispatch] = useReducer(editReducer, undefined, () => initialState(editorKey(route), !!route.name));

  // Every version of the object the query holds (first read, re-read, watch event, another view's
  // write) goes to the reducer, which follows it or raises the banner.
  useEffect(() => {
    if (loaded.data) dispatch({ type: 'server-object', object: loaded.data as JsonObject });
  }, [loaded.data]);

  useObjectWatch(context, ref, metaOf(s.base).resourceVersion, dispatch);

  // Create mode: a skeleton of the route's kind in the route's namespace.
  useEffect(() => {
    if (isCreate && res) dispatch({ type: 'skeleton', object: { apiVersion: apiVersionOf(res.group, res.version), kind: res.kind, metadata: { name: '', ...(namespace ? { namespace } : {}) } } });
  }, [isCreate, res, namespace]);

  const parsed = useMemo(() => parseText(s.text, s.format), [s.text, s.format]);
  const edited = parsed.obj;
  const baseView = s.base ? viewOf(s.base, s.showManaged) : undefined;
  const editedName = metaOf(edited).name;
  const objectPath = loadedPath ?? (hasType && editedName ? resourcePath({ group: route.group!, version: route.version!, resource: route.resource!, namespace, name: editedName }) : undefined);
  const rv = metaOf(s.base).resourceVersion;
  const entry = WRITE_MODE_TABLE[s.mode];

  const body = useMemo(() => bodyToSend(s, edited, hints), [s, edited, hints]);
  const refusal = useMemo(() => applyRefusal(s, edited, hints), [s, edited, hints]);
  // What the body says, not the checkbox: a body typed by hand may carry no guard.
  const guarded = s.mode === 'delete' ? s.preRv !== undefined : bodyGuarded(s.mode, body, rv);

  const paths = { objectPath, collectionPath };
  const wire: WireRequest | undefined = requestToSend(s, body, paths);

  const write = useWriteMutation({ context, route, isCreate, namespace, ref, objectPath, hints, s, dispatch });

  // Asked before a write, as the console does: a SelfSubjectAccessReview for the mode's verb.
  const verb = entry.verb;
  const access = useQuery(accessQuery(context, hasType ? { group: route.group ?? '', resource: route.resource ?? '', namespace, name: isCreate ? undefined : route.name } : undefined, [verb]));

  const applyNeedsManager = s.mode === 'apply' && !s.opts.fieldManager.trim();
  // Bodies that key lists by the schema wait for it: an apply built without it would carry whole
  // lists (and own every element in them), a patch would replace or index them.
  const waitingForHints = (entry.needsHints === true || (entry.needsHints === 'object' && !isCreate)) && hintsLoading && s.patchOverride === null;
  const unkeyed = useMemo(() => (s.mode === 'apply' && !isCreate && edited && s.base && !hintsLoading ? unkeyedLists(baseView, edited, hints) : []), [s.mode, isCreate, edited, s.base, baseView, hints, hintsLoading]);
  const undecided = undecidedConflicts(s).length;
  const canSend = !!wire && !write.isPending && !applyNeedsManager && !waitingForHints && (undecided === 0 || s.mode === 'delete') && (s.mode === 'delete' || !parsed.error || s.patchOverride !== null);

  // An apply on a loaded object with the guard on must never create it (see sendWrite);
  // `recreate` is the user's separate, explicit choice to apply it anew without the guard.
  function send(over: { preview?: boolean } = {}) {
    if (!wire || !canSend) return;
    const dryRun = over.preview ? true : s.opts.dryRun;
    // What goes out is the request shown (`wire`); a preview is the same with dryRun=All.
    const request = over.preview ? { ...wire, query: { ...wire.query, dryRun: 'All' } } : wire;
    const guardedApply = s.mode === 'apply' && !isCreate && s.guard;
    // Create mode names the object in the body: an apply there must not change one that exists.
    const createOnly = s.mode === 'apply' && isCreate && !!editedName;
    write.mutate({ request, mode: s.mode, dryRun, preview: !!over.preview, before: s.base, edited: s.patchOverride === null ? edited : undefined, guardedApply, createOnly, sent: { text: s.text, format: s.format } });
  }

  /** A recovery button: the request its result came from, as the button changed it (recovery.ts), in that request's mode. */
  function resend(r: Resend | undefined, check: { before?: JsonObject; edited?: JsonObject } = { before: s.base }) {
    if (!r || write.isPending) return;
    write.mutate({ ...r, dryRun: r.request.query.dryRun === 'All', preview: false, ...check, sent: { text: s.text, format: s.format } });
  }

  function recreate() {
    if (!edited) return;
    // Always an apply (whatever mode is selected now): the button answers a refused apply.
    const unguarded = generateBody({ mode: 'apply', format: s.format, base: undefined, live: undefined, edited: withoutServerMetadata(edited), guard: false, fieldManager: s.opts.fieldManager, touchedOnly: false, hints });
    resend({ mode: 'apply', request: buildWriteRequest('apply', paths, unguarded, { ...s.opts, force: false }), guardedApply: false, createOnly: false }, { edited });
  }

  async function loadLatest() {
    if (!ref) return;
    try {
      const object = await queryClient.fetchQuery({ ...objectQuery<JsonObject>(context, ref), staleTime: 0 });
      dispatch({ type: 'latest', latest: { object } });
    } catch (error) {
      dispatch({ type: 'latest', latest: { error } });
    }
  }

  return {
    ...t,
    context,
    route,
    s,
    dispatch,
    loaded,
    hints,
    parsed,
    edited,
    baseView,
    rv,
    body,
    refusal,
    guarded,
    wire,
    write,
    verb,
    decision: access.data?.[0],
    applyNeedsManager,
    waitingForHints,
    unkeyed,
    canSend,
    send,
    resend,
    recreate,
    loadLatest,
  };
}

export type EditSession = ReturnType<typeof useEditSession>;

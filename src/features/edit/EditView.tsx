// The Edit view: load one object, edit it as YAML or JSON, and write it back with any of the API's
// write verbs — POST, PUT (resourceVersion as an optimistic lock), the four PATCH types, DELETE —
// with dryRun, fieldValidation and fieldManager. Every request is shown exactly as sent.
//
// Layout of the code: state.ts (one reducer), body.ts (pure: bodies, parsing, outcomes),
// panels.tsx (presentational), request.ts (the wire request). This file wires them: the shared
// object query, the object's watch, the OpenAPI hints, and the write mutation.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useMemo, useReducer } from 'react';
import { hrefFor, navigate, type Route } from '../../routing';
import { sharedMux } from '../../k8s/client';
import { accessQuery } from '../../k8s/access';
import { discoveryQuery, findResource } from '../../k8s/discovery';
import { invalidateObject, objectQuery, setObject } from '../../k8s/objects';
import { fieldHintsFrom, groupVersionKey, openApiIndexQuery, schemaAnswerQuery } from '../../k8s/openapi';
import { apiVersionOf, type ResourceRef, resourcePath } from '../../k8s/paths';
import { applyOwnershipPreview, type FieldHints, type JsonObject, NO_HINTS, unkeyedLists } from '../../k8s/patch';
import { inform } from '../../k8s/watch';
import { jsonNesting, MAX_NESTING, yamlVersionDifferences } from '../../codecs';
import { parseJsonExact } from '../../codecs/json';
import { CodeEditor } from '../../ui/CodeEditor';
import { ErrorBox } from '../../ui/ErrorBox';
import { classifyOutcome, type Format, generateBody, metaOf, parseText, serialize, TOUCHED_SUFFIX, viewOf, withoutServerMetadata } from './body';
import './edit.css';
import { DeletionPanel } from '../deletion';
import { FourWays } from './FourWays';
import { ApplyPreviewPanel, DifferencesWarning, EditDiff, ExchangesPanel, OutcomeView, ParseProblems, ServerChangedBanner, wireText, YamlNotes } from './panels';
import { buildWriteRequest, type DeleteOptionsInput, type FieldValidation, MODE_INFO, sendWrite, type WireRequest, type WriteMode } from './request';
import { RebaseConflicts } from './RebaseConflicts';
import { bodyGuarded, dropResend, forceResend, recoverable, type Resend } from './recovery';
import { editReducer, undecidedConflicts } from './state';
import { editorKey, handOver, initialState } from './handover';
import { Subresources } from './Subresources';
import { SchemaNotice, useEditorSchema } from './useEditorSchema';
import { applyRefusal, bodyToSend, requestToSend } from './toSend';

const PATCH_MODES: WriteMode[] = ['json-patch', 'merge-patch', 'strategic-merge-patch', 'apply'];
const VERB_FOR: Record<WriteMode, string> = { create: 'create', replace: 'update', 'json-patch': 'patch', 'merge-patch': 'patch', 'strategic-merge-patch': 'patch', apply: 'patch', delete: 'delete' };

function exactEventObject(raw: string | undefined, object: JsonObject): JsonObject {
  if (!raw) return object;
  const e = parseJsonExact(raw) as { object?: JsonObject };
  return e.object ?? object;
}

export function EditView({ route, context }: { route: Route; context: string }) {
  // A fresh editor per object: its state (edit, mode, results) belongs to one object.
  return <EditObject key={editorKey(route)} route={route} context={context} />;
}

/** Merge keys and list types of the route's kind, from the OpenAPI v3 document of its group version. */
function useFieldHints(context: string, group: string | undefined, version: string | undefined, kind: string | undefined): { hints: FieldHints; loading: boolean } {
  const index = useQuery({ ...openApiIndexQuery(context), enabled: !!version && !!kind });
  const url = group !== undefined && version ? index.data?.paths[groupVersionKey(group, version)]?.serverRelativeURL : undefined;
  // The kind's subtree without descriptions, from the schema worker: the page never holds the whole document.
  const sub = useQuery({ ...schemaAnswerQuery(context, url, { q: 'hints', group: group ?? '', version: version ?? '', kind: kind ?? '' }), enabled: !!url && !!kind });
  const hints = useMemo(() => (sub.data?.found === 'subtree' ? fieldHintsFrom(sub.data.doc, sub.data.root) : NO_HINTS), [sub.data]);
  return { hints, loading: index.isLoading || (!!url && sub.isLoading) };
}

function EditObject({ route, context }: { route: Route; context: string }) {
  const queryClient = useQueryClient();
  const discovery = useQuery(discoveryQuery(context));
  const res = findResource(discovery.data, route.group, route.version, route.resource);
  const hasType = route.group !== undefined && !!route.version && !!route.resource;
  const isCreate = hasType && !route.name;
  const namespace = res && !res.namespaced ? undefined : route.namespace;
  const collectionPath = hasType ? resourcePath({ group: route.group!, version: route.version!, resource: route.resource!, namespace }) : '';
  const ref: ResourceRef | undefined = hasType && route.name ? { group: route.group!, version: route.version!, resource: route.resource!, namespace, name: route.name } : undefined;
  const loadedPath = ref ? resourcePath(ref) : undefined;

  // The one object query shared with Lists and Ownership. Wait for discovery: it says whether the
  // resource is namespaced, and a cluster-scoped object read under /namespaces/<ns>/ is a 404.
  const loaded = useQuery({ ...objectQuery<JsonObject & { metadata?: Record<string, unknown> }>(context, ref ?? { group: '', version: '', resource: '' }), enabled: !!ref && !discovery.isLoading });
  const { hints, loading: hintsLoading } = useFieldHints(context, route.group, route.version, res?.kind);

  const [s, dispatch] = useReducer(editReducer, undefined, () => initialState(editorKey(route), !!route.name));

  // Every version of the object the query holds (first read, re-read, watch event, another view's
  // write) goes to the reducer, which follows it or raises the banner.
  useEffect(() => {
    if (loaded.data) dispatch({ type: 'server-object', object: loaded.data as JsonObject });
  }, [loaded.data]);

  // Watch the object while it is open, from the loaded resourceVersion: someone else's change
  // shows before the user sends (API concepts: "Efficient detection of changes"). On the engine's
  // informer: a dropped stream resumes from the last resourceVersion, 410 Gone relists (the
  // object as the server has it now, or its absence), with backoff.
  const baseRv = metaOf(s.base).resourceVersion;
  useEffect(() => {
    if (!ref || !baseRv || !route.name) return;
    const name = route.name;
    return inform(
      { context, group: ref.group, version: ref.version, resource: ref.resource, namespace: ref.namespace, name, resourceVersion: baseRv },
      {
        mux: sharedMux(),
        onChange: (objects, event) => {
          if (event) {
            // Re-read from the line's text with exact integers: the event's object came from JSON.parse.
            // An object grown deeper than the views walk is read again, which says so (codecs/nesting.ts).
            if ((event.type === 'MODIFIED' || event.type === 'ADDED') && jsonNesting(event.raw ?? '') > MAX_NESTING) void invalidateObject(queryClient, context, ref);
            else if (event.type === 'MODIFIED' || event.type === 'ADDED') setObject(queryClient, context, ref, exactEventObject(event.raw, event.object as JsonObject));
            else if (event.type === 'DELETED') dispatch({ type: 'server-deleted' });
            return;
          }
          // A relist: the object as it is now, or gone.
          const now = [...objects.values()].find((o) => o.metadata?.name === name);
          // (Read again rather than taken from the list, whose integers JSON.parse may have rounded.)
          if (now) void invalidateObject(queryClient, context, ref);
          else dispatch({ type: 'server-deleted' });
        },
      },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- restart only when the base version changes
  }, [context, loadedPath, baseRv]);

  // Create mode: a skeleton of the route's kind in the route's namespace.
  useEffect(() => {
    if (isCreate && res) dispatch({ type: 'skeleton', object: { apiVersion: apiVersionOf(res.group, res.version), kind: res.kind, metadata: { name: '', ...(namespace ? { namespace } : {}) } } });
  }, [isCreate, res, namespace]);

  const editorSchema = useEditorSchema(context, res);
  const parsed = useMemo(() => parseText(s.text, s.format), [s.text, s.format]);
  const edited = parsed.obj;
  const baseView = s.base ? viewOf(s.base, s.showManaged) : undefined;
  const editedName = metaOf(edited).name;
  const objectPath = loadedPath ?? (hasType && editedName ? resourcePath({ group: route.group!, version: route.version!, resource: route.resource!, namespace, name: editedName }) : undefined);
  const rv = metaOf(s.base).resourceVersion;

  const body = useMemo(() => bodyToSend(s, edited, hints), [s, edited, hints]);
  const refusal = useMemo(() => applyRefusal(s, edited, hints), [s, edited, hints]);
  // What the body says, not the checkbox: a body typed by hand may carry no guard.
  const guarded = s.mode === 'delete' ? s.preRv !== undefined : bodyGuarded(s.mode, body, rv);

  const paths = { objectPath, collectionPath };
  const wire: WireRequest | undefined = requestToSend(s, body, paths);

  const write = useMutation({
    mutationFn: (v: { request: WireRequest; mode: WriteMode; dryRun: boolean; preview: boolean; before?: JsonObject; edited?: JsonObject; guardedApply: boolean; createOnly: boolean; sent: { text: string; format: Format } }) =>
      sendWrite(context, v.mode, v.request, { guardedApply: v.guardedApply, createOnly: v.createOnly }),
    onSuccess: (ex, v) => {
      const outcome = classifyOutcome(ex, { mode: v.mode, dryRun: v.dryRun, before: v.before, edited: v.edited, hints });
      const stored = outcome.ok && !v.dryRun && v.mode !== 'delete';
      // (The editor stays open while the request is on its way: what was typed since is kept.)
      dispatch({ type: 'sent', outcome, stored, preview: v.preview, sent: v.sent, hints });
      // Every view of this object now shows the server's answer.
      if (stored && outcome.object && objectPath && hasType) setObject(queryClient, context, { group: route.group!, version: route.version!, resource: route.resource!, namespace, name: metaOf(outcome.object).name }, outcome.object);
      if (outcome.ok && !v.dryRun && v.mode === 'delete' && ref) void invalidateObject(queryClient, context, ref);
      // Created (a POST's 201, or an apply that made the object): edit it from now on.
      const created = metaOf(outcome.object).name;
      if (isCreate && stored && created) {
        handOver(editorKey({ ...route, name: created }), { outcome, mode: v.mode === 'apply' ? 'apply' : 'merge-patch', editor: { text: s.text, format: s.format, sent: v.sent, hints } });
        navigate({ name: created });
      }
    },
  });

  // Asked before a write, as the console does: a SelfSubjectAccessReview for the mode's verb.
  const verb = VERB_FOR[s.mode];
  const access = useQuery({ ...accessQuery(context, { group: route.group ?? '', resource: route.resource ?? '', namespace, name: isCreate ? undefined : route.name }, [verb]), enabled: hasType });
  const decision = access.data?.[0];

  const applyNeedsManager = s.mode === 'apply' && !s.opts.fieldManager.trim();
  // Bodies that key lists by the schema wait for it: an apply built without it would carry whole
  // lists (and own every element in them), a patch would replace or index them.
  const waitingForHints = (s.mode === 'strategic-merge-patch' || s.mode === 'json-patch' || (s.mode === 'apply' && !isCreate)) && hintsLoading && s.patchOverride === null;
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

  if (!hasType) {
    return (
      <section>
        <h2>Edit</h2>
        <p>Open an object from the Lists view (or choose a resource there) to edit it here; without a name this view creates a new object of the route's resource.</p>
      </section>
    );
  }
  // Only a first read that failed replaces the view: an object that vanishes while open (deleted
  // here or elsewhere) keeps the editor, the deletion log and the outcome on screen, with a note.
  if (loaded.error && !s.base) return <ErrorBox error={loaded.error} title={`Could not read ${loadedPath}`} />;
  if (loadedPath && !s.base) return <p className="muted">Reading {loadedPath}…</p>;

  const modes: WriteMode[] = isCreate ? ['create', 'apply'] : ['replace', ...PATCH_MODES, 'delete'];
  const verbs = res?.verbs ?? [];
  const baseMeta = metaOf(s.base);
  const isPatch = s.mode !== 'create' && s.mode !== 'replace' && s.mode !== 'delete';
  const preview = s.preview;

  return (
    <div className="edit-view">
      {loaded.error && (
        <p className="edit-wide warning-list" role="status" aria-label="Object gone">
          The server no longer has {loadedPath} ({loaded.error instanceof Error ? loaded.error.message : String(loaded.error)}): what is shown is the last version read.
        </p>
      )}
      <header className="edit-wide">
        <h2>
          {isCreate ? `New ${res?.kind ?? route.resource}` : `${res?.kind ?? route.resource} ${route.name}`}
          {namespace ? <span className="muted small"> in {namespace}</span> : null}
        </h2>
        <p className="muted small">
          {isCreate ? (
            <>Create mode: the object is POSTed to <code>{collectionPath}</code>, or applied by name.</>
          ) : (
            <>
              <code>{loadedPath}</code> at resourceVersion <code aria-label="Loaded resourceVersion">{baseMeta.resourceVersion}</code>, uid <code>{baseMeta.uid}</code>
            </>
          )}
        </p>
      </header>

      {s.serverChanged && s.base && (
        <ServerChangedBanner
          base={s.base}
          changed={s.serverChanged}
          guarded={guarded}
          editParses={!!edited}
          onFollow={() => s.serverChanged?.object && dispatch({ type: 'rebase', how: 'discard', object: s.serverChanged.object })}
          onReapply={() => s.serverChanged?.object && dispatch({ type: 'rebase', how: 'reapply', object: s.serverChanged.object, edited, hints })}
          onKeepMine={() => s.serverChanged?.object && dispatch({ type: 'rebase', how: 'keep-mine', object: s.serverChanged.object, edited })}
        />
      )}

      {s.rebase && <RebaseConflicts rebase={s.rebase} onChoose={(path, side) => dispatch({ type: 'choose', path, side })} />}

      <section className="stack" aria-label="Object">
        <div className="row">
          <span className="muted small">Edit as</span>
          <label>
            <input type="radio" name="edit-format" checked={s.format === 'yaml'} onChange={() => dispatch({ type: 'format', format: 'yaml', edited })} /> YAML
          </label>
          <label>
            <input type="radio" name="edit-format" checked={s.format === 'json'} onChange={() => dispatch({ type: 'format', format: 'json', edited })} /> JSON
          </label>
          <label title="Kubernetes' unambiguous YAML: strings always quoted, {} and [] everywhere">
            <input type="radio" name="edit-format" checked={s.format === 'kyaml'} onChange={() => dispatch({ type: 'format', format: 'kyaml', edited })} /> KYAML
          </label>
          {!isCreate && (
            <label title="The server's record of which manager owns which field; hidden by default">
              <input type="checkbox" checked={s.showManaged} onChange={(e) => dispatch({ type: 'show-managed', show: e.target.checked, edited })} /> Show managedFields
            </label>
          )}
          {!isCreate && (
            <button type="button" onClick={() => dispatch({ type: 'revert' })}>
              Revert my edit
            </button>
          )}
        </div>
        <CodeEditor value={s.text} onChange={(v) => dispatch({ type: 'text', text: v })} language={s.format === 'json' ? 'json' : 'yaml'} ariaLabel="Object editor" height="460px" onSubmit={() => send()} jsonSchema={editorSchema.schema} />
        <ParseProblems parsed={parsed} format={s.format} />
        {refusal && (
          <p className="edit-parse-error" role="alert">
            Not sent: {refusal}.
          </p>
        )}
        <SchemaNotice schema={editorSchema} />
      </section>

      <section className="stack" aria-label="Write">
        <fieldset className="edit-modes">
          <legend>Write mode</legend>
          {modes.map((m) => (
            <label key={m}>
              <input type="radio" name="edit-mode" checked={s.mode === m} onChange={() => dispatch({ type: 'mode', mode: m })} aria-label={MODE_INFO[m].label} />
              <span>
                <strong>{MODE_INFO[m].label}</strong>
                {res && !verbs.includes(VERB_FOR[m]) && <span className="badge warn"> not in discovery's verbs</span>} <span className="semantics">{MODE_INFO[m].semantics}</span>
              </span>
            </label>
          ))}
        </fieldset>

        <div className="edit-options">
          <label>
            <input type="checkbox" checked={s.opts.dryRun} onChange={(e) => dispatch({ type: 'opts', opts: { dryRun: e.target.checked } })} /> dryRun=All
          </label>
          {s.mode !== 'delete' && (
            <>
              <label>
                fieldValidation
                <select aria-label="fieldValidation" value={s.opts.fieldValidation} onChange={(e) => dispatch({ type: 'opts', opts: { fieldValidation: e.target.value as FieldValidation } })}>
                  <option value="">(not sent: server default, Warn)</option>
                  <option value="Ignore">Ignore</option>
                  <option value="Warn">Warn</option>
                  <option value="Strict">Strict</option>
                </select>
              </label>
              <label>
                fieldManager
                <input aria-label="fieldManager" value={s.opts.fieldManager} onChange={(e) => dispatch({ type: 'opts', opts: { fieldManager: e.target.value } })} size={20} required={s.mode === 'apply'} />
              </label>
            </>
          )}
          {isPatch && !isCreate && (
            <label title="JSON Patch: a leading test op (422 Invalid when it fails). Merge patches and apply: metadata.resourceVersion in the body (409 Conflict when stale).">
              <input type="checkbox" checked={s.guard} onChange={(e) => dispatch({ type: 'guard', on: e.target.checked })} /> only if unchanged (resourceVersion {rv})
            </label>
          )}
          {s.mode === 'apply' && (
            <label title="Take ownership of fields other managers own instead of getting 409 Conflict">
              <input type="checkbox" checked={s.opts.force} onChange={(e) => dispatch({ type: 'opts', opts: { force: e.target.checked } })} /> force
            </label>
          )}
          {s.mode === 'apply' && !isCreate && (
            <label title={`Sent as "${s.opts.fieldManager.replace(new RegExp(`${TOUCHED_SUFFIX}$`), '')}${TOUCHED_SUFFIX}": a manager of its own`}>
              <input type="checkbox" checked={s.touchedOnly} onChange={(e) => dispatch({ type: 'touched-only', on: e.target.checked })} /> apply only the fields I touched
            </label>
          )}
        </div>
        {applyNeedsManager && <p className="edit-parse-error">Server-Side Apply needs a fieldManager (the server answers 400 without one).</p>}
        {!guarded && isPatch && !isCreate && (
          <p className="small edit-parse-error" role="note" aria-label="Unguarded">
            Unguarded{s.patchOverride !== null && s.guard ? ' (the body typed by hand carries no resourceVersion guard)' : ''}: if someone changed the object since you loaded it, this patch applies on top of their version (a merge patch replaces lists whole, and may undo their change).
          </p>
        )}

        {s.mode === 'delete' ? (
          <div className="edit-options" aria-label="Delete options">
            <label>
              propagationPolicy
              <select aria-label="propagationPolicy" value={s.del.propagationPolicy} onChange={(e) => dispatch({ type: 'del', del: { propagationPolicy: e.target.value as DeleteOptionsInput['propagationPolicy'] } })}>
                <option value="">(not sent: the resource's default)</option>
                <option value="Foreground">Foreground (dependents first, then the owner)</option>
                <option value="Background">Background (owner now, dependents by the garbage collector)</option>
                <option value="Orphan">Orphan (dependents keep running, ownerReferences removed)</option>
              </select>
            </label>
            <label>
              gracePeriodSeconds
              <input aria-label="gracePeriodSeconds" inputMode="numeric" value={s.del.gracePeriodSeconds} onChange={(e) => dispatch({ type: 'del', del: { gracePeriodSeconds: e.target.value.replace(/[^0-9]/g, '') } })} size={6} placeholder="default" />
            </label>
            <label title="The server deletes only if the object still has this uid (not a re-created namesake)">
              <input type="checkbox" checked={s.preUid !== undefined} onChange={(e) => dispatch({ type: 'pre-uid', on: e.target.checked })} /> precondition uid {s.preUid ?? baseMeta.uid}
            </label>
            <label title="The server deletes only if nobody changed the object since you loaded it (else 409)">
              <input type="checkbox" checked={s.preRv !== undefined} onChange={(e) => dispatch({ type: 'pre-rv', on: e.target.checked })} /> precondition resourceVersion {s.preRv ?? baseMeta.resourceVersion}
              {s.preRv !== undefined && s.preRv !== baseMeta.resourceVersion && <span className="warn"> (as ticked; the object is at {baseMeta.resourceVersion} now: the server answers 409)</span>}
            </label>
          </div>
        ) : isPatch ? (
          <div className="stack">
            <div className="row">
              <strong className="small">Patch body</strong>
              <span className="muted small">{s.patchOverride === null ? 'generated from your edit against the loaded object; edit it here to send something else' : 'edited by hand'}</span>
              {s.patchOverride !== null && (
                <button type="button" onClick={() => dispatch({ type: 'override', body: null })}>
                  Regenerate from the edit
                </button>
              )}
            </div>
            {s.mode === 'strategic-merge-patch' && (
              <p className="muted small">
                Lists the schema merges by key (<code>x-kubernetes-patch-merge-key</code>) are patched element by element: a removed element is sent as <code>$patch: delete</code>, the order as <code>$setElementOrder</code>, a removed value of a merged scalar list as{' '}
                <code>$deleteFromPrimitiveList</code>. {waitingForHints ? 'Reading the schema…' : hints === NO_HINTS ? 'No schema found for this kind: lists are replaced whole.' : ''}
              </p>
            )}
            {s.mode === 'json-patch' && <p className="muted small">Lists with a key in the schema are diffed by key: an inserted element is one add, a removed one one remove.</p>}
            {s.mode === 'apply' && !isCreate && (
              <p className="muted small">
                {s.touchedOnly
                  ? `Only the fields you changed, under the manager "${s.opts.fieldManager}". Do not send this as your usual manager: its next apply would then delete every field it applied before and left out here.`
                  : `Everything "${s.opts.fieldManager}" owns now (from managedFields) with your edit laid over it: fields you deleted are left out, so the server removes them unless another manager owns them. Other managers' fields are not sent.`}{' '}
                {waitingForHints ? 'Reading the schema (lists are keyed by it)…' : ''}
              </p>
            )}
            {unkeyed.length > 0 && (
              <p className="small edit-parse-error" role="status" aria-label="Unkeyed lists">
                {hints === NO_HINTS ? 'No schema for this kind' : 'The schema gives no key'} for {unkeyed.map((p) => p).join(', ')}: {unkeyed.length === 1 ? 'this list is' : 'these lists are'} sent whole, so "{s.opts.fieldManager}" will own every element in {unkeyed.length === 1 ? 'it' : 'them'}, not only the ones you changed.
              </p>
            )}
            <CodeEditor value={body} onChange={(v) => dispatch({ type: 'override', body: v })} language={s.mode === 'apply' && s.format !== 'json' ? 'yaml' : 'json'} ariaLabel="Patch body" height="220px" onSubmit={() => send()} />
            {/* This body goes out verbatim (typed over or not); as application/apply-patch+yaml the server reads it as YAML 1.1. */}
            {s.mode === 'apply' && s.format !== 'json' && <YamlNotes notes={yamlVersionDifferences(body).map((d) => d.message)} />}
          </div>
        ) : null}

        {decision && !decision.allowed && (
          <p className="warning-list" role="note" aria-label="Access check">
            <strong className="warn">
              Context {context} may not {verb} {route.resource}
            </strong>
            {namespace ? ` in namespace ${namespace}` : ''} (SelfSubjectAccessReview): the server will answer 403 Forbidden. {decision.reason}
          </p>
        )}
        <div className="row">
          <button type="button" className="primary" disabled={!canSend} onClick={() => send()}>
            {write.isPending ? 'Sending…' : 'Send'}
          </button>
          {isPatch && !s.opts.dryRun && (
            <button type="button" disabled={!canSend} onClick={() => send({ preview: true })} title="Sends the request below with dryRun=All: nothing is stored">
              {s.mode === 'apply' ? 'Preview ownership (dryRun=All)' : 'Check the result (dryRun=All)'}
            </button>
          )}
          {s.opts.dryRun && <span className="edit-dry">dry run: the server validates and answers, nothing is stored</span>}
        </div>
        {preview && (
          <div className="stack" aria-label="Preview">
            {preview.mode === 'apply' && (
              <ApplyPreviewPanel preview={preview.object && s.base ? applyOwnershipPreview(s.base, preview.object, s.opts.fieldManager) : preview.object ? applyOwnershipPreview(undefined, preview.object, s.opts.fieldManager) : undefined} conflicts={preview.conflicts} />
            )}
            {preview.ok && preview.differences.length === 0 && <p className="small">The dry-run result is your edit (server-set fields and defaults aside).</p>}
            <DifferencesWarning differences={preview.differences} dryRun />
            {!preview.ok && preview.conflicts.length === 0 && <p className="small edit-parse-error">The dry run failed: HTTP {preview.exchange.response?.status} {preview.status?.message}</p>}
          </div>
        )}
        {wire && (
          <div>
            <strong className="small">Request to send</strong>
            <pre className="edit-wire" aria-label="Request to send" tabIndex={0}>
              {wireText(wire)}
            </pre>
          </div>
        )}
      </section>

      {loadedPath && baseView && edited && s.mode !== 'delete' && (
        <details className="edit-wide">
          <summary>The same change four ways (JSON Patch, merge, strategic merge, apply)</summary>
          <FourWays context={context} objectPath={loadedPath} base={baseView} live={s.base} edited={edited} fieldManager={s.opts.fieldManager} hints={hints} />
        </details>
      )}

      {res && loadedPath && s.base && <Subresources context={context} resource={res} objectPath={loadedPath} latest={(loaded.data as JsonObject | undefined) ?? s.base} />}

      {s.mode === 'delete' && res && route.name && (
        <section className="edit-wide" aria-label="Deletion">
          <DeletionPanel context={context} discovery={discovery.data} resource={res} owner={{ group: res.group, version: res.version, resource: res.resource, namespace, name: route.name }} />
        </section>
      )}

      {s.outcome && (
        <section className="edit-wide">
          <OutcomeView
            outcome={s.outcome}
            format={s.format}
            // Force for this one request: the checkbox stays as the user left it.
            onForce={recoverable(s) ? () => resend(forceResend(s.outcome!)) : undefined}
            onRecreate={recreate}
            onDrop={recoverable(s) ? (fields) => resend(dropResend(s.outcome!, fields)) : undefined}
            onLoadLatest={() => void loadLatest()}
          />
          {!isCreate && (s.outcome.mode === 'create' || (s.outcome.mode === 'apply' && s.outcome.exchange.response?.status === 201)) && s.outcome.ok && (
            <p className="small" data-testid="now-editing">
              Created. The view now edits the new object: the next Send updates it.{' '}
              <a href={hrefFor({ view: 'edit', context: route.context, namespace: route.namespace, group: route.group, version: route.version, resource: route.resource })}>Create another</a>
            </p>
          )}
        </section>
      )}

      {s.latest && (
        <section className="edit-wide stack" aria-label="Latest version on the server">
          <h3>The server's latest version</h3>
          {s.latest.error ? (
            <ErrorBox error={s.latest.error} title="Could not read the latest version" />
          ) : s.latest.object && edited ? (
            <>
              <p className="small">
                Left: your edit. Right: the object as it is now (resourceVersion <code>{metaOf(s.latest.object).resourceVersion}</code>). Nothing is merged for you: choose.
              </p>
              <Suspense fallback={<p className="muted small">Loading the diff…</p>}>
                <EditDiff label="Your edit against the server's version" original={serialize(edited, 'yaml')} modified={serialize(viewOf(s.latest.object, s.showManaged), 'yaml')} originalTitle="your edit" modifiedTitle="server now" />
              </Suspense>
              <div className="row">
                <button type="button" onClick={() => dispatch({ type: 'rebase', how: 'discard', object: s.latest!.object! })}>
                  Discard my edit, edit the latest
                </button>
                <button type="button" onClick={() => dispatch({ type: 'rebase', how: 'reapply', object: s.latest!.object!, edited, hints })}>
                  Re-apply my changes to the latest version
                </button>
                <button type="button" title="Overwrites the other changes shown above with your edit when you send it" onClick={() => dispatch({ type: 'rebase', how: 'keep-mine', object: s.latest!.object!, edited })}>
                  Keep my edit, on the latest resourceVersion (overwrites their changes)
                </button>
              </div>
            </>
          ) : null}
        </section>
      )}

      <ExchangesPanel exchanges={s.exchanges} />
    </div>
  );
}

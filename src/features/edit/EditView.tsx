// The Edit view: load one object, edit it as YAML or JSON, and write it back with any of the API's
// write verbs — POST, PUT (resourceVersion as an optimistic lock), the four PATCH types, DELETE —
// with dryRun, fieldValidation and fieldManager. Every request is shown exactly as sent.
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { hrefFor, type Route } from '../../app/route';
import { parseWarningHeader } from '../../codecs/warnings';
import { isStatus, kubeJson, type Status } from '../../k8s/client';
import { discoveryQuery, findResource } from '../../k8s/discovery';
import { apiVersionOf, resourcePath } from '../../k8s/paths';
import { applyPatch, conflictManager, dropFields, guardJsonPatch, guardMergePatch, isObject, jsonPatch, type JsonObject, mergePatch, withoutManagedFields } from '../../k8s/patch';
import { CodeEditor } from '../../ui/CodeEditor';
import { ErrorBox, StatusView } from '../../ui/ErrorBox';
import { WarningList } from '../../ui/WarningList';
import './edit.css';
import { DeletionPanel } from '../deletion';
import { FourWays } from './FourWays';
import { Subresources } from './Subresources';
import { SchemaNotice, useEditorSchema } from './useEditorSchema';
import { buildWriteRequest, type DeleteOptionsInput, type Exchange, type FieldValidation, MODE_INFO, requestLine, sendExchange, type WireRequest, type WriteMode, type WriteOptions } from './request';

const EditDiff = lazy(() => import('./EditDiff').then((m) => ({ default: m.EditDiff })));

type Format = 'yaml' | 'json';
const DEFAULT_MANAGER = 'kube-api-explorer';
const PATCH_MODES: WriteMode[] = ['json-patch', 'merge-patch', 'strategic-merge-patch', 'apply'];

function serialize(obj: unknown, format: Format): string {
  return format === 'yaml' ? toYaml(obj, { lineWidth: 0 }) : `${JSON.stringify(obj, null, 2)}\n`;
}

function parseText(text: string, format: Format): { obj?: JsonObject; error?: string } {
  try {
    const v: unknown = format === 'yaml' ? parseYaml(text) : JSON.parse(text);
    return isObject(v) ? { obj: v } : { error: 'The document is not an object' };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

function metaOf(obj: JsonObject | undefined): { name?: string; resourceVersion?: string; uid?: string } {
  const m = obj?.metadata;
  return isObject(m) ? { name: typeof m.name === 'string' ? m.name : undefined, resourceVersion: typeof m.resourceVersion === 'string' ? m.resourceVersion : undefined, uid: typeof m.uid === 'string' ? m.uid : undefined } : {};
}

interface Outcome {
  exchange: Exchange;
  mode: WriteMode;
  dryRun: boolean;
  /** The object the request was based on (for the before/after diff). */
  before?: JsonObject;
  /** The sent apply body (to drop conflicting fields from). */
  sentBody?: string;
  ok: boolean;
  object?: JsonObject;
  status?: Status;
  warnings: ReturnType<typeof parseWarningHeader>;
}

export function EditView({ route, context }: { route: Route; context: string }) {
  // A fresh editor per object: its state (edit, mode, results) belongs to one object.
  const key = [route.namespace, route.group, route.version, route.resource, route.name].join('/');
  return <EditObject key={key} route={route} context={context} />;
}

function EditObject({ route, context }: { route: Route; context: string }) {
  const discovery = useQuery(discoveryQuery(context));
  const res = findResource(discovery.data, route.group, route.version, route.resource);
  const hasType = route.group !== undefined && !!route.version && !!route.resource;
  const isCreate = hasType && !route.name;
  const namespace = res && !res.namespaced ? undefined : route.namespace;
  const collectionPath = hasType ? resourcePath({ group: route.group!, version: route.version!, resource: route.resource!, namespace }) : '';
  const loadedPath = hasType && route.name ? resourcePath({ group: route.group!, version: route.version!, resource: route.resource!, namespace, name: route.name }) : undefined;

  const loaded = useQuery({
    queryKey: ['edit-object', context, loadedPath],
    queryFn: ({ signal }) => kubeJson<JsonObject>({ context, path: loadedPath!, signal }),
    // Wait for discovery: it says whether the resource is namespaced, and a cluster-scoped
    // object read under /namespaces/<ns>/ would be a 404.
    enabled: !!loadedPath && !discovery.isLoading,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });

  const [format, setFormat] = useState<Format>('yaml');
  const [showManaged, setShowManaged] = useState(false);
  /** The object as last read from the server: patches are computed against it. */
  const [base, setBase] = useState<JsonObject | undefined>();
  const [text, setText] = useState('');
  const [mode, setMode] = useState<WriteMode>(route.name ? 'merge-patch' : 'create');
  const [patchOverride, setPatchOverride] = useState<string | null>(null);
  const [opts, setOpts] = useState<WriteOptions>({ dryRun: false, fieldValidation: '', fieldManager: DEFAULT_MANAGER, force: false });
  const [del, setDel] = useState<DeleteOptionsInput>({ propagationPolicy: 'Background', gracePeriodSeconds: '' });
  const [preUid, setPreUid] = useState(false);
  const [preRv, setPreRv] = useState(false);
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [latest, setLatest] = useState<{ object?: JsonObject; error?: unknown } | undefined>();
  const [sending, setSending] = useState(false);
  /** Make patches conditional on the loaded resourceVersion (JSON Patch `test` op, or resourceVersion in a merge patch). */
  const [guard, setGuard] = useState(false);

  const view = (o: JsonObject, managed = showManaged) => (managed ? o : withoutManagedFields(o));

  // First load: the editor shows the server's object.
  useEffect(() => {
    if (loaded.data && !base) {
      setBase(loaded.data);
      setText(serialize(view(loaded.data), format));
    }
  }, [loaded.data]);

  // Create mode: a skeleton of the route's kind in the route's namespace.
  useEffect(() => {
    if (isCreate && res && !text) {
      const skeleton: JsonObject = { apiVersion: apiVersionOf(res.group, res.version), kind: res.kind, metadata: { name: '', ...(namespace ? { namespace } : {}) } };
      setText(serialize(skeleton, format));
    }
  }, [isCreate, res]);

  const editorSchema = useEditorSchema(context, res);
  const parsed = useMemo(() => parseText(text, format), [text, format]);
  const edited = parsed.obj;
  const baseView = base ? view(base) : undefined;
  const editedName = metaOf(edited).name;
  const objectPath = loadedPath ?? (hasType && editedName ? resourcePath({ group: route.group!, version: route.version!, resource: route.resource!, namespace, name: editedName }) : undefined);

  const rv = metaOf(base).resourceVersion;
  const generated = useMemo(() => {
    if (!edited) return '';
    switch (mode) {
      case 'create':
      case 'replace':
        return `${JSON.stringify(edited, null, 2)}\n`;
      case 'json-patch': {
        if (!baseView) return '';
        const ops = jsonPatch(baseView, edited);
        return `${JSON.stringify(guard && rv ? guardJsonPatch(ops, rv) : ops, null, 2)}\n`;
      }
      case 'merge-patch':
      case 'strategic-merge-patch': {
        if (!baseView) return '';
        const patch = mergePatch(baseView, edited);
        return `${JSON.stringify(guard && rv ? guardMergePatch(patch, rv) : patch, null, 2)}\n`;
      }
      case 'apply':
        return serialize(applyPatch(baseView, edited), format);
      case 'delete':
        return '';
    }
  }, [edited, baseView, mode, format, guard, rv]);
  const body = patchOverride ?? generated;

  const changeMode = (m: WriteMode) => {
    setMode(m);
    setPatchOverride(null);
  };

  const switchFormat = (f: Format) => {
    if (f === format) return;
    if (edited) setText(serialize(edited, f));
    setFormat(f);
    setPatchOverride(null);
  };

  const toggleManaged = (show: boolean) => {
    // The toggle changes what the editor shows, not the edit: managedFields come back from the
    // loaded object, or leave the editor.
    if (edited && base) {
      const meta = isObject(edited.metadata) ? edited.metadata : {};
      const baseMeta = isObject(base.metadata) ? base.metadata : {};
      const next = show ? { ...edited, metadata: { ...meta, managedFields: baseMeta.managedFields ?? [] } } : withoutManagedFields(edited);
      setText(serialize(next, format));
    }
    setShowManaged(show);
    setPatchOverride(null);
  };

  const deleteInput = (): DeleteOptionsInput => ({
    ...del,
    preconditionUid: preUid ? metaOf(base).uid : undefined,
    preconditionResourceVersion: preRv ? metaOf(base).resourceVersion : undefined,
  });

  const wire: WireRequest | undefined =
    mode === 'delete'
      ? objectPath
        ? buildWriteRequest('delete', { objectPath, collectionPath }, '', opts, deleteInput())
        : undefined
      : (mode === 'create' || objectPath) && body
        ? buildWriteRequest(mode, { objectPath, collectionPath }, body, opts)
        : undefined;

  const applyNeedsManager = mode === 'apply' && !opts.fieldManager.trim();
  const canSend = !!wire && !sending && !applyNeedsManager && (mode === 'delete' || !parsed.error || patchOverride !== null);

  async function send(over: { body?: string; force?: boolean } = {}) {
    if (!wire || (!canSend && over.body === undefined && over.force === undefined)) return;
    const request = over.body !== undefined || over.force !== undefined ? buildWriteRequest(mode, { objectPath, collectionPath }, over.body ?? body, { ...opts, force: over.force ?? opts.force }, deleteInput()) : wire;
    setSending(true);
    setLatest(undefined);
    const ex = await sendExchange(context, mode, request);
    setSending(false);
    setExchanges((xs) => [ex, ...xs].slice(0, 30));
    const r = ex.response;
    let json: unknown;
    try {
      json = r ? JSON.parse(r.body) : undefined;
    } catch {
      json = undefined;
    }
    const ok = !!r && r.status >= 200 && r.status < 300;
    const dry = opts.dryRun;
    const out: Outcome = {
      exchange: ex,
      mode,
      dryRun: dry,
      before: base ? withoutManagedFields(base) : undefined,
      sentBody: request.body,
      ok,
      warnings: parseWarningHeader(r?.headers.find(([k]) => k === 'warning')?.[1]),
    };
    if (isStatus(json)) out.status = json;
    else if (isObject(json)) out.object = json;
    if (!ok && !out.status) out.status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: r?.status, message: ex.error ?? r?.body.slice(0, 500) };
    setOutcome(out);
    // A stored write: the server's answer is the new base, so later patches start from it.
    if (ok && !dry && mode !== 'delete' && out.object) {
      setBase(out.object);
      setText(serialize(view(out.object), format));
      setPatchOverride(null);
    }
  }

  async function loadLatest() {
    if (!objectPath) return;
    try {
      setLatest({ object: await kubeJson<JsonObject>({ context, path: objectPath }) });
    } catch (error) {
      setLatest({ error });
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
  if (loaded.error) return <ErrorBox error={loaded.error} title={`Could not read ${loadedPath}`} />;
  if (loadedPath && !base) return <p className="muted">Reading {loadedPath}…</p>;

  const modes: WriteMode[] = isCreate ? ['create', 'apply'] : ['replace', ...PATCH_MODES, 'delete'];
  const verbs = res?.verbs ?? [];
  const verbFor: Record<WriteMode, string> = { create: 'create', replace: 'update', 'json-patch': 'patch', 'merge-patch': 'patch', 'strategic-merge-patch': 'patch', apply: 'patch', delete: 'delete' };
  const baseMeta = metaOf(base);

  return (
    <div className="edit-view">
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
              <code>{loadedPath}</code> at resourceVersion <code>{baseMeta.resourceVersion}</code>, uid <code>{baseMeta.uid}</code>
            </>
          )}
        </p>
      </header>

      <section className="stack" aria-label="Object">
        <div className="row">
          <span className="muted small">Edit as</span>
          <label>
            <input type="radio" name="edit-format" checked={format === 'yaml'} onChange={() => switchFormat('yaml')} /> YAML
          </label>
          <label>
            <input type="radio" name="edit-format" checked={format === 'json'} onChange={() => switchFormat('json')} /> JSON
          </label>
          {!isCreate && (
            <label title="The server's record of which manager owns which field; hidden by default">
              <input type="checkbox" checked={showManaged} onChange={(e) => toggleManaged(e.target.checked)} /> Show managedFields
            </label>
          )}
          {!isCreate && (
            <button
              type="button"
              onClick={() => {
                if (base) setText(serialize(view(base), format));
                setPatchOverride(null);
              }}
            >
              Revert my edit
            </button>
          )}
        </div>
        <CodeEditor value={text} onChange={(v) => setText(v)} language={format} ariaLabel="Object editor" height="460px" onSubmit={() => void send()} jsonSchema={editorSchema.schema} />
        <SchemaNotice schema={editorSchema} />
        {parsed.error && <p className="edit-parse-error" role="alert">Not valid {format.toUpperCase()}: {parsed.error}</p>}
      </section>

      <section className="stack" aria-label="Write">
        <fieldset className="edit-modes">
          <legend>Write mode</legend>
          {modes.map((m) => (
            <label key={m}>
              <input type="radio" name="edit-mode" checked={mode === m} onChange={() => changeMode(m)} aria-label={MODE_INFO[m].label} />
              <span>
                <strong>{MODE_INFO[m].label}</strong>
                {res && !verbs.includes(verbFor[m]) && <span className="badge warn"> not in discovery's verbs</span>} <span className="semantics">{MODE_INFO[m].semantics}</span>
              </span>
            </label>
          ))}
        </fieldset>

        <div className="edit-options">
          <label>
            <input type="checkbox" checked={opts.dryRun} onChange={(e) => setOpts({ ...opts, dryRun: e.target.checked })} /> dryRun=All
          </label>
          {mode !== 'delete' && (
            <>
              <label>
                fieldValidation
                <select aria-label="fieldValidation" value={opts.fieldValidation} onChange={(e) => setOpts({ ...opts, fieldValidation: e.target.value as FieldValidation })}>
                  <option value="">(not sent: server default, Warn)</option>
                  <option value="Ignore">Ignore</option>
                  <option value="Warn">Warn</option>
                  <option value="Strict">Strict</option>
                </select>
              </label>
              <label>
                fieldManager
                <input aria-label="fieldManager" value={opts.fieldManager} onChange={(e) => setOpts({ ...opts, fieldManager: e.target.value })} size={20} required={mode === 'apply'} />
              </label>
            </>
          )}
          {(mode === 'json-patch' || mode === 'merge-patch' || mode === 'strategic-merge-patch') && (
            <label title="JSON Patch: a leading test op (422 Invalid when it fails). Merge patches: metadata.resourceVersion in the body (409 Conflict when stale).">
              <input type="checkbox" checked={guard} onChange={(e) => setGuard(e.target.checked)} /> only if unchanged (resourceVersion {rv})
            </label>
          )}
          {mode === 'apply' && (
            <label title="Take ownership of fields other managers own instead of getting 409 Conflict">
              <input type="checkbox" checked={opts.force} onChange={(e) => setOpts({ ...opts, force: e.target.checked })} /> force
            </label>
          )}
        </div>
        {applyNeedsManager && <p className="edit-parse-error">Server-Side Apply needs a fieldManager (the server answers 400 without one).</p>}

        {mode === 'delete' ? (
          <div className="edit-options" aria-label="Delete options">
            <label>
              propagationPolicy
              <select aria-label="propagationPolicy" value={del.propagationPolicy} onChange={(e) => setDel({ ...del, propagationPolicy: e.target.value as DeleteOptionsInput['propagationPolicy'] })}>
                <option value="">(not sent: the resource's default)</option>
                <option value="Foreground">Foreground (dependents first, then the owner)</option>
                <option value="Background">Background (owner now, dependents by the garbage collector)</option>
                <option value="Orphan">Orphan (dependents keep running, ownerReferences removed)</option>
              </select>
            </label>
            <label>
              gracePeriodSeconds
              <input aria-label="gracePeriodSeconds" inputMode="numeric" value={del.gracePeriodSeconds} onChange={(e) => setDel({ ...del, gracePeriodSeconds: e.target.value.replace(/[^0-9]/g, '') })} size={6} placeholder="default" />
            </label>
            <label title="The server deletes only if the object still has this uid (not a re-created namesake)">
              <input type="checkbox" checked={preUid} onChange={(e) => setPreUid(e.target.checked)} /> precondition uid {baseMeta.uid}
            </label>
            <label title="The server deletes only if nobody changed the object since you loaded it (else 409)">
              <input type="checkbox" checked={preRv} onChange={(e) => setPreRv(e.target.checked)} /> precondition resourceVersion {baseMeta.resourceVersion}
            </label>
          </div>
        ) : mode !== 'create' && mode !== 'replace' ? (
          <div className="stack">
            <div className="row">
              <strong className="small">Patch body</strong>
              <span className="muted small">{patchOverride === null ? 'generated from your edit against the loaded object; edit it here to send something else' : 'edited by hand'}</span>
              {patchOverride !== null && (
                <button type="button" onClick={() => setPatchOverride(null)}>
                  Regenerate from the edit
                </button>
              )}
            </div>
            {mode === 'strategic-merge-patch' && (
              <p className="muted small">
                Generated as a merge patch; the server merges lists its schema marks with a patch strategy (containers by name) and replaces the others. To remove list elements add <code>$patch: delete</code> entries.
              </p>
            )}
            {mode === 'apply' && <p className="muted small">Only the fields you changed, plus apiVersion, kind and name: sending fields you do not mean to manage would make this manager their owner.</p>}
            <CodeEditor
              value={body}
              onChange={(v) => setPatchOverride(v)}
              language={mode === 'apply' && format === 'yaml' ? 'yaml' : 'json'}
              ariaLabel="Patch body"
              height="220px"
              onSubmit={() => void send()}
            />
          </div>
        ) : null}

        <div className="row">
          <button type="button" className="primary" disabled={!canSend} onClick={() => void send()}>
            {sending ? 'Sending…' : 'Send'}
          </button>
          {opts.dryRun && <span className="edit-dry">dry run: the server validates and answers, nothing is stored</span>}
        </div>
        {wire && (
          <div>
            <strong className="small">Request to send</strong>
            <pre className="edit-wire" aria-label="Request to send">
              {wireText(wire)}
            </pre>
          </div>
        )}
      </section>

      {loadedPath && baseView && edited && mode !== 'delete' && (
        <details className="edit-wide">
          <summary>The same change four ways (JSON Patch, merge, strategic merge, apply)</summary>
          <FourWays context={context} objectPath={loadedPath} base={baseView} edited={edited} fieldManager={opts.fieldManager} />
        </details>
      )}

      {res && loadedPath && base && <Subresources context={context} resource={res} objectPath={loadedPath} object={base} />}

      {mode === 'delete' && res && route.name && (
        <section className="edit-wide" aria-label="Deletion">
          <DeletionPanel context={context} discovery={discovery.data} resource={res} owner={{ group: res.group, version: res.version, resource: res.resource, namespace, name: route.name }} />
        </section>
      )}

      {outcome && (
        <section className="edit-wide">
          <OutcomeView
            outcome={outcome}
            format={format}
            onForce={() => {
              setOpts({ ...opts, force: true });
              void send({ body: outcome.sentBody, force: true });
            }}
            onDrop={(fields) => {
              const parsedBody = parseText(outcome.sentBody ?? '', 'yaml').obj;
              if (!parsedBody) return;
              const next = serialize(dropFields(parsedBody, fields).body, format);
              setPatchOverride(next);
              void send({ body: next });
            }}
            onLoadLatest={() => void loadLatest()}
          />
          {isCreate && outcome.ok && !outcome.dryRun && outcome.object && metaOf(outcome.object).name && (
            <p className="small">
              <a href={hrefFor({ view: 'edit', context: route.context, namespace: route.namespace, group: route.group, version: route.version, resource: route.resource, name: metaOf(outcome.object).name })}>Edit the new object</a>
            </p>
          )}
        </section>
      )}

      {latest && (
        <section className="edit-wide stack" aria-label="Latest version on the server">
          <h3>The server's latest version</h3>
          {latest.error ? (
            <ErrorBox error={latest.error} title="Could not read the latest version" />
          ) : latest.object && edited ? (
            <>
              <p className="small">
                Left: your edit. Right: the object as it is now (resourceVersion <code>{metaOf(latest.object).resourceVersion}</code>). Nothing is merged for you: choose.
              </p>
              <Suspense fallback={<p className="muted small">Loading the diff…</p>}>
                <EditDiff label="Your edit against the server's version" original={toYaml(edited)} modified={toYaml(view(latest.object))} originalTitle="your edit" modifiedTitle="server now" />
              </Suspense>
              <div className="row">
                <button
                  type="button"
                  onClick={() => {
                    setBase(latest.object);
                    setText(serialize(view(latest.object!), format));
                    setPatchOverride(null);
                    setLatest(undefined);
                  }}
                >
                  Discard my edit, edit the latest
                </button>
                <button
                  type="button"
                  title="Overwrites the other changes shown above with your edit when you send it"
                  onClick={() => {
                    const rv = metaOf(latest.object).resourceVersion;
                    const meta = isObject(edited.metadata) ? edited.metadata : {};
                    setBase(latest.object);
                    setText(serialize({ ...edited, metadata: { ...meta, resourceVersion: rv ?? null } }, format));
                    setPatchOverride(null);
                    setLatest(undefined);
                  }}
                >
                  Keep my edit, on the latest resourceVersion (overwrites their changes)
                </button>
              </div>
            </>
          ) : null}
        </section>
      )}

      {exchanges.length > 0 && (
        <section className="edit-wide stack" aria-label="Requests sent">
          <h3>On the wire</h3>
          <p className="muted small">
            Each request as the SPA sent it to the explorer's proxy (which adds nothing but the context's credentials; its X-Explorer-Token header is not shown) and the server's answer.
          </p>
          {exchanges.map((x, i) => (
            <details key={x.id} className="edit-exchange" open={i === 0}>
              <summary>
                {requestLine(x.request)} → {x.response ? `HTTP ${x.response.status} ${x.response.statusText}` : `failed: ${x.error}`}
              </summary>
              <pre className="edit-wire" aria-label="Request sent">
                {wireText(x.request)}
              </pre>
              {x.response && (
                <pre className="edit-wire" aria-label="Response received">
                  {`HTTP ${x.response.status} ${x.response.statusText}\n${x.response.headers.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${x.response.body.length > 4000 ? `${x.response.body.slice(0, 4000)}\n… (${x.response.body.length} characters)` : x.response.body}`}
                </pre>
              )}
            </details>
          ))}
        </section>
      )}
    </div>
  );
}

function wireText(r: WireRequest): string {
  const head = `${requestLine(r)}\n${Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}`;
  return r.body ? `${head}\n\n${r.body}` : head;
}

function OutcomeView({ outcome, format, onForce, onDrop, onLoadLatest }: { outcome: Outcome; format: Format; onForce: () => void; onDrop: (fields: string[]) => void; onLoadLatest: () => void }) {
  const r = outcome.exchange.response;
  const status = outcome.status;
  const conflicts = outcome.mode === 'apply' && r?.status === 409 ? (status?.details?.causes ?? []).filter((c) => c.reason === 'FieldManagerConflict') : [];
  // A stale resourceVersion: 409 Conflict for PUT and guarded merge patches; a JSON Patch whose
  // leading resourceVersion test op failed gets 422 Invalid instead.
  const testOpFailed = outcome.mode === 'json-patch' && r?.status === 422 && (outcome.sentBody ?? '').includes('"op": "test"');
  const stale = (outcome.mode !== 'apply' && r?.status === 409 && status?.reason === 'Conflict') || testOpFailed;
  const obj = outcome.object;
  const objMeta = obj && isObject(obj.metadata) ? obj.metadata : undefined;
  return (
    <div className={`edit-result ${outcome.ok ? 'ok' : 'failed'}`} role="region" aria-label="Result">
      <h3 aria-label="Result status">
        {MODE_INFO[outcome.mode].label}: {r ? `HTTP ${r.status} ${r.statusText}` : 'no response'}
        {outcome.dryRun && <span className="edit-dry"> (dry run, nothing persisted)</span>}
      </h3>
      <WarningList warnings={outcome.warnings} />
      {!outcome.ok && status && <StatusView status={status} />}
      {stale && (
        <div className="stack">
          <p>
            {testOpFailed
              ? 'A test operation failed, so the server applied none of the patch; with the resourceVersion test, that means the object changed after you loaded it.'
              : 'The object changed on the server after you loaded it: the resourceVersion you sent is stale, so the server refused the write and nothing was overwritten.'}
          </p>
          <button type="button" onClick={onLoadLatest}>
            Load the latest version and compare
          </button>
        </div>
      )}
      {conflicts.length > 0 && (
        <div className="stack">
          <table className="edit-conflicts" aria-label="Field conflicts">
            <thead>
              <tr>
                <th>Field</th>
                <th>Owned by</th>
                <th>Server's message</th>
              </tr>
            </thead>
            <tbody>
              {conflicts.map((c, i) => (
                <tr key={i}>
                  <td>
                    <code>{c.field}</code>
                  </td>
                  <td>{conflictManager(c.message) ?? '?'}</td>
                  <td>{c.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="row">
            <button type="button" onClick={onForce}>
              Re-send with force=true
            </button>
            <button type="button" onClick={() => onDrop(conflicts.map((c) => c.field ?? '').filter(Boolean))}>
              Drop these fields and re-send
            </button>
            <span className="muted small">Force makes this manager the owner of the fields; dropping them leaves them, and their values, to the other managers.</span>
          </div>
        </div>
      )}
      {outcome.mode === 'strategic-merge-patch' && r?.status === 415 && (
        <p className="small">Custom resources have no patch strategies in their schema, so the server does not accept strategic merge patches for them: use a JSON Merge Patch or Server-Side Apply.</p>
      )}
      {outcome.ok && outcome.mode === 'delete' && (
        <div className="stack">
          {status ? (
            <StatusViewOk status={status} />
          ) : objMeta ? (
            <p className="small">
              The server returned the object, not a Status: it is still there
              {objMeta.deletionTimestamp ? (
                <>
                  {' '}
                  with deletionTimestamp <code>{String(objMeta.deletionTimestamp)}</code>
                </>
              ) : null}
              {Array.isArray(objMeta.finalizers) && objMeta.finalizers.length > 0 ? (
                <>
                  , held by finalizers <code>{objMeta.finalizers.join(', ')}</code> until they are removed
                </>
              ) : null}
              {outcome.dryRun ? ' (dry run: as it would be)' : ''}.
            </p>
          ) : null}
          {obj && (
            <pre className="edit-wire" aria-label="Returned object">
              {serialize(obj, format)}
            </pre>
          )}
        </div>
      )}
      {outcome.ok && outcome.mode !== 'delete' && obj && (
        <Suspense fallback={<p className="muted small">Loading the diff…</p>}>
          <p className="small">{outcome.dryRun ? 'Dry-run preview: the object the server would store, against the current one.' : 'Stored: the object before your write against the server’s answer. The editor now holds the new version.'}</p>
          <EditDiff
            label={outcome.dryRun ? 'Dry-run preview' : 'Before and after'}
            original={outcome.before ? toYaml(outcome.before) : ''}
            modified={toYaml(withoutManagedFields(obj))}
            originalTitle={outcome.before ? 'current' : '(new object)'}
            modifiedTitle={outcome.dryRun ? 'server’s answer (not stored)' : 'server’s answer'}
          />
        </Suspense>
      )}
    </div>
  );
}

function StatusViewOk({ status }: { status: Status }) {
  return (
    <p className="small">
      Status <strong>{status.status ?? ''}</strong> {status.details?.kind ? `${status.details.kind} ${status.details.name ?? ''}` : ''} {status.message ?? ''}
    </p>
  );
}

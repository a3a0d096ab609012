// The Write section of the Edit view: the mode (from the write-mode table), the request's options,
// DeleteOptions, the patch body, the access check, Send and its preview, and the request to send.
// Presentational: state and actions come from useEditSession.
import { yamlVersionDifferences } from '../../codecs';
import { applyOwnershipPreview, NO_HINTS } from '../../k8s/patch';
import { CodeEditor } from '../../ui/CodeEditor';
import { metaOf, TOUCHED_SUFFIX } from './body';
import { ApplyPreviewPanel, DifferencesWarning, wireText, YamlNotes } from './panels';
import type { DeleteOptionsInput, FieldValidation } from './request';
import type { EditSession } from './useEditSession';
import { WRITE_MODE_TABLE, WRITE_MODES } from './writeModes';

type P = { e: EditSession };

function ModeChooser({ e }: P) {
  const { s, dispatch, isCreate, res } = e;
  // Create mode offers the modes that can make an object; a loaded object the others (the table's `offered`).
  const modes = WRITE_MODES.filter((m) => (isCreate ? WRITE_MODE_TABLE[m].offered.create : WRITE_MODE_TABLE[m].offered.object));
  const verbs = res?.verbs ?? [];
  return (
    <fieldset className="edit-modes">
      <legend>Write mode</legend>
      {modes.map((m) => (
        <label key={m}>
          <input type="radio" name="edit-mode" checked={s.mode === m} onChange={() => dispatch({ type: 'mode', mode: m })} aria-label={WRITE_MODE_TABLE[m].label} />
          <span>
            <strong>{WRITE_MODE_TABLE[m].label}</strong>
            {res && !verbs.includes(WRITE_MODE_TABLE[m].verb) && <span className="badge warn"> not in discovery's verbs</span>} <span className="semantics">{WRITE_MODE_TABLE[m].semantics}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

function RequestOptions({ e }: P) {
  const { s, dispatch, isCreate, rv } = e;
  const isPatch = WRITE_MODE_TABLE[s.mode].patch;
  return (
    <div className="edit-options">
      <label>
        <input type="checkbox" checked={s.opts.dryRun} onChange={(ev) => dispatch({ type: 'opts', opts: { dryRun: ev.target.checked } })} /> dryRun=All
      </label>
      {s.mode !== 'delete' && (
        <>
          <label>
            fieldValidation
            <select aria-label="fieldValidation" value={s.opts.fieldValidation} onChange={(ev) => dispatch({ type: 'opts', opts: { fieldValidation: ev.target.value as FieldValidation } })}>
              <option value="">(not sent: server default, Warn)</option>
              <option value="Ignore">Ignore</option>
              <option value="Warn">Warn</option>
              <option value="Strict">Strict</option>
            </select>
          </label>
          <label>
            fieldManager
            <input aria-label="fieldManager" value={s.opts.fieldManager} onChange={(ev) => dispatch({ type: 'opts', opts: { fieldManager: ev.target.value } })} size={20} required={s.mode === 'apply'} />
          </label>
        </>
      )}
      {isPatch && !isCreate && (
        <label title="JSON Patch: a leading test op (422 Invalid when it fails). Merge patches and apply: metadata.resourceVersion in the body (409 Conflict when stale).">
          <input type="checkbox" checked={s.guard} onChange={(ev) => dispatch({ type: 'guard', on: ev.target.checked })} /> only if unchanged (resourceVersion {rv})
        </label>
      )}
      {s.mode === 'apply' && (
        <label title="Take ownership of fields other managers own instead of getting 409 Conflict">
          <input type="checkbox" checked={s.opts.force} onChange={(ev) => dispatch({ type: 'opts', opts: { force: ev.target.checked } })} /> force
        </label>
      )}
      {s.mode === 'apply' && !isCreate && (
        <label title={`Sent as "${s.opts.fieldManager.replace(new RegExp(`${TOUCHED_SUFFIX}$`), '')}${TOUCHED_SUFFIX}": a manager of its own`}>
          <input type="checkbox" checked={s.touchedOnly} onChange={(ev) => dispatch({ type: 'touched-only', on: ev.target.checked })} /> apply only the fields I touched
        </label>
      )}
    </div>
  );
}

function DeleteOptionsPanel({ e }: P) {
  const { s, dispatch } = e;
  const baseMeta = metaOf(s.base);
  return (
    <div className="edit-options" aria-label="Delete options">
      <label>
        propagationPolicy
        <select aria-label="propagationPolicy" value={s.del.propagationPolicy} onChange={(ev) => dispatch({ type: 'del', del: { propagationPolicy: ev.target.value as DeleteOptionsInput['propagationPolicy'] } })}>
          <option value="">(not sent: the resource's default)</option>
          <option value="Foreground">Foreground (dependents first, then the owner)</option>
          <option value="Background">Background (owner now, dependents by the garbage collector)</option>
          <option value="Orphan">Orphan (dependents keep running, ownerReferences removed)</option>
        </select>
      </label>
      <label>
        gracePeriodSeconds
        <input aria-label="gracePeriodSeconds" inputMode="numeric" value={s.del.gracePeriodSeconds} onChange={(ev) => dispatch({ type: 'del', del: { gracePeriodSeconds: ev.target.value.replace(/[^0-9]/g, '') } })} size={6} placeholder="default" />
      </label>
      <label title="The server deletes only if the object still has this uid (not a re-created namesake)">
        <input type="checkbox" checked={s.preUid !== undefined} onChange={(ev) => dispatch({ type: 'pre-uid', on: ev.target.checked })} /> precondition uid {s.preUid ?? baseMeta.uid}
      </label>
      <label title="The server deletes only if nobody changed the object since you loaded it (else 409)">
        <input type="checkbox" checked={s.preRv !== undefined} onChange={(ev) => dispatch({ type: 'pre-rv', on: ev.target.checked })} /> precondition resourceVersion {s.preRv ?? baseMeta.resourceVersion}
        {s.preRv !== undefined && s.preRv !== baseMeta.resourceVersion && <span className="warn"> (as ticked; the object is at {baseMeta.resourceVersion} now: the server answers 409)</span>}
      </label>
    </div>
  );
}

/** What the selected patch mode does with lists, under its body. */
function PatchNotes({ e }: P) {
  const { s, isCreate, waitingForHints, hints, unkeyed } = e;
  return (
    <>
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
    </>
  );
}

function PatchBodyPanel({ e }: P) {
  const { s, dispatch, body, send } = e;
  const editorFormat = WRITE_MODE_TABLE[s.mode].editorFormat && s.format !== 'json';
  return (
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
      <PatchNotes e={e} />
      <CodeEditor value={body} onChange={(v) => dispatch({ type: 'override', body: v })} language={editorFormat ? 'yaml' : 'json'} ariaLabel="Patch body" height="220px" onSubmit={() => send()} />
      {/* This body goes out verbatim (typed over or not); as application/apply-patch+yaml the server reads it as YAML 1.1. */}
      {editorFormat && <YamlNotes notes={yamlVersionDifferences(body).map((d) => d.message)} />}
    </div>
  );
}

function SendRow({ e }: P) {
  const { s, decision, context, verb, route, namespace, canSend, write, send } = e;
  const preview = WRITE_MODE_TABLE[s.mode].preview;
  return (
    <>
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
        {preview && !s.opts.dryRun && (
          <button type="button" disabled={!canSend} onClick={() => send({ preview: true })} title="Sends the request below with dryRun=All: nothing is stored">
            {preview}
          </button>
        )}
        {s.opts.dryRun && <span className="edit-dry">dry run: the server validates and answers, nothing is stored</span>}
      </div>
    </>
  );
}

function PreviewPanel({ e }: P) {
  const { s } = e;
  const preview = s.preview;
  if (!preview) return null;
  return (
    <div className="stack" aria-label="Preview">
      {preview.mode === 'apply' && <ApplyPreviewPanel preview={preview.object ? applyOwnershipPreview(s.base, preview.object, s.opts.fieldManager) : undefined} conflicts={preview.conflicts} />}
      {preview.ok && preview.differences.length === 0 && <p className="small">The dry-run result is your edit (server-set fields and defaults aside).</p>}
      <DifferencesWarning differences={preview.differences} dryRun />
      {!preview.ok && preview.conflicts.length === 0 && <p className="small edit-parse-error">The dry run failed: HTTP {preview.exchange.response?.status} {preview.status?.message}</p>}
    </div>
  );
}

export function WritePanel({ e }: P) {
  const { s, isCreate, guarded, applyNeedsManager, wire } = e;
  const isPatch = WRITE_MODE_TABLE[s.mode].patch;
  return (
    <section className="stack" aria-label="Write">
      <ModeChooser e={e} />
      <RequestOptions e={e} />
      {applyNeedsManager && <p className="edit-parse-error">Server-Side Apply needs a fieldManager (the server answers 400 without one).</p>}
      {!guarded && isPatch && !isCreate && (
        <p className="small edit-parse-error" role="note" aria-label="Unguarded">
          Unguarded{s.patchOverride !== null && s.guard ? ' (the body typed by hand carries no resourceVersion guard)' : ''}: if someone changed the object since you loaded it, this patch applies on top of their version (a merge patch replaces lists whole, and may undo their change).
        </p>
      )}
      {s.mode === 'delete' ? <DeleteOptionsPanel e={e} /> : isPatch ? <PatchBodyPanel e={e} /> : null}
      <SendRow e={e} />
      <PreviewPanel e={e} />
      {wire && (
        <div>
          <strong className="small">Request to send</strong>
          <pre className="edit-wire" aria-label="Request to send" tabIndex={0}>
            {wireText(wire)}
          </pre>
        </div>
      )}
    </section>
  );
}

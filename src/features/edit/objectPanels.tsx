// The Edit view's panels around the write: the header, the object editor, the outcome of the last
// write, and the server's latest version beside the edit. Presentational: state and actions come
// from useEditSession.
import { Suspense } from 'react';
import { hrefFor } from '../../routing';
import { CodeEditor } from '../../ui/CodeEditor';
import { ErrorBox } from '../../ui/ErrorBox';
import { metaOf, serialize, viewOf } from './body';
import { EditDiff, OutcomeView, ParseProblems } from './panels';
import { dropResend, forceResend, recoverable } from './recovery';
import { type EditorSchemaState, SchemaNotice } from './useEditorSchema';
import type { EditSession } from './useEditSession';

type P = { e: EditSession };

export function EditHeader({ e }: P) {
  const { isCreate, res, route, namespace, collectionPath, loadedPath, s } = e;
  const baseMeta = metaOf(s.base);
  return (
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
  );
}

export function ObjectPanel({ e, editorSchema }: P & { editorSchema: EditorSchemaState }) {
  const { s, dispatch, edited, isCreate, parsed, refusal, send } = e;
  return (
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
            <input type="checkbox" checked={s.showManaged} onChange={(ev) => dispatch({ type: 'show-managed', show: ev.target.checked, edited })} /> Show managedFields
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
  );
}

export function OutcomeSection({ e }: P) {
  const { s, isCreate, route, resend, recreate, loadLatest } = e;
  if (!s.outcome) return null;
  const outcome = s.outcome;
  return (
    <section className="edit-wide">
      <OutcomeView
        outcome={outcome}
        format={s.format}
        // Force for this one request: the checkbox stays as the user left it.
        onForce={recoverable(s) ? () => resend(forceResend(outcome)) : undefined}
        onRecreate={recreate}
        onDrop={recoverable(s) ? (fields) => resend(dropResend(outcome, fields)) : undefined}
        onLoadLatest={() => void loadLatest()}
      />
      {!isCreate && (outcome.mode === 'create' || (outcome.mode === 'apply' && outcome.exchange.response?.status === 201)) && outcome.ok && (
        <p className="small" data-testid="now-editing">
          Created. The view now edits the new object: the next Send updates it.{' '}
          <a href={hrefFor({ view: 'edit', context: route.context, namespace: route.namespace, group: route.group, version: route.version, resource: route.resource })}>Create another</a>
        </p>
      )}
    </section>
  );
}

export function LatestSection({ e }: P) {
  const { s, dispatch, edited, hints } = e;
  if (!s.latest) return null;
  const latest = s.latest.object;
  return (
    <section className="edit-wide stack" aria-label="Latest version on the server">
      <h3>The server's latest version</h3>
      {s.latest.error ? (
        <ErrorBox error={s.latest.error} title="Could not read the latest version" />
      ) : latest && edited ? (
        <>
          <p className="small">
            Left: your edit. Right: the object as it is now (resourceVersion <code>{metaOf(latest).resourceVersion}</code>). Nothing is merged for you: choose.
          </p>
          <Suspense fallback={<p className="muted small">Loading the diff…</p>}>
            <EditDiff label="Your edit against the server's version" original={serialize(edited, 'yaml')} modified={serialize(viewOf(latest, s.showManaged), 'yaml')} originalTitle="your edit" modifiedTitle="server now" />
          </Suspense>
          <div className="row">
            <button type="button" onClick={() => dispatch({ type: 'rebase', how: 'discard', object: latest })}>
              Discard my edit, edit the latest
            </button>
            <button type="button" onClick={() => dispatch({ type: 'rebase', how: 'reapply', object: latest, edited, hints })}>
              Re-apply my changes to the latest version
            </button>
            <button type="button" title="Overwrites the other changes shown above with your edit when you send it" onClick={() => dispatch({ type: 'rebase', how: 'keep-mine', object: latest, edited })}>
              Keep my edit, on the latest resourceVersion (overwrites their changes)
            </button>
          </div>
        </>
      ) : null}
    </section>
  );
}

// Presentational panels of the Edit view: they render state and call back, nothing else
// (no queries, no fetch). EditView.tsx wires them to the reducer and the mutation.
import { lazy, type ReactNode, Suspense } from 'react';
import type { Status } from '../../k8s/client';
import { conflictManager, type EditDifference, isObject, type JsonObject, type OwnershipPreview, withoutManagedFields } from '../../k8s/patch';
import { StatusView } from '../../ui/ErrorBox';
import { WarningList } from '../../ui/WarningList';
import { diffText, type Format, type Outcome, type ParsedText, sentMeaning, serialize } from './body';
import { requestLine, type WireRequest } from './request';
import { WRITE_MODE_TABLE } from './writeModes';
import { toJson } from '../../codecs/json';
import { AuditPanel } from '../audit';

export const EditDiff = lazy(() => import('./EditDiff').then((m) => ({ default: m.EditDiff })));

export function wireText(r: WireRequest): string {
  const head = `${requestLine(r)}\n${Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}`;
  return r.body ? `${head}\n\n${r.body}` : head;
}

/** Parse errors (with their line) and what YAML 1.1/1.2 differences mean in the body sent, under the editor. */
export function ParseProblems({ parsed, format }: { parsed: ParsedText; format: Format }) {
  return (
    <>
      {parsed.error && (
        <p className="edit-parse-error" role="alert">
          Not valid {format.toUpperCase()}: {parsed.error}. Nothing is sent until it parses.
        </p>
      )}
      <YamlNotes notes={parsed.yamlDifferences.map(sentMeaning)} />
    </>
  );
}

/** Scalars YAML 1.1 and 1.2 read differently, described for the body as it will be sent. */
export function YamlNotes({ notes }: { notes: string[] }) {
  if (notes.length === 0) return null;
  return (
    <ul className="edit-yaml-warnings" aria-label="YAML 1.1 and 1.2 differences">
      {notes.map((n, i) => (
        <li key={i}>{n}</li>
      ))}
    </ul>
  );
}

/** Where the server's result differs from the edit. */
export function DifferencesWarning({ differences, dryRun }: { differences: EditDifference[]; dryRun: boolean }) {
  if (differences.length === 0) return null;
  return (
    <div className="edit-differences" role="alert" aria-label="Result differs from the edit">
      <p className="small">
        <strong>The server’s {dryRun ? 'dry-run ' : ''}result is not your edit</strong> at these paths (server-set fields and defaults aside):
      </p>
      <ul className="small">
        {differences.slice(0, 30).map((d) => (
          <li key={d.path}>
            <code>{d.path}</code>: you {d.edited === undefined ? 'removed it' : <>wrote <code>{toJson(d.edited)}</code></>}, the server has {d.result === undefined ? 'nothing' : <code>{toJson(d.result)}</code>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** What an apply will do to ownership, from its dryRun=All answer. */
export function ApplyPreviewPanel({ preview, conflicts }: { preview?: OwnershipPreview; conflicts: Outcome['conflicts'] }) {
  return (
    <div className="stack" role="region" aria-label="Ownership preview">
      <strong className="small">What this apply does to ownership (from a dryRun=All apply)</strong>
      {conflicts.length > 0 && (
        <p className="small edit-parse-error">
          {conflicts.length} conflict{conflicts.length === 1 ? '' : 's'} with other managers: {conflicts.map((c) => `${c.field ?? '?'} (${conflictManager(c.message) ?? '?'})`).join(', ')}. Sending gives 409 unless force=true.
        </p>
      )}
      {preview && (
        <>
          <p className="small">
            <strong>{preview.manager}</strong> will newly own {preview.gained.length === 0 ? 'no field' : `${preview.gained.length} field${preview.gained.length === 1 ? '' : 's'}`} and stop owning {preview.released.length === 0 ? 'none' : preview.released.length}.
          </p>
          {preview.gained.length > 0 && (
            <ul className="small" aria-label="Newly owned">
              {preview.gained.map((p) => (
                <li key={p}>
                  + <code>{p}</code>
                </li>
              ))}
            </ul>
          )}
          {preview.released.length > 0 && (
            <ul className="small" aria-label="No longer owned">
              {preview.released.map((r) => (
                <li key={r.path}>
                  − <code>{r.path}</code> {r.removed ? <strong className="edit-parse-error">the server will delete it</strong> : <>stays: still owned by {r.keptBy.join(', ') || 'another manager'}</>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

/** Someone else changed the object while it was open here. */
export function ServerChangedBanner({
  base,
  changed,
  guarded,
  editParses,
  onFollow,
  onReapply,
  onKeepMine,
}: {
  base: JsonObject;
  changed: { object?: JsonObject; deleted?: boolean };
  /** The request to send carries the loaded resourceVersion (recovery.ts bodyGuarded). */
  guarded: boolean;
  /** The editor's text parses: there is an edit to re-apply or keep. */
  editParses: boolean;
  onFollow: () => void;
  onReapply: () => void;
  onKeepMine: () => void;
}) {
  const rvOf = (o?: JsonObject) => (o && isObject(o.metadata) ? String(o.metadata.resourceVersion ?? '') : '');
  const uidOf = (o?: JsonObject) => (o && isObject(o.metadata) ? String(o.metadata.uid ?? '') : '');
  return (
    <section className="edit-wide edit-banner stack" role="alert" aria-label="Changed on the server">
      {changed.deleted ? (
        <p>
          <strong>This object was deleted on the server</strong> while you were editing it. A patch or PUT will get 404, and an apply with “only if unchanged” is not sent (it would create the object anew); to keep your edit, create it again as a choice of its own.
        </p>
      ) : (
        <>
          <p>
            <strong>Someone else changed this object</strong> since you loaded it: resourceVersion <code>{rvOf(base)}</code> → <code>{rvOf(changed.object)}</code>.
            {uidOf(base) !== uidOf(changed.object) && (
              <>
                {' '}
                <strong>
                  It is another object: the one you loaded was deleted and this one created under the same name (uid <code>{uidOf(base)}</code> → <code>{uidOf(changed.object)}</code>).
                </strong>
              </>
            )}{' '}
            {guarded ? (
              'Your patches are still computed against the version you loaded and guarded by its resourceVersion, so sending now gets 409 Conflict rather than undoing their change.'
            ) : (
              <strong aria-label="Not guarded">The request to send carries no resourceVersion guard (unticked, or a body typed by hand): sending now writes over their version, and may undo their change.</strong>
            )}
          </p>
          <Suspense fallback={<p className="muted small">Loading the diff…</p>}>
            <EditDiff label="Their change" original={diffText(withoutManagedFields(base))} modified={diffText(withoutManagedFields(changed.object!))} originalTitle="the version you loaded" modifiedTitle="the server now" />
          </Suspense>
          <div className="row">
            <button type="button" disabled={!editParses} onClick={onReapply}>
              Re-apply my changes to the latest version
            </button>
            <button type="button" onClick={onFollow}>
              Discard my edit, edit the latest
            </button>
            <button type="button" disabled={!editParses} title="Overwrites their change when you send" onClick={onKeepMine}>
              Keep my edit as it is (overwrites their change)
            </button>
            {!editParses && <span className="muted small">Your text does not parse: fix it to re-apply or keep it (nothing of it is replaced meanwhile).</span>}
          </div>
        </>
      )}
    </section>
  );
}

export function ExchangesPanel({ exchanges, context }: { exchanges: Outcome['exchange'][]; context: string }) {
  if (exchanges.length === 0) return null;
  return (
    <section className="edit-wide stack" aria-label="Requests sent">
      <h3>On the wire</h3>
      <p className="muted small">Each request as the SPA sent it to the explorer's proxy (which adds nothing but the context's credentials; its X-Explorer-Token header is not shown) and the server's answer.</p>
      {exchanges.map((x, i) => (
        <details key={x.id} className="edit-exchange" open={i === 0}>
          <summary>
            {requestLine(x.request)} → {x.response ? `HTTP ${x.response.status} ${x.response.statusText}` : `failed: ${x.error}`}
          </summary>
          <pre className="edit-wire" aria-label="Request sent" tabIndex={0}>
            {wireText(x.request)}
          </pre>
          {x.response && (
            <pre className="edit-wire" aria-label="Response received" tabIndex={0}>
              {`HTTP ${x.response.status} ${x.response.statusText}\n${x.response.headers.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n${x.response.body.length > 4000 ? `${x.response.body.slice(0, 4000)}\n… (${x.response.body.length} characters)` : x.response.body}`}
            </pre>
          )}
          {x.response && <AuditPanel context={context} headers={x.response.headers} />}
        </details>
      ))}
    </section>
  );
}

export function OutcomeView({
  outcome,
  format,
  onForce,
  onDrop,
  onLoadLatest,
  onRecreate,
  children,
}: {
  outcome: Outcome;
  format: Format;
  /** Absent when the request the result came from no longer stands (recovery.ts): no button then. */
  onForce?: () => void;
  onDrop?: (fields: string[]) => void;
  onLoadLatest: () => void;
  onRecreate?: () => void;
  children?: ReactNode;
}) {
  const r = outcome.exchange.response;
  const status = outcome.status;
  const obj = outcome.object;
  return (
    <div className={`edit-result ${outcome.ok ? 'ok' : 'failed'}`} role="region" aria-label="Result">
      <h3 aria-label="Result status">
        {WRITE_MODE_TABLE[outcome.mode].label}: {r ? `HTTP ${r.status} ${r.statusText}` : 'no response'}
        {outcome.dryRun && <span className="edit-dry"> (dry run, nothing persisted)</span>}
      </h3>
      <WarningList warnings={outcome.warnings} />
      {outcome.wouldUpdate ? (
        <div className="stack edit-banner" role="alert" aria-label="Apply not sent">
          <p>
            <strong>Not sent: an object of this name exists already.</strong> A GET of it answered 200, and an apply to an existing object changes it (apply creates or updates), while this view creates. Nothing was written. Open it in the Edit view to change it, or choose another name.
          </p>
        </div>
      ) : outcome.wouldCreate ? (
        <div className="stack edit-banner" role="alert" aria-label="Apply not sent">
          <p>
            <strong>Not sent: the object is gone.</strong> A GET of it answered 404, and an apply to a missing object creates it, holding only the apply body: the server ignores the resourceVersion of “only if unchanged” when it creates. Nothing was written.
          </p>
          {onRecreate && (
            <div className="row">
              <button type="button" onClick={onRecreate}>
                Create it again from my edit (apply without the guard)
              </button>
              <span className="muted small">A new object: a new uid and resourceVersion; fields you did not send are not restored.</span>
            </div>
          )}
        </div>
      ) : (
        !outcome.ok && status && <StatusView status={status} />
      )}
      {outcome.failedTest && (
        <p className="small" role="status">
          A JSON Patch <code>test</code> operation failed: <code>{outcome.failedTest}</code> did not hold the value the op names, so the server applied none of the patch.
        </p>
      )}
      {outcome.stale && (
        <div className="stack">
          <p>
            {outcome.testOpFailed
              ? 'The test of /metadata/resourceVersion failed, so the server applied none of the patch: the object changed after you loaded it.'
              : 'The object changed on the server after you loaded it: the resourceVersion you sent is stale, so the server refused the write and nothing was overwritten.'}
          </p>
          <button type="button" onClick={onLoadLatest}>
            Load the latest version and compare
          </button>
        </div>
      )}
      {outcome.conflicts.length > 0 && <ConflictsPanel conflicts={outcome.conflicts} onForce={onForce} onDrop={onDrop} />}
      {outcome.mode === 'strategic-merge-patch' && r?.status === 415 && (
        <p className="small">Custom resources have no patch strategies in their schema, so the server does not accept strategic merge patches for them: use a JSON Merge Patch or Server-Side Apply.</p>
      )}
      <DifferencesWarning differences={outcome.differences} dryRun={outcome.dryRun} />
      {outcome.ok && outcome.mode === 'delete' && <DeleteAnswer outcome={outcome} format={format} />}
      {outcome.ok && outcome.mode !== 'delete' && obj && (
        <Suspense fallback={<p className="muted small">Loading the diff…</p>}>
          <p className="small">{outcome.dryRun ? 'Dry-run preview: the object the server would store, against the current one.' : 'Stored: the object before your write against the server’s answer. The editor now holds the new version.'}</p>
          <EditDiff
            label={outcome.dryRun ? 'Dry-run preview' : 'Before and after'}
            original={diffText(outcome.before)}
            modified={diffText(withoutManagedFields(obj))}
            originalTitle={outcome.before ? 'current' : '(new object)'}
            modifiedTitle={outcome.dryRun ? 'server’s answer (not stored)' : 'server’s answer'}
          />
        </Suspense>
      )}
      {children}
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

/** An apply's 409 field conflicts, with the two ways on: force, or leave the fields to their owners. */
function ConflictsPanel({ conflicts, onForce, onDrop }: { conflicts: Outcome['conflicts']; onForce?: () => void; onDrop?: (fields: string[]) => void }) {
  return (
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
      {onForce && onDrop ? (
        <div className="row">
          <button type="button" onClick={onForce}>
            Re-send with force=true
          </button>
          <button type="button" onClick={() => onDrop(conflicts.map((c) => c.field ?? '').filter(Boolean))}>
            Drop these fields and re-send
          </button>
          <span className="muted small">Both re-send the apply shown under “Request sent”, changed only as they say, whatever mode is selected now. Force makes this manager the owner of the fields; dropping them leaves them, and their values, to the other managers.</span>
        </div>
      ) : (
        <p className="muted small" role="note" aria-label="Recovery gone">
          The object changed since this request was built: it can no longer be re-sent as it was. Send again from the editor.
        </p>
      )}
    </div>
  );
}

/** A delete's answer: a Status (gone), or the object (still there, with its deletionTimestamp and finalizers). */
function DeleteAnswer({ outcome, format }: { outcome: Outcome; format: Format }) {
  const status = outcome.status;
  const obj = outcome.object;
  const objMeta = obj && isObject(obj.metadata) ? obj.metadata : undefined;
  return (
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
        <pre className="edit-wire" aria-label="Returned object" tabIndex={0}>
          {serialize(obj, format)}
        </pre>
      )}
    </div>
  );
}

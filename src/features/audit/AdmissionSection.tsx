// What admission did to the request, from its audit event (k8s/audit/admission.ts): each mutating
// webhook in the order it ran with its patch as a diff of the object, what no annotation accounts
// for (MutatingAdmissionPolicies record none; the server's own fields), validating webhooks that
// failed open and ValidatingAdmissionPolicy failures of Audit bindings. Warnings travel in the
// response's Warning header, not in the event: the exchange passes them in.
import { lazy, Suspense, useState } from 'react';
import { parseWarningHeader } from '../../codecs';
import { admissionRecord, type AdmissionReplay, type AuditEvent, replayAdmission, unreplayable, type WebhookCall } from '../../k8s/audit';
import { headerValue, type HeaderList } from '../../k8s/client';
import type { Json, JsonPatchOp } from '../../k8s/patch';
import './sections.css';

const MonacoDiff = lazy(() => import('../../ui/MonacoDiff').then((m) => ({ default: m.MonacoDiff })));

const pretty = (v: unknown) => JSON.stringify(v, null, 2);

/** A diff mounted only when opened: Monaco's diff editor is heavy, and most steps stay closed. */
function DiffOnOpen({ before, after, label }: { before: Json; after: Json; label: string }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Diff of the object</summary>
      {open && (
        <Suspense fallback={<p className="muted">Loading the diff…</p>}>
          <MonacoDiff height="260px" language="json" original={pretty(before)} modified={pretty(after)} originalLabel={`${label}: before (read-only)`} modifiedLabel={`${label}: after (read-only)`} />
        </Suspense>
      )}
    </details>
  );
}

function callTitle(c: WebhookCall): string {
  const where = `round ${c.round}, #${c.index}`;
  const who = c.configuration ? `${c.webhook} (${c.configuration})` : c.webhook;
  if (c.failedOpen) return `${where} · ${who}: failed, let through by failurePolicy Ignore`;
  return `${where} · ${who}: ${c.mutated ? 'changed the object' : 'no change'}`;
}

function Ops({ ops, label }: { ops: readonly JsonPatchOp[] | readonly unknown[]; label: string }) {
  return (
    <pre className="audit-patch" aria-label={label}>
      {ops.map((op) => JSON.stringify(op)).join('\n')}
    </pre>
  );
}

function Remainder({ replay }: { replay: AdmissionReplay }) {
  return (
    <>
      <li data-step="unattributed">
        <strong>Not named by any annotation</strong>:{' '}
        {replay.unattributed.length === 0 ? (
          <span className="muted">nothing</span>
        ) : (
          <>
            {replay.unattributed.length} change(s). MutatingAdmissionPolicies leave no annotation in the audit event, and neither do built-in admission plugins: their changes are only in the difference between the request's object and the stored one. (They ran before the webhooks above.)
            <Ops ops={replay.unattributed} label="Changes no annotation names" />
          </>
        )}
      </li>
      <li data-step="server-set">
        <strong>Set by the server itself</strong> (uid, resourceVersion, creationTimestamp, managedFields, the namespace from the URL, a name from generateName): {replay.serverSet.length} field(s).
        <Ops ops={replay.serverSet} label="Fields the server set" />
      </li>
    </>
  );
}

/** `headers`: the exchange's response headers, for its warnings (ValidatingAdmissionPolicy `Warn`, webhooks' warnings, deprecations). */
export function AdmissionSection({ event, headers }: { event: AuditEvent; headers?: HeaderList }) {
  const warnings = parseWarningHeader(headers ? headerValue(headers, 'Warning') : undefined).map((w) => w.text);
  const record = admissionRecord(event);
  const replay = replayAdmission(event, record);
  const patched = new Map(replay?.patches.map((p) => [p.call, p]));
  const nothing = record.mutating.length === 0 && record.validatingFailedOpen.length === 0 && record.policyFailures.length === 0 && warnings.length === 0 && !replay;
  return (
    <section className="audit-admission" aria-label="Admission">
      <h4>Admission</h4>
      {nothing && (
        <p className="muted">
          {['get', 'list', 'watch'].includes(event.verb) ? 'A read does not go through admission.' : `No admission step is recorded for this request: no mutating webhook ran, no policy with the Audit action failed, and there is no object to compare (${unreplayable(event) ?? 'no body'}).`}
        </p>
      )}
      <ol className="audit-admission-steps">
        {record.mutating.map((c) => {
          const p = patched.get(c);
          return (
            <li key={`${c.round}-${c.index}`} data-step="mutating-webhook" data-webhook={c.webhook}>
              <strong>Mutating webhook</strong> {callTitle(c)}
              {c.patch ? <Ops ops={c.patch} label={`Patch of ${c.webhook}`} /> : c.mutated && <p className="muted small">The patch is recorded only at level Request or higher; this event is at {event.level}.</p>}
              {p?.error && <p className="small">This patch does not apply to the recorded request object ({p.error}): a change recorded nowhere (a MutatingAdmissionPolicy, a built-in plugin) made what it patches.</p>}
              {p && !p.error && <DiffOnOpen before={p.before} after={p.after} label={c.webhook} />}
            </li>
          );
        })}
        {replay && <Remainder replay={replay} />}
        {record.validatingFailedOpen.map((v) => (
          <li key={`v-${v.round}-${v.index}`} data-step="validating-failed-open">
            <strong>Validating webhook</strong> {v.webhook}: failed, let through by failurePolicy Ignore.
          </li>
        ))}
        {record.policyFailures.map((f, i) => (
          <li key={`p-${i}`} data-step="policy-failure">
            <strong>ValidatingAdmissionPolicy</strong> {f.policy} (binding {f.binding}, {f.validationActions.join(', ')}): {f.message}
          </li>
        ))}
        {warnings.map((w, i) => (
          <li key={`w-${i}`} data-step="warning">
            <strong>Warning</strong> (response header): {w}
          </li>
        ))}
      </ol>
      {!replay && record.mutating.some((c) => c.patch) && <p className="small muted">No diff of the object: {unreplayable(event)}.</p>}
      {replay && (
        <p className="small muted">
          Each webhook's patch is applied, in order, to the request's object as logged before admission; what remains between that and the stored object is split into the two last steps.
        </p>
      )}
    </section>
  );
}

// Subresources, as discovery lists them for the resource: /status and /scale get their own
// reads and writes here; the others are listed with their verbs.
// - /status: the status half of the object. Writes through it change only .status (a PUT or patch
//   of the main resource ignores .status for resources that have the subresource), and Server-Side
//   Apply records them in a managedFields entry with `subresource: status`.
// - /scale: ScalePanel.tsx.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { toJson } from '../../codecs/json';
import { toYaml } from '../../codecs/yaml';
import { kubeJsonExact } from '../../k8s/client';
import type { ApiResource } from '../../k8s/discovery';
import type { ManagedFieldsEntry } from '../../k8s/fields';
import type { JsonObject } from '../../k8s/patch';
import { CodeEditor } from '../../ui/CodeEditor';
import { ErrorBox } from '../../ui/ErrorBox';
import { buildWriteRequest, sendExchange } from './request';
import { ExchangeWire } from './ExchangeWire';
import { ScalePanel } from './ScalePanel';
import type { WriteMode } from './writeModes';
import { answerObject, resourceVersionOf, statusBodyFor } from './subresourceBodies';

/**
 * /status, following the server: until the user types, the body is the latest status, with the
 * resourceVersion it was read at (the guard); once typed, a newer version on the server is shown
 * and a write of the typed body gets 409 Conflict. Apply is not forced unless asked.
 */
type StatusMode = Extract<WriteMode, 'apply' | 'merge-patch' | 'replace'>;

function StatusPanel({ context, objectPath, latest }: { context: string; objectPath: string; latest: JsonObject }) {
  // null: follow the server. Otherwise the typed text and the version it started from.
  const [typed, setTyped] = useState<{ text: string; basedOn: JsonObject } | null>(null);
  const [mode, setMode] = useState<StatusMode>('apply');
  const text = typed ? typed.text : statusBodyFor(mode, latest);
  // A PUT's body is the whole object (statusBodyFor): a typed body becomes one, in the editor.
  const changeMode = (next: StatusMode) => {
    setMode(next);
    if (typed && next === 'replace') {
      const obj = answerObject(typed.text);
      if (obj) setTyped({ text: statusBodyFor('replace', typed.basedOn, obj), basedOn: typed.basedOn });
    }
  };
  const [manager, setManager] = useState('status-writer');
  const [dryRun, setDryRun] = useState(false);
  const [force, setForce] = useState(false);
  const opts = { dryRun, fieldValidation: '' as const, fieldManager: manager, force: mode === 'apply' && force };
  const changedSince = typed && resourceVersionOf(typed.basedOn) !== resourceVersionOf(latest) ? typed.basedOn : undefined;
  const send = useMutation({
    mutationFn: async () => {
      const ex = await sendExchange(context, mode, buildWriteRequest(mode, { objectPath: `${objectPath}/status`, collectionPath: '' }, text, opts));
      const answer = answerObject(ex.response?.body);
      const entries = ((answer?.metadata as { managedFields?: ManagedFieldsEntry[] } | undefined)?.managedFields ?? []).filter((e) => e.subresource === 'status');
      return { ex, entries, stored: !!answer && !opts.dryRun };
    },
    // Stored: follow the server again (the object's watch brings the new version).
    onSuccess: (r) => r.stored && setTyped(null),
  });
  // The same body to the main resource, as a dry run: the server ignores the status part there.
  const tryMain = useMutation({
    mutationFn: async () => {
      const ex = await sendExchange(context, mode, buildWriteRequest(mode, { objectPath, collectionPath: '' }, text, { ...opts, dryRun: true }));
      const answer = answerObject(ex.response?.body);
      let ignored = false;
      if (answer) {
        const current = await kubeJsonExact<JsonObject>({ context, path: objectPath });
        ignored = toJson(answer.status ?? null) === toJson(current.status ?? null);
      }
      return { ex, ignored };
    },
  });
  const sent = send.data;
  const main = tryMain.data;
  return (
    <div className="stack" aria-label="status subresource" role="region">
      <h4>/status</h4>
      <p className="muted small">
        The body is the object's status as last read{typed ? ' (edited by you)' : ', following the server until you type'}. Its <code>metadata.resourceVersion</code> is the guard: the server answers 409 Conflict if the object changed since. Remove it to write whatever the server has now.
      </p>
      {changedSince && (
        <div className="edit-banner stack" role="alert" aria-label="Status changed on the server">
          <p className="small">
            The object changed on the server since you started editing this status: resourceVersion <code>{resourceVersionOf(changedSince)}</code> → <code>{resourceVersionOf(latest)}</code>. Its status now:
          </p>
          <pre className="edit-wire">{toYaml(latest.status ?? {})}</pre>
          <div className="row">
            <button type="button" onClick={() => setTyped(null)}>
              Discard my status edit, load the latest
            </button>
          </div>
        </div>
      )}
      <CodeEditor value={text} onChange={(v) => setTyped({ text: v, basedOn: typed?.basedOn ?? latest })} language="json" ariaLabel="Status body" height="200px" />
      <div className="row">
        <label>
          write as
          <select aria-label="Status write mode" value={mode} onChange={(e) => changeMode(e.target.value as StatusMode)}>
            <option value="apply">Server-Side Apply</option>
            <option value="merge-patch">JSON Merge Patch</option>
            <option value="replace">PUT (the whole object)</option>
          </select>
        </label>
        {mode === 'apply' && (
          <label title="Take the fields over from their owners (a controller, say) instead of 409 Conflict">
            <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> force
          </label>
        )}
        <label>
          fieldManager <input aria-label="Status field manager" value={manager} onChange={(e) => setManager(e.target.value)} size={14} />
        </label>
        <label>
          <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} /> dryRun=All
        </label>
        <button type="button" disabled={send.isPending} onClick={() => send.mutate()}>
          Send to /status
        </button>
        <button type="button" disabled={tryMain.isPending} onClick={() => tryMain.mutate()} title="Sends the same body to the main resource with dryRun=All">
          Same body to the main resource (dry run)
        </button>
      </div>
      {send.error && <ErrorBox error={send.error} title={`Could not write ${objectPath}/status`} />}
      {tryMain.error && <ErrorBox error={tryMain.error} title={`Could not try ${objectPath}`} />}
      {sent && (
        <>
          {sent.ex.response?.status === 409 && !sent.ex.response.body.includes('FieldManagerConflict') && (
            <p className="small edit-parse-error" role="status">
              409 Conflict: the object changed since this status was read, and nothing was written.
            </p>
          )}
          <p className="small" aria-label="Status ownership">
            managedFields entries under subresource <code>status</code>: {sent.entries.length === 0 ? 'none' : sent.entries.map((e) => `${e.manager} (${e.operation})`).join(', ')}. The Ownership view shows them with a “status” badge.
          </p>
          <ExchangeWire ex={sent.ex} />
        </>
      )}
      {main && (
        <>
          <p className="small" aria-label="Main resource and status">
            {main.ignored ? 'The main resource left .status as it was: status changes go through /status only.' : 'The answer’s .status differs from the stored one (this resource has no separate status handling, or the write failed).'}
          </p>
          <ExchangeWire ex={main.ex} />
        </>
      )}
    </div>
  );
}

/** `latest`: the newest version of the object known to the view (its query, fed by the object's watch). */
export function Subresources({ context, resource, objectPath, latest }: { context: string; resource: ApiResource; objectPath: string; latest: JsonObject }) {
  if (resource.subresources.length === 0) return null;
  const has = (n: string) => resource.subresources.some((s) => s.name === n);
  return (
    <section className="edit-wide stack" aria-label="Subresources">
      <h3>Subresources</h3>
      <p className="muted small">
        Discovery lists for {resource.resource}:{' '}
        {resource.subresources.map((s) => (
          <span key={s.name} className="badge">
            {s.name} ({s.verbs.join(', ') || 'no verbs'})
          </span>
        ))}
      </p>
      {has('status') && <StatusPanel context={context} objectPath={objectPath} latest={latest} />}
      {has('scale') && <ScalePanel context={context} objectPath={objectPath} latest={latest} />}
    </section>
  );
}

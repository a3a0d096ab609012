// The same change four ways, side by side: each body can be read (and edited) before it is sent,
// all four go out with dryRun=All, and their answers are compared. A difference is explained from
// the bodies: a list a merge patch replaced wholesale, strategic merge directives, fields an apply
// configuration leaves out, a custom resource's 415 to strategic merge, an apply's 409 conflicts.
import { useMutation } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ErrorBox } from '../../ui/ErrorBox';
import { isStatus } from '../../k8s/client';
import { conflictManager, type FieldHints, isObject, type JsonObject } from '../../k8s/patch';
import { comparable, differences, fourBodies, reasonFor, WAY_LABEL, WAYS, type Way } from './fourWays';
import { buildWriteRequest, type Exchange, requestLine, sendExchange } from './request';
import { parseJsonExact } from '../../codecs/json';

interface WayResult {
  ex: Exchange;
  object?: JsonObject;
  problem?: string;
}

/** What one way's dry run answered: the object it would store, or why there is none. */
function wayResult(w: Way, ex: Exchange): WayResult {
  const r: WayResult = { ex };
  let json: unknown;
  try {
    json = parseJsonExact(ex.response?.body ?? '');
  } catch {
    json = undefined;
  }
  const status = ex.response?.status ?? 0;
  if (status >= 200 && status < 300 && isObject(json) && !isStatus(json)) r.object = json;
  else if (status === 415) r.problem = 'HTTP 415 Unsupported Media Type: custom resources have no patch strategies in their schema, so the server does not take strategic merge patches for them.';
  else if (status === 409 && isStatus(json) && w === 'apply')
    r.problem = `HTTP 409 Conflict: ${(json.details?.causes ?? []).map((c) => `${c.field} owned by ${conflictManager(c.message) ?? '?'}`).join('; ')}. With force the apply takes these fields over.`;
  else r.problem = `HTTP ${status || 'failed'}: ${isStatus(json) ? (json.message ?? '') : (ex.error ?? '')}`;
  return r;
}

export function FourWays(props: { context: string; objectPath: string; base: JsonObject; live?: JsonObject; edited: JsonObject; fieldManager: string; hints?: FieldHints }) {
  const { context, objectPath, base, live, edited, fieldManager, hints } = props;
  const generated = useMemo(() => fourBodies(base, edited, { live, fieldManager, hints }), [base, edited, live, fieldManager, hints]);
  const [overrides, setOverrides] = useState<Partial<Record<Way, string>>>({});
  const [force, setForce] = useState(true);
  const bodyOf = (w: Way) => overrides[w] ?? generated[w];

  // All ways at once with dryRun=All: one mutation, its failure (not an HTTP answer: the network) on screen.
  const sending = useMutation({
    mutationFn: async (v: { bodies: Record<Way, string>; force: boolean }) => {
      const out: Partial<Record<Way, WayResult>> = {};
      await Promise.all(
        WAYS.map(async (w) => {
          const req = buildWriteRequest(w, { objectPath, collectionPath: '' }, v.bodies[w], { dryRun: true, fieldValidation: 'Strict', fieldManager: fieldManager || 'kube-api-explorer', force: w === 'apply' && v.force });
          out[w] = wayResult(w, await sendExchange(context, w, req));
        }),
      );
      return out;
    },
  });
  const results = sending.data;
  const busy = sending.isPending;
  const sendAll = () => sending.mutate({ bodies: Object.fromEntries(WAYS.map((w) => [w, bodyOf(w)])) as Record<Way, string>, force });

  const reference = results ? WAYS.find((w) => results[w]?.object) : undefined;
  const comparisons = useMemo(() => {
    if (!results || !reference) return [];
    const ref = comparable(results[reference]!.object!);
    return WAYS.filter((w) => w !== reference && results[w]?.object).map((w) => {
      const paths = differences(ref, comparable(results[w]!.object!));
      return { way: w, paths, reasons: paths.map((p) => reasonFor(w, overrides[w] ?? generated[w], p, reference)) };
    });
  }, [results, reference, overrides, generated]);
  const allEqual = !!results && WAYS.every((w) => results[w]?.object) && comparisons.every((c) => c.paths.length === 0);

  return (
    <section className="edit-wide stack" aria-label="Four ways">
      <h3>The same change four ways</h3>
      <p className="muted small">
        Your edit against the loaded object as each patch type writes it. Each body can be changed here; “Send all four” sends them with <code>dryRun=All</code> (nothing is stored) and compares the objects the server would store (managedFields aside).
      </p>
      <div className="four-ways">
        {WAYS.map((w) => (
          <div key={w} className="stack four-way" role="group" aria-label={WAY_LABEL[w]}>
            <div className="row">
              <strong>{WAY_LABEL[w]}</strong>
              {overrides[w] !== undefined && (
                <button type="button" className="link" onClick={() => setOverrides((o) => ({ ...o, [w]: undefined }))}>
                  regenerate
                </button>
              )}
            </div>
            <textarea className="edit-wire four-body" aria-label={`${WAY_LABEL[w]} body`} rows={12} spellCheck={false} value={bodyOf(w)} onChange={(e) => setOverrides((o) => ({ ...o, [w]: e.target.value }))} />
            {results?.[w] && (
              <div className="small" aria-label={`${WAY_LABEL[w]} result`} role="status">
                <code>{requestLine(results[w]!.ex.request)}</code> → {results[w]!.ex.response ? `HTTP ${results[w]!.ex.response!.status}` : 'failed'}
                {results[w]!.problem && <p className="warn">{results[w]!.problem}</p>}
              </div>
            )}
          </div>
        ))}
      </div>
      <div className="row">
        <label title="Without force, an apply that changes fields other managers own gets 409 Conflict">
          <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> apply with force
        </label>
        <button type="button" className="primary" disabled={busy} onClick={sendAll}>
          {busy ? 'Sending…' : 'Send all four (dryRun=All)'}
        </button>
      </div>
      {sending.error && <ErrorBox error={sending.error} title="The dry runs could not be sent" />}
      {results && (
        <div role="region" aria-label="Four ways comparison" className="small">
          {!reference ? (
            <p className="warn">No way succeeded, so there is nothing to compare.</p>
          ) : allEqual ? (
            <p>
              <strong>All four results are identical</strong>: the server would store the same object whichever way the change is sent.
            </p>
          ) : (
            <>
              <p>Compared with the {WAY_LABEL[reference]} result:</p>
              <ul>
                {comparisons.map((c) => (
                  <li key={c.way}>
                    <strong>{WAY_LABEL[c.way]}</strong>:{' '}
                    {c.paths.length === 0 ? (
                      'identical'
                    ) : (
                      <ul>
                        {c.paths.map((p, i) => (
                          <li key={p}>
                            differs at <code>{p}</code>: {c.reasons[i]}
                          </li>
                        ))}
                      </ul>
                    )}
                  </li>
                ))}
                {WAYS.filter((w) => results[w] && !results[w]!.object).map((w) => (
                  <li key={w}>
                    <strong>{WAY_LABEL[w]}</strong>: no result to compare ({results[w]!.problem})
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </section>
  );
}

// Lesson 4: Server-Side Apply by two managers who disagree about one field: the 409 Conflict
// that names the other manager, then a forced apply and managedFields showing who owns what.
import { useState } from 'react';
import { hrefFor } from '../../routing';
import { ErrorBox } from '../../ui/ErrorBox';
import { type LessonExchange, ownership, pick, send } from './exchange';
import { NeedsScratch, StepCard, useRunner } from './parts';

const NAME = 'applied';

/** An apply body: JSON is valid YAML, so it goes as application/apply-patch+yaml unchanged. */
function configMap(namespace: string, color: string, extra: Record<string, string>): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: NAME, namespace }, data: { color, ...extra } }, null, 2);
}

const conflictPart = (b: unknown) => ({ code: pick(b, 'code'), reason: pick(b, 'reason'), message: pick(b, 'message'), details: { causes: pick(b, 'details', 'causes') } });

export function ApplyLesson({ context, scratch }: { context: string; scratch: string | undefined }) {
  const [steps, setSteps] = useState<{ title: string; x: LessonExchange }[]>([]);
  const { busy, error, run } = useRunner();
  if (!scratch) return <NeedsScratch />;
  const path = `/api/v1/namespaces/${encodeURIComponent(scratch)}/configmaps/${NAME}`;
  const apply = (manager: string, body: string, force = false) =>
    send(context, 'PATCH', `${path}?fieldManager=${manager}${force ? '&force=true' : ''}`, { body, contentType: 'application/apply-patch+yaml' });
  const add = (title: string, x: LessonExchange) => setSteps((s) => [...s, { title, x }]);
  const done = new Set(steps.map((s) => s.title));

  const part = (b: unknown) => (pick(b, 'kind') === 'Status' ? conflictPart(b) : { data: pick(b, 'data'), managedFields: ownership(b) });

  return (
    <div className="lesson-body">
      <div className="row">
        <button type="button" disabled={busy || done.has('alice applies')} onClick={() => void run(async () => add('alice applies', await apply('alice', configMap(scratch, 'blue', { size: 'small' }))))}>
          Apply as alice (color: blue)
        </button>
        <button type="button" disabled={busy || !done.has('alice applies')} onClick={() => void run(async () => add('bob applies', await apply('bob', configMap(scratch, 'green', {}))))}>
          Apply as bob (color: green)
        </button>
        <button type="button" disabled={busy || !done.has('bob applies')} onClick={() => void run(async () => add('bob applies with force', await apply('bob', configMap(scratch, 'green', {}), true)))}>
          Apply as bob with force=true
        </button>
      </div>
      {steps.map((s, i) => (
        <StepCard key={i} title={s.title} x={s.x} show={part}>
          {s.x.status === 409 && (
            <p className="small">
              bob's apply names a value for <code>data.color</code> that differs from what alice last applied, and alice owns that field. Rather than silently overwrite
              another manager's intent, the server refuses the whole apply; each cause names a field and the manager that holds it. bob can give in (drop the field from
              his configuration), or take it over with <code>force=true</code>.
            </p>
          )}
          {s.title === 'bob applies with force' && s.x.status === 200 && (
            <p className="small">
              With force, bob now owns <code>data.color</code> and alice's entry no longer lists it; she keeps <code>data.size</code>, which bob did not mention. Had both
              applied the same value, they would share the field instead of conflicting.
            </p>
          )}
        </StepCard>
      ))}
      {steps.length > 0 && (
        <p className="small">
          <a href={hrefFor({ view: 'ownership', namespace: scratch, group: '', version: 'v1', resource: 'configmaps', name: NAME })}>See the object in the Ownership view</a>, field
          by field.
        </p>
      )}
      {error != null && <ErrorBox error={error} />}
    </div>
  );
}

// Runs any lesson of the kit (kit.ts): permissions first (SelfSubjectAccessReview), a clear
// confirmation before anything cluster-scoped, then the steps, each with its exact exchanges, what
// to look for, whether the server answered as the lesson says, and a link to the matching view.
import { Fragment, type ReactNode } from 'react';
import { hrefFor } from '../../routing';
import { ErrorBox } from '../../ui/ErrorBox';
import type { KitExchange, KitLesson, LessonStep, Needed, StepContext } from './kit';
import { StepCard } from './parts';
import { type Access, type StepResult, useKitLesson } from './useKitLesson';

/** `code` in backticks becomes <code>; nothing else is markup. */
export function Prose({ text }: { text: string }): ReactNode {
  return text.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>));
}

function needName(n: Needed): string {
  return `${n.verb} ${n.resource}${n.subresource ? `/${n.subresource}` : ''}${n.group ? `.${n.group}` : ''}${n.namespaced ? ' (in the scratch namespace)' : ''}`;
}

export function KitLessonView({ lesson, context, scratch }: { lesson: KitLesson; context: string; scratch: string | undefined }) {
  const k = useKitLesson(lesson, context, scratch);
  const { ready, access, denied, mayRun, confirmed, setConfirmed, busy, cleaned, error } = k;
  return (
    <div className="lesson-body">
      {lesson.table && <LessonTable table={lesson.table} />}
      {lesson.scope === 'read' && <p className="small muted">This lesson only reads: it needs no scratch namespace and changes nothing.</p>}
      {ready && <Permissions access={access} denied={denied} />}
      {lesson.scope === 'cluster' && ready && (
        <label className="lesson-confirm panel">
          <input type="checkbox" data-main-action={confirmed ? undefined : true} checked={confirmed} onChange={(e) => setConfirmed(e.target.checked)} /> I understand that this lesson creates cluster-scoped objects: {lesson.clusterObjects}. They carry
          the label <code>explorer.lessons/lesson={lesson.topic}</code> and the last step (or "Remove cluster-scoped objects") deletes them.
        </label>
      )}
      {ready && (
        <div className="row">
          {/* The lesson's main action: the skip link and the command palette focus it. */}
          <button type="button" data-main-action disabled={!mayRun || busy !== null} onClick={() => void k.runAll()}>
            Run all steps
          </button>
          {lesson.cleanup && (
            <button type="button" disabled={!mayRun || busy !== null} onClick={k.cleanup}>
              Remove cluster-scoped objects
            </button>
          )}
        </div>
      )}
      {!ready && <p className="muted">Create the scratch namespace first: every object of this lesson goes there.</p>}
      {lesson.steps.map((s, i) => (
        <KitStep key={s.id} s={s} i={i} r={k.results[s.id]} ctx={k.ctx} disabled={!mayRun || busy !== null} busy={busy === s.id} onRun={() => void k.runStep(s)} />
      ))}
      {cleaned && <Cleaned cleaned={cleaned} />}
      {error != null && <ErrorBox error={error} />}
    </div>
  );
}

function LessonTable({ table }: { table: NonNullable<KitLesson['table']> }) {
  return (
    <table className="lesson-table" aria-label={table.caption}>
      <caption className="small">{table.caption}</caption>
      <thead>
        <tr>
          {table.columns.map((c) => (
            <th key={c}>{c}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {table.rows.map((r, i) => (
          <tr key={i}>
            {r.map((c, j) => (
              <td key={j}>{c}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Permissions({ access, denied }: { access: Access[] | null; denied: Access[] }) {
  return (
    <section className="panel lesson-access" aria-label="Permissions">
      <h4>Permissions, asked first (SelfSubjectAccessReview)</h4>
      {access === null ? (
        <p className="muted small">asking the server…</p>
      ) : (
        <ul className="small">
          {access.length === 0 && (
            <li data-testid="access">
              nothing to ask: this lesson reads only discovery and health endpoints, which every authenticated user may read (the <code>system:discovery</code> and <code>system:public-info-viewer</code> roles)
            </li>
          )}
          {access.map((a, i) => (
            <li key={i} data-testid="access">
              <span className={a.allowed ? 'lesson-ok' : 'lesson-bad'}>{a.allowed ? 'allowed' : 'denied'}</span> <code>{needName(a.need)}</code>
              {a.reason ? <span className="muted"> ({a.reason})</span> : null}
            </li>
          ))}
        </ul>
      )}
      {denied.length > 0 && (
        <p className="lesson-bad small">
          Your credentials lack {denied.map((d) => needName(d.need)).join(', ')}. The steps stay disabled: they would only be refused with 403 Forbidden. Ask for a Role granting these, or read the steps without running them.
        </p>
      )}
    </section>
  );
}

function KitStep({ s, i, r, ctx, disabled, busy, onRun }: { s: LessonStep; i: number; r: StepResult | undefined; ctx: StepContext; disabled: boolean; busy: boolean; onRun: () => void }) {
  const link = r ? s.view?.(ctx) : undefined;
  const blocked = s.blocked?.(ctx);
  return (
    <section key={s.id} className="lesson-kit-step" aria-label={`step ${s.id}`} data-testid={`step-${s.id}`}>
      <h3>
        {i + 1}. {s.title}
      </h3>
      <p>
        <Prose text={s.text} />
      </p>
      <div className="row">
        <button type="button" disabled={disabled || blocked !== undefined} onClick={onRun}>
          Run step {i + 1}
        </button>
        {busy && <span className="muted small">running…</span>}
      </div>
      {blocked !== undefined && (
        <p className="lesson-bad small" data-testid="blocked">
          Not run here: <Prose text={blocked} />
        </p>
      )}
      {r && (
        <>
          {r.xs.map((x, j) =>
            x.compact ? (
              // One of many alike: a line with its answer; the first and the last are shown whole.
              <details key={j} className="small lesson-compact" data-testid="compact-exchange">
                <summary>
                  <code>
                    {x.method} {x.path}
                  </code>{' '}
                  → <span className={x.status < 300 ? 'lesson-ok' : 'lesson-bad'}>HTTP {x.status}</span> {String((x.response as { metadata?: { name?: string } } | null)?.metadata?.name ?? '')}
                </summary>
                <StepCard title={`${x.method} ${x.path.split('?')[0]}`} label={`${s.id} exchange ${j + 1}`} x={x} show={s.show ? () => s.show!(x) : undefined} />
              </details>
            ) : (
              <StepCard key={j} title={`${x.method} ${x.path.split('?')[0]}${x.retried ? ' (an attempt before the change was in effect; sent again below)' : ''}`} label={`${s.id} exchange ${j + 1}`} x={x} show={s.show ? () => s.show!(x) : undefined}>
                <p className="small muted" data-testid="response-meta">
                  {x.refusedWatch ? 'a Status instead of a watch stream' : `${x.bytes} bytes`}
                  {['content-type', 'content-encoding', 'warning', 'audit-id']
                    .filter((h) => h !== 'audit-id' && x.responseHeaders[h])
                    .map((h) => ` · ${h}: ${x.responseHeaders[h]}`)
                    .join('')}
                </p>
              </StepCard>
            ),
          )}
          <p className="small">
            <strong>Look for:</strong> <Prose text={s.lookFor} />
          </p>
          {r.differs.length === 0 ? (
            <p className="lesson-ok small" data-testid="verdict">
              The server answered as described.
            </p>
          ) : (
            <div className="lesson-bad small" data-testid="verdict">
              The server answered otherwise:
              <ul>
                {r.differs.map((d, k) => (
                  <li key={k}>{d}</li>
                ))}
              </ul>
            </div>
          )}
          {link && (
            <a className="small" href={hrefFor(link.to)}>
              {link.label}
            </a>
          )}
        </>
      )}
    </section>
  );
}

function Cleaned({ cleaned }: { cleaned: KitExchange[] }) {
  return (
    <section className="lesson-kit-step" aria-label="cleanup" data-testid="cleanup">
      <h3>Removed</h3>
      <p className="small">{cleaned.map((x) => `${x.method} ${x.path.split('?')[0]} → ${x.status}`).join('; ')}</p>
      {/* Every write the page makes is shown as sent: the cleanup's too. */}
      {cleaned.map((x, j) => (
        <StepCard key={j} title={`${x.method} ${x.path.split('?')[0]}`} label={`cleanup exchange ${j + 1}`} x={x} />
      ))}
    </section>
  );
}

// The Lessons view: short explanations of API concepts, each with an experiment that runs against
// the current context in a scratch namespace of its own. `lesson` picks the page, `scratch` holds
// the namespace the lesson created (both in the URL, like all view state).
import { type ReactNode, useEffect, useState } from 'react';
import { hrefFor, type Route } from '../../routing';
import { KIT_LESSONS } from './catalog';
import { type KitLesson, loadProgress } from './kit';
import { KitLessonView, Prose } from './KitLessonView';
import { RvLab } from './RvLab';
import { Leftovers } from './Leftovers';
import { ScratchAccess } from './ScratchAccess';
import { ScratchBar } from './parts';
import './lessons.css';

interface CustomLesson {
  kind?: 'custom';
  id: string;
  /** How many steps count as done for the progress shown in the index. */
  steps?: number;
  /** Goes into the scratch namespace's name. */
  topic: string;
  title: string;
  intro: ReactNode;
  Body: (p: { context: string; scratch: string | undefined }) => ReactNode;
}

type Lesson = CustomLesson | (KitLesson & { kind: 'kit' });

const CUSTOM: CustomLesson[] = [
  {
    id: 'rv-lab',
    topic: 'rvlab',
    title: 'The resourceVersion lab: get, list and watch at every resourceVersion',
    intro: (
      <p>
        One grid for every way a read can name a version: the verb (get, list, list with <code>limit</code>, list with <code>continue</code>, watch) against{' '}
        <code>resourceVersion</code> (unset, "0", a recent value, an old compacted value, a future value) and <code>resourceVersionMatch</code> (unset, Exact, NotOlderThan).
        Choose a cell to send that request and see which semantic the server applied.
      </p>
    ),
    Body: RvLab,
  },
];

const byId = (id: string) => [...CUSTOM.map((l) => ({ ...l, kind: 'custom' as const })), ...KIT_LESSONS.map((l) => ({ ...l, kind: 'kit' as const }))].find((l) => l.id === id);

/** The suggested order through everything: concepts first, then reads, watches, writes. */
export const START_HERE = [
  'api-terminology',
  'verbs',
  'api-groups',
  'deprecated-apis',
  'resource-versions',
  'collections',
  'single-resource-api',
  'chunked-lists',
  'tables',
  'metadata-only',
  'metadata-preferences',
  'media-types',
  'compression',
  'encoding-memory',
  'watch',
  'streaming-lists',
  'streaming-list-from-rv',
  'bookmarks',
  'consistent-reads',
  'rv-lab',
  'field-validation',
  'body-errors',
  'yaml-bodies',
  'dry-run',
  'dry-run-access',
  'webhook-side-effects',
  'updates',
  'create-on-update',
  'generate-name',
  'server-side-apply',
  'managed-fields',
  'kubectl-apply',
  'user-agent',
  'merge-strategy',
  'ssa-controller',
  'ssa-scale-and-migration',
  'crd-apply',
  'storage-version-migration',
  'pruning',
  'deletion',
  'namespace-deletion',
  'force-deletion',
  'cel-validation',
  'cel-cost',
  'cel-libraries',
  'admission-policies',
  'mutating-admission-policy',
  'admission-order',
  'declarative-validation',
  'impersonation',
  'priority-and-fairness',
  'health',
];

export const LESSONS: Lesson[] = START_HERE.map((id) => byId(id)!).filter(Boolean);

function useProgress(): Record<string, string[]> {
  const [p, setP] = useState(loadProgress);
  useEffect(() => {
    const on = () => setP(loadProgress());
    window.addEventListener('lessons-progress', on);
    window.addEventListener('storage', on);
    return () => {
      window.removeEventListener('lessons-progress', on);
      window.removeEventListener('storage', on);
    };
  }, []);
  return p;
}

export function LessonsView({ route, context }: { route: Route; context: string }) {
  const lesson = LESSONS.find((l) => l.id === route.extra.lesson);
  const scratch = route.extra.scratch || undefined;
  const progress = useProgress();
  const total = (l: Lesson) => (l.kind === 'kit' ? l.steps.length : 0);
  const done = (l: Lesson) => (progress[l.id] ?? []).length;
  const next = LESSONS.find((l) => total(l) > 0 && done(l) < total(l));
  return (
    <section className="lessons">
      <nav className="lesson-index" aria-label="Lessons">
        <h2>Lessons</h2>
        <p className="small">
          <strong>Start here:</strong> the list runs from the words of the API to reads, watches and writes.{' '}
          {next && (
            <a href={hrefFor({ view: 'lessons', extra: { lesson: next.id } })} data-testid="next-lesson">
              Next: {next.title}
            </a>
          )}
        </p>
        <ol>
          {LESSONS.map((l) => (
            <li key={l.id}>
              <a href={hrefFor({ view: 'lessons', extra: { lesson: l.id } })} aria-current={l.id === lesson?.id ? 'page' : undefined}>
                {l.title}
              </a>
              {total(l) > 0 && (
                <span className="small muted" data-testid={`progress-${l.id}`}>
                  {' '}
                  {Math.min(done(l), total(l))}/{total(l)}
                </span>
              )}
            </li>
          ))}
        </ol>
        <p className="small muted">
          Each experiment makes real requests with the current context ({context}) in a namespace it creates for itself, and offers to delete it when you are done.
        </p>
        <ScratchAccess context={context} />
        <Leftovers context={context} current={scratch} />
      </nav>
      {lesson ? (
        <article className="lesson" aria-labelledby="lesson-title">
          <h2 id="lesson-title">{lesson.title}</h2>
          {lesson.kind === 'kit' ? (
            <>
              {lesson.paragraphs.map((p, i) => (
                <p key={i}>
                  <Prose text={p} />
                </p>
              ))}
              {lesson.scope !== 'read' && <ScratchBar context={context} topic={lesson.topic} scratch={scratch} />}
              <KitLessonView key={`${lesson.id}/${scratch ?? ''}`} lesson={lesson} context={context} scratch={scratch} />
            </>
          ) : (
            <>
              {lesson.intro}
              <ScratchBar context={context} topic={lesson.topic} scratch={scratch} />
              {/* Keyed on the namespace: a new scratch namespace starts the experiment afresh. */}
              <lesson.Body key={scratch ?? ''} context={context} scratch={scratch} />
            </>
          )}
        </article>
      ) : (
        <p className="muted">Pick a lesson.</p>
      )}
    </section>
  );
}

import type { Route } from '../../app/route';

export function LessonsView({ context }: { route: Route; context: string }) {
  return (
    <section>
      <h2>lessons</h2>
      <p className="muted">Not built yet (context {context}).</p>
    </section>
  );
}

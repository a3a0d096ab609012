import type { Route } from '../../app/route';

export function ConsoleView({ context }: { route: Route; context: string }) {
  return (
    <section>
      <h2>console</h2>
      <p className="muted">Not built yet (context {context}).</p>
    </section>
  );
}

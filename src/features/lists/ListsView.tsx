import type { Route } from '../../app/route';

export function ListsView({ context }: { route: Route; context: string }) {
  return (
    <section>
      <h2>lists</h2>
      <p className="muted">Not built yet (context {context}).</p>
    </section>
  );
}

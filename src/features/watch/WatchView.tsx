import type { Route } from '../../app/route';

export function WatchView({ context }: { route: Route; context: string }) {
  return (
    <section>
      <h2>watch</h2>
      <p className="muted">Not built yet (context {context}).</p>
    </section>
  );
}

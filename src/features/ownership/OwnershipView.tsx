import type { Route } from '../../app/route';

export function OwnershipView({ context }: { route: Route; context: string }) {
  return (
    <section>
      <h2>ownership</h2>
      <p className="muted">Not built yet (context {context}).</p>
    </section>
  );
}

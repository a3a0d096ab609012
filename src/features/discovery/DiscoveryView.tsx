import type { Route } from '../../app/route';

export function DiscoveryView({ context }: { route: Route; context: string }) {
  return (
    <section>
      <h2>discovery</h2>
      <p className="muted">Not built yet (context {context}).</p>
    </section>
  );
}

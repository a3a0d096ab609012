import type { Route } from '../../app/route';

export function EditView({ context }: { route: Route; context: string }) {
  return (
    <section>
      <h2>edit</h2>
      <p className="muted">Not built yet (context {context}).</p>
    </section>
  );
}

// Where the request's time went, from its audit event's apiserver.latency.k8s.io/* annotations
// (k8s/audit/latency.ts). Each part is drawn as a bar against the total; when the server wrote no
// breakdown the section says why (the 500 ms threshold, or a stage before ResponseComplete).
import { type AuditEvent, latencyBreakdown } from '../../k8s/audit';
import './sections.css';

export function LatencySection({ event }: { event: AuditEvent }) {
  const b = latencyBreakdown(event);
  return (
    <section className="audit-latency" aria-label="Latency breakdown">
      <h4>Where the time went</h4>
      {b.absent ? (
        <p className="muted" data-testid="latency-absent">
          {b.absent}
        </p>
      ) : (
        <table className="audit-latency-table">
          <tbody>
            {b.parts.map((p) => (
              <tr key={p.key} data-part={p.key} className={p === b.largest ? 'largest' : undefined}>
                <th scope="row">{p.label}</th>
                <td className="num">
                  <code>{p.text}</code>
                </td>
                <td className="bar">{b.total && b.total.ms > 0 && <meter min={0} max={b.total.ms} value={Math.min(p.ms, b.total.ms)} aria-label={`${p.label}: ${p.text} of ${b.total.text}`} />}</td>
              </tr>
            ))}
            {b.total && (
              <tr data-part="total">
                <th scope="row">total (RequestReceived to the response)</th>
                <td className="num">
                  <code>{b.total.text}</code>
                </td>
                <td />
              </tr>
            )}
          </tbody>
        </table>
      )}
      {b.largest && (
        <p className="small muted">
          Largest part: <strong>{b.largest.label}</strong>. The parts cover only what the server times (not its handlers' own work), and a part it timed as zero is left out, so they need not add up to the total.
        </p>
      )}
    </section>
  );
}

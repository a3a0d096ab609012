// STUB owned by helper h46l (issue 46): h46l replaces this file with the latency breakdown
// (apiserver.latency.k8s.io/* annotations: etcd, admission webhooks, encoding, against the
// total). The contract: one named export, `LatencySection`, taking the request's most complete
// audit event (its annotations merged over every stage).
import type { AuditEvent } from '../../k8s/audit';
import { msBetween } from './summary';

export function LatencySection({ event }: { event: AuditEvent }) {
  const total = msBetween(event.requestReceivedTimestamp, event.stageTimestamp);
  if (total === undefined) return null;
  return (
    <section aria-label="Latency">
      <h4>Latency</h4>
      <p className="small">
        {total.toFixed(1)} ms from RequestReceived to {event.stage}
      </p>
    </section>
  );
}

// STUB owned by helper h46l (issue 46): h46l replaces this file with the admission part of the
// audit panel (each mutating webhook and MutatingAdmissionPolicy with its patch as a diff of the
// object, validating decisions). The contract: one named export, `AdmissionSection`, taking the
// request's most complete audit event (its annotations merged over every stage).
import type { AuditEvent } from '../../k8s/audit';

export function AdmissionSection({ event }: { event: AuditEvent }) {
  const keys = Object.keys(event.annotations ?? {}).filter((k) => k.includes('admission.k8s.io/'));
  if (keys.length === 0) return null;
  return (
    <section aria-label="Admission">
      <h4>Admission</h4>
      <ul className="small">
        {keys.map((k) => (
          <li key={k}>
            <code>{k}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}

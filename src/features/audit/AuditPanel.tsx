// The server's view of one exchange: the audit events kube-apiserver wrote for it, matched by the
// Audit-Id header of its response. Who the server took the caller for (user, groups, extra,
// impersonation), why authorization allowed it, which API Priority and Fairness flow schema and
// priority level took it, Pod Security and deprecation annotations, the response status, and the
// stages as they arrive. The admission and latency sections are their own components (slots).
import { useQuery } from '@tanstack/react-query';
import { apfNamesQuery, auditIdOf, type AuditEvent, type AuditLookup } from '../../k8s/audit';
import { headerValue, type HeaderList } from '../../k8s/client';
import { AdmissionSection } from './AdmissionSection';
import { AuditImport } from './AuditImport';
import { LatencySection } from './LatencySection';
import { type AuditSummary, msBetween, summarizeAudit } from './summary';
import { useAuditEvents } from './useAuditEvents';

export interface AuditPanelProps {
  context: string;
  /** The response's headers: Audit-Id, and the X-Kubernetes-PF-* UIDs. */
  headers: HeaderList | undefined;
  /** Events saved with a recording: shown instead of asking the server. */
  recorded?: readonly AuditEvent[];
  /** Open at first (default closed: the exchange comes first). */
  open?: boolean;
}

export function AuditPanel({ context, headers, recorded, open }: AuditPanelProps) {
  const id = auditIdOf(headers);
  const lookup = useAuditEvents(context, id, recorded);
  const summary = lookup ? summarizeAudit(lookup.events) : undefined;
  return (
    <details className="audit-panel" aria-label="Audit" open={open}>
      <summary>
        Server’s view (audit){summary ? `: ${summary.user.username ?? '?'} · ${summary.decision ?? 'no decision'} · ${summary.stages.map((s) => s.stage).join(' → ')}` : ''}
      </summary>
      {!id ? <p className="muted small">No Audit-Id in this response: the API server did not answer it (the explorer’s proxy did), so there is no audit event to match.</p> : <AuditBody context={context} id={id} headers={headers} lookup={lookup} summary={summary} />}
    </details>
  );
}

function AuditBody({ context, id, headers, lookup, summary }: { context: string; id: string; headers: HeaderList | undefined; lookup: AuditLookup | undefined; summary: AuditSummary | undefined }) {
  return (
    <div className="stack small" data-audit-id={id}>
      <p className="muted">
        Audit-Id <code>{id}</code>
        {lookup && ` · ${sourceText(lookup)}`}
      </p>
      {!summary && <Empty lookup={lookup} />}
      {summary && (
        <>
          <Stages summary={summary} />
          <Identity summary={summary} />
          <Authorization summary={summary} />
          <Apf context={context} headers={headers} />
          <StatusAndNotes summary={summary} />
          <AdmissionSection event={summary.event} headers={headers} />
          <LatencySection event={summary.event} />
        </>
      )}
    </div>
  );
}

function sourceText(l: AuditLookup): string {
  switch (l.source) {
    case 'log': return 'from the local control plane’s audit log';
    case 'import': return 'from an imported audit log';
    case 'recording': return 'saved with the recording';
    default: return 'no audit log for this cluster';
  }
}

function Empty({ lookup }: { lookup: AuditLookup | undefined }) {
  if (!lookup) return <p className="muted">Looking for its audit events…</p>;
  if (lookup.error) return <p className="warning-list">Could not ask the explorer server for audit events: {lookup.error}</p>;
  if (lookup.source === 'none') {
    return (
      <>
        <p className="muted">{lookup.reason ?? 'No audit log is known for this cluster.'}</p>
        <AuditImport />
      </>
    );
  }
  if (lookup.reason) return <p className="muted">{lookup.reason}</p>;
  return <p className="muted">No event with this ID yet (the log is read as kube-apiserver writes it; a request its audit policy leaves out has none).</p>;
}

function Stages({ summary }: { summary: AuditSummary }) {
  const first = summary.event.requestReceivedTimestamp;
  return (
    <ol className="row" aria-label="Audit stages" style={{ listStyle: 'none', paddingLeft: 0 }}>
      {summary.stages.map((s) => {
        const d = msBetween(first, s.at);
        return (
          <li key={s.stage} className="badge" data-stage={s.stage}>
            {s.stage}
            {d !== undefined && s.stage !== 'RequestReceived' ? ` +${d.toFixed(1)} ms` : ''}
          </li>
        );
      })}
      <li className="muted">level {summary.level}</li>
    </ol>
  );
}

function UserRows({ label, user }: { label: string; user: { username?: string; groups: string[]; extra: [string, string[]][] } }) {
  return (
    <>
      <tr>
        <th scope="row">{label}</th>
        <td>
          <code data-audit="username">{user.username ?? '(none)'}</code>
        </td>
      </tr>
      <tr>
        <th scope="row">groups</th>
        <td data-audit="groups">{user.groups.map((g) => <code key={g} className="badge">{g}</code>)}</td>
      </tr>
      {user.extra.map(([k, v]) => (
        <tr key={k}>
          <th scope="row">extra {k}</th>
          <td>
            <code>{v.join(', ')}</code>
          </td>
        </tr>
      ))}
    </>
  );
}

function Identity({ summary }: { summary: AuditSummary }) {
  return (
    <section aria-label="Identity">
      <h4>Who the server took the caller for</h4>
      <table className="grid">
        <tbody>
          <UserRows label="user" user={summary.user} />
          {summary.impersonatedUser && <UserRows label="impersonated user" user={summary.impersonatedUser} />}
        </tbody>
      </table>
      {summary.impersonatedUser && <p className="muted">The request was authenticated as the user above and then acted as the impersonated user (Impersonate-* headers): authorization and admission saw the impersonated one.</p>}
    </section>
  );
}

function Authorization({ summary }: { summary: AuditSummary }) {
  if (summary.decision === undefined) return <p className="muted">No authorization decision recorded (a request refused before authorization, or one that needs none).</p>;
  return (
    <p aria-label="Authorization">
      Authorization: <strong data-audit="decision">{summary.decision}</strong>
      {summary.reason ? <span data-audit="reason"> — {summary.reason}</span> : <span className="muted"> (no reason given: members of system:masters are allowed before any authorizer is asked, and RBAC names no binding when it refuses)</span>}
    </p>
  );
}

function Apf({ context, headers }: { context: string; headers: HeaderList | undefined }) {
  const fs = headers ? headerValue(headers, 'X-Kubernetes-PF-FlowSchema-UID') : undefined;
  const pl = headers ? headerValue(headers, 'X-Kubernetes-PF-PriorityLevel-UID') : undefined;
  const names = useQuery({ ...apfNamesQuery(context), enabled: Boolean(fs || pl) });
  if (!fs && !pl) return <p className="muted">No API Priority and Fairness headers: the request was exempt from APF classification, or answered before it.</p>;
  const name = (uid: string | undefined) => (uid ? (names.data?.get(uid) ?? `UID ${uid}`) : '?');
  return (
    <p aria-label="API Priority and Fairness">
      API Priority and Fairness: flow schema <code data-audit="flowschema">{name(fs)}</code>, priority level <code data-audit="prioritylevel">{name(pl)}</code>
      {names.data && fs && !names.data.has(fs) && <span className="muted"> (names unknown: this context may not list flowschemas and prioritylevelconfigurations)</span>}
    </p>
  );
}

function StatusAndNotes({ summary }: { summary: AuditSummary }) {
  const s = summary.status;
  return (
    <>
      {s && (
        <p aria-label="Response status">
          Response status: <code>{s.code}</code> {s.status} {s.reason} {s.message && <span className="muted">— {s.message}</span>}
        </p>
      )}
      {summary.deprecated && (
        <p className="warning-list" aria-label="Deprecation">
          Deprecated API{summary.deprecated.removedRelease ? `: removed in ${summary.deprecated.removedRelease}` : ''}.
        </p>
      )}
      {summary.podSecurity.length > 0 && (
        <ul aria-label="Pod Security">
          {summary.podSecurity.map(([k, v]) => (
            <li key={k}>
              <code>{k}</code>: {v}
            </li>
          ))}
        </ul>
      )}
      {summary.otherAnnotations.length > 0 && (
        <details>
          <summary>Other annotations ({summary.otherAnnotations.length})</summary>
          <ul>
            {summary.otherAnnotations.map(([k, v]) => (
              <li key={k}>
                <code>{k}</code>: {v}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

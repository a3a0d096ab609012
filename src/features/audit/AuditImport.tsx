// Import an audit log file (a remote cluster's, as kube-apiserver writes it or a managed cluster
// exports it): its events are matched to exchanges by Audit-Id like the local log's.
import { useState, useSyncExternalStore } from 'react';
import { clearImportedAudit, importAuditLog, importedAudit } from '../../k8s/audit';

export function AuditImport() {
  useSyncExternalStore(importedAudit.subscribe, importedAudit.version, importedAudit.version);
  const [error, setError] = useState<string | undefined>(undefined);
  const logs = importedAudit.logs();
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      setError(undefined);
      importAuditLog(file.name, await file.text());
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div className="row small" aria-label="Import an audit log">
      <label>
        Import an audit log (JSON lines){' '}
        <input type="file" accept=".log,.json,.jsonl,.ndjson,.txt,application/json" onChange={(e) => void onFile(e.target.files?.[0])} />
      </label>
      {logs.map((l, i) => (
        <span key={i} className="badge">
          {l.name}: {l.requests} requests{l.skipped ? `, ${l.skipped} lines skipped` : ''}
        </span>
      ))}
      {logs.length > 0 && (
        <button type="button" onClick={clearImportedAudit}>
          Forget imported logs
        </button>
      )}
      {error && (
        <p role="alert" className="error-box">
          {error}
        </p>
      )}
    </div>
  );
}

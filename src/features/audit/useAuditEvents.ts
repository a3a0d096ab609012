// One request's audit events for the panel: saved with a recording, imported, or followed live
// from the explorer server as stages are written.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { type AuditEvent, type AuditLookup, followAuditEvents, importedAudit } from '../../k8s/audit';

export function useAuditEvents(context: string, id: string | undefined, recorded?: readonly AuditEvent[]): AuditLookup | undefined {
  const importVersion = useSyncExternalStore(importedAudit.subscribe, importedAudit.version, importedAudit.version);
  const [live, setLive] = useState<AuditLookup | undefined>(undefined);
  useEffect(() => {
    setLive(undefined);
    if (!id || recorded) return;
    const stop = new AbortController();
    void followAuditEvents(context, id, setLive, stop.signal);
    return () => stop.abort();
    // importVersion: an import made while the panel is open answers at once.
  }, [context, id, recorded, importVersion]);
  if (recorded) return { source: 'recording', events: [...recorded] };
  return live;
}

// Which field managers an event touched: managedFields entries (one per manager, operation and
// subresource) whose fields or time differ between an object's previous and new version.
import type { KubeObject, ManagedFieldsEntry } from '../../k8s/watch';

function entryKey(e: ManagedFieldsEntry): string {
  return `${e.manager ?? ''}\u0000${e.operation ?? ''}\u0000${e.subresource ?? ''}`;
}

export interface ManagerChange {
  manager: string;
  operation?: string;
  subresource?: string;
  change: 'added' | 'updated' | 'removed';
}

export function changedManagers(previous: KubeObject | undefined, next: KubeObject | undefined): ManagerChange[] {
  const before = new Map((previous?.metadata?.managedFields ?? []).map((e) => [entryKey(e), e]));
  const after = new Map((next?.metadata?.managedFields ?? []).map((e) => [entryKey(e), e]));
  const out: ManagerChange[] = [];
  for (const [k, e] of after) {
    const b = before.get(k);
    const base = { manager: e.manager ?? '(none)', operation: e.operation, subresource: e.subresource };
    if (!b) out.push({ ...base, change: 'added' });
    else if (b.time !== e.time || JSON.stringify(b.fieldsV1) !== JSON.stringify(e.fieldsV1) || b.apiVersion !== e.apiVersion) out.push({ ...base, change: 'updated' });
  }
  for (const [k, e] of before) if (!after.has(k)) out.push({ manager: e.manager ?? '(none)', operation: e.operation, subresource: e.subresource, change: 'removed' });
  return out;
}

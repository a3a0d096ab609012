// Importing an audit log: JSON lines as kube-apiserver writes them, a JSON array, a wrapped export;
// a file that holds no event is refused with its reason and what was imported before stays.
import { afterEach, describe, expect, it } from 'vitest';
import { clearImportedAudit, importAuditLog, importedAudit } from './audit';

const ev = (id: string, stage: string) => ({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: id, stage, requestURI: '/api', verb: 'get', user: { username: 'u' } });

afterEach(clearImportedAudit);

describe('importAuditLog', () => {
  it('reads JSON lines (stages in any order), a torn last line counted, not kept', () => {
    const text = `${JSON.stringify(ev('a', 'ResponseComplete'))}\n${JSON.stringify(ev('a', 'RequestReceived'))}\n${JSON.stringify(ev('b', 'RequestReceived')).slice(0, 50)}`;
    const log = importAuditLog('audit.log', text);
    expect(log).toMatchObject({ requests: 1, events: 2, skipped: 1 });
    expect(importedAudit.get('a')!.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
    expect(importedAudit.get('b')).toBeUndefined();
  });

  it('reads a JSON array and a wrapped export (each event as a string in `message`)', () => {
    importAuditLog('export.json', JSON.stringify([ev('c', 'ResponseComplete')]));
    importAuditLog('cloudwatch.jsonl', `${JSON.stringify({ timestamp: 1, message: JSON.stringify(ev('d', 'ResponseComplete')) })}\n`);
    expect(importedAudit.get('c')).toHaveLength(1);
    expect(importedAudit.get('d')).toHaveLength(1);
  });

  it('refuses a file with no audit event, saying why, and keeps what was imported before', () => {
    importAuditLog('good.log', `${JSON.stringify(ev('kept', 'ResponseComplete'))}\n`);
    const before = importedAudit.version();
    expect(() => importAuditLog('kubeconfig', 'apiVersion: v1\nkind: Config\n')).toThrow(/kubeconfig: no audit.k8s.io\/v1 events in it \(2 lines read; last refused: not JSON/);
    expect(() => importAuditLog('old.log', `${JSON.stringify({ ...ev('x', 'ResponseComplete'), apiVersion: 'audit.k8s.io/v1beta1' })}\n`)).toThrow(/apiVersion audit.k8s.io\/v1beta1/);
    expect(() => importAuditLog('broken.json', '[{"auditID":')).toThrow(/not JSON lines and not a JSON array/);
    expect(importedAudit.get('kept')).toHaveLength(1);
    expect(importedAudit.logs().map((l) => l.name)).toEqual(['good.log']);
    expect(importedAudit.version()).toBe(before);
  });
});

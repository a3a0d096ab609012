// A recording keeps its exchanges' audit events: written under log._recording.audit, redacted like
// the bodies (a credential in an imported log's event is replaced), and read back for replay.
import { describe, expect, it } from 'vitest';
import { fromRecordingHar, type RecordingContents, toRecordingHar } from '../record';
import type { AuditEvent } from '.';

const event = (id: string, extra: Partial<AuditEvent> = {}): AuditEvent => ({ level: 'RequestResponse', auditID: id, stage: 'ResponseComplete', requestURI: '/api/v1/namespaces/d/configmaps', verb: 'create', user: { username: 'u' }, ...extra });

const contents = (audit: Record<string, AuditEvent[]>): RecordingContents => ({
  exchanges: [{ id: '1', context: 'c', startedAt: '2026-01-01T00:00:00.000Z', request: { method: 'GET', path: '/api', headers: [] }, response: { status: 200, statusText: 'OK', headers: [['Audit-Id', 'a']], body: new Uint8Array() }, timings: {}, watch: false, source: 'live', chunks: [] } as unknown as RecordingContents['exchanges'][number]],
  marks: [],
  servers: { c: 'https://x' },
  startedAt: Date.parse('2026-01-01T00:00:00.000Z'),
  full: false,
  audit,
});

describe('audit events in a recording', () => {
  it('are saved redacted and read back', () => {
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'c2VjcmV0LXZhbHVl' } };
    const har = toRecordingHar(contents({ a: [event('a', { requestObject: secret, annotations: { note: 'password: hunter2-hunter2' } })] }), { enabled: true, patterns: [] });
    const text = JSON.stringify(har);
    expect(text).not.toContain('c2VjcmV0LXZhbHVl');
    expect(text).not.toContain('hunter2-hunter2');
    const back = fromRecordingHar(JSON.parse(text));
    expect(back.audit?.a?.map((e) => [e.auditID, e.stage])).toEqual([['a', 'ResponseComplete']]);
  });

  it('an unreadable audit part is left out, the recording still opens', () => {
    const har = JSON.parse(JSON.stringify(toRecordingHar(contents({}), { enabled: true, patterns: [] }))) as { log: { _recording: { audit?: unknown } } };
    har.log._recording.audit = { a: [{ not: 'an event' }], b: 'nonsense' };
    expect(fromRecordingHar(har).audit).toEqual({});
  });
});

// The audit log follower: lines split anywhere (a writer mid-line), torn and foreign lines, a
// rotation as lumberjack does it (rename, new file), a truncation, and the index's bounds.
import { appendFileSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLineSplitter, type AuditEvent } from '../../protocol/audit';
import { AuditIndex, followAuditLog } from './auditLog';

const ev = (id: string, stage = 'ResponseComplete', extra: Record<string, unknown> = {}) =>
  JSON.stringify({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID: id, stage, requestURI: '/api', verb: 'get', user: { username: 'u' }, ...extra });

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempLog(): string {
  const d = mkdtempSync(join(tmpdir(), 'audit-log-'));
  dirs.push(d);
  return join(d, 'audit.log');
}

describe('AuditLineSplitter', () => {
  it('reads the same events however the bytes are cut into chunks', () => {
    const lines = ['a', 'b', 'c', 'd'].map((id, i) => ev(id, i % 2 ? 'RequestReceived' : 'ResponseComplete'));
    const text = `${lines.join('\n')}\n`;
    fc.assert(
      fc.property(fc.array(fc.nat(text.length), { maxLength: 8 }), (cuts) => {
        const got: string[] = [];
        const s = new AuditLineSplitter((e) => got.push(`${e.auditID}/${e.stage}`));
        const points = [0, ...[...cuts].sort((x, y) => x - y), text.length];
        for (let i = 1; i < points.length; i++) s.push(text.slice(points[i - 1], points[i]));
        s.end();
        expect(got).toEqual(['a/ResponseComplete', 'b/RequestReceived', 'c/ResponseComplete', 'd/RequestReceived']);
      }),
    );
  });

  it('counts a torn last line, other apiVersions and foreign lines, and keeps reading', () => {
    const got: AuditEvent[] = [];
    const s = new AuditLineSplitter((e) => got.push(e));
    s.push(`${ev('a')}\nnot json\n${ev('b').replace('audit.k8s.io/v1', 'audit.k8s.io/v1beta1')}\n{"kind":"Event"}\n${ev('c')}\n${ev('d').slice(0, 40)}`);
    s.end();
    expect(got.map((e) => e.auditID)).toEqual(['a', 'c']);
    expect(s.skipped).toBe(4);
  });

  it('keeps only a stub (ID, stage) of a line longer than its bound, then reads on', () => {
    const got: AuditEvent[] = [];
    const s = new AuditLineSplitter((e) => got.push(e), 1000);
    const huge = ev('0b9f0a0e-1', 'ResponseComplete', { requestObject: { data: 'x'.repeat(5000) } });
    for (let i = 0; i < huge.length; i += 300) s.push(huge.slice(i, i + 300));
    s.push(`\n${ev('next')}\n`);
    expect(got.map((e) => [e.auditID, e.stage, e.truncated ?? false])).toEqual([['0b9f0a0e-1', 'ResponseComplete', true], ['next', 'ResponseComplete', false]]);
    expect(JSON.stringify(got[0])).not.toContain('xxxx');
  });

  it('unwraps a managed cluster export that wraps each event', () => {
    const got: AuditEvent[] = [];
    const s = new AuditLineSplitter((e) => got.push(e));
    s.push(`${JSON.stringify({ '@timestamp': 1, message: ev('cw') })}\n`);
    s.end();
    expect(got.map((e) => e.auditID)).toEqual(['cw']);
  });
});

describe('AuditIndex', () => {
  it('holds at most maxRequests requests, dropping the oldest', () => {
    const idx = new AuditIndex({ maxRequests: 3 });
    for (const id of ['a', 'b', 'c', 'd']) idx.add(JSON.parse(ev(id)) as AuditEvent, 10);
    expect(idx.get('a')).toBeUndefined();
    expect(idx.get('d')).toHaveLength(1);
    expect(idx.size.requests).toBe(3);
  });

  it('holds at most maxBytes, and keeps the stages of one request in order', () => {
    const idx = new AuditIndex({ maxBytes: 100 });
    idx.add(JSON.parse(ev('a', 'ResponseComplete')) as AuditEvent, 40);
    idx.add(JSON.parse(ev('a', 'RequestReceived')) as AuditEvent, 40);
    idx.add(JSON.parse(ev('b')) as AuditEvent, 40);
    expect(idx.get('a')).toBeUndefined();
    expect(idx.size.bytes).toBeLessThanOrEqual(100);
    idx.add(JSON.parse(ev('b', 'RequestReceived')) as AuditEvent, 10);
    expect(idx.get('b')!.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
  });
});

describe('followAuditLog', () => {
  it('follows appends, a half-written line, a rotation and a truncation', () => {
    const path = tempLog();
    const f = followAuditLog(path, { pollMs: 60_000 });
    try {
      f.poll(); // no file yet: kube-apiserver creates it at its first event
      writeFileSync(path, `${ev('one')}\n${ev('two', 'RequestReceived').slice(0, 30)}`);
      f.poll();
      expect(f.index.get('one')).toHaveLength(1);
      expect(f.index.get('two')).toBeUndefined();
      appendFileSync(path, `${ev('two', 'RequestReceived').slice(30)}\n`);
      f.poll();
      expect(f.index.get('two')).toHaveLength(1);
      // Rotation: lines appended to the old file after the rename are still read, then the new file.
      renameSync(path, join(path, '..', 'audit-2026-01-01T00-00-00.000.log'));
      appendFileSync(join(path, '..', 'audit-2026-01-01T00-00-00.000.log'), `${ev('two')}\n`);
      writeFileSync(path, `${ev('three')}\n`);
      f.poll();
      expect(f.index.get('two')!.map((e) => e.stage)).toEqual(['RequestReceived', 'ResponseComplete']);
      expect(f.index.get('three')).toHaveLength(1);
      // Truncated in place, then written again from the start.
      writeFileSync(path, `${ev('four')}\n`);
      f.poll();
      expect(f.index.get('four')).toHaveLength(1);
      expect(f.skipped().count).toBe(0);
    } finally {
      f.stop();
    }
  });
});

// Reads the local control plane's audit log in server tests: the events of one request, by the
// Audit-Id header the server answered with. The log backend writes each event before the request
// goes on (blocking mode, proxy/cluster/audit.ts), so the ResponseComplete stage is there a moment
// after the answer; the file is read from where it stood when the test began.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type AuditEvent, AuditLineSplitter } from '../../../protocol/audit';
import { sleep } from '../../lib/sleep';

export interface AuditLogReader {
  /** The request's events once its ResponseComplete is written (throws after `ms`). */
  complete(auditID: string, ms?: number): Promise<AuditEvent>;
}

export function auditLogOf(controlPlaneDir: string): AuditLogReader {
  const file = join(controlPlaneDir, 'audit', 'audit.log');
  let offset = statSync(file).size;
  const seen = new Map<string, AuditEvent>();
  const splitter = new AuditLineSplitter((e) => {
    if (e.stage === 'ResponseComplete') seen.set(e.auditID, e);
  });
  const readMore = () => {
    const size = statSync(file).size;
    if (size <= offset) return;
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(size - offset);
      readSync(fd, buf, 0, buf.length, offset);
      offset = size;
      splitter.push(buf.toString('utf8'));
    } finally {
      closeSync(fd);
    }
  };
  return {
    async complete(auditID, ms = 10_000) {
      for (const start = Date.now(); Date.now() - start < ms; await sleep(50)) {
        readMore();
        const e = seen.get(auditID);
        if (e) return e;
      }
      throw new Error(`no ResponseComplete audit event for ${auditID} within ${ms} ms`);
    },
  };
}

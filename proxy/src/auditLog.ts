// Follows the local control plane's audit log as kube-apiserver writes it, and keeps the recent
// events by auditID for /proxy/audit (auditRoute.ts). The log backend writes through lumberjack
// (k8s.io/apiserver's plugin/pkg/audit/log with gopkg.in/natefinch/lumberjack.v2): when the file
// reaches --audit-log-maxsize it is renamed (audit-<time>.log) and a new audit.log is created. The
// reader keeps its descriptor on the renamed file until it has read it to the end, then opens the
// new one from its start, so no event is lost across a rotation; a file cut shorter than what was
// read (truncated in place) is read again from its start.
import { closeSync, fstatSync, openSync, readSync, statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { AuditLineSplitter, type AuditEvent, byStage } from '../../protocol/audit';

export interface AuditIndexLimits {
  /** Requests kept (oldest dropped first). Default 5,000. */
  maxRequests?: number;
  /** Bytes of event JSON kept, counted as read. Default 64 MiB. */
  maxBytes?: number;
}

/** Events by auditID, bounded in count and bytes; the oldest request goes first. */
export class AuditIndex {
  private readonly byId = new Map<string, { events: AuditEvent[]; bytes: number }>();
  private bytes = 0;
  private readonly waiters = new Set<() => void>();
  private readonly maxRequests: number;
  private readonly maxBytes: number;

  constructor(limits: AuditIndexLimits = {}) {
    this.maxRequests = limits.maxRequests ?? 5_000;
    this.maxBytes = limits.maxBytes ?? 64 * 1024 * 1024;
  }

  add(event: AuditEvent, bytes: number): void {
    let entry = this.byId.get(event.auditID);
    if (!entry) {
      entry = { events: [], bytes: 0 };
      this.byId.set(event.auditID, entry);
    }
    // A stage seen twice (the file read again after a truncation) replaces the first.
    const same = entry.events.findIndex((e) => e.stage === event.stage);
    if (same >= 0) entry.events.splice(same, 1);
    entry.events.push(event);
    entry.bytes += bytes;
    this.bytes += bytes;
    for (const [id, old] of this.byId) {
      if (this.byId.size <= this.maxRequests && this.bytes <= this.maxBytes) break;
      if (id === event.auditID && this.byId.size === 1) break;
      this.byId.delete(id);
      this.bytes -= old.bytes;
    }
    for (const wake of [...this.waiters]) wake();
  }

  get(id: string): AuditEvent[] | undefined {
    const entry = this.byId.get(id);
    return entry ? byStage(entry.events) : undefined;
  }

  get size(): { requests: number; bytes: number } {
    return { requests: this.byId.size, bytes: this.bytes };
  }

  /** Resolves at the next added event, or after `ms`, or when `signal` aborts. */
  next(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((ok) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', done);
        ok();
      };
      const timer = setTimeout(done, ms);
      this.waiters.add(done);
      signal?.addEventListener('abort', done);
    });
  }
}

const CHUNK = 1024 * 1024;

/** A followed audit log: its index, and stop(). */
export interface AuditFollower {
  path: string;
  index: AuditIndex;
  /** Lines that were not events (torn, other apiVersions, too long to read whole). */
  skipped(): { count: number; last?: string };
  /** Reads what has been written since the last read (also done on its own as the file changes). */
  poll(): void;
  stop(): void;
}

export function followAuditLog(path: string, opts: AuditIndexLimits & { pollMs?: number } = {}): AuditFollower {
  const index = new AuditIndex(opts);
  const splitter = new AuditLineSplitter((e, chars) => index.add(e, chars));
  let fd: number | undefined;
  let ino = 0;
  let offset = 0;
  let decoder = new StringDecoder('utf8');
  const buf = Buffer.allocUnsafe(CHUNK);

  const readToEnd = (): void => {
    if (fd === undefined) return;
    for (;;) {
      const n = readSync(fd, buf, 0, CHUNK, offset);
      if (n <= 0) return;
      offset += n;
      splitter.push(decoder.write(buf.subarray(0, n)));
    }
  };
  const open = (): void => {
    try {
      fd = openSync(path, 'r');
      ino = fstatSync(fd).ino;
      offset = 0;
      decoder = new StringDecoder('utf8');
    } catch {
      fd = undefined; // not written yet: kube-apiserver creates it at its first event
    }
  };
  const close = (): void => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };

  const poll = (): void => {
    try {
      if (fd === undefined) open();
      readToEnd();
      let now: { ino: number; size: number } | undefined;
      try {
        now = statSync(path);
      } catch {
        now = undefined;
      }
      if (now && now.ino !== ino) {
        // Rotated: the old file is read to its end (done above), then the new one from its start.
        splitter.end();
        close();
        open();
        readToEnd();
      } else if (now && fd !== undefined && now.size < offset) {
        // Truncated in place: read again from the start (stages already held are replaced).
        splitter.end();
        offset = 0;
        decoder = new StringDecoder('utf8');
        readToEnd();
      }
    } catch {
      close();
    }
  };

  poll();
  // The folder is watched (not the file: it is renamed away on rotation); the timer covers
  // filesystems without change events.
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dirname(path), (_type, name) => {
      if (!name || name === basename(path)) poll();
    });
    watcher.on('error', () => watcher?.close());
    watcher.unref();
  } catch {
    watcher = undefined;
  }
  const timer = setInterval(poll, opts.pollMs ?? 250);
  timer.unref();

  return {
    path,
    index,
    skipped: () => ({ count: splitter.skipped, last: splitter.lastSkip }),
    poll,
    stop() {
      clearInterval(timer);
      watcher?.close();
      close();
    },
  };
}

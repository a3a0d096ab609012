// /readyz?verbose as the indicator reads it. kube-apiserver answers one line per check, "[+]name ok"
// or "[-]name failed: reason withheld", then "readyz check passed" (200) or "readyz check failed"
// (500, e.g. with etcd stopped: "[-]etcd failed"). Pure.

export interface ReadyzReport {
  /** Epoch ms of the read. */
  at: number;
  /** HTTP status; 0 when no answer came. */
  status: number;
  /** null: the answer tells nothing (a cluster that does not let this user read /readyz). */
  ready: boolean | null;
  /** Checks that failed ("etcd", "poststarthook/start-apiextensions-informers"). */
  failed: string[];
  /** Why there is no check list: no answer, or an answer that is not one (a 403 from a cluster that closes /readyz). */
  message?: string;
  /**
   * No answer within READYZ_ANSWER_MS although the explorer server is there: a kube-apiserver that
   * accepts connections and answers nothing (stopped with SIGSTOP, swapping, deadlocked). Its
   * requests would wait for the proxy's timeouts, and the page went on saying "connected".
   */
  silent?: boolean;
}

/** How long the indicator's /readyz probe waits: kube-apiserver answers it at once when it runs at all. */
export const READYZ_ANSWER_MS = 5_000;

export function parseReadyz(status: number, body: string, at: number): ReadyzReport {
  const failed: string[] = [];
  let lines = 0;
  for (const line of body.split('\n')) {
    const m = /^\[([+-])\]([^\s]+) /.exec(line.trim() + ' ');
    if (!m) continue;
    lines++;
    if (m[1] === '-') failed.push(m[2]!);
  }
  if (status === 200) return { at, status, ready: true, failed };
  if (lines === 0) return { at, status, ready: status >= 500 || status === 0 ? false : null, failed, message: body.trim().split('\n')[0]?.slice(0, 200) ?? '' };
  return { at, status, ready: false, failed };
}

/** "etcd failed", "etcd and poststarthook/x failed", or the message of an answer without checks. */
export function readyzText(r: ReadyzReport): string {
  if (r.silent) return `no answer within ${READYZ_ANSWER_MS / 1000} s`;
  if (r.failed.length) return `${r.failed.length > 3 ? `${r.failed.slice(0, 3).join(', ')} and ${r.failed.length - 3} more` : r.failed.join(r.failed.length === 2 ? ' and ' : ', ')} failed`;
  return r.message ? `HTTP ${r.status}: ${r.message}` : `HTTP ${r.status}`;
}

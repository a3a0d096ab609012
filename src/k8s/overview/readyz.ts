// The one reader of /readyz?verbose: the Welcome page and the connection indicator share its query
// (one request, one cache entry, one verdict). kube-apiserver answers one line per check, "[+]name
// ok" or "[-]name failed: reason withheld", then "readyz check passed" (200) or "readyz check
// failed" (500, e.g. with etcd stopped). Only that answer says ready or not: a 401/403/404, an
// answer of our proxy (server unreachable, credentials) or of a replay (not in the recording) says
// nothing about readiness and is kept as the message it is. Open to every user
// (system:public-info-viewer) unless a cluster closes it.
import { queryOptions, skipToken } from '@tanstack/react-query';
import { isStatus, kubeFetch } from '../client';

export interface HealthCheck {
  name: string;
  ok: boolean;
  /** What follows the name on a failed line ("failed: reason withheld"). */
  detail?: string;
}

export interface ReadyzReport {
  /** Epoch ms of the read. */
  at: number;
  /** HTTP status; 0 when no answer came. */
  status: number;
  /** The verdict. null: the answer tells nothing (a cluster that does not let this user read /readyz, the proxy's own error). */
  ready: boolean | null;
  /** Checks that failed ("etcd", "poststarthook/start-apiextensions-informers"). */
  failed: string[];
  /** Every check as the server listed it (absent when no answer came). */
  checks?: HealthCheck[];
  /** The body as the server sent it. */
  text?: string;
  /** Why there is no check list: no answer, or an answer that is not one (a 403 from a cluster that closes /readyz). */
  message?: string;
  /**
   * No answer within READYZ_ANSWER_MS although the explorer server is there: a kube-apiserver that
   * accepts connections and answers nothing (stopped with SIGSTOP, swapping, deadlocked). Its
   * requests would wait for the proxy's timeouts, and the page went on saying "connected".
   */
  silent?: boolean;
}

/** How long a /readyz read waits: kube-apiserver answers it at once when it runs at all. */
export const READYZ_ANSWER_MS = 5_000;

function messageOf(body: string): string {
  try {
    const v: unknown = JSON.parse(body);
    if (isStatus(v) && v.message) return v.message;
  } catch {
    // not JSON: the body's first line
  }
  return body.trim().split('\n')[0]?.slice(0, 200) ?? '';
}

/** The report of one answer; `fromProxy`: the explorer's own answer (X-Explorer-Proxy-Error), never the cluster's verdict. */
export function parseReadyz(status: number, body: string, at: number, fromProxy = false): ReadyzReport {
  const checks: HealthCheck[] = [];
  for (const line of body.split('\n')) {
    const m = /^\[([+-])\](\S+)\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    const c: HealthCheck = { name: m[2]!, ok: m[1] === '+' };
    if (!c.ok && m[3]) c.detail = m[3];
    checks.push(c);
  }
  const failed = checks.filter((c) => !c.ok).map((c) => c.name);
  if (fromProxy) return { at, status, ready: null, failed, message: messageOf(body) };
  if (status === 200 && failed.length === 0) return { at, status, ready: true, failed, checks, text: body };
  if (checks.length === 0) return { at, status, ready: status >= 500 || status === 0 ? false : null, failed, message: messageOf(body) };
  return { at, status, ready: false, failed, checks, text: body };
}

/** Reads /readyz?verbose; never throws: a failure is a report too. */
export async function readReadyz(context: string, signal: AbortSignal): Promise<ReadyzReport> {
  const at = Date.now();
  // Its own deadline: a frozen kube-apiserver holds the request until the proxy gives up, and a
  // read under way is not sent again, so the indicator said nothing for a minute and more.
  const deadline = AbortSignal.timeout(READYZ_ANSWER_MS);
  try {
    const r = await kubeFetch({ context, path: '/readyz?verbose', headers: { Accept: 'text/plain' }, signal: AbortSignal.any([signal, deadline]) });
    return parseReadyz(r.status, await r.text(), at, r.headers.get('X-Explorer-Proxy-Error') !== null);
  } catch (e) {
    if (deadline.aborted && !signal.aborted) return { at, status: 0, ready: false, failed: [], silent: true };
    return { at, status: 0, ready: null, failed: [], message: (e as Error).message };
  }
}

/** The one /readyz query: its key is the same for every reader. */
export const readyzQuery = (context: string | undefined) =>
  queryOptions({
    queryKey: ['k8s', context ?? '', 'readyz'],
    queryFn: context ? ({ signal }) => readReadyz(context, signal) : skipToken,
    retry: false,
  });

/** "etcd failed", "etcd and poststarthook/x failed", or the message of an answer without checks. */
export function readyzText(r: ReadyzReport): string {
  if (r.silent) return `no answer within ${READYZ_ANSWER_MS / 1000} s`;
  if (r.failed.length) return `${r.failed.length > 3 ? `${r.failed.slice(0, 3).join(', ')} and ${r.failed.length - 3} more` : r.failed.join(r.failed.length === 2 ? ' and ' : ', ')} failed`;
  return r.message ? `HTTP ${r.status}: ${r.message}` : `HTTP ${r.status}`;
}

// The check's results as one report, and what CI reads from it: the exit code and the JUnit file.
// Pure: rows in (the Serving view's probes, src/k8s/serving), text out. Every cell is `yes`, `no`
// (with the server's answer) or `unknown` (with why); a check that was not sent (not offered by
// discovery, forbidden, writes not asked for) is `unknown` with the reason.
import { type Cell, CHECK_LABELS, CHECKS, type Check, type ProbeRequest, informerProblems, type Row, STORE_CHECKS, STORE_LABELS, type StoreCheck, targetLabel } from '../../src/k8s/serving';

export type Outcome = 'yes' | 'no' | 'unknown';
export type AnyCheck = Check | StoreCheck;

/** Every check's title: the page's reads and dry runs, then the command line's checks that store. */
export const LABELS: Record<AnyCheck, string> = { ...CHECK_LABELS, ...STORE_LABELS };

export interface CheckResult {
  check: AnyCheck;
  result: Outcome;
  /** The server's answer (no), what was learned (yes), or why it could not be told (unknown). */
  detail: string;
  httpStatus?: number;
  request?: ProbeRequest;
}

export interface ResourceReport {
  /** `resource.group/version`, or `resource/version` for the core group. */
  name: string;
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  results: CheckResult[];
  /** What a client-go informer on this resource would do wrong; empty when nothing. */
  informerProblems: string[];
}

export interface Report {
  context: string;
  /** The API server's URL, from the kubeconfig. */
  server: string;
  /** Where namespaced collections were read. */
  namespace: string;
  /** Whether the checks that write were sent (--writes), and where. */
  writes: { sent: boolean; namespace?: string };
  startedAt: string;
  seconds: number;
  resources: ResourceReport[];
  summary: { resources: number; yes: number; no: number; unknown: number; breakInformers: number };
}

export interface ReportMeta {
  context: string;
  server: string;
  namespace: string;
  writes: { sent: boolean; namespace?: string };
  startedAt: Date;
  seconds: number;
}

export function toReport(rows: Row[], meta: ReportMeta): Report {
  const resources = rows.map((row): ResourceReport => {
    const t = row.target;
    const cells: [AnyCheck, Cell][] = [...CHECKS.map((c): [AnyCheck, Cell] => [c, row.cells[c]]), ...(row.stored ? STORE_CHECKS.map((c): [AnyCheck, Cell] => [c, row.stored![c]]) : [])];
    const results = cells.map(([check, c]): CheckResult => {
      // "skipped" in the page's matrix: not sent, so nothing was learned.
      const result: Outcome = c.verdict === 'skipped' ? 'unknown' : c.verdict;
      const detail = c.verdict === 'skipped' ? `not sent: ${c.detail}` : c.detail;
      return { check, result, detail, ...(c.httpStatus !== undefined ? { httpStatus: c.httpStatus } : {}), ...(c.request ? { request: c.request } : {}) };
    });
    return { name: targetLabel(t), group: t.group, version: t.version, resource: t.resource, kind: t.kind, namespaced: t.namespaced, verbs: t.verbs, results, informerProblems: informerProblems(row) };
  });
  const all = resources.flatMap((r) => r.results);
  const count = (o: Outcome) => all.filter((r) => r.result === o).length;
  return {
    context: meta.context,
    server: meta.server,
    namespace: meta.namespace,
    writes: meta.writes,
    startedAt: meta.startedAt.toISOString(),
    seconds: Math.round(meta.seconds * 10) / 10,
    resources,
    summary: { resources: resources.length, yes: count('yes'), no: count('no'), unknown: count('unknown'), breakInformers: resources.filter((r) => r.informerProblems.length).length },
  };
}

/** 0: nothing would break an informer; 1: something would (2, usage or connection errors, is main.ts's). */
export function exitCode(reports: Report[]): 0 | 1 {
  return reports.some((r) => r.summary.breakInformers > 0) ? 1 : 0;
}

const MARK: Record<Outcome, string> = { yes: '✓', no: '✗', unknown: '?' };

/** Several lines for a person at a terminal: the informer breaks first, then every `no` with the server's answer. */
export function textReport(r: Report): string {
  const out: string[] = [];
  out.push(`Context ${r.context} (${r.server}), namespaced collections read in ${r.namespace}: ${r.summary.resources} resources in ${r.seconds} s`);
  out.push(
    r.writes.sent
      ? `Writes sent, in the scratch namespace ${r.writes.namespace} (created for this check, then deleted).`
      : 'Reads only: the checks that write were not sent (pass --writes to send them, in a scratch namespace created and deleted for the check).',
  );
  const breaking = r.resources.filter((x) => x.informerProblems.length);
  out.push('');
  if (breaking.length) {
    out.push(`Would break client-go informers (${breaking.length}):`);
    for (const x of breaking) out.push(`  ${x.name}: ${x.informerProblems.join('; ')}`);
  } else {
    out.push('Would break client-go informers: none.');
  }
  const refused = r.resources.flatMap((x) => x.results.filter((c) => c.result === 'no').map((c) => ({ x, c })));
  if (refused.length) {
    out.push('');
    out.push(`Not served (${refused.length}):`);
    for (const { x, c } of refused) out.push(`  ${x.name} · ${LABELS[c.check]}: ${c.detail}`);
  }
  out.push('');
  const width = Math.max(8, ...r.resources.map((x) => x.name.length));
  const columns: AnyCheck[] = [...CHECKS, ...(r.writes.sent ? STORE_CHECKS : [])];
  out.push(`${'resource'.padEnd(width)}  ${columns.map((c) => ABBREVIATIONS[c]).join(' ')}`);
  for (const x of r.resources) out.push(`${x.name.padEnd(width)}  ${columns.map((c) => MARK[x.results.find((y) => y.check === c)?.result ?? 'unknown'].padEnd(ABBREVIATIONS[c].length)).join(' ')}`);
  out.push(`Columns: ${columns.map((c) => `${ABBREVIATIONS[c]} ${LABELS[c]}`).join(', ')}. ✓ yes, ✗ no, ? unknown (--output json has every answer).`);
  out.push(`${r.summary.yes} yes, ${r.summary.no} no, ${r.summary.unknown} unknown.`);
  return `${out.join('\n')}\n`;
}

const ABBREVIATIONS: Record<AnyCheck, string> = {
  list: 'list',
  table: 'tbl',
  protobuf: 'pb',
  cbor: 'cbor',
  metadata: 'meta',
  metadataWatch: 'mw',
  labelSelector: 'ls',
  fieldSelector: 'fs',
  chunking: 'chk',
  expiredContinue: 'exp',
  watch: 'w',
  bookmarks: 'bm',
  compactedWatch: 'cw',
  streamingList: 'sl',
  dryRun: 'dry',
  apply: 'ssa',
  create: 'new',
  jsonPatch: 'jp',
  mergePatch: 'mp',
  strategicPatch: 'smp',
  staleUpdate: 'stale',
  applyConflict: 'conf',
  status: 'st',
  scale: 'sc',
};

export const jsonReport = (reports: Report[], differences?: unknown): string =>
  `${JSON.stringify(reports.length === 1 && differences === undefined ? reports[0] : { reports, ...(differences !== undefined ? { differences } : {}) }, null, 2)}\n`;

/** XML text and attribute escaping (the characters XML 1.0 forbids are dropped). */
export function xmlEscape(s: string): string {
  return s
    .replace(/[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * JUnit XML as Jenkins, GitLab and GitHub's test reporters read it: one testsuite per context and
 * resource, one testcase per check (`no` a failure, `unknown` skipped with its reason) and one
 * named "informer" for resources an informer could watch (a failure when it would break).
 */
export function junitReport(reports: Report[]): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const r of reports) {
    for (const x of r.resources) {
      const cases: string[] = [];
      let f = 0;
      let s = 0;
      const classname = xmlEscape(`${r.context}.${x.name}`);
      for (const c of x.results) {
        const name = xmlEscape(LABELS[c.check]);
        const body =
          c.result === 'no'
            ? `<failure type="not served" message="${xmlEscape(c.detail)}"/>`
            : c.result === 'unknown'
              ? `<skipped message="${xmlEscape(c.detail)}"/>`
              : `<system-out>${xmlEscape(c.detail)}</system-out>`;
        if (c.result === 'no') f++;
        if (c.result === 'unknown') s++;
        cases.push(`    <testcase classname="${classname}" name="${name}" time="0">${body}</testcase>`);
      }
      if (x.verbs.includes('list') || x.verbs.includes('watch')) {
        const breaks = x.informerProblems.length > 0;
        if (breaks) f++;
        cases.push(
          `    <testcase classname="${classname}" name="informer" time="0">${breaks ? `<failure type="breaks informers" message="${xmlEscape(x.informerProblems.join('; '))}"/>` : '<system-out>a client-go informer would list and watch it</system-out>'}</testcase>`,
        );
      }
      tests += cases.length;
      failures += f;
      suites.push(
        `  <testsuite name="${xmlEscape(`${r.context}: ${x.name}`)}" tests="${cases.length}" failures="${f}" errors="0" skipped="${s}" timestamp="${xmlEscape(r.startedAt)}" time="0">\n${cases.join('\n')}\n  </testsuite>`,
      );
    }
  }
  const time = reports.reduce((t, r) => t + r.seconds, 0).toFixed(3);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="kube-api-explorer check" tests="${tests}" failures="${failures}" errors="0" time="${time}">\n${suites.join('\n')}\n</testsuites>\n`;
}

// --output html: one self-contained file (styles inline, no script, no link out) that opens
// offline: the informer breaks, the matrix with each answer on hover and in a details list, and,
// with --compare, the differences first. Pure.
import { CHECKS, STORE_CHECKS } from '../../src/k8s/serving';
import { type Difference } from './compare';
import { type AnyCheck, LABELS, type Report, xmlEscape as esc } from './report';

const STYLE = `body{font:14px system-ui,sans-serif;margin:1.5em;color:#1b1f24}
table{border-collapse:collapse;font-size:12px}th,td{border:1px solid #d0d7de;padding:2px 6px;text-align:left}
th.rot{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap}
td.yes{background:#dafbe1}td.no{background:#ffebe9;font-weight:bold}td.unknown{background:#f6f8fa;color:#57606a}
.break{color:#a40e26}code{font-size:12px}details{margin:.2em 0}`;

const MARK = { yes: '✓', no: '✗', unknown: '?' } as const;

function one(r: Report): string {
  const breaking = r.resources.filter((x) => x.informerProblems.length);
  const columns: AnyCheck[] = [...CHECKS, ...(r.writes.sent ? STORE_CHECKS : [])];
  const head = columns.map((c) => `<th class="rot" scope="col">${esc(LABELS[c])}</th>`).join('');
  const rows = r.resources
    .map((x) => {
      const cells = columns
        .map((check) => x.results.find((c) => c.check === check) ?? { result: 'unknown' as const, detail: 'not sent' })
        .map((c) => `<td class="${c.result}" title="${esc(c.detail)}"><span aria-hidden="true">${MARK[c.result]}</span> <span class="sr">${c.result}</span></td>`)
        .join('');
      return `<tr><th scope="row">${esc(x.name)}</th>${cells}</tr>`;
    })
    .join('\n');
  const details = r.resources
    .map(
      (x) =>
        `<details><summary><code>${esc(x.name)}</code>${x.informerProblems.length ? ' <span class="break">breaks informers</span>' : ''}</summary><ul>${x.results
          .map((c) => `<li>${MARK[c.result]} <b>${esc(LABELS[c.check])}</b>: ${esc(c.detail)}${c.request ? `<br><code>${esc(`${c.request.method} ${c.request.path}`)}${c.request.accept !== 'application/json' ? ` (Accept: ${esc(c.request.accept)})` : ''}</code>` : ''}</li>`)
          .join('')}</ul></details>`,
    )
    .join('\n');
  return `<section><h2>${esc(r.context)} <small>${esc(r.server)}</small></h2>
<p>${r.summary.resources} resources in ${r.seconds} s, namespaced collections read in <code>${esc(r.namespace)}</code>. ${
    r.writes.sent ? `Writes sent in the scratch namespace <code>${esc(r.writes.namespace ?? '')}</code> (deleted after).` : 'Reads only: the checks that write were not sent (--writes).'
  } ${r.summary.yes} yes, ${r.summary.no} no, ${r.summary.unknown} unknown.</p>
<h3>Would break client-go informers</h3>
${breaking.length ? `<ul>${breaking.map((x) => `<li class="break"><code>${esc(x.name)}</code>: ${esc(x.informerProblems.join('; '))}</li>`).join('')}</ul>` : '<p>None.</p>'}
<table><thead><tr><th scope="col">Resource</th>${head}</tr></thead><tbody>
${rows}
</tbody></table>
<h3>Every answer</h3>
${details}
</section>`;
}

export function htmlReport(reports: Report[], differences?: Difference[]): string {
  const diff =
    differences && reports.length === 2
      ? `<section><h2>Differences (${differences.length})</h2><table><thead><tr><th>Resource</th><th>Check</th><th>${esc(reports[0]!.context)}</th><th>${esc(reports[1]!.context)}</th></tr></thead><tbody>${differences
          .map((d) => `<tr><td><code>${esc(d.resource)}</code></td><td>${d.check ? esc(LABELS[d.check]) : 'discovery'}</td><td class="${d.a.result === 'absent' ? 'unknown' : d.a.result}">${esc(`${d.a.result}: ${d.a.detail}`)}</td><td class="${d.b.result === 'absent' ? 'unknown' : d.b.result}">${esc(`${d.b.result}: ${d.b.detail}`)}</td></tr>`)
          .join('')}</tbody></table></section>`
      : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>kube-api-explorer check: ${esc(reports.map((r) => r.context).join(' vs '))}</title>
<style>${STYLE}.sr{position:absolute;left:-9999px}</style></head>
<body><h1>What the API server really serves</h1>
${diff}
${reports.map(one).join('\n')}
</body></html>
`;
}

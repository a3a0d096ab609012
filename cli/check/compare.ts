// --compare: the same checks on two contexts, and what differs between them (a resource only one
// serves, or a check with another result). Pure.
import { type AnyCheck, LABELS, type Outcome, type Report } from './report';


export interface Difference {
  resource: string;
  /** Absent when the resource itself is served by one context only. */
  check?: AnyCheck;
  a: { result: Outcome | 'absent'; detail: string };
  b: { result: Outcome | 'absent'; detail: string };
}

export function compareReports(a: Report, b: Report): Difference[] {
  const out: Difference[] = [];
  const byName = (r: Report) => new Map(r.resources.map((x) => [x.name, x]));
  const ma = byName(a);
  const mb = byName(b);
  const names = [...new Set([...ma.keys(), ...mb.keys()])].sort();
  for (const name of names) {
    const ra = ma.get(name);
    const rb = mb.get(name);
    if (!ra || !rb) {
      out.push({ resource: name, a: ra ? { result: 'yes', detail: 'served' } : { result: 'absent', detail: 'not in discovery' }, b: rb ? { result: 'yes', detail: 'served' } : { result: 'absent', detail: 'not in discovery' } });
      continue;
    }
    for (const ca of ra.results) {
      const cb = rb.results.find((c) => c.check === ca.check);
      if (cb && cb.result !== ca.result) out.push({ resource: name, check: ca.check, a: { result: ca.result, detail: ca.detail }, b: { result: cb.result, detail: cb.detail } });
    }
  }
  return out;
}

export function textDifferences(a: Report, b: Report, diffs: Difference[]): string {
  const out = [`Differences between ${a.context} (${a.server}) and ${b.context} (${b.server}): ${diffs.length}`];
  const resourceOnly = diffs.filter((d) => !d.check);
  for (const d of resourceOnly) out.push(`  ${d.resource}: only on ${d.a.result === 'absent' ? b.context : a.context}`);
  for (const d of diffs.filter((x) => x.check)) {
    out.push(`  ${d.resource} · ${LABELS[d.check!]}: ${a.context} ${d.a.result}, ${b.context} ${d.b.result}`);
    out.push(`      ${a.context}: ${d.a.detail}`);
    out.push(`      ${b.context}: ${d.b.detail}`);
  }
  return `${out.join('\n')}\n`;
}

import { describe, expect, it } from 'vitest';
import { CHECKS, type Cell, type Check, type Row } from '../../src/k8s/serving';
import { parseCheckCli } from './cli';
import { compareReports } from './compare';
import { htmlReport } from './html';
import { junitSchemaErrors } from './junitSchema.testkit';
import { exitCode, junitReport, textReport, toReport } from './report';

const configmaps = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, verbs: ['get', 'list', 'watch', 'create', 'patch'] };
const flunders = { group: 'wardle.example.com', version: 'v1beta1', resource: 'flunders', kind: 'Flunder', namespaced: true, verbs: ['get', 'list', 'watch'] };

function row(target: Row['target'], cells: Partial<Record<Check, Cell>> = {}): Row {
  const all = Object.fromEntries(CHECKS.map((c) => [c, cells[c] ?? { verdict: 'yes', detail: 'served' }])) as Record<Check, Cell>;
  return { target, collection: '/c', cells: all };
}

const meta = { context: 'local-admin', server: 'https://127.0.0.1:6443', namespace: 'default', writes: { sent: false }, startedAt: new Date('2026-01-01T00:00:00Z'), seconds: 1.23 };
const broken = row(flunders, {
  protobuf: { verdict: 'no', detail: 'Protobuf refused: 406 NotAcceptable (only the following media types are accepted: application/json)', httpStatus: 406 },
  streamingList: { verdict: 'no', detail: 'no bookmark & <no end>', httpStatus: 200 },
  dryRun: { verdict: 'skipped', detail: 'writes not opted into' },
});

describe('check report', () => {
  it('is yes/no/unknown only: a check not sent is unknown, with why', () => {
    const r = toReport([broken], meta);
    const dry = r.resources[0]!.results.find((c) => c.check === 'dryRun')!;
    expect(dry).toMatchObject({ result: 'unknown', detail: 'not sent: writes not opted into' });
    expect(r.summary).toMatchObject({ resources: 1, no: 2, unknown: 1, breakInformers: 1 });
    expect(r.resources[0]!.informerProblems).toEqual([expect.stringMatching(/^streaming list without the k8s.io\/initial-events-end bookmark: the reflector opens another/)]);
  });

  it('exits 1 when an informer would break, 0 otherwise', () => {
    expect(exitCode([toReport([row(configmaps)], meta)])).toBe(0);
    expect(exitCode([toReport([row(configmaps)], meta), toReport([broken], meta)])).toBe(1);
  });

  it('text names the break, every no with the server’s answer, and says the writes were not sent', () => {
    const text = textReport(toReport([row(configmaps), broken], meta));
    expect(text).toContain('Would break client-go informers (1):\n  flunders.wardle.example.com/v1beta1: streaming list without');
    expect(text).toContain('flunders.wardle.example.com/v1beta1 · Protobuf: Protobuf refused: 406 NotAcceptable (only the following');
    expect(text).toContain('the checks that write were not sent (pass --writes');
  });

  it('JUnit: one suite per resource, no a failure, unknown skipped, XML escaped, valid by the JUnit schema', async () => {
    const xml = junitReport([toReport([broken], meta)]);
    expect(xml).toContain('<testsuite name="local-admin: flunders.wardle.example.com/v1beta1" tests="17" failures="3" errors="0" skipped="1"');
    expect(xml).toContain('name="informer" time="0"><failure type="breaks informers"');
    expect(xml).toContain('message="no bookmark &amp; &lt;no end&gt;"');
    expect(xml).toMatch(/<testsuites name="kube-api-explorer check" tests="17" failures="3" errors="0" time="1\.200">/);
    expect(await junitSchemaErrors(xml)).toEqual([]);
    // The validator can fail: a testcase without its required name.
    expect(await junitSchemaErrors(xml.replace('name="informer" ', ''))).not.toEqual([]);
  });

  it('HTML opens offline: no script, no link out, the answers escaped', () => {
    const html = htmlReport([toReport([broken], meta)]);
    expect(html).not.toMatch(/<script|<link|src=|href=/);
    expect(html).toContain('no bookmark &amp; &lt;no end&gt;');
  });

  it('--compare lists a check that differs and a resource only one side serves', () => {
    const a = toReport([row(configmaps, { cbor: { verdict: 'no', detail: '406' } })], meta);
    const b = toReport([row(configmaps), broken], { ...meta, context: 'v137' });
    const d = compareReports(a, b);
    expect(d.map((x) => `${x.resource} ${x.check ?? '-'} ${x.a.result}/${x.b.result}`)).toEqual(['configmaps/v1 cbor no/yes', 'flunders.wardle.example.com/v1beta1 - absent/yes']);
  });
});

describe('check flags', () => {
  it('reads the flags; writes are off unless asked; a wrong format is a usage error', () => {
    expect(parseCheckCli([])).toMatchObject({ kind: 'run', options: { writes: false, output: 'text', parallel: 8 } });
    expect(parseCheckCli(['--group', 'core', '--resource', 'configmaps', '-o', 'junit', '--writes'])).toMatchObject({ kind: 'run', options: { group: '', resource: 'configmaps', output: 'junit', writes: true } });
    expect(parseCheckCli(['--output', 'xml'])).toMatchObject({ kind: 'error' });
    expect(parseCheckCli(['--bogus'])).toMatchObject({ kind: 'error' });
  });
});

// `check` as a user runs it (node proxy/start.mjs check, what `npm start -- check` runs), against
// the real local control plane and its aggregated sample-apiserver (wardle.example.com), and
// against a deliberately broken server of this test's own whose streaming list never sends the
// k8s.io/initial-events-end bookmark. The full check of every resource runs once; the tests
// below read its report.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { seedProbeNamespace, testCluster } from '../../proxy/cluster/cluster.testkit';
import { junitSchemaErrors } from './junitSchema.testkit';
import type { CheckResult, Report } from './report';
import { type CheckRun, runCheck } from './check.testkit';

const cluster = () => testCluster(inject('controlPlane'));
const kubeconfig = () => inject('controlPlane').kubeconfig;
const ns = `check-${randomBytes(3).toString('hex')}`;
const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-check-'));
let full: CheckRun;
let report: Report;

const resultsOf = (r: Report, name: string) => Object.fromEntries(r.resources.find((x) => x.name === name)!.results.map((c) => [c.check, c])) as Record<string, CheckResult>;

beforeAll(async () => {
  await seedProbeNamespace(cluster(), ns);
  const out = join(dir, 'full.json');
  // A short bookmark wait: the default (65 s) outlasts the rest of the check, and on a quiet
  // collection the server sends no periodic bookmark anyway (one comes only once the
  // resourceVersion moved), so the verdicts asserted below are the same; the watches are still sent.
  full = await runCheck(['--kubeconfig', kubeconfig(), '--context', 'local-admin', '-n', ns, '--output', 'json', '--out', out, '--bookmark-wait', '5']);
  report = JSON.parse(readFileSync(out, 'utf8')) as Report;
}, 180_000);

afterAll(async () => {
  await cluster().request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
  rmSync(dir, { recursive: true, force: true });
});

describe('check against the local control plane', () => {
  it('checks every resource in under two minutes, exits 0 (nothing breaks an informer), and prints no progress line off a terminal', () => {
    expect(full.stderr).not.toContain('resources checked');
    expect(full.code, full.stderr).toBe(0);
    expect(full.ms).toBeLessThan(120_000);
    expect(full.stdout).toBe('');
    expect(full.stderr).toContain('nothing would break a client-go informer');
    expect(report.resources.length).toBeGreaterThan(50);
    expect(report.summary.breakInformers).toBe(0);
    expect(report.writes).toEqual({ sent: false });
  });

  it('the aggregated Flunders: Protobuf and CBOR are no, with the server’s 406', () => {
    const f = resultsOf(report, 'flunders.wardle.example.com/v1beta1');
    for (const c of ['protobuf', 'cbor']) {
      expect(f[c]).toMatchObject({ result: 'no', httpStatus: 406 });
      expect(f[c]!.detail).toMatch(/406 NotAcceptable \([\s\S]+\)/);
    }
    expect(f.protobuf!.detail).toContain('does not implement the protobuf marshalling interface');
    expect(f.list!.result).toBe('yes');
    expect(f.streamingList!.detail).toContain('k8s.io/initial-events-end');
  });

  it('ConfigMaps pass every read check but two kube-apiserver itself does not show; the writes are unknown, not sent', () => {
    const cm = resultsOf(report, 'configmaps/v1');
    // As seen on 1.37: a watch from a compacted resourceVersion gets the objects as they are
    // now, not 410; and a quiet collection gets no periodic bookmark (one is sent only when
    // the resourceVersion moved).
    const shown = ['dryRun', 'apply', 'compactedWatch', 'bookmarks'];
    expect(Object.values(cm).filter((c) => !shown.includes(c.check) && c.result !== 'yes').map((c) => `${c.check}: ${c.detail}`)).toEqual([]);
    // 410, or the objects as they are now when that resourceVersion is older than the watch
    // cache's window (seen on a fresh control plane; 410 once other tests had compacted and written).
    if (cm.compactedWatch!.result === 'unknown') expect(cm.compactedWatch!.detail).toContain('sent ADDED events');
    else expect(cm.compactedWatch).toMatchObject({ result: 'yes', detail: expect.stringMatching(/410/) });
    expect(['yes', 'unknown']).toContain(cm.bookmarks!.result);
    expect(cm.dryRun).toMatchObject({ result: 'unknown', detail: 'not sent: writes not opted into' });
    expect(cm.expiredContinue!.detail).toMatch(/^410 Gone/);
  });

  it('--writes: ConfigMaps pass every check that writes, in a scratch namespace deleted after; the JUnit file is valid', async () => {
    const out = join(dir, 'writes.xml');
    const run = await runCheck(['--kubeconfig', kubeconfig(), '--context', 'local-admin', '-n', ns, '--group', 'core', '--resource', 'configmaps', '--writes', '--bookmark-wait', '0', '--output', 'junit', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const xml = readFileSync(out, 'utf8');
    expect(await junitSchemaErrors(xml)).toEqual([]);
    expect(xml).not.toContain('<failure');
    // Every check was sent and passed but /status and /scale, which ConfigMaps do not offer, the
    // bookmarks not waited for, and the compacted watch (as above).
    const skipped = [...xml.matchAll(/name="([^"]+)" time="0"><skipped message="([^"]*)"/g)].map((m) => m[1]);
    // (The compacted watch is skipped when the server answered without 410: see above.)
    expect(skipped.filter((c) => c !== 'Compacted watch (410)')).toEqual(['Bookmarks', '/status', '/scale']);
    for (const check of ['Create', 'JSON Patch', 'Merge patch', 'Strategic merge patch', 'Stale update (409)', 'Apply conflict (409)', 'Dry-run', 'Server-side apply']) expect(xml).toContain(`name="${check}" time="0"><system-out>`);
    const listed = (await cluster().request('admin', 'GET', '/api/v1/namespaces?labelSelector=app.kubernetes.io%2Fcreated-by%3Dkube-api-explorer-check')).body
    const left = JSON.parse(listed) as { items: { metadata: { deletionTimestamp?: string } }[] };
    expect(left.items.filter((n) => !n.metadata.deletionTimestamp)).toEqual([]);
  });

  it('usage and connection errors exit 2', async () => {
    expect((await runCheck(['--output', 'xml'])).code).toBe(2);
    const unknown = await runCheck(['--kubeconfig', kubeconfig(), '--context', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('context "nope" is not in');
    // A server that is not there: a connection error, not a finding.
    const kc = join(dir, 'closed.kubeconfig');
    writeFileSync(kc, kubeconfigFor('http://127.0.0.1:9', 'closed'));
    const closed = await runCheck(['--kubeconfig', kc, '--bookmark-wait', '0']);
    expect(closed.code, closed.stderr).toBe(2);
    expect(closed.stderr).toContain('discovery failed');
  });
});

function kubeconfigFor(server: string, name: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server } }],
    users: [{ name, user: {} }],
    contexts: [{ name, context: { cluster: name, user: name, namespace: 'default' } }],
    'current-context': name,
  });
}

/**
 * A kube-like server as some aggregated servers and mocks are: discovery, a list, and watches;
 * but its streaming list (sendInitialEvents=true) ends without the k8s.io/initial-events-end
 * bookmark (kubernetes/kubernetes#140890), on which client-go's reflector opens another streaming
 * list for ever.
 */
function brokenServer(): Promise<Server> {
  const discovery = (items: unknown[]) => ({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items });
  const widgets = { metadata: { name: 'broken.example.com' }, versions: [{ version: 'v1', freshness: 'Current', resources: [{ resource: 'widgets', responseKind: { group: 'broken.example.com', version: 'v1', kind: 'Widget' }, scope: 'Namespaced', singularResource: 'widget', verbs: ['get', 'list', 'watch'] }] }] };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const accept = req.headers.accept ?? '';
    const json = (code: number, body: unknown, type = 'application/json') => {
      res.writeHead(code, { 'Content-Type': type });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/api' || url.pathname === '/apis') {
      return json(200, discovery(url.pathname === '/apis' ? [widgets] : []), 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    }
    if (!/^\/apis\/broken\.example\.com\/v1\/namespaces\/[^/]+\/widgets$/.test(url.pathname)) return json(404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 404, reason: 'NotFound', message: 'not found' });
    if (accept !== 'application/json') return json(406, { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 406, reason: 'NotAcceptable', message: 'only application/json' });
    if (url.searchParams.get('watch') !== '1') return json(200, { kind: 'WidgetList', apiVersion: 'broken.example.com/v1', metadata: { resourceVersion: '10' }, items: [] });
    res.writeHead(200, { 'Content-Type': 'application/json' });
    // The streaming list: accepted, and ended with nothing. Other watches get their bookmark.
    if (url.searchParams.get('sendInitialEvents') === 'true') return res.end();
    res.end(`${JSON.stringify({ type: 'BOOKMARK', object: { kind: 'Widget', apiVersion: 'broken.example.com/v1', metadata: { resourceVersion: '10' } } })}\n`);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('check against a broken server', () => {
  it('names the informer break (a streaming list without its end bookmark) and exits 1', async () => {
    const server = await brokenServer();
    try {
      const kc = join(dir, 'broken.kubeconfig');
      writeFileSync(kc, kubeconfigFor(`http://127.0.0.1:${(server.address() as { port: number }).port}`, 'broken'));
      const run = await runCheck(['--kubeconfig', kc, '--output', 'text', '--bookmark-wait', '0']);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stdout).toContain('Would break client-go informers (1):\n  widgets.broken.example.com/v1: streaming list without the k8s.io/initial-events-end bookmark');
      expect(run.stdout).toContain('opens another streaming list instead of falling back');
    } finally {
      server.close();
    }
  });
});

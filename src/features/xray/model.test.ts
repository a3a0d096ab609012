import { describe, expect, it } from 'vitest';
import { alignRuns } from './diff';
import { consoleTarget } from './consoleLink';
import { meaningOf } from './meaning';
import { groupByClient, parseUserAgent, resumptionAfter, watchFrames, type XrayExchange } from './model';

const enc = (s: string) => new TextEncoder().encode(s);
let n = 0;
function ex(method: string, path: string, o: { run?: string; ua?: string; headers?: [string, string][]; body?: string; status?: number; lines?: string[] } = {}): XrayExchange {
  n += 1;
  return {
    id: `x${n}`,
    run: o.run ?? 'r1',
    context: 'local',
    startedAt: new Date(1000 * n).toISOString(),
    request: { method, path, headers: [['User-Agent', o.ua ?? 'kubectl/v1.37.0 (linux/amd64) kubernetes/abc1234'], ...(o.headers ?? [])], ...(o.body ? { body: o.body } : {}) },
    response: { status: o.status ?? 200, statusText: '', headers: [['Content-Type', 'application/json']], body: new Uint8Array() },
    timings: {},
    watch: path.includes('watch=true'),
    source: 'live',
    via: 'xray' as 'http',
    chunks: (o.lines ?? []).map((l, i) => ({ at: 1000 * n + i, bytes: enc(`${l}\n`) })),
  };
}

describe('parseUserAgent', () => {
  it.each([
    ['kubectl/v1.37.0 (linux/amd64) kubernetes/abc1234', { product: 'kubectl', version: 'v1.37.0', platform: 'linux/amd64' }],
    ['OpenAPI-Generator/31.0.0/python', { product: 'OpenAPI-Generator', version: '31.0.0/python' }],
    ['my-controller', { product: 'my-controller' }],
    [undefined, { product: '(no User-Agent)' }],
  ])('%s', (ua, want) => expect(parseUserAgent(ua)).toMatchObject(want));
});

describe('groupByClient', () => {
  it('groups by product and version, then by run, in arrival order, with kubectl’s command', () => {
    const a = ex('GET', '/api', { headers: [['Kubectl-Command', 'kubectl apply']] });
    const b = ex('GET', '/api/v1/pods', { run: 'r2' });
    const c = ex('GET', '/api/v1/pods', { ua: 'OpenAPI-Generator/31.0.0/python' });
    const d = ex('GET', '/apis', {});
    const g = groupByClient([a, b, c, d]);
    expect(g.map((x) => [x.client.product, x.runs.map((r) => [r.run, r.exchanges.map((e) => e.id)])])).toEqual([
      ['kubectl', [['r1', [a.id, d.id]], ['r2', [b.id]]]],
      ['OpenAPI-Generator', [['r1', [c.id]]]],
    ]);
    expect(g[0]!.client.command).toBe('kubectl apply');
  });
});

describe('watch frames', () => {
  it('reads types, resourceVersions, the initial-events-end bookmark and a 410, and where the client went on', () => {
    const w = ex('GET', '/api/v1/configmaps?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true', {
      lines: [
        '{"type":"ADDED","object":{"kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"10"}}}',
        '{"type":"BOOKMARK","object":{"kind":"ConfigMap","metadata":{"resourceVersion":"12","annotations":{"k8s.io/initial-events-end":"true"}}}}',
        '{"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired","message":"too old resource version"}}',
      ],
    });
    const f = watchFrames(w);
    expect(f.map((x) => [x.type, x.resourceVersion, x.initialEventsEnd ?? false, x.code])).toEqual([
      ['ADDED', '10', false, undefined],
      ['BOOKMARK', '12', true, undefined],
      ['ERROR', undefined, false, 410],
    ]);
    const other = ex('GET', '/api/v1/pods?watch=true');
    const relist = ex('GET', '/api/v1/configmaps?limit=500&resourceVersion=0');
    expect(resumptionAfter([w, other, relist], w)).toMatchObject({ next: relist, kind: 'relisted', resourceVersion: '0' });
    const resume = ex('GET', '/api/v1/configmaps?watch=true&resourceVersion=12');
    expect(resumptionAfter([w, resume], w)).toMatchObject({ kind: 'resumed', resourceVersion: '12' });
  });
});

describe('alignRuns', () => {
  it('pairs the client-side apply’s strategic merge PATCH with the server-side apply, and names what differs', () => {
    const path = '/api/v1/namespaces/d/configmaps/c';
    const csa = [ex('GET', '/api'), ex('GET', path), ex('PATCH', `${path}?fieldManager=kubectl-client-side-apply&fieldValidation=Strict`, { headers: [['Content-Type', 'application/strategic-merge-patch+json']], body: '{"data":{"a":"1"}}' })];
    const ssa = [ex('PATCH', `${path}?fieldManager=kubectl&fieldValidation=Strict&force=false`, { headers: [['Content-Type', 'application/apply-patch+yaml']], body: 'apiVersion: v1\nkind: ConfigMap\n' })];
    const rows = alignRuns(csa, ssa);
    expect(rows.map((r) => [r.left?.request.method, r.right?.request.method])).toEqual([
      ['GET', undefined],
      ['GET', undefined],
      ['PATCH', 'PATCH'],
    ]);
    expect(rows[2]!.diffs.map((d) => [d.what, d.left, d.right])).toEqual([
      ['Content-Type', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'],
      ['?fieldManager', 'kubectl-client-side-apply', 'kubectl'],
      ['?force', undefined, 'false'],
      ['body', '{"data":{"a":"1"}}', 'apiVersion: v1\nkind: ConfigMap\n'],
    ]);
  });
});

describe('meaningOf and consoleTarget', () => {
  it('says a PATCH with apply-patch+yaml is a server-side apply, and opens it in the console without the credentials', () => {
    const x = ex('PATCH', '/api/v1/namespaces/d/configmaps/c?fieldManager=kubectl', { headers: [['Content-Type', 'application/apply-patch+yaml'], ['Authorization', 'Bearer <redacted>'], ['Accept-Encoding', 'gzip']], body: 'kind: ConfigMap\n' });
    const m = meaningOf(x.request);
    expect(m.sentence).toMatch(/^patch configmaps c in d; a server-side apply/);
    expect(m.lessons).toEqual(['server-side-apply', 'managed-fields']);
    const t = consoleTarget(x);
    expect(t.to.extra).toEqual({ m: 'PATCH', p: '/api/v1/namespaces/d/configmaps/c', 'q.fieldManager': 'kubectl', 'h.User-Agent': 'kubectl/v1.37.0 (linux/amd64) kubernetes/abc1234', 'h.Content-Type': 'application/apply-patch+yaml', body: 'kind: ConfigMap\n' });
  });
});

// Redaction by what a value is, not only where it sits: credentials of many shapes planted in
// request and response bodies of every media and patch type, headers, URLs, watch events, errors
// and logs of a recorded session; none may remain in the recording file or in the console's
// Export HAR (both written by har.ts's exchangeEntry).
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { toHar } from './har';
import { Redactor, toRecordingHar, type RecordedExchange, type RecordingContents } from '../../k8s/record';

const enc = (s: string) => new TextEncoder().encode(s);
const T0 = Date.parse('2026-01-01T10:00:00Z');
const SECRET = '/api/v1/namespaces/d/secrets/s';

function exchange(method: string, path: string, reqHeaders: [string, string][], reqBody: string | undefined, resType: string, resBody: string | string[], status = 200): RecordedExchange {
  const bodies = Array.isArray(resBody) ? resBody : [resBody];
  return {
    id: String(Math.random()),
    context: 'local',
    startedAt: new Date(T0).toISOString(),
    timings: { totalMs: 5 },
    watch: Array.isArray(resBody),
    source: 'live',
    via: 'http',
    request: { method, path, headers: reqHeaders, ...(reqBody !== undefined ? { body: reqBody } : {}) },
    response: { status, statusText: '', headers: [['content-type', resType]], body: new Uint8Array() },
    chunks: bodies.map((b, i) => ({ at: T0 + i, bytes: enc(b) })),
    endedAt: T0 + 100,
  };
}

const json = 'application/json';
const cm = (data: Record<string, string>) => JSON.stringify({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'c' }, data });

/** Where a credential `v` can sit in a session, each as one exchange. */
const PLACES: Record<string, (v: string) => RecordedExchange> = {
  // The Edit view's own save of a Secret: a merge patch, which names no kind.
  mergePatch: (v) => exchange('PATCH', SECRET, [['Content-Type', 'application/merge-patch+json']], JSON.stringify({ data: { k: v } }), json, '{}'),
  strategicPatch: (v) => exchange('PATCH', SECRET, [['Content-Type', 'application/strategic-merge-patch+json']], JSON.stringify({ stringData: { k: v }, metadata: { labels: { a: 'b' } } }), json, '{}'),
  jsonPatch: (v) => exchange('PATCH', SECRET, [['Content-Type', 'application/json-patch+json']], JSON.stringify([{ op: 'test', path: '/metadata/name', value: 's' }, { op: 'add', path: '/data/k', value: v }]), json, '{}'),
  jsonPatchWhole: (v) => exchange('PATCH', SECRET, [['Content-Type', 'application/json-patch+json']], JSON.stringify([{ op: 'replace', path: '/data', value: { k: v } }]), json, '{}'),
  yamlPut: (v) => exchange('PUT', SECRET, [['Content-Type', 'application/yaml']], `metadata:\n  name: s\ndata:\n  k: ${v}\n`, json, '{}'),
  yamlCreateUnreadable: (v) => exchange('POST', '/api/v1/namespaces/d/secrets', [['Content-Type', 'application/yaml']], `data: [\n  k: ${v}\n`, json, '{}'),
  secretResponse: (v) => exchange('GET', SECRET, [], undefined, json, JSON.stringify({ kind: 'Secret', apiVersion: 'v1', metadata: { name: 's' }, data: { k: v } })),
  secretWatch: (v) => exchange('GET', '/api/v1/namespaces/d/secrets?watch=1', [], undefined, json, [`${JSON.stringify({ type: 'MODIFIED', object: { kind: 'Secret', metadata: { name: 's' }, stringData: { k: v } } })}\n`]),
  bearerHeader: (v) => exchange('GET', '/api', [['Authorization', `Bearer ${v}`]], undefined, json, '{}'),
  tokenHeader: (v) => exchange('GET', '/api', [['X-Auth-Token', v]], undefined, json, '{}'),
  urlQuery: (v) => exchange('GET', `/api/v1/namespaces/d/services/s:80/proxy/login?user=me&token=${v}`, [], undefined, 'text/plain', 'ok'),
  urlPassword: (v) => exchange('GET', `/api/v1/namespaces/d/services/s:80/proxy/login?password=${v}`, [], undefined, 'text/plain', 'ok'),
  kubeconfigKey: (v) => exchange('GET', '/api/v1/namespaces/d/configmaps/c', [], undefined, json, cm({ config: `apiVersion: v1\nkind: Config\nusers:\n- name: u\n  user:\n    client-certificate-data: LS0t\n    client-key-data: ${v}\n` })),
  kubeconfigToken: (v) => exchange('GET', '/api/v1/namespaces/d/configmaps/c', [], undefined, json, cm({ config: `users:\n- name: u\n  user:\n    token: ${v}\n` })),
  kubeconfigBlock: (v) => exchange('GET', '/api/v1/namespaces/d/configmaps/c', [], undefined, json, cm({ config: `users:\n- name: u\n  user:\n    client-key-data: |\n      ${v}\n      ${v}x\n    username: u\n` })),
  pemKey: (v) => exchange('GET', '/api/v1/namespaces/d/configmaps/c', [], undefined, json, cm({ 'tls.key': `-----BEGIN EC PRIVATE KEY-----\n${v}\n${v}==\n-----END EC PRIVATE KEY-----\n` })),
  jsonPassword: (v) => exchange('GET', '/api/v1/namespaces/d/configmaps/c', [], undefined, json, cm({ 'settings.json': JSON.stringify({ db: { host: 'x', password: v } }, null, 2) })),
  jsonApiKey: (v) => exchange('GET', '/api/v1/namespaces/d/configmaps/c', [], undefined, json, cm({ 'settings.json': `{"apiKey": "${v}", "client_secret": "${v}"}` })),
  yamlPassword: (v) => exchange('GET', '/api/v1/namespaces/d/configmaps/c', [], undefined, json, cm({ 'app.yaml': `db:\n  password: "${v}"\n  user: app\n` })),
  envFile: (v) => exchange('GET', '/api/v1/namespaces/d/configmaps/c', [], undefined, json, cm({ '.env': `HOST=db\nDB_PASSWORD=${v}\nAPI_KEY=${v}\n` })),
  urlUserinfo: (v) => exchange('GET', '/api/v1/namespaces/d/configmaps/c', [], undefined, json, cm({ url: `postgres://app:${v}@db:5432/app` })),
  configMapWrite: (v) => exchange('PUT', '/api/v1/namespaces/d/configmaps/c', [['Content-Type', json]], cm({ config: `token: ${v}` }), json, '{}'),
  configMapWatch: (v) => exchange('GET', '/api/v1/namespaces/d/configmaps?watch=1', [], undefined, json, [`${JSON.stringify({ type: 'ADDED', object: JSON.parse(cm({ 'app.yaml': `password: ${v}` })) })}\n`]),
  errorStatus: (v) => exchange('POST', '/api/v1/namespaces/d/configmaps', [['Content-Type', json]], cm({ x: 'y' }), json, JSON.stringify({ kind: 'Status', status: 'Failure', message: `admission webhook denied: Authorization: Bearer ${v}` }), 400),
  podLog: (v) => exchange('GET', '/api/v1/namespaces/d/pods/p/log', [], undefined, 'text/plain', `2026-01-01 starting\nconnecting with password=${v}\nAuthorization: Basic ${v}\n`),
  tokenReview: (v) => exchange('POST', '/apis/authentication.k8s.io/v1/tokenreviews', [['Content-Type', json]], JSON.stringify({ kind: 'TokenReview', spec: { token: v } }), json, '{}'),
};

const session = (exchanges: RecordedExchange[]): RecordingContents => ({ startedAt: T0, stoppedAt: T0 + 1000, full: false, marks: [], servers: { local: 'https://127.0.0.1:6443' }, exchanges });

// Credentials as tokens and keys look: letters and digits with a mark to find them by.
const credential = fc.stringMatching(/^[A-Za-z0-9+/]{12,40}$/).map((s) => `Pl4nted${s}`);
const placed = fc.array(fc.tuple(fc.constantFrom(...Object.keys(PLACES)), credential), { minLength: 1, maxLength: 12 });

describe('redaction of planted credentials', () => {
  it('finds every place on its own (each is a case the redaction once missed or could miss)', () => {
    for (const [name, place] of Object.entries(PLACES)) {
      const v = `Pl4nted${name}Value123`;
      const file = JSON.stringify(toRecordingHar(session([place(v)]), { enabled: true, patterns: [] }));
      expect(file, name).not.toContain('Pl4nted');
      expect(JSON.stringify(toHar([{ ...place(v), response: { ...place(v).response!, body: enc('') } }])), `${name} in the console's Export HAR`).not.toContain('Pl4nted');
    }
  });

  test.prop([placed], { numRuns: 150 })('none of them in a recorded session of any mix, nor in the console Export HAR', (cases) => {
    const exchanges = cases.map(([place, v]) => PLACES[place]!(v));
    const file = JSON.stringify(toRecordingHar(session(exchanges), { enabled: true, patterns: [] }));
    for (const [, v] of cases) expect(file).not.toContain(v);
    const exported = JSON.stringify(toHar(exchanges.map((x) => ({ ...x, response: { ...x.response!, body: x.chunks[0]?.bytes ?? new Uint8Array() } }))));
    for (const [, v] of cases) expect(exported).not.toContain(v);
  });

  it('keeps what is not a credential: keys, names, and a Secret path\'s Status', () => {
    const r = new Redactor({ enabled: true, patterns: [] });
    const site = { entry: 0, where: 'x' };
    expect(r.body('{"kind":"Status","message":"secrets \\"s\\" not found"}', site, SECRET)).toBe('{"kind":"Status","message":"secrets \\"s\\" not found"}');
    expect(JSON.parse(r.body(JSON.stringify({ data: { tls: 'x' }, metadata: { name: 's' } }), site, SECRET))).toEqual({ data: { tls: 'REDACTED' }, metadata: { name: 's' } });
    expect(r.text('automountServiceAccountToken: false\nsecretName: tls', site)).toBe('automountServiceAccountToken: false\nsecretName: tls');
    expect(r.text('-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----', site)).toContain('MIIB');
  });
});

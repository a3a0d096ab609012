// Issue 28, part B, against the real server through the Edit view's own pieces: a guarded apply
// never re-creates a deleted object; the /status and /scale bodies are guarded by the version they
// were read at; the result check covers PUT and create, knows Secret stringData and names a failed
// JSON Patch test op; applies and updates use managers of their own.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson, kubeJsonExact } from '../../k8s/client';
import { type JsonObject, NO_HINTS } from '../../k8s/patch';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { classifyOutcome, defaultManagerFor, generateBody, parseText, serialize, viewOf } from './body';
import { buildWriteRequest, sendExchange, sendWrite } from './request';
import { type WriteMode } from './writeModes';
import { answerObject, scalePatchText, statusBodyFor, statusBodyText } from './subresourceBodies';
import { settled } from '../../k8s/patch/server.testkit';

const ns = `writes-${randomBytes(3).toString('hex')}`;
const group = `w${randomBytes(3).toString('hex')}.example.com`;
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const json = <T = JsonObject>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  kubeJson<T>({ context: TEST_CONTEXT, method, path, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
const get = (path: string) => kubeJsonExact<JsonObject>({ context: TEST_CONTEXT, path });
const status = async (path: string) => (await json<{ code?: number }>('GET', path).then(() => ({ code: 200 }), (e: { httpStatus: number }) => ({ code: e.httpStatus }))).code;
const opts = (mode: WriteMode, extra: { force?: boolean; dryRun?: boolean } = {}) => ({ dryRun: !!extra.dryRun, fieldValidation: '' as const, fieldManager: defaultManagerFor(mode), force: !!extra.force });

beforeAll(async () => {
  useRealProxy();
  await json('POST', '/api/v1/namespaces', { metadata: { name: ns } });
});

afterAll(async () => {
  await json('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/dials.${group}`).catch(() => undefined);
  await json('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

/** The Edit view's steps for an edit of the loaded object: text, parse, body, write, outcome. */
async function edit(path: string, mode: WriteMode, loaded: JsonObject, change: (o: JsonObject) => JsonObject, guardedApply = true) {
  const base = viewOf(loaded, false);
  const edited = parseText(serialize(change(structuredClone(base)), 'yaml'), 'yaml').obj!;
  const body = generateBody({ mode, format: 'yaml', base, live: loaded, edited, guard: true, fieldManager: defaultManagerFor(mode), touchedOnly: false, hints: NO_HINTS });
  const ex = await sendWrite(TEST_CONTEXT, mode, buildWriteRequest(mode, { objectPath: path, collectionPath: cms }, body, opts(mode)), { guardedApply: mode === 'apply' && guardedApply });
  return classifyOutcome(ex, { mode, dryRun: false, before: loaded, edited, hints: NO_HINTS });
}

describe('a guarded apply never creates', () => {
  it('an apply with "only if unchanged" on an object deleted since it was loaded is not sent; the object stays gone', async () => {
    await json('POST', cms, { metadata: { name: 'gone' }, data: { a: '1', b: '2' } });
    const loaded = await get(`${cms}/gone`);
    await json('DELETE', `${cms}/gone`);
    const out = await edit(`${cms}/gone`, 'apply', loaded, (o) => ({ ...o, data: { a: 'changed' } }));
    expect(out.wouldCreate).toBe(true);
    expect(out.ok).toBe(false);
    expect(out.exchange.request.method).toBe('GET');
    // Before this change the same apply was sent and answered 201 Created, holding only the body.
    expect(await status(`${cms}/gone`)).toBe(404);
  });

  it('a guarded apply of an object that is there is sent as before', async () => {
    await json('POST', cms, { metadata: { name: 'there' }, data: { a: '1' } });
    const out = await edit(`${cms}/there`, 'apply', await get(`${cms}/there`), (o) => ({ ...o, data: { ...(o.data as object), b: '2' } }));
    expect(out.ok, out.exchange.response?.body).toBe(true);
    expect(out.exchange.request.method).toBe('PATCH');
  });
});

describe('the result check', () => {
  it('knows Secret stringData: written to data, never returned, not "not written"', async () => {
    const secrets = `/api/v1/namespaces/${ns}/secrets`;
    await json('POST', secrets, { metadata: { name: 's' }, data: { keep: 'a2VlcA==' } });
    const loaded = await get(`${secrets}/s`);
    for (const mode of ['replace', 'merge-patch', 'apply'] as const) {
      const base = viewOf(loaded, false);
      const current = await get(`${secrets}/s`);
      const edited = { ...viewOf(current, false), stringData: { token: `t-${mode}` } };
      const body = generateBody({ mode, format: 'yaml', base: viewOf(current, false), live: current, edited, guard: true, fieldManager: defaultManagerFor(mode), touchedOnly: false, hints: NO_HINTS });
      const ex = await sendWrite(TEST_CONTEXT, mode, buildWriteRequest(mode, { objectPath: `${secrets}/s`, collectionPath: secrets }, body, opts(mode)), { guardedApply: mode === 'apply' });
      const out = classifyOutcome(ex, { mode, dryRun: false, before: current, edited, hints: NO_HINTS });
      expect(out.ok, `${mode}: ${ex.response?.body}`).toBe(true);
      expect(out.differences, mode).toEqual([]);
      expect(base).toBeDefined();
    }
    const stored = await get(`${secrets}/s`);
    expect((stored.data as Record<string, string>).token).toBe(Buffer.from('t-apply').toString('base64'));
  });

  it('names a failed JSON Patch test op on a value as such, not as "changed since you loaded it"', async () => {
    await json('POST', cms, { metadata: { name: 'tested' }, data: { color: 'blue' } });
    const loaded = await get(`${cms}/tested`);
    const rv = (loaded.metadata as { resourceVersion: string }).resourceVersion;
    const body = `${JSON.stringify([{ op: 'test', path: '/metadata/resourceVersion', value: rv }, { op: 'test', path: '/data/color', value: 'red' }, { op: 'replace', path: '/data/color', value: 'green' }], null, 2)}\n`;
    const ex = await sendExchange(TEST_CONTEXT, 'json-patch', buildWriteRequest('json-patch', { objectPath: `${cms}/tested`, collectionPath: cms }, body, opts('json-patch')));
    expect(ex.response?.status).toBe(422);
    const out = classifyOutcome(ex, { mode: 'json-patch', dryRun: false, before: loaded, hints: NO_HINTS });
    expect(out.failedTest, ex.response?.body).toBe('/data/color');
    expect(out.stale).toBe(false);
    expect(out.testOpFailed).toBe(false);

    // The resourceVersion guard failing is still "changed since you loaded it".
    await json('PATCH', `${cms}/tested`, { data: { other: 'x' } }, { 'Content-Type': 'application/merge-patch+json' });
    const staleBody = `${JSON.stringify([{ op: 'test', path: '/metadata/resourceVersion', value: rv }, { op: 'replace', path: '/data/color', value: 'green' }], null, 2)}\n`;
    const staleEx = await sendExchange(TEST_CONTEXT, 'json-patch', buildWriteRequest('json-patch', { objectPath: `${cms}/tested`, collectionPath: cms }, staleBody, opts('json-patch')));
    const stale = classifyOutcome(staleEx, { mode: 'json-patch', dryRun: false, before: loaded, hints: NO_HINTS });
    expect(stale.stale).toBe(true);
    expect(stale.failedTest).toBeUndefined();
  });
});

describe('managers', () => {
  it('an apply after a patch from the same view names the update manager in its conflict, not itself', async () => {
    await json('POST', cms, { metadata: { name: 'mgr' }, data: { a: '1' } });
    const patched = await edit(`${cms}/mgr`, 'merge-patch', await get(`${cms}/mgr`), (o) => ({ ...o, data: { a: '2' } }));
    expect(patched.ok).toBe(true);
    const applied = await edit(`${cms}/mgr`, 'apply', patched.object!, (o) => ({ ...o, data: { a: '3' } }));
    // With one name for both, this 409 said "conflict with kube-api-explorer": with itself.
    expect(applied.conflicts.map((c) => c.message)).toEqual([expect.stringContaining(defaultManagerFor('merge-patch'))]);
    const managers = ((await get(`${cms}/mgr`)).metadata as { managedFields: { manager: string; operation: string }[] }).managedFields.map((m) => `${m.manager}/${m.operation}`);
    expect(managers).toContain('kube-api-explorer-edit/Update');
  });
});

describe('/status and /scale follow the server', () => {
  const dials = `/apis/${group}/v1/namespaces/${ns}/dials`;
  beforeAll(async () => {
    await json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      metadata: { name: `dials.${group}` },
      spec: {
        group,
        scope: 'Namespaced',
        names: { plural: 'dials', singular: 'dial', kind: 'Dial' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
            schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } }, status: { type: 'object', properties: { phase: { type: 'string' }, replicas: { type: 'integer' } } } } } },
          },
        ],
      },
    });
    for (let i = 0; ; i++) {
      try {
        await json('POST', dials, { apiVersion: `${group}/v1`, kind: 'Dial', metadata: { name: 'd' }, spec: { replicas: 1 } });
        break;
      } catch (e) {
        if (i > 100) throw e;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    await json('PATCH', `${dials}/d/status?fieldManager=controller`, { status: { phase: 'Old', replicas: 1 } }, { 'Content-Type': 'application/merge-patch+json' });
  }, 60_000);

  it('a /status body read before someone else’s status write gets 409, for apply, merge patch and PUT; their phase stays', async () => {
    const loaded = await get(`${dials}/d`);
    const text = statusBodyText(loaded).replace('"phase": "Old"', '"phase": "Mine"');
    await json('PATCH', `${dials}/d/status?fieldManager=controller`, { status: { phase: 'Theirs' } }, { 'Content-Type': 'application/merge-patch+json' });
    for (const mode of ['apply', 'merge-patch', 'replace'] as const) {
      // The panel's default: no force.
      const ex = await sendExchange(TEST_CONTEXT, mode, buildWriteRequest(mode, { objectPath: `${dials}/d/status`, collectionPath: '' }, text, { dryRun: false, fieldValidation: '', fieldManager: 'status-writer', force: false }));
      expect(ex.response?.status, `${mode}: ${ex.response?.body}`).toBe(409);
    }
    expect(((await get(`${dials}/d`)).status as { phase: string }).phase).toBe('Theirs');
  });

  it('a PUT result is compared with the edit: a field the server prunes is announced', async () => {
    const loaded = await get(`${dials}/d`);
    const out = await edit(`${dials}/d`, 'replace', loaded, (o) => ({ ...o, spec: { ...(o.spec as object), unknownField: 'x' } }));
    expect(out.ok).toBe(true);
    // Before, PUT results were never compared: the pruned field passed unannounced.
    expect(out.differences).toEqual([{ path: '/spec/unknownField', edited: 'x', result: undefined }]);
  });

  it('a /status body from the latest version is written', async () => {
    const text = statusBodyText(await get(`${dials}/d`)).replace(/"phase": "\w+"/, '"phase": "Mine"');
    const ex = await sendExchange(TEST_CONTEXT, 'merge-patch', buildWriteRequest('merge-patch', { objectPath: `${dials}/d/status`, collectionPath: '' }, text, { dryRun: false, fieldValidation: '', fieldManager: 'status-writer', force: false }));
    expect(ex.response?.status).toBe(200);
    expect((answerObject(ex.response?.body)?.status as { phase: string }).phase).toBe('Mine');
  });

  it.each([
    ['a Service', 'services', { spec: { ports: [{ port: 80 }] } }],
    ['a Deployment', 'deployments', { spec: { replicas: 0, selector: { matchLabels: { app: 'st' } }, template: { metadata: { labels: { app: 'st' } }, spec: { containers: [{ name: 'c', image: 'x' }] } } } }],
  ])('a PUT to /status of %s keeps its labels, annotations and finalizers', async (_what, resource, rest) => {
    // The status strategies of these kinds take metadata from the request: the panel's PUT body
    // (identity, resourceVersion and status alone) removed the Service's labels and annotations
    // and the Deployment's annotations and finalizer.
    const collection = resource === 'services' ? `/api/v1/namespaces/${ns}/services` : `/apis/apps/v1/namespaces/${ns}/deployments`;
    await json('POST', collection, { metadata: { name: 'st', labels: { keep: 'me' }, annotations: { 'example.com/a': 'b' }, finalizers: ['example.com/hold'] }, ...rest });
    const path = `${collection}/st`;
    try {
      // (Settled: the Deployment controller writes status and an annotation after a create.)
      const loaded = await settled(path);
      const typed = JSON.parse(statusBodyText(loaded)) as JsonObject;
      typed.status = { ...(typed.status as JsonObject), conditions: [{ type: 'Probe', status: 'True', reason: 'Test', message: 'm', lastTransitionTime: '2026-11-27T00:00:00Z' }] };
      const ex = await sendExchange(TEST_CONTEXT, 'replace', buildWriteRequest('replace', { objectPath: `${path}/status`, collectionPath: '' }, statusBodyFor('replace', loaded, typed), { dryRun: false, fieldValidation: '', fieldManager: 'status-writer', force: false }));
      expect(ex.response?.status, ex.response?.body).toBe(200);
      const after = await get(path);
      const meta = after.metadata as { labels?: object; annotations?: Record<string, string>; finalizers?: string[] };
      expect(meta.labels).toEqual({ keep: 'me' });
      expect(meta.annotations?.['example.com/a']).toBe('b');
      expect(meta.finalizers).toEqual(['example.com/hold']);
      expect((after.status as { conditions?: { type: string }[] }).conditions?.map((c) => c.type)).toContain('Probe');
    } finally {
      await json('PATCH', path, { metadata: { finalizers: null } }, { 'Content-Type': 'application/merge-patch+json' }).catch(() => undefined);
    }
  });

  it('a /scale patch guarded by the Scale read gets 409 after someone else scaled; their replicas stay', async () => {
    const scale = await get(`${dials}/d/scale`);
    const rv = (scale.metadata as { resourceVersion: string }).resourceVersion;
    await json('PATCH', `${dials}/d/scale`, { spec: { replicas: 5 } }, { 'Content-Type': 'application/merge-patch+json' });
    const ex = await sendExchange(TEST_CONTEXT, 'merge-patch', buildWriteRequest('merge-patch', { objectPath: `${dials}/d/scale`, collectionPath: '' }, scalePatchText(2, rv), opts('merge-patch')));
    expect(ex.response?.status).toBe(409);
    expect(((await get(`${dials}/d`)).spec as { replicas: number }).replicas).toBe(5);
    const fresh = (await get(`${dials}/d/scale`)).metadata as { resourceVersion: string };
    const ok = await sendExchange(TEST_CONTEXT, 'merge-patch', buildWriteRequest('merge-patch', { objectPath: `${dials}/d/scale`, collectionPath: '' }, scalePatchText(2, fresh.resourceVersion), opts('merge-patch')));
    expect(ok.response?.status).toBe(200);
    expect(((await get(`${dials}/d`)).spec as { replicas: number }).replicas).toBe(2);
  });
});

describe('YAML the server reads otherwise', () => {
  it('merge keys (<<: *anchor) are merged before sending, as kubectl does, not sent as a "<<" field', async () => {
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: merged\n  namespace: ${ns}\n  labels: &common\n    app: web\n    tier: front\n  annotations:\n    <<: *common\n    tier: own\ndata:\n  a: '1'\n`;
    const parsed = parseText(text, 'yaml');
    expect(parsed.error).toBeUndefined();
    const body = generateBody({ mode: 'apply', format: 'yaml', edited: parsed.obj!, guard: false, fieldManager: defaultManagerFor('apply'), touchedOnly: false, hints: NO_HINTS });
    expect(body).not.toContain('<<');
    const ex = await sendWrite(TEST_CONTEXT, 'apply', buildWriteRequest('apply', { objectPath: `${cms}/merged`, collectionPath: cms }, body, opts('apply')));
    // Before: a literal "<<" annotation key, which the server refuses (422).
    expect(ex.response?.status, ex.response?.body).toBe(201);
    expect(((await get(`${cms}/merged`)).metadata as { annotations: Record<string, string> }).annotations).toEqual({ app: 'web', tier: 'own' });
  });

  it('an apply edited as JSON keeps a NEL, U+2028 and U+2029 in a field it did not touch', async () => {
    const odd = 'a\u0085b\u2028c\u2029d';
    // First applied by the same manager (from YAML, which escapes them as \N, \L, \P): it owns data.odd.
    const first = generateBody({ mode: 'apply', format: 'yaml', edited: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'nel', namespace: ns }, data: { odd, other: '1' } }, guard: false, fieldManager: defaultManagerFor('apply'), touchedOnly: false, hints: NO_HINTS });
    expect((await sendWrite(TEST_CONTEXT, 'apply', buildWriteRequest('apply', { objectPath: `${cms}/nel`, collectionPath: cms }, first, opts('apply')))).response?.status).toBe(201);
    const loaded = await get(`${cms}/nel`);
    expect((loaded.data as Record<string, string>).odd).toBe(odd);
    const base = viewOf(loaded, false);
    const edited = parseText(serialize({ ...base, data: { odd, other: '2' } }, 'json'), 'json').obj!;
    const body = generateBody({ mode: 'apply', format: 'json', base, live: loaded, edited, guard: true, fieldManager: defaultManagerFor('apply'), touchedOnly: false, hints: NO_HINTS });
    const ex = await sendWrite(TEST_CONTEXT, 'apply', buildWriteRequest('apply', { objectPath: `${cms}/nel`, collectionPath: cms }, body, opts('apply')), { guardedApply: true });
    expect(ex.request.headers['Content-Type']).toBe('application/apply-patch+yaml');
    expect(ex.response?.status, ex.response?.body).toBe(200);
    // Before: the server's YAML 1.1 reader took them for line breaks and stored spaces.
    expect(((await get(`${cms}/nel`)).data as Record<string, string>).odd).toBe(odd);
  });
});

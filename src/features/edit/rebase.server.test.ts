// Issue 28, case 1, as the Edit view does it, against the real server: a Deployment with containers
// a and b; the user changes a's image in the editor; meanwhile another client sends the strategic
// merge patch `kubectl patch --type strategic` sends, setting b's image and adding env Y to b; the
// banner's "Re-apply my changes to the latest version" (the reducer's rebase), then Send. Every
// write mode's body is sent; the server's object keeps both changes. (With the old rebase, a JSON
// merge patch of the edit laid over the latest version, b's image and Y were reverted.)
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson } from '../../k8s/client';
import { fetchGroupVersionDocument, fieldHintsFrom, findKindSchema, type OpenApiIndex } from '../../k8s/openapi';
import type { FieldHints, JsonObject } from '../../k8s/patch';
import { settled } from '../../k8s/patch/server.testkit';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { generateBody, parseText, serialize, viewOf } from './body';
import { buildWriteRequest, sendExchange } from './request';
import { type WriteMode } from './writeModes';
import { editReducer, type EditState, initialEditState, undecidedConflicts } from './state';

const ns = `rebase-${randomBytes(3).toString('hex')}`;
const collectionPath = `/apis/apps/v1/namespaces/${ns}/deployments`;
const objectPath = `${collectionPath}/web`;
const json = <T = JsonObject>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  kubeJson<T>({ context: TEST_CONTEXT, method, path, headers, body: body === undefined ? undefined : JSON.stringify(body) });

type Container = { name: string; image: string; env?: { name: string; value: string }[] };
type Dep = JsonObject & { metadata: { resourceVersion: string }; spec: { template: { spec: { containers: Container[] } } } };
const container = (d: Dep, name: string) => d.spec.template.spec.containers.find((c) => c.name === name)!;

let hints: FieldHints;

beforeAll(async () => {
  useRealProxy();
  await json('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  const index = await json<OpenApiIndex>('GET', '/openapi/v3');
  const doc = await fetchGroupVersionDocument(TEST_CONTEXT, index, 'apps', 'v1');
  hints = fieldHintsFrom(doc, findKindSchema(doc, 'apps', 'v1', 'Deployment')!.schema);
});

afterAll(async () => {
  await json('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

async function createDeployment(name: string): Promise<void> {
  await json('POST', collectionPath, {
    metadata: { name },
    spec: {
      // No pods: the Deployment controller's status writes end once it has observed the change.
      replicas: 0,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }] } },
    },
  });
}

/** Loads the object into the reducer, types the edit, lets the concurrent patch land, and re-applies. */
async function rebasedEdit(path: string): Promise<{ s: EditState; edited: JsonObject }> {
  let s = editReducer(initialEditState(true), { type: 'server-object', object: (await settled(path)) as JsonObject });
  const mine = parseText(s.text, s.format).obj as Dep;
  container(mine, 'a').image = 'a:mine';
  s = editReducer(s, { type: 'text', text: serialize(mine, s.format) });

  // Another client: `kubectl patch deployment web --type strategic -p …`.
  await json('PATCH', path, { spec: { template: { spec: { containers: [{ name: 'b', image: 'b:theirs', env: [{ name: 'Y', value: 'y' }] }] } } } }, { 'Content-Type': 'application/strategic-merge-patch+json' });
  s = editReducer(s, { type: 'server-object', object: (await settled(path)) as JsonObject });
  expect(s.serverChanged?.object).toBeDefined();
  s = editReducer(s, { type: 'rebase', how: 'reapply', object: s.serverChanged!.object!, edited: parseText(s.text, s.format).obj!, hints });
  expect(undecidedConflicts(s)).toEqual([]);
  return { s, edited: parseText(s.text, s.format).obj! };
}

function send(s: EditState, edited: JsonObject, mode: WriteMode, path: string, dryRun: boolean) {
  // The apply changes a's image, which the creating client owns (an Update): a FieldManagerConflict
  // unless forced, as the view's "Re-send with force" does.
  const force = mode === 'apply';
  const body = generateBody({ mode, format: s.format, base: viewOf(s.base!, s.showManaged), live: s.base, edited, guard: s.guard, fieldManager: s.opts.fieldManager, touchedOnly: false, hints });
  return sendExchange(TEST_CONTEXT, mode, buildWriteRequest(mode, { objectPath: path, collectionPath }, body, { ...s.opts, dryRun, force }));
}

function expectBoth(d: Dep) {
  expect(container(d, 'a').image).toBe('a:mine');
  expect(container(d, 'b')).toMatchObject({ image: 'b:theirs', env: [{ name: 'Y', value: 'y' }] });
}

describe('Re-apply my changes to the latest version (issue 28, case 1)', () => {
  it('after the rebase, every write mode keeps both my change to a and their change to b', async () => {
    await createDeployment('web');
    const { s, edited } = await rebasedEdit(objectPath);
    expectBoth(edited as Dep);
    for (const mode of ['replace', 'json-patch', 'merge-patch', 'strategic-merge-patch', 'apply'] as const) {
      const ex = await send(s, edited, mode, objectPath, true);
      expect(ex.response?.status, `${mode}: ${ex.response?.body}`).toBe(200);
      expectBoth(JSON.parse(ex.response!.body) as Dep);
    }
    // And for real, in the view's default mode (a guarded merge patch).
    expect(s.mode).toBe('merge-patch');
    const stored = await send(s, edited, s.mode, objectPath, false);
    expect(stored.response?.status).toBe(200);
    expectBoth(await json<Dep>('GET', objectPath));
  });
});

describe('a ConfigMap key named __proto__ (valid: [-._a-zA-Z0-9]+)', () => {
  it('survives the rebase and every write mode: before, the merge set it as a prototype and a PUT deleted it', async () => {
    const cmCollection = `/api/v1/namespaces/${ns}/configmaps`;
    const path = `${cmCollection}/proto`;
    await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: cmCollection, body: '{"metadata":{"name":"proto"},"data":{"__proto__":"keep","a":"1"}}' });
    let s = editReducer(initialEditState(true), { type: 'server-object', object: (await settled(path)) as JsonObject });
    s = editReducer(s, { type: 'text', text: s.text.replace("a: '1'", 'a: mine') });
    await json('PATCH', path, { data: { b: 'theirs' } }, { 'Content-Type': 'application/merge-patch+json' });
    s = editReducer(s, { type: 'server-object', object: (await settled(path)) as JsonObject });
    s = editReducer(s, { type: 'rebase', how: 'reapply', object: s.serverChanged!.object!, edited: parseText(s.text, s.format).obj!, hints: () => undefined });
    expect(undecidedConflicts(s)).toEqual([]);
    const edited = parseText(s.text, s.format).obj!;
    expect(Object.entries(edited.data as JsonObject)).toEqual(expect.arrayContaining([['__proto__', 'keep']]));
    for (const mode of ['replace', 'json-patch', 'merge-patch', 'strategic-merge-patch', 'apply'] as const) {
      const body = generateBody({ mode, format: s.format, base: viewOf(s.base!, s.showManaged), live: s.base, edited, guard: true, fieldManager: s.opts.fieldManager, touchedOnly: false, hints: () => undefined });
      const ex = await sendExchange(TEST_CONTEXT, mode, buildWriteRequest(mode, { objectPath: path, collectionPath: cmCollection }, body, { ...s.opts, dryRun: true, force: mode === 'apply' }));
      expect(ex.response?.status, `${mode}: ${ex.response?.body}`).toBe(200);
      expect(JSON.parse(ex.response!.body).data, mode).toEqual(JSON.parse('{"__proto__":"keep","a":"mine","b":"theirs"}'));
    }
  });
});

// The key `__proto__` through the Edit view, against the real server: to kube-apiserver it is a
// ConfigMap data key like any other; to JavaScript an assignment of it sets the prototype. The
// user changes data.__proto__ itself in the editor: each write mode sends that change (before, a
// merge patch sent nothing for it). The rebase that keeps it is in rebase.server.test.ts.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeJson } from '../../k8s/client';
import { NO_HINTS, type JsonObject } from '../../k8s/patch';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { generateBody, parseText, serialize, viewOf } from './body';
import { buildWriteRequest, sendExchange } from './request';
import { type WriteMode } from './writeModes';
import { editReducer, type EditState, initialEditState } from './state';

const ns = `ownkeys-${randomBytes(3).toString('hex')}`;
const collectionPath = `/api/v1/namespaces/${ns}/configmaps`;
const MODES = ['replace', 'json-patch', 'merge-patch', 'strategic-merge-patch', 'apply'] as const;
const dataOf = (o: { data: Record<string, string> }) => Object.fromEntries(Object.entries(o.data));

beforeAll(async () => {
  useRealProxy();
  await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
});

afterAll(async () => {
  await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/api/v1/namespaces/${ns}` }).catch(() => undefined);
});

async function create(name: string): Promise<string> {
  // Raw text: a JavaScript object literal could not hold the key.
  const body = `{"metadata":{"name":"${name}"},"data":{"__proto__":"x","a":"1","b":"1"}}`;
  await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: `${collectionPath}?fieldManager=creator`, body });
  return `${collectionPath}/${name}`;
}

function send(s: EditState, edited: JsonObject, mode: WriteMode, path: string, dryRun: boolean) {
  const body = generateBody({ mode, format: s.format, base: viewOf(s.base!, s.showManaged), live: s.base, edited, guard: s.guard, fieldManager: s.opts.fieldManager, touchedOnly: false, hints: NO_HINTS });
  return sendExchange(TEST_CONTEXT, mode, buildWriteRequest(mode, { objectPath: path, collectionPath }, body, { ...s.opts, dryRun, force: mode === 'apply' }));
}

/** The editor's text with one data value changed, as a user would type it. */
function typed(s: EditState, key: string, value: string): EditState {
  const mine = parseText(s.text, s.format).obj as { data: Record<string, string> };
  Object.defineProperty(mine.data, key, { value, enumerable: true, writable: true, configurable: true });
  return editReducer(s, { type: 'text', text: serialize(mine as unknown as JsonObject, s.format) });
}

describe('data.__proto__ through the Edit view', () => {
  it('changing it sends the change in every write mode', async () => {
    const path = await create('changed');
    let s = editReducer(initialEditState(true), { type: 'server-object', object: (await kubeJson<JsonObject>({ context: TEST_CONTEXT, path })) });
    s = typed(s, '__proto__', 'y');
    const edited = parseText(s.text, s.format).obj!;
    for (const mode of MODES) {
      const ex = await send(s, edited, mode, path, true);
      expect(ex.response?.status, `${mode}: ${ex.response?.body}`).toBe(200);
      expect(dataOf(JSON.parse(ex.response!.body) as { data: Record<string, string> }), mode).toEqual(JSON.parse('{"__proto__":"y","a":"1","b":"1"}'));
    }
  });
});

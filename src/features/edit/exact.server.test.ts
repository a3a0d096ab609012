// Exact numbers through the Edit view's own pieces (the object query's exact read, the editor's
// text, parseText, generateBody, the wire request) against the real server: an int64 beyond 2^53
// in a custom resource survives a PUT and an apply that change another field, and so does a big
// integer in a preserve-unknown-fields field. `.inf`/`.nan` never reach the server.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeFetch, kubeJson, kubeJsonExact } from '../../k8s/client';
import { NO_HINTS, type JsonObject } from '../../k8s/patch';
import { TEST_CONTEXT, useRealProxy } from '../../k8s/proxy.testkit';
import { classifyOutcome, type Format, generateBody, parseText, serialize, viewOf } from './body';
import { buildWriteRequest, sendExchange, type WriteOptions } from './request';
import { type WriteMode } from './writeModes';

const ns = `exact-${randomBytes(3).toString('hex')}`;
const group = `x${randomBytes(3).toString('hex')}.example.com`;
const collectionPath = `/apis/${group}/v1/namespaces/${ns}/counters`;
const json = <T>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  kubeJson<T>({ context: TEST_CONTEXT, method, path, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
/** The stored object as text: the digits the server holds, with no parser in between. */
const storedText = async (name: string) => (await kubeFetch({ context: TEST_CONTEXT, path: `${collectionPath}/${name}` })).text();

beforeAll(async () => {
  useRealProxy();
  await json('POST', '/api/v1/namespaces', { metadata: { name: ns } });
  await json('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    metadata: { name: `counters.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'counters', singular: 'counter', kind: 'Counter', listKind: 'CounterList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { count: { type: 'integer', format: 'int64' }, label: { type: 'string' }, free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
                },
              },
            },
          },
        },
      ],
    },
  });
}, 60_000);

afterAll(async () => {
  await json('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/counters.${group}`).catch(() => undefined);
  await json('DELETE', `/api/v1/namespaces/${ns}`).catch(() => undefined);
});

/**
 * Creates a Counter from raw text (exact digits), retrying until the new CRD is served; with
 * `applyAs`, by an apply of that manager (so that its later applies own the fields).
 */
async function createCounter(name: string, applyAs?: string): Promise<void> {
  const text = `{"apiVersion":"${group}/v1","kind":"Counter","metadata":{"name":"${name}"},"spec":{"count":9007199254740993,"label":"a","free":{"raw":1234567890123456789,"ratio":0.5}}}`;
  for (let i = 0; ; i++) {
    try {
      if (applyAs) await json('PATCH', `${collectionPath}/${name}?fieldManager=${applyAs}`, text, { 'Content-Type': 'application/apply-patch+yaml' });
      else await json('POST', `${collectionPath}?fieldManager=creator`, text);
      return;
    } catch (e) {
      if (i > 100) throw e;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** What the Edit view does: read exactly, show as text, let the user change the text, build the body, send. */
async function editAndSend(name: string, mode: WriteMode, format: Format, change: (text: string) => string, fieldManager = 'kube-api-explorer') {
  const objectPath = `${collectionPath}/${name}`;
  const live = await kubeJsonExact<JsonObject>({ context: TEST_CONTEXT, path: objectPath });
  const base = viewOf(live, false);
  const text = change(serialize(base, format));
  const parsed = parseText(text, format);
  if (!parsed.obj) return { parsed };
  const body = generateBody({ mode, format, base, live, edited: parsed.obj, guard: true, fieldManager, touchedOnly: false, hints: NO_HINTS });
  const opts: WriteOptions = { dryRun: false, fieldValidation: '', fieldManager, force: false };
  const ex = await sendExchange(TEST_CONTEXT, mode, buildWriteRequest(mode, { objectPath, collectionPath }, body, opts));
  return { parsed, body, ex, outcome: classifyOutcome(ex, { mode, dryRun: false, before: live, edited: parsed.obj, hints: NO_HINTS }) };
}

describe('exact int64 values in the Edit view', () => {
  it.each([
    ['replace', 'yaml'],
    ['replace', 'json'],
    ['replace', 'kyaml'],
    ['merge-patch', 'json'],
    ['json-patch', 'yaml'],
  ] as const)('a %s from %s that changes only spec.label keeps spec.count and free.raw digit for digit', async (mode, format) => {
    const name = `c-${mode}-${format}`;
    await createCounter(name);
    const r = await editAndSend(name, mode, format, (t) => (format === 'kyaml' ? t.replace('label: "a"', 'label: "b"') : format === 'json' ? t.replace('"label": "a"', '"label": "b"') : t.replace('label: a', 'label: b')));
    expect(r.parsed.error).toBeUndefined();
    expect(r.ex?.response?.status).toBe(200);
    const stored = await storedText(name);
    expect(stored).toContain('"label":"b"');
    expect(stored).toContain('"count":9007199254740993');
    expect(stored).toContain('"raw":1234567890123456789');
    expect(r.outcome?.differences).toEqual([]);
  });

  it('a json-patch that adds an element holding a big integer to a list without keys sends it exactly', async () => {
    // Before, the list was diffed by fast-json-patch, whose JSON.stringify of the added value
    // threw on the bigint: no body could be built.
    const name = 'c-json-patch-list';
    await createCounter(name);
    const first = await editAndSend(name, 'merge-patch', 'json', (t) => t.replace('"ratio": 0.5', '"ratio": 0.5, "list": [1]'));
    expect(first.ex?.response?.status).toBe(200);
    const r = await editAndSend(name, 'json-patch', 'json', (t) => t.replace(/"list": \[\s*1\s*\]/, '"list": [1, {"n": 1234567890123456789}]'));
    expect(r.body).toContain('"value": {\n      "n": 1234567890123456789');
    expect(r.ex?.response?.status).toBe(200);
    expect(await storedText(name)).toContain('"list":[1,{"n":1234567890123456789}]');
    expect(r.outcome?.differences).toEqual([]);
  });

  it('an apply by the manager that owns spec.count keeps it exactly', async () => {
    const name = 'c-apply';
    await createCounter(name, 'kube-api-explorer');
    // The owner's first apply (a JSON text read by the server as YAML: its int64 stays exact)...
    const first = await editAndSend(name, 'apply', 'yaml', (t) => t.replace('label: a', 'label: b'));
    expect(first.ex?.response?.status).toBe(200);
    // ...and its second apply, from the answer, keeps them.
    const second = await editAndSend(name, 'apply', 'yaml', (t) => t.replace('label: b', 'label: c'));
    expect(second.body).toContain('count: 9007199254740993');
    expect(second.ex?.response?.status).toBe(200);
    const stored = await storedText(name);
    expect(stored).toContain('"label":"c"');
    expect(stored).toContain('"count":9007199254740993');
    expect(stored).toContain('"raw":1234567890123456789');
  });
});

describe('values JSON cannot hold', () => {
  it.each([
    ['.inf', '+Inf'],
    ['-.inf', '-Inf'],
    ['.nan', 'NaN'],
  ])('%s is refused at its line and nothing is sent; the stored field stays', async (word, what) => {
    const name = `c-inf-${{ '+Inf': 'pos', '-Inf': 'neg', NaN: 'nan' }[what]}`;
    await createCounter(name);
    const r = await editAndSend(name, 'merge-patch', 'yaml', (t) => t.replace('ratio: 0.5', `ratio: ${word}`));
    expect(r.parsed.error).toContain(`unsupported value: ${what}`);
    expect(r.parsed.line).toBe(r.parsed.error ? serialize(viewOf(await kubeJsonExact<JsonObject>({ context: TEST_CONTEXT, path: `${collectionPath}/${name}` }), false), 'yaml').split('\n').findIndex((l) => l.includes('ratio:')) + 1 : -1);
    expect(r.ex).toBeUndefined();
    expect(await storedText(name)).toContain('"ratio":0.5');
  });

  it('a JSON number beyond float64 (1e400) is refused at its line', async () => {
    const name = 'c-1e400';
    await createCounter(name);
    const r = await editAndSend(name, 'merge-patch', 'json', (t) => t.replace('"ratio": 0.5', '"ratio": 1e400'));
    expect(r.parsed.error).toMatch(/^line \d+: unsupported value/);
    expect(r.ex).toBeUndefined();
    expect(await storedText(name)).toContain('"ratio":0.5');
  });
});

// The schema worker's answers, from the real /openapi/v3 of the local control plane: the host is
// given the document's bytes over a real MessageChannel (as the page transfers them), and what it
// answers is what the views computed from the whole document in the page before (explain as the
// schema browser's level, the hints subtree giving the same merge keys and list types as the full
// document), and a document it let go is asked for again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeFetch, kubeJson } from '../client';
import { TEST_CONTEXT, useRealProxy } from '../proxy.testkit';
import { describeSchema, fetchGroupVersionDocument, fieldHintsFrom, fieldsOf, findKindSchema, type OpenApiIndex, schemaAt } from '.';
import { type Explanation, type HintsAnswer, type SchemaQuestion } from './questions';
import { hostSchemas } from './worker/host';
import { type FromSchemaWorker, KEPT_DOCUMENTS } from './worker/protocol';

let index: OpenApiIndex;
let channel: MessageChannel;
const replies = new Map<number, (m: FromSchemaWorker) => void>();
let nextId = 1;

function ask(key: string, question: SchemaQuestion): Promise<FromSchemaWorker> {
  const id = nextId++;
  return new Promise((resolve) => {
    replies.set(id, resolve);
    channel.port1.postMessage({ t: 'ask', id, key, question });
  });
}

async function load(key: string, url: string): Promise<void> {
  const bytes = await (await kubeFetch({ context: TEST_CONTEXT, path: url })).arrayBuffer();
  channel.port1.postMessage({ t: 'load', key, bytes }, [bytes]);
}

beforeAll(async () => {
  useRealProxy();
  index = await kubeJson<OpenApiIndex>({ context: TEST_CONTEXT, path: '/openapi/v3' });
  channel = new MessageChannel();
  hostSchemas(channel.port2 as unknown as Parameters<typeof hostSchemas>[0]);
  channel.port1.addEventListener('message', (ev: MessageEvent) => {
    const m = ev.data as FromSchemaWorker;
    replies.get(m.id)?.(m);
    replies.delete(m.id);
  });
  channel.port1.start();
});

afterAll(() => channel.port1.close());

describe('the schema worker', () => {
  it("explains a Pod's spec as the schema browser did from the whole document", async () => {
    const url = index.paths['api/v1']!.serverRelativeURL;
    await load('pods', url);
    const m = await ask('pods', { q: 'explain', group: '', version: 'v1', kind: 'Pod', path: ['spec'] });
    expect(m.t).toBe('answer');
    const got = (m as { value: Explanation }).value;
    const doc = await fetchGroupVersionDocument(TEST_CONTEXT, index, '', 'v1');
    const pod = findKindSchema(doc, '', 'v1', 'Pod')!;
    const spec = schemaAt(doc, pod.schema, ['spec'])!;
    expect(got).toEqual({ found: 'field', info: describeSchema(doc, spec), fields: fieldsOf(doc, spec, '.spec') });
    const containers = got.found === 'field' ? got.fields.find((f) => f.name === 'containers') : undefined;
    expect(containers).toMatchObject({ type: '[]Container', required: true, extensions: { patchMergeKey: 'name', patchStrategy: 'merge' } });
    expect(await ask('pods', { q: 'explain', group: '', version: 'v1', kind: 'Pod', path: ['spec', 'nosuchfield'] })).toMatchObject({ t: 'answer', value: { found: 'no-field' } });
    expect(await ask('pods', { q: 'explain', group: '', version: 'v1', kind: 'NoSuchKind', path: [] })).toMatchObject({ t: 'answer', value: { found: 'no-kind' } });
  });

  it('gives the patch builders the same hints from the subtree as from the whole document, with no descriptions', async () => {
    const url = index.paths['apis/apps/v1']!.serverRelativeURL;
    await load('apps', url);
    const m = (await ask('apps', { q: 'hints', group: 'apps', version: 'v1', kind: 'Deployment' })) as { value: HintsAnswer };
    expect(m.value.found).toBe('subtree');
    if (m.value.found !== 'subtree') return;
    expect(JSON.stringify(m.value.doc)).not.toContain('"description"');
    const doc = await fetchGroupVersionDocument(TEST_CONTEXT, index, 'apps', 'v1');
    const full = fieldHintsFrom(doc, findKindSchema(doc, 'apps', 'v1', 'Deployment')!.schema);
    const sub = fieldHintsFrom(m.value.doc, m.value.root);
    for (const path of [['spec', 'template', 'spec', 'containers'], ['spec', 'template', 'spec', 'containers', 'ports'], ['spec', 'template', 'spec', 'volumes'], ['metadata', 'finalizers'], ['spec', 'template', 'spec', 'tolerations'], ['spec', 'selector', 'matchExpressions']]) {
      expect(sub(path), path.join('.')).toEqual(full(path));
    }
    expect(sub(['spec', 'template', 'spec', 'containers'])).toMatchObject({ mergeKey: 'name', strategy: 'merge' });
  });

  it('answers "missing" for a document it let go, and a parse failure as a failure', async () => {
    const url = index.paths['apis/apps/v1']!.serverRelativeURL;
    for (let i = 0; i <= KEPT_DOCUMENTS; i++) await load(`again-${i}`, url);
    expect(await ask('again-0', { q: 'editor', group: 'apps', version: 'v1', kind: 'Deployment' })).toMatchObject({ t: 'missing' });
    expect(await ask(`again-${KEPT_DOCUMENTS}`, { q: 'editor', group: 'apps', version: 'v1', kind: 'Deployment' })).toMatchObject({ t: 'answer', value: { found: 'schema', schema: { title: 'Deployment (apps/v1)' } } });
    const bytes = new TextEncoder().encode('{"openapi": ').buffer;
    channel.port1.postMessage({ t: 'load', key: 'broken', bytes }, [bytes]);
    expect(await ask('broken', { q: 'editor', group: 'apps', version: 'v1', kind: 'Deployment' })).toMatchObject({ t: 'failed', message: expect.stringContaining('not JSON') });
  });
});

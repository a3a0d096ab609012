// The recorder against the real API server, through a real explorer server whose context
// authenticates with a real exec credential plugin (a script printing an ExecCredential with a
// service account token): a session with a Secret, a watch, a dry-run apply and a conflict is
// recorded at the two choke points, and the saved file holds every exchange and none of the
// credentials (nor does the server's log or /proxy/status), and passes the HAR 1.2 schema.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from '../../../proxy/cluster/cluster.testkit';
import type { ExplorerServer } from '../../../proxy/src/server';
import { kubeFetch, type MuxClient } from '../client';
import { openWatch } from '../watch/stream';
import { fromRecordingHar, installRecordingHooks, recorder, toRecordingHar } from '.';
import { type ExecExplorer, startExecExplorer } from './execExplorer.testkit';
import { harProblems } from './har.testkit';

const cluster = () => testCluster(inject('controlPlane'));
const ns = `rec-${randomBytes(3).toString('hex')}`;
const SECRET_VALUE = `secret-${randomBytes(6).toString('hex')}`;
const HEADER_TOKEN = `header-${randomBytes(6).toString('hex')}`;
const PATCHED_VALUE = `patched-${randomBytes(6).toString('hex')}`;
const TEXT_KEY = `LS0tkey${randomBytes(6).toString('hex')}`;
let explorer: ExecExplorer;
let srv: ExplorerServer;
let execToken = '';
let mux: MuxClient;
// What the explorer server logs during the session: checked for the planted credentials too.
const logLines: string[] = [];

installRecordingHooks();

beforeAll(async () => {
  explorer = await startExecExplorer(cluster(), ns, { log: (line) => logLines.push(line) });
  ({ srv, mux, execToken } = explorer);
});

afterAll(async () => {
  recorder.clear();
  await explorer?.close();
});

const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  kubeFetch({ context: 'exec', method, path, headers: { Accept: 'application/json', ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers }, body: body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body) });

describe('recording a session', () => {
  it('keeps lists, watch frames, writes, dry-runs and conflicts; the file has no credential and is valid HAR', async () => {
    recorder.start({ servers: { exec: 'https://cluster.example' } });
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const list = await send('GET', cms);
    const rv = ((await list.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const w = await openWatch({ mux, context: 'exec', path: `${cms}?watch=1&resourceVersion=${rv}` });
    const seen: string[] = [];
    const events = (async () => {
      for await (const e of w.events) {
        seen.push(`${e.type} ${e.object.metadata?.name}`);
        if (e.type === 'DELETED') break;
      }
    })();
    expect((await send('POST', cms, { metadata: { name: 'one' }, data: { replicas: '1' } })).status).toBe(201);
    const updated = await send('PUT', `${cms}/one`, { metadata: { name: 'one', resourceVersion: ((await (await send('GET', `${cms}/one`)).json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion }, data: { replicas: '2' } });
    expect(updated.status).toBe(200);
    // A conflict: the resourceVersion the user sent is no longer the object's.
    expect((await send('PUT', `${cms}/one`, { metadata: { name: 'one', resourceVersion: rv }, data: { replicas: '3' } })).status).toBe(409);
    const apply = await send('PATCH', `${cms}/one?fieldManager=recorder-test&dryRun=All`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\ndata:\n  applied: "9"\n`, { 'Content-Type': 'application/apply-patch+yaml' });
    expect(apply.status).toBe(200);
    expect((await send('DELETE', `${cms}/one`)).status).toBe(200);
    await events;
    w.close();
    // A Secret, a token in a header the user set, and the exec plugin's credential pasted into a TokenReview.
    expect((await send('POST', `/api/v1/namespaces/${ns}/secrets`, { metadata: { name: 's' }, stringData: { password: SECRET_VALUE } })).status).toBe(201);
    expect((await send('GET', `/api/v1/namespaces/${ns}/secrets`, undefined, { 'X-Debug-Token': HEADER_TOKEN, Authorization: `Bearer ${HEADER_TOKEN}` })).status).toBe(200);
    // Writes that name no kind: the Edit view's own merge patch, a JSON Patch; and credentials kept as text in a ConfigMap.
    expect((await send('PATCH', `/api/v1/namespaces/${ns}/secrets/s`, { stringData: { password: PATCHED_VALUE } }, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(200);
    expect((await send('PATCH', `/api/v1/namespaces/${ns}/secrets/s`, [{ op: 'add', path: '/data/more', value: Buffer.from(PATCHED_VALUE).toString('base64') }], { 'Content-Type': 'application/json-patch+json' })).status).toBe(200);
    expect((await send('POST', cms, { metadata: { name: 'kept-as-text' }, data: { kubeconfig: `users:\n- name: u\n  user:\n    client-key-data: ${TEXT_KEY}\n`, 'settings.json': JSON.stringify({ db: { password: TEXT_KEY } }) } })).status).toBe(201);
    const review = await send('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: execToken } });
    expect(review.status).toBe(201);
    expect(await review.text()).toContain(`system:serviceaccount:${ns}:exec`);
    recorder.stop();
    expect(seen).toEqual(['ADDED one', 'MODIFIED one', 'DELETED one']);

    const contents = recorder.contents();
    const har = toRecordingHar(contents, { enabled: true, patterns: [] });
    const bytes = JSON.stringify(har);
    // Neither the saved file, nor what the server logged, nor what /proxy/status says holds any of them.
    const status = await fetch(new URL('/proxy/status', srv.url), { headers: { 'X-Explorer-Token': srv.token } });
    expect(status.status).toBe(200);
    const places = { recording: bytes, log: logLines.join('\n'), status: await status.text() };
    for (const s of [SECRET_VALUE, Buffer.from(SECRET_VALUE).toString('base64'), PATCHED_VALUE, Buffer.from(PATCHED_VALUE).toString('base64'), TEXT_KEY, HEADER_TOKEN, execToken, execToken.split('.')[2]!]) {
      for (const [where, text] of Object.entries(places)) expect(text, `${where} holds a planted credential`).not.toContain(s);
    }
    expect(harProblems(har)).toEqual([]);
    const entries = har.log.entries.map((e) => `${e.request.method} ${e._apiPath.split('?')[0]} ${e.response.status} ${e._via}`);
    expect(entries).toContain(`PUT ${cms}/one 409 http`);
    expect(entries).toContain(`PATCH ${cms}/one 200 http`);
    const watch = har.log.entries.find((e) => e._watch)!;
    expect(watch._via).toBe('mux');
    expect(watch._frames?.map((f) => f.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    // Each frame's resourceVersion is the one the event carried, in the order the server sent them.
    expect(new Set(watch._frames?.map((f) => f.resourceVersion)).size).toBe(3);
    expect(har.log.entries.find((e) => e.request.method === 'PATCH')!.request.url).toBe(`https://cluster.example${cms}/one?fieldManager=recorder-test&dryRun=All`);
    // Read back: the same exchanges, frames with their arrival times.
    const back = fromRecordingHar(JSON.parse(bytes));
    expect(back.exchanges.map((x) => x.request.method)).toEqual(contents.exchanges.map((x) => x.request.method));
    expect(back.exchanges.find((x) => x.watch)!.chunks).toHaveLength(3);
  });
});

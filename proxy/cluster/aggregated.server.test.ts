// The aggregated API server (k8s.io/sample-apiserver, wardle.example.com) through the explorer, on a
// control plane of this file's own (its backend is stopped on purpose): discovery, Table, lists,
// watch, the four patch types, apply, ownership and deletion on its resources; then its backend
// stopped: the APIService turns unavailable, discovery degrades to "this group is down" while the
// other groups are served.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ControlPlane, startControlPlane } from './controlplane';
import { WARDLE_GROUP } from './aggregated';
import { type ExplorerServer, startExplorerServer } from '../src/server';
import { json, raw, type RawResponse, waitUntil } from '../src/explorer.testkit';

let cp: ControlPlane;
let srv: ExplorerServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kube-explorer-aggregated-'));
  cp = await startControlPlane({ dir, log: () => undefined, supervision: { livenessIntervalMs: 500 } });
  srv = await startExplorerServer({ port: 0, kubeconfigPath: cp.kubeconfig, staticDir: dir, log: () => undefined, controlPlane: cp });
}, 300_000);

afterAll(async () => {
  await srv?.close();
  await cp?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const call = (method: string, path: string, o: { body?: unknown; type?: string; accept?: string; context?: string } = {}): Promise<RawResponse> =>
  raw(srv.port, {
    method,
    path: `/k8s/${o.context ?? 'local-admin'}${path}`,
    headers: { 'X-Explorer-Token': srv.token, Accept: o.accept ?? 'application/json', ...(o.body !== undefined ? { 'Content-Type': o.type ?? 'application/json' } : {}) },
    body: o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body),
  });
const ns = 'default';
const flunders = `/apis/${WARDLE_GROUP}/v1alpha1/namespaces/${ns}/flunders`;

describe('the aggregated API server (sample-apiserver)', () => {
  it('runs beside kube-apiserver, is discovered, and serves its resources to reads and every kind of write', async () => {
    expect(cp.aggregated?.group).toBe(WARDLE_GROUP);
    const groups = json(await call('GET', '/apis'));
    expect(groups.groups.find((g: { name: string }) => g.name === WARDLE_GROUP)?.versions.map((v: { version: string }) => v.version)).toEqual(['v1beta1', 'v1alpha1']);
    const aggregatedDiscovery = await call('GET', '/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' });
    expect(json(aggregatedDiscovery).items.find((g: { metadata: { name: string } }) => g.metadata.name === WARDLE_GROUP)).toBeDefined();
    const resources = json(await call('GET', `/apis/${WARDLE_GROUP}/v1alpha1`)).resources.map((r: { name: string }) => r.name);
    expect(resources).toEqual(expect.arrayContaining(['flunders', 'fischers']));

    // Create (dry run first: bodies are checked against the server), read, list as a Table.
    const flunder = { apiVersion: `${WARDLE_GROUP}/v1alpha1`, kind: 'Flunder', metadata: { name: 'f1', labels: { app: 'x' } }, spec: { reference: 'f0' } };
    expect((await call('POST', `${flunders}?dryRun=All`, { body: flunder })).status).toBe(201);
    expect((await call('GET', `${flunders}/f1`)).status).toBe(404);
    const created = await call('POST', flunders, { body: flunder });
    expect(created.status).toBe(201);
    const table = json(await call('GET', flunders, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }));
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Created At']);
    expect(table.rows.map((r: { cells: unknown[] }) => r.cells[0])).toEqual(['f1']);
    const list = json(await call('GET', `${flunders}?labelSelector=app%3Dx&limit=1`));
    expect(list.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['f1']);

    // Watch from the list's resourceVersion sees the writes that follow.
    const watch = raw(srv.port, { path: `/k8s/local-admin${flunders}?watch=1&resourceVersion=${list.metadata.resourceVersion}&timeoutSeconds=5`, headers: { 'X-Explorer-Token': srv.token, Accept: 'application/json' } });

    // The four patch types and a server-side apply.
    expect((await call('PATCH', `${flunders}/f1`, { body: { metadata: { labels: { merge: 'yes' } } }, type: 'application/merge-patch+json' })).status).toBe(200);
    expect((await call('PATCH', `${flunders}/f1`, { body: [{ op: 'add', path: '/metadata/annotations', value: { json: 'patch' } }], type: 'application/json-patch+json' })).status).toBe(200);
    const smp = await call('PATCH', `${flunders}/f1`, { body: { metadata: { labels: { strategic: 'yes' } } }, type: 'application/strategic-merge-patch+json' });
    expect(smp.status).toBe(200);
    const applied = await call('PATCH', `${flunders}/f1?fieldManager=explorer-test&force=true`, { body: { apiVersion: `${WARDLE_GROUP}/v1alpha1`, kind: 'Flunder', metadata: { name: 'f1', labels: { applied: 'yes' } } }, type: 'application/apply-patch+yaml' });
    expect(applied.status).toBe(200);
    const after = json(await call('GET', `${flunders}/f1`));
    expect(after.metadata.labels).toEqual({ app: 'x', merge: 'yes', strategic: 'yes', applied: 'yes' });
    expect(after.metadata.managedFields.map((m: { manager: string; operation: string }) => `${m.operation}`)).toContain('Apply');

    // Ownership: a Flunder owned by a ConfigMap (cross-server owner reference), then deletion.
    const owner = json(await call('POST', `/api/v1/namespaces/${ns}/configmaps`, { body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'flunder-owner' } } }));
    const owned = await call('POST', flunders, { body: { ...flunder, metadata: { name: 'f2', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'flunder-owner', uid: owner.metadata.uid }] } } });
    expect(owned.status).toBe(201);
    expect(json(owned).metadata.ownerReferences[0].uid).toBe(owner.metadata.uid);
    expect((await call('DELETE', `${flunders}/f1`)).status).toBe(200);

    const events = (await watch).body.toString().trim().split('\n').map((l) => JSON.parse(l) as { type: string; object: { metadata: { name: string } } });
    expect(events.filter((e) => e.object.metadata.name === 'f1').map((e) => e.type)).toEqual(['MODIFIED', 'MODIFIED', 'MODIFIED', 'MODIFIED', 'DELETED']);
  });

  it('says what it does not serve: Protobuf and CBOR are refused with 406', async () => {
    const protobuf = await call('GET', flunders, { accept: 'application/vnd.kubernetes.protobuf' });
    const cbor = await call('GET', flunders, { accept: 'application/cbor' });
    // What the explorer's views read when they ask for these encodings.
    expect([protobuf.status, cbor.status]).toEqual([406, 406]);
    expect(json(cbor).reason).toBe('NotAcceptable');
  });

  it('with its backend stopped: the APIService turns unavailable, discovery names the group, the other groups are served', async () => {
    cp.signal('sample-apiserver', 'SIGSTOP');
    try {
      await waitUntil('the APIService is unavailable', async () => {
        const s = json(await call('GET', `/apis/apiregistration.k8s.io/v1/apiservices/v1alpha1.${WARDLE_GROUP}`));
        return s.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Available' && c.status === 'False');
      }, 120_000);
      const down = await call('GET', `/apis/${WARDLE_GROUP}/v1alpha1`);
      expect(down.status).toBe(503);
      expect((await call('GET', '/api/v1/namespaces')).status).toBe(200);
      const aggregatedDiscovery = json(await call('GET', '/apis', { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' }));
      expect(aggregatedDiscovery.items.some((g: { metadata: { name: string } }) => g.metadata.name === 'apps')).toBe(true);
      expect(cp.status().components.find((c) => c.name === 'sample-apiserver')?.state).toBe('unresponsive');
    } finally {
      cp.signal('sample-apiserver', 'SIGCONT');
    }
    await waitUntil('the APIService is available again', async () => (await call('GET', `/apis/${WARDLE_GROUP}/v1alpha1`)).status === 200, 120_000);
  });
});

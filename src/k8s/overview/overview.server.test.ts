// The first screen's facts, read from the real server through the real proxy.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { kubeJson } from '../client';
import { TEST_CONTEXT, TEST_VIEWER_CONTEXT, useRealProxy } from '../proxy.testkit';
import { COMMON_RESOURCES, countResource, rulesReview, serverVersion } from './overview';
import { parseReadyz, readReadyz } from './readyz';

const ns = `welcome-${randomBytes(3).toString('hex')}`;
const configmaps = COMMON_RESOURCES.find((t) => t.resource === 'configmaps')!;

beforeAll(async () => {
  useRealProxy();
  await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: '/api/v1/namespaces', body: JSON.stringify({ metadata: { name: ns } }) });
  for (let i = 0; i < 7; i++) {
    await kubeJson({ context: TEST_CONTEXT, method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps`, body: JSON.stringify({ metadata: { name: `cm-${i}` } }) });
  }
});

afterAll(async () => {
  await kubeJson({ context: TEST_CONTEXT, method: 'DELETE', path: `/api/v1/namespaces/${ns}` }).catch(() => undefined);
});

describe('the first screen against the real server', () => {
  it('reads the version the control plane was built as', async () => {
    expect((await serverVersion(TEST_CONTEXT)).gitVersion).toBe(inject('controlPlane').kubernetesVersion);
  });

  it('summarizes /readyz?verbose: every check passed, etcd and ping among them', async () => {
    const r = await readReadyz(TEST_VIEWER_CONTEXT, new AbortController().signal);
    expect(r.status).toBe(200);
    expect(r.ready).toBe(true);
    expect(r.checks!.map((c) => c.name)).toEqual(expect.arrayContaining(['ping', 'etcd']));
    expect(r.checks!.every((c) => c.ok)).toBe(true);
    // The parser reads a failing line as the server writes it.
    const failing = parseReadyz(500, r.text!.replace('[+]etcd ok', '[-]etcd failed: reason withheld').replace('readyz check passed', 'readyz check failed'), 0);
    expect(failing.ready).toBe(false);
    expect(failing.checks!.find((c) => c.name === 'etcd')).toEqual({ name: 'etcd', ok: false, detail: 'failed: reason withheld' });
  });

  it('SelfSubjectRulesReview: the admin may do anything, the viewer only reads', async () => {
    const admin = await rulesReview(TEST_CONTEXT, ns);
    expect(admin.resourceRules.some((r) => r.verbs.includes('*') && r.resources?.includes('*'))).toBe(true);
    const viewer = await rulesReview(TEST_VIEWER_CONTEXT, ns);
    // system:basic-user lets everyone create reviews; what counts is what applies to configmaps.
    const onConfigMaps = viewer.resourceRules.filter((r) => (r.apiGroups ?? ['']).some((g) => g === '' || g === '*') && r.resources?.some((x) => x === 'configmaps' || x === '*'));
    const verbs = new Set(onConfigMaps.flatMap((r) => r.verbs));
    expect(verbs.has('list')).toBe(true);
    for (const v of ['create', 'update', 'patch', 'delete', '*']) expect(verbs.has(v)).toBe(false);
  });

  it('counts a collection with one limit=1 page and remainingItemCount', async () => {
    // 7 created + kube-root-ca.crt, which kube-controller-manager adds to every namespace.
    await expect.poll(async () => (await countResource(TEST_CONTEXT, configmaps, ns)).count, { timeout: 30_000 }).toBe(8);
    expect(await countResource(TEST_CONTEXT, configmaps, ns)).toEqual({ count: 8, exact: true });
    const nsCount = await countResource(TEST_CONTEXT, COMMON_RESOURCES[0]!);
    const all = await kubeJson<{ items: unknown[] }>({ context: TEST_CONTEXT, path: '/api/v1/namespaces' });
    expect(nsCount).toEqual({ count: all.items.length, exact: true });
  });
});

// The local control plane's `runtimeConfig` (`npm run cluster -- --runtime-config …`) reaches
// kube-apiserver: a second control plane started with a deprecated beta version turned on and a
// GA version turned off serves the one and not the other, and the deprecated-apis lesson, run
// against it, takes the branch it only takes there (the warning and removed_release of a beta).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ControlPlane, kubeRequest, startControlPlane } from '../../../proxy/cluster/controlplane';
import { testCluster } from '../../../proxy/cluster/cluster.testkit';
import { DEPRECATED_BETA, deprecatedApis } from './catalog/deprecation';
import type { KitExchange, StepContext } from './kit';
import { lessonApplies } from './releases';

const shared = inject('controlPlane');
// storagemigration.k8s.io/v1beta1 exists (deprecated) from 1.35 on; the older release has no such version to turn on.
const applies = lessonApplies({ since: '1.37' }, shared.kubernetesVersion);
const RUNTIME_CONFIG = `${DEPRECATED_BETA.group}/${DEPRECATED_BETA.version}=true,autoscaling/v1=false`;
let cp: ControlPlane | undefined;
let dir = '';

beforeAll(async () => {
  if (!applies) return;
  dir = mkdtempSync(join(tmpdir(), 'kube-explorer-runtime-config-'));
  cp = await startControlPlane({ dir, kubernetesVersion: shared.kubernetesVersion, runtimeConfig: RUNTIME_CONFIG, controllerManager: false, aggregatedApi: false, log: () => {} });
}, 180_000);

afterAll(async () => {
  await cp?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The kit's StepContext straight to the second control plane (the explorer server in front of the shared one does not know it). */
function direct(c: ControlPlane): StepContext {
  const send = async (method: string, path: string, o: { body?: unknown; accept?: string } = {}): Promise<KitExchange> => {
    const headers = { Accept: o.accept ?? 'application/json' };
    const r = await kubeRequest(c.server, c.credentials('admin'), method, path, o.body, headers);
    const responseHeaders = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
    let response: unknown = r.body;
    if ((responseHeaders['content-type'] ?? '').includes('json')) response = JSON.parse(r.body) as unknown;
    return { method, path, headers, status: r.status, response, responseHeaders, bytes: r.bytes.length };
  };
  return { context: 'direct', ns: '', memo: {}, send, sendAs: () => Promise.reject(new Error('not used')), watch: () => Promise.reject(new Error('not used')) };
}

describe.skipIf(!applies)('a control plane started with --runtime-config', () => {
  it('does not serve the version turned off: 404 for it, and discovery lists only the other version of its group', async () => {
    const creds = cp!.credentials('admin');
    expect((await kubeRequest(cp!.server, creds, 'GET', '/apis/autoscaling/v1')).status).toBe(404);
    expect((await kubeRequest(cp!.server, creds, 'GET', '/apis/autoscaling/v2')).status).toBe(200);
    const groups = JSON.parse((await kubeRequest(cp!.server, creds, 'GET', '/apis')).body) as { groups: { name: string; versions: { groupVersion: string }[] }[] };
    expect(groups.groups.find((g) => g.name === 'autoscaling')?.versions.map((v) => v.groupVersion)).toEqual(['autoscaling/v2']);
    // The shared control plane, started without it, serves both.
    const plain = JSON.parse((await testCluster(shared).request('admin', 'GET', '/apis')).body) as typeof groups;
    expect(plain.groups.find((g) => g.name === 'autoscaling')?.versions.map((v) => v.groupVersion).sort()).toEqual(['autoscaling/v1', 'autoscaling/v2']);
  });

  it('serves the deprecated beta version turned on, and the deprecated-apis lesson meets its warning and removed_release there', async () => {
    const c = direct(cp!);
    for (const step of deprecatedApis.steps) {
      const xs = await step.run(c);
      expect(step.check(xs, c).join(' · '), step.id).toBe('');
      if (step.id === 'beta') {
        expect(xs[1]!.status).toBe(200);
        expect(xs[1]!.responseHeaders.warning).toContain('unavailable in v1.40+');
      }
    }
  });
});

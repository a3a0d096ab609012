// `check --compare` of the two local control planes side by side: the older release of the skew
// suite (the global setup's, vitest.skew.config.ts) and the current one, started here. What the
// skew suite already knows of the older one must come out as differences: no CBOR (406) and no
// streaming lists (422) there, both served on the current one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ControlPlane, startControlPlane } from '../../proxy/cluster/controlplane';
import { KUBERNETES_VERSION, OLDER_KUBERNETES_VERSION } from '../../proxy/cluster/versions';
import type { Difference } from './compare';
import type { Report } from './report';
import { runCheck } from './check.testkit';

const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-compare-'));
let current: ControlPlane;

/** A control plane's kubeconfig with its cluster, users and contexts renamed, so that two merge. */
function renamed(file: string, tag: string): string {
  const out = join(dir, `${tag}.kubeconfig`);
  const text = readFileSync(file, 'utf8').replaceAll('kube-api-explorer-local', `${tag}-cluster`).replaceAll('explorer-admin', `${tag}-admin`).replaceAll('explorer-viewer', `${tag}-viewer`).replaceAll('local-admin', tag).replaceAll('local-viewer', `${tag}-viewer`);
  writeFileSync(out, text, { mode: 0o600 });
  return out;
}

beforeAll(async () => {
  expect(inject('controlPlane').kubernetesVersion).toBe(OLDER_KUBERNETES_VERSION);
  current = await startControlPlane({ dir: join(dir, 'current'), kubernetesVersion: KUBERNETES_VERSION });
}, 240_000);

afterAll(async () => {
  await current?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('check --compare', () => {
  it('lists the CBOR and streaming-list differences between the older release and the current one', async () => {
    const kubeconfig = `${renamed(inject('controlPlane').kubeconfig, 'older')}:${renamed(current.kubeconfig, 'current')}`;
    const run = await runCheck(['--context', 'older', '--compare', 'current', '--group', 'core', '--resource', 'configmaps', '--output', 'json', '--bookmark-wait', '0'], { env: { KUBECONFIG: kubeconfig } });
    expect(run.code, run.stderr).toBe(0);
    const { reports, differences } = JSON.parse(run.stdout) as { reports: Report[]; differences: Difference[] };
    expect(reports.map((r) => r.context)).toEqual(['older', 'current']);
    const byCheck = Object.fromEntries(differences.filter((d) => d.resource === 'configmaps/v1').map((d) => [d.check, d]));
    expect(byCheck.cbor).toMatchObject({ a: { result: 'no' }, b: { result: 'yes' } });
    expect(byCheck.cbor!.a.detail).toContain('406');
    expect(byCheck.streamingList).toMatchObject({ a: { result: 'no' }, b: { result: 'yes' } });
    expect(byCheck.streamingList!.a.detail).toMatch(/refused: 422.*falls back to list, then watch/);
  });
});

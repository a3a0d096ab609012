// The Helm chart (deploy/chart/kube-api-explorer), rendered by helm itself (built from its Go
// module, cached like the control plane) and checked by the real API server: every object it
// renders passes a server-side dry-run (dryRun=All: admission and validation run, nothing is
// stored). Both modes, and the values it must refuse.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadAll } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ensureHelm } from '../cluster/build';
import { testCluster } from '../cluster/cluster.testkit';

const execFileP = promisify(execFile);
const chart = join(import.meta.dirname, '../../deploy/chart/kube-api-explorer');
const ns = `chart-${randomBytes(3).toString('hex')}`;
const cluster = () => testCluster(inject('controlPlane'));
let helm: string;

const REQUIRED = ['--set', 'oidc.issuerURL=https://login.example.test', '--set', 'oidc.clientID=kube-api-explorer', '--set', 'oidc.externalURL=https://explorer.example.test'];

interface Rendered { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }

async function render(args: string[]): Promise<Rendered[]> {
  const { stdout } = await execFileP(helm, ['template', 'team', chart, '--namespace', ns, ...args]);
  return (loadAll(stdout) as (Rendered | null)[]).filter((o): o is Rendered => o !== null);
}

async function renderError(args: string[]): Promise<string> {
  try {
    await execFileP(helm, ['template', 'team', chart, '--namespace', ns, ...args]);
  } catch (e) {
    return String((e as { stderr?: string }).stderr);
  }
  throw new Error('helm rendered values it should have refused');
}

/** The collection path of a rendered object (the kinds this chart renders). */
function collection(o: Rendered): string {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  const kind = o.kind.toLowerCase();
  const plural = kind.endsWith('y') ? `${kind.slice(0, -1)}ies` : `${kind}s`;
  const clusterScoped = ['ClusterRole', 'ClusterRoleBinding'].includes(o.kind);
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  return clusterScoped ? `${base}/${plural}` : `${base}/namespaces/${ns}/${plural}`;
}

async function dryRunAll(objects: Rendered[]): Promise<string[]> {
  const refused: string[] = [];
  for (const o of objects) {
    const r = await cluster().request('admin', 'POST', `${collection(o)}?dryRun=All&fieldValidation=Strict`, o);
    if (r.status !== 201) refused.push(`${o.kind}/${o.metadata.name}: ${r.status} ${r.body}`);
  }
  return refused;
}

beforeAll(async () => {
  helm = await ensureHelm({ log: () => {} });
  expect((await cluster().request('admin', 'POST', '/api/v1/namespaces', { metadata: { name: ns } })).status).toBe(201);
}, 900_000);

afterAll(async () => {
  await cluster().request('admin', 'DELETE', `/api/v1/namespaces/${ns}`);
});

describe('the Helm chart', () => {
  it('passthrough (the default): three replicas, no RBAC, no token mounted; every object passes a server-side dry-run', async () => {
    const objects = await render(REQUIRED);
    expect(objects.map((o) => o.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'NetworkPolicy', 'Secret', 'Service', 'ServiceAccount']);
    const deployment = objects.find((o) => o.kind === 'Deployment') as unknown as { spec: { replicas: number; template: { spec: { automountServiceAccountToken: boolean } } } };
    expect(deployment.spec.replicas).toBe(3);
    expect(deployment.spec.template.spec.automountServiceAccountToken).toBe(false);
    expect(await dryRunAll(objects)).toEqual([]);
  });

  it('impersonate: a ClusterRole that may impersonate only the listed users and groups; every object passes a server-side dry-run', async () => {
    const objects = await render([...REQUIRED, '--set', 'mode=impersonate', '--set', 'impersonate.users={alice,bob}', '--set', 'impersonate.groups={explorer-team}']);
    const role = objects.find((o) => o.kind === 'ClusterRole') as unknown as { rules: { resources: string[]; verbs: string[]; resourceNames: string[] }[] };
    expect(role.rules).toEqual([
      { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['alice', 'bob'] },
      { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'], resourceNames: ['explorer-team'] },
    ]);
    expect(await dryRunAll(objects)).toEqual([]);
  });

  it('refuses what cannot work: a missing issuer, impersonation of nobody, an unknown mode', async () => {
    expect(await renderError(REQUIRED.slice(2))).toContain('oidc.issuerURL is required');
    expect(await renderError([...REQUIRED, '--set', 'mode=impersonate'])).toContain('needs impersonate.users or impersonate.groups');
    expect(await renderError([...REQUIRED, '--set', 'mode=admin'])).toContain('mode is passthrough or impersonate');
  });
});

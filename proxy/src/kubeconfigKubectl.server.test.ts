// The kubeconfig as kubectl reads it: generated kubeconfigs (one file or a KUBECONFIG merge of
// two, relative paths, CA as data or file or none, insecure-skip-tls-verify with and without a
// CA, certificates as data or files, tokens, tokenFile and the token-file kubectl ignores,
// impersonation whole and refused, exec plugins with and without cluster info, names defined
// twice) are read by the explorer and by the real kubectl built with the control plane. Every
// context must name the same server, cluster, user and namespace (`kubectl config view --raw
// --flatten`), and act as the same identity (`kubectl auth whoami`, SelfSubjectReview through
// the explorer) or be refused by both.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { fc } from '@fast-check/vitest';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dump as stringify, load as parse } from 'js-yaml';
import { testCluster } from '../cluster/cluster.testkit';
import { createNamespace, deleteNamespace, json, raw } from './explorer.testkit';
import { startExplorerServer } from './server';

const cp = inject('controlPlane');
const cluster = testCluster(cp);
const run = promisify(execFile);
/** Failing seeds kept here (fast-check prints the seed and path of a failure). */
const FIXED: { seed: number; path?: string }[] = [
  // A cluster with a CA and insecure-skip-tls-verify, and a user with as-groups but no as: kubectl names both reasons.
  { seed: 259802707, path: '10' },
];
const RUNS = Number(process.env.KUBECONFIG_RUNS ?? 25);

type Doc = Record<string, unknown>;
interface Shape {
  /** Which file (0 or 1) each definition goes to, and whether file 1 defines the same name again (shadowed). */
  clusters: { variant: number; file: number; shadow: boolean }[];
  users: { variant: number; file: number; shadow: boolean }[];
  contexts: { cluster: number; user: number; namespace: boolean; file: number }[];
  current: number;
}

describe('kubeconfigs read as kubectl reads them (generated, against the real kubectl and API server)', () => {
  let dir: string;
  let ns: string;
  let saToken = '';
  let server = '';
  let caData = '';
  let admin: Doc = {};

  beforeAll(async () => {
    expect(cp.kubectl, 'the kubectl built with the control plane').toBeDefined();
    dir = mkdtempSync(join(tmpdir(), 'explorer-kubectl-kubeconfig-'));
    ns = await createNamespace(cluster, 'proxy-kubectl-kubeconfig');
    expect((await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'gen' } })).status).toBe(201);
    const tr = await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/serviceaccounts/gen/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
    saToken = JSON.parse(tr.body).status.token as string;
    const base = parse(readFileSync(cp.kubeconfig, 'utf8')) as { clusters: Doc[]; users: Doc[] };
    server = String((base.clusters[0]!.cluster as Doc).server);
    caData = String((base.clusters[0]!.cluster as Doc)['certificate-authority-data']);
    admin = base.users.find((u) => u.name === 'explorer-admin')!.user as Doc;
    const viewer = cluster.credentials('viewer');
    // Files the kubeconfigs name by relative paths, from both of their folders.
    for (const sub of ['a', 'b']) {
      mkdirSync(join(dir, sub, 'pki'), { recursive: true });
      writeFileSync(join(dir, sub, 'pki', 'ca.crt'), cluster.credentials('admin').ca);
      writeFileSync(join(dir, sub, 'pki', 'viewer.crt'), viewer.cert);
      writeFileSync(join(dir, sub, 'pki', 'viewer.key'), viewer.key);
      writeFileSync(join(dir, sub, 'pki', 'sa.token'), `${saToken}\n`);
      writeFileSync(join(dir, sub, 'cert.json'), JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { clientCertificateData: viewer.cert, clientKeyData: viewer.key } }));
      writeFileSync(join(dir, sub, 'plugin.sh'), `#!/bin/sh\ncat "$(dirname "$0")/cert.json"\n`);
      chmodSync(join(dir, sub, 'plugin.sh'), 0o755);
    }
  });

  afterAll(async () => {
    await deleteNamespace(cluster, ns);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Cluster stanzas: the server under its two names, CA as data, as a relative file, none; insecure with and without a CA. */
  const clusterVariants = (): Doc[] => [
    { server, 'certificate-authority-data': caData },
    { server: server.replace('127.0.0.1', 'localhost'), 'certificate-authority': 'pki/ca.crt' },
    { server, 'insecure-skip-tls-verify': true },
    { server, 'insecure-skip-tls-verify': true, 'certificate-authority': 'pki/ca.crt' },
    { server },
    { server: `${server}/`, 'certificate-authority-data': caData, 'tls-server-name': 'kubernetes' },
  ];
  /** User stanzas: certificates as data and as files, tokens and token files, impersonation, exec plugins, basic auth. */
  const userVariants = (): Doc[] => [
    admin,
    { 'client-certificate': 'pki/viewer.crt', 'client-key': 'pki/viewer.key' },
    { token: saToken },
    { tokenFile: 'pki/sa.token' },
    { 'token-file': 'pki/sa.token' },
    { ...admin, as: 'jane', 'as-groups': ['dev'], 'as-uid': 'u-1', 'as-user-extra': { team: ['blue', 'green'] } },
    { ...admin, 'as-groups': ['system:masters'] },
    { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh', interactiveMode: 'Never' } },
    { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: './plugin.sh', interactiveMode: 'Never', provideClusterInfo: true } },
    { username: 'u', password: 'p' },
  ];

  const part = (n: number) => fc.record({ variant: fc.nat({ max: n - 1 }), file: fc.nat({ max: 1 }), shadow: fc.boolean() });
  const shape: fc.Arbitrary<Shape> = fc.record({
      clusters: fc.array(part(6), { minLength: 1, maxLength: 3 }),
      users: fc.array(part(10), { minLength: 1, maxLength: 4 }),
      contexts: fc.array(fc.record({ cluster: fc.nat(), user: fc.nat(), namespace: fc.boolean(), file: fc.nat({ max: 1 }) }), { minLength: 1, maxLength: 4 }),
    current: fc.nat(),
  });

  /** Two kubeconfig files (in folders a/ and b/) for a shape. */
  function files(s: Shape, tag: string): string[] {
    const docs: { clusters: Doc[]; users: Doc[]; contexts: Doc[]; 'current-context'?: string }[] = [0, 1].map(() => ({ clusters: [], users: [], contexts: [] }));
    s.clusters.forEach((c, i) => {
      docs[c.file]!.clusters.push({ name: `c${i}`, cluster: clusterVariants()[c.variant] });
      // The same name again in the other file: the first file's wins (kubectl's merge).
      if (c.shadow) docs[1 - c.file]!.clusters.push({ name: `c${i}`, cluster: clusterVariants()[(c.variant + 2) % 6] });
    });
    s.users.forEach((u, i) => {
      docs[u.file]!.users.push({ name: `u${i}`, user: userVariants()[u.variant] });
      if (u.shadow) docs[1 - u.file]!.users.push({ name: `u${i}`, user: userVariants()[(u.variant + 3) % 10] });
    });
    s.contexts.forEach((c, i) => docs[c.file]!.contexts.push({ name: `x${i}`, context: { cluster: `c${c.cluster % s.clusters.length}`, user: `u${c.user % s.users.length}`, ...(c.namespace ? { namespace: ns } : {}) } }));
    docs[s.current % 2]!['current-context'] = `x${s.current % s.contexts.length}`;
    return docs.map((d, i) => {
      const f = join(dir, i === 0 ? 'a' : 'b', `${tag}.yaml`);
      writeFileSync(f, stringify({ apiVersion: 'v1', kind: 'Config', ...d }));
      return f;
    });
  }

  interface Outcome {
    ok: boolean;
    userInfo?: unknown;
    message?: string;
  }

  async function kubectl(args: string[], kubeconfig: string): Promise<{ ok: boolean; stdout: string; stderr: string }> {
    try {
      const p = run(cp.kubectl!, args, { env: { PATH: process.env.PATH ?? '', HOME: dir, KUBECONFIG: kubeconfig }, timeout: 30_000 });
      // Nothing to read: kubectl asks for a user name and password on stdin when it has no credentials.
      p.child.stdin?.end();
      const { stdout, stderr } = await p;
      return { ok: true, stdout, stderr };
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      return { ok: false, stdout: err.stdout ?? '', stderr: err.stderr ?? String(e) };
    }
  }

  async function compare(s: Shape, tag: string): Promise<void> {
    const kubeconfig = files(s, tag).join(delimiter);
    const previous = process.env.KUBECONFIG;
    process.env.KUBECONFIG = kubeconfig;
    const srv = await startExplorerServer({ port: 0, staticDir: dir, log: () => undefined, exec: { timeoutMs: 10_000, waitMs: Infinity, interactive: false } });
    try {
      const view = await kubectl(['config', 'view', '--raw', '--flatten', '-o', 'json'], kubeconfig);
      expect(view.ok, view.stderr).toBe(true);
      const merged = JSON.parse(view.stdout) as { 'current-context'?: string; clusters: { name: string; cluster: Doc }[]; contexts: { name: string; context: Doc }[] };
      const listed = json(await raw(srv.port, { path: '/proxy/contexts', headers: { 'X-Explorer-Token': srv.token } })) as { current: string; contexts: { name: string; cluster: string; user: string; namespace: string; server: string }[] };
      expect(listed.current).toBe(merged['current-context'] ?? '');
      expect(listed.contexts.map((c) => c.name).sort()).toEqual(merged.contexts.map((c) => c.name).sort());
      for (const c of merged.contexts) {
        const ours = listed.contexts.find((x) => x.name === c.name)!;
        const theirCluster = merged.clusters.find((x) => x.name === c.context.cluster)?.cluster;
        expect({ cluster: ours.cluster, user: ours.user, namespace: ours.namespace, server: ours.server }, c.name).toEqual({
          cluster: c.context.cluster,
          user: c.context.user,
          namespace: (c.context.namespace as string | undefined) ?? 'default',
          server: String(theirCluster?.server ?? '').replace(/\/$/, ''),
        });
        const theirs: Outcome = await (async () => {
          const r = await kubectl(['auth', 'whoami', '-o', 'json', '--context', c.name], kubeconfig);
          return r.ok ? { ok: true, userInfo: JSON.parse(r.stdout).status.userInfo } : { ok: false, message: r.stderr };
        })();
        const res = await raw(srv.port, {
          method: 'POST',
          path: `/k8s/${c.name}/apis/authentication.k8s.io/v1/selfsubjectreviews`,
          headers: { 'X-Explorer-Token': srv.token, 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
        });
        const ours2: Outcome = res.status === 201 ? { ok: true, userInfo: json(res).status.userInfo } : { ok: false, message: json(res).message };
        expect({ context: c.name, ok: ours2.ok, userInfo: ours2.userInfo }, `kubectl: ${theirs.message ?? 'ok'}; explorer: ${ours2.message ?? 'ok'}`).toEqual({ context: c.name, ok: theirs.ok, userInfo: theirs.userInfo });
        // Refused for kubectl's reason, in kubectl's words.
        for (const reason of ['without impersonating a user', 'specifying a root certificates file with the insecure flag is not allowed']) {
          if (theirs.message?.includes(reason)) expect(ours2.message).toContain(reason);
        }
      }
    } finally {
      await srv.close();
      if (previous === undefined) delete process.env.KUBECONFIG;
      else process.env.KUBECONFIG = previous;
    }
  }

  it('agrees with kubectl on every context of generated kubeconfigs', async () => {
    let n = 0;
    const property = fc.asyncProperty(shape, (s) => compare(s, `k${n++}`));
    for (const fixed of FIXED) await fc.assert(property, { seed: fixed.seed, path: fixed.path, endOnFailure: true, numRuns: 1 });
    await fc.assert(property, { numRuns: RUNS, endOnFailure: true });
  }, 240_000);
});

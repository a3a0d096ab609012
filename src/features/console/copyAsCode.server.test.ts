// Copy as code, run for real: each program the console copies (client-go, the official Python
// client, @kubernetes/client-node) is built and run against the local control plane with its
// kubeconfig, and must print the status and body the server gives the same request.
// Go builds inside a copy of the control plane's wrapper module (its go.sum pins client-go, and
// the control plane build has compiled it already); Python needs `pip install kubernetes`, which
// .ci/run does; client-node is a dependency of this project.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ExchangeRequest } from '../../k8s/client';
import { toKubectl } from './copyAs';
import { type CodeOptions, toClientGo, toClientNode, toPython } from './copyAsCode';

const cp = inject('controlPlane');
const opts: CodeOptions = { context: 'local-admin', kubeconfig: cp.kubeconfig };
const ns = 'default';
const requests: { name: string; req: ExchangeRequest; status: number; body: RegExp }[] = [
  { name: 'a GET with Accept', req: { method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps/kube-root-ca.crt`, headers: [['Accept', 'application/json']] }, status: 200, body: /"name":\s*"kube-root-ca.crt"/ },
  { name: 'a 404', req: { method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps/no-such-thing`, headers: [] }, status: 404, body: /"reason":\s*"NotFound"/ },
  {
    name: "a POST with query, JSON body with quotes and a backtick",
    req: { method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps?dryRun=All&fieldValidation=Strict`, headers: [['Content-Type', 'application/json']], body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'code-check' }, data: { q: `it's "quoted" \`here\` ünï` } }, null, 2) },
    status: 201,
    body: /it's \\"quoted\\" `here` ünï/,
  },
  {
    name: 'an apply with a YAML body',
    req: { method: 'PATCH', path: `/api/v1/namespaces/${ns}/configmaps/code-apply?dryRun=All&fieldManager=code`, headers: [['Content-Type', 'application/apply-patch+yaml']], body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: code-apply\ndata:\n  a: "1"\n' },
    status: 201,
    body: /"manager":\s*"code"/,
  },
  {
    name: 'a YAML create, YAML back',
    req: { method: 'POST', path: `/api/v1/namespaces/${ns}/configmaps?dryRun=All`, headers: [['Content-Type', 'application/yaml'], ['Accept', 'application/yaml']], body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: code-yaml\ndata:\n  a: "1"\n' },
    status: 201,
    body: /^kind: ConfigMap$/m,
  },
  {
    name: 'a SelfSubjectReview with Impersonate-User',
    req: { method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', headers: [['Content-Type', 'application/json'], ['Impersonate-User', 'explorer-viewer']], body: '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}' },
    status: 201,
    body: /"username":\s*"explorer-viewer"/,
  },
];

let dir: string;
beforeAll(() => {
  // Inside the project, so that the Node program finds @kubernetes/client-node in node_modules.
  mkdirSync(join(process.cwd(), 'node_modules', '.cache'), { recursive: true });
  dir = mkdtempSync(join(process.cwd(), 'node_modules', '.cache', 'copy-as-code-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function output(status: number | null, stdout: string, stderr: string): { code: number; body: string } {
  expect(status, stderr).toBe(0);
  const nl = stdout.indexOf('\n');
  return { code: Number(stdout.slice(0, nl)), body: stdout.slice(nl + 1) };
}

const hasPythonClient = spawnSync('python3', ['-c', 'import kubernetes, yaml'], { encoding: 'utf8' }).status === 0;

describe('copy as code, run against the real server', () => {
  it('client-node', () => {
    for (const r of requests) {
      const file = join(dir, `node-${requests.indexOf(r)}.mjs`);
      writeFileSync(file, toClientNode(r.req, opts));
      const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 30_000 });
      const out = output(run.status, run.stdout, run.stderr);
      expect(out.code, r.name).toBe(r.status);
      expect(out.body, r.name).toMatch(r.body);
    }
  });

  it.runIf(hasPythonClient || process.env.CI)('the official Python client', () => {
    for (const r of requests) {
      const file = join(dir, `py-${requests.indexOf(r)}.py`);
      writeFileSync(file, toPython(r.req, opts));
      const run = spawnSync('python3', [file], { encoding: 'utf8', timeout: 60_000 });
      const out = output(run.status, run.stdout, run.stderr);
      expect(out.code, r.name).toBe(r.status);
      expect(out.body, r.name).toMatch(r.body);
    }
  });

  it('kubectl, impersonating with --as as the request did with Impersonate-User', () => {
    const r = requests.find((x) => x.name.includes('Impersonate-User'))!;
    const { command, notes } = toKubectl(r.req, opts);
    expect(notes).toEqual([]);
    // The command as copied, run by sh with the kubectl built with the control plane.
    const run = spawnSync('sh', ['-c', command.replace(/^kubectl /, `'${cp.kubectl!}' `)], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(r.body);
  });

  it('client-go', { timeout: 600_000 }, () => {
    // One module, one program per request (each in its own package directory), one `go build`.
    const mod = join(dir, 'go');
    mkdirSync(mod);
    copyFileSync(join(process.cwd(), 'proxy/cluster/go/kube/go.mod'), join(mod, 'go.mod'));
    copyFileSync(join(process.cwd(), 'proxy/cluster/go/kube/go.sum'), join(mod, 'go.sum'));
    requests.forEach((r, i) => {
      mkdirSync(join(mod, `p${i}`));
      writeFileSync(join(mod, `p${i}`, 'main.go'), toClientGo(r.req, opts));
    });
    // The same settings as the control plane build (proxy/cluster/build.ts), so its compiled client-go is reused.
    const env = { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod -buildvcs=false', GOTOOLCHAIN: 'local' };
    execFileSync('go', ['build', '-trimpath', '-o', join(dir, 'bin') + '/', './...'], { cwd: mod, env, stdio: 'pipe', timeout: 580_000 });
    requests.forEach((r, i) => {
      const run = spawnSync(join(dir, 'bin', `p${i}`), [], { encoding: 'utf8', timeout: 30_000 });
      const out = output(run.status, run.stdout, run.stderr);
      expect(out.code, r.name).toBe(r.status);
      expect(out.body, r.name).toMatch(r.body);
    });
  });
});

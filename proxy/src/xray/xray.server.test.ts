// X-ray against the real local control plane, with real clients: kubectl (the one built with the
// control plane) and the official Python client go through the explorer's endpoint, each as a run
// of its own (the run control an attached `xray` uses), and what the journal recorded is compared
// with what each client printed. The `xray` command itself runs as a child process for what only a
// process shows: exit codes, stdio, signals, the throw-away kubeconfig's removal, --har.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { get as httpsGet } from 'node:https';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testCluster } from '../../cluster/cluster.testkit';
import { createRestrictedUser, type RestrictedUser } from '../../cluster/restricted.testkit';
import { ensureXrayInformer } from '../../cluster/build';
import { readRecordingLog, type HarEntry } from '../../../protocol/recording';
import type { XrayMessage } from '../../../protocol/xray';
import { createNamespace, deleteNamespace, raw, uniqueName, waitUntil } from '../explorer.testkit';
import { type ExplorerServer, startExplorerServer } from '../server';
import { runControl } from './service';

const cp = inject('controlPlane');
const cluster = testCluster(cp);
const kubectl = cp.kubectl;
let srv: ExplorerServer;
let dir: string;
let ns: string;
let viewer: RestrictedUser;
let endpointKubeconfig: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  entries: HarEntry[];
}

const control = async (query: string, body: unknown, token: string) => (await runControl(srv.xray!.url, srv.xray!.caPem, token, query, body)).body as { id: string; token: string };

/** A GET to the endpoint, trusting its certificate. */
function endpointGet(path: string, authorization?: string): Promise<{ status: number; body: string }> {
  return new Promise((ok, fail) => {
    const req = httpsGet(`${srv.xray!.url}${path}`, { ca: srv.xray!.caPem, headers: authorization ? { authorization } : {} }, (res) => {
      let body = '';
      res.on('data', (b: Buffer) => (body += b.toString()));
      res.on('end', () => ok({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', fail);
  });
}

/** A run of the explorer's endpoint (the run control an attached `xray` uses): its kubeconfig, its end, its recording. */
async function newRun(argv: string[]) {
  const file = JSON.parse(srv.xray!.kubeconfig()) as { users: { user: { token: string } }[] };
  const longLived = file.users[0]!.user.token;
  const run = await control('xray=run', { argv }, longLived);
  const kubeconfig = join(dir, `${run.id}.kubeconfig`);
  writeFileSync(kubeconfig, JSON.stringify({ ...file, users: [{ name: 'xray', user: { token: run.token } }] }), { mode: 0o600 });
  return {
    kubeconfig,
    end: (exitCode: number | null) => control(`xray=end&run=${run.id}`, { exitCode }, longLived),
    entries: async (): Promise<HarEntry[]> => {
      const har = await raw(srv.port, { path: `/proxy/xray/har?run=${run.id}`, headers: { 'X-Explorer-Token': srv.token } });
      const log = JSON.parse(har.body.toString()) as { log: { entries: unknown[] } };
      return log.log.entries.length ? readRecordingLog(log).entries : [];
    },
  };
}

/** Runs a program as one X-ray run of the explorer and returns what it printed and what the journal recorded of it. */
async function through(argv: string[], env: Record<string, string> = {}): Promise<Run> {
  const run = await newRun(argv);
  const out = await new Promise<Omit<Run, 'entries'>>((ok) => {
    execFile(argv[0]!, argv.slice(1), { env: { ...process.env, KUBECONFIG: run.kubeconfig, ...env }, timeout: 60_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) => ok({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
  await run.end(out.code);
  const entries = await run.entries();
  if (entries.length === 0) throw new Error(`nothing recorded of ${argv.join(' ')}: exit ${out.code}, ${out.stderr}`);
  return { ...out, entries };
}

const bodyOf = (e: HarEntry): string => (e.response.content.encoding === 'base64' ? Buffer.from(e.response.content.text ?? '', 'base64').toString() : (e.response.content.text ?? ''));
const header = (hs: { name: string; value: string }[], name: string) => hs.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;
const apiPath = (e: HarEntry): string => e._apiPath.split('?')[0]!;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xray-test-'));
  const staticDir = join(dir, 'static');
  spawnSync('mkdir', [staticDir]);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html>');
  viewer = await createRestrictedUser(cluster, join(dir, 'restricted.kubeconfig'));
  srv = await startExplorerServer({ port: 0, kubeconfigPath: viewer.kubeconfig, staticDir, log: () => undefined });
  endpointKubeconfig = join(dir, 'endpoint.kubeconfig');
  writeFileSync(endpointKubeconfig, srv.xray!.kubeconfig(), { mode: 0o600 });
  ns = await createNamespace(cluster, 'xray');
}, 60_000);

afterAll(async () => {
  await srv?.close();
  await deleteNamespace(cluster, ns);
  await viewer?.remove();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!kubectl)('kubectl through the X-ray endpoint', () => {
  it('get: the recorded answer is the object kubectl printed, the request as kubectl sent it', async () => {
    const name = uniqueName('cm');
    await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name }, data: { a: '1' } });
    const r = await through([kubectl!, '--context', 'local-admin', '-n', ns, 'get', 'configmap', name, '-o', 'json', '--show-managed-fields']);
    expect(r.code, r.stderr).toBe(0);
    const get = r.entries.find((e) => e.request.method === 'GET' && apiPath(e) === `/api/v1/namespaces/${ns}/configmaps/${name}`)!;
    expect(get.response.status).toBe(200);
    expect(JSON.parse(bodyOf(get))).toEqual(JSON.parse(r.stdout));
    // What kubectl sends, untouched: its own User-Agent, and Accept asking for Protobuf... or JSON as it chose.
    expect(header(get.request.headers, 'User-Agent')).toMatch(/^kubectl\//);
    expect(header(get.request.headers, 'Accept')).toBeDefined();
    expect(header(get.request.headers, 'Authorization')).not.toContain(srv.token);
    expect(get._via).toBe('xray');
  });

  it('get missing: the 404 Status recorded is the one kubectl printed', async () => {
    const r = await through([kubectl!, '--context', 'local-admin', '-n', ns, 'get', 'configmap', 'missing']);
    expect(r.code).toBe(1);
    const e = r.entries.find((x) => apiPath(x).endsWith('/configmaps/missing'))!;
    expect(e.response.status).toBe(404);
    expect(r.stderr).toContain((JSON.parse(bodyOf(e)) as { message: string }).message);
  });

  it('get -w ended by --request-timeout: the watch frames are the events kubectl printed', async () => {
    const name = uniqueName('w');
    await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name } });
    const r = await through([kubectl!, '--context', 'local-admin', '-n', ns, 'get', 'configmap', name, '-w', '--output-watch-events', '-o', 'json', '--request-timeout=3s']);
    const watch = r.entries.find((e) => e._watch)!;
    expect(watch, JSON.stringify(r.entries.map((e) => e._apiPath))).toBeDefined();
    expect(watch._closedByPage || watch._endedDateTime).toBeTruthy();
    const printed = r.stdout.split(/\n(?=\{)/).filter((s) => s.trim()).map((s) => JSON.parse(s) as { type: string; object: { metadata: { resourceVersion: string } } });
    const frames = (watch._frames ?? []).map((f) => JSON.parse(f.text!) as { type: string; object: { metadata: { resourceVersion: string } } });
    // kubectl prints what it lists first, then each event of the watch that follows.
    for (const f of frames.filter((x) => x.type !== 'BOOKMARK')) expect(printed.some((p) => p.object.metadata.resourceVersion === f.object.metadata.resourceVersion)).toBe(true);
  });

  it('apply client-side then --server-side: the PATCH bodies and field managers as sent, the answers as printed', async () => {
    const name = uniqueName('apply');
    const manifest = join(dir, `${name}.yaml`);
    writeFileSync(manifest, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\ndata:\n  k: v1\n`);
    const client = await through([kubectl!, '--context', 'local-admin', 'apply', '-f', manifest, '-o', 'json', '--show-managed-fields']);
    expect(client.code, client.stderr).toBe(0);
    const create = client.entries.find((e) => e.request.method === 'POST')!;
    expect(create.request.postData?.text).toContain('kubectl.kubernetes.io/last-applied-configuration');
    expect(JSON.parse(bodyOf(create))).toEqual(JSON.parse(client.stdout));
    writeFileSync(manifest, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\ndata:\n  k: v2\n`);
    const server = await through([kubectl!, '--context', 'local-admin', 'apply', '--server-side', '-f', manifest, '-o', 'json', '--show-managed-fields']);
    expect(server.code, server.stderr).toBe(0);
    const patch = server.entries.find((e) => e.request.method === 'PATCH' && header(e.request.headers, 'Content-Type') === 'application/apply-patch+yaml')!;
    expect(header(patch.request.headers, 'Content-Type')).toBe('application/apply-patch+yaml');
    expect(patch.request.queryString).toContainEqual({ name: 'fieldManager', value: 'kubectl' });
    // kubectl sends the apply configuration as JSON (which is YAML) under the apply-patch media type.
    expect((JSON.parse(patch.request.postData!.text) as { data: { k: string } }).data.k).toBe('v2');
    // The object kubectl printed is the server's answer to its last write: after the apply, kubectl
    // moves the client-side apply's field ownership to its server-side manager (a second PATCH,
    // kubectl's csaupgrade), and prints what that returned.
    const last = server.entries.filter((e) => e.request.method === 'PATCH').at(-1)!;
    const answered = JSON.parse(bodyOf(last)) as { metadata: { resourceVersion: string }; data: unknown };
    const printed = JSON.parse(server.stdout) as typeof answered;
    expect([answered.metadata.resourceVersion, answered.data]).toEqual([printed.metadata.resourceVersion, printed.data]);
  });

  it('delete --cascade=foreground: the DeleteOptions as sent', async () => {
    const name = uniqueName('del');
    await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name } });
    const r = await through([kubectl!, '--context', 'local-admin', '-n', ns, 'delete', 'configmap', name, '--cascade=foreground', '--wait=false']);
    expect(r.code, r.stderr).toBe(0);
    const del = r.entries.find((e) => e.request.method === 'DELETE')!;
    expect(JSON.parse(del.request.postData!.text).propagationPolicy).toBe('Foreground');
    expect(r.stdout).toContain(`configmap "${name}" deleted`);
  });

  it('api-resources and explain: discovery and OpenAPI as kubectl asked for them', async () => {
    const cache = join(dir, 'cache-' + uniqueName('c'));
    const res = await through([kubectl!, '--context', 'local-admin', '--cache-dir', cache, 'api-resources', '-o', 'name']);
    expect(res.code, res.stderr).toBe(0);
    const apis = res.entries.find((e) => apiPath(e) === '/apis')!;
    expect(header(apis.request.headers, 'Accept')).toContain('apidiscovery.k8s.io');
    expect(res.stdout).toContain('configmaps');
    const ex = await through([kubectl!, '--context', 'local-admin', '--cache-dir', cache, 'explain', 'configmap.data']);
    expect(ex.code, ex.stderr).toBe(0);
    const openapi = ex.entries.filter((e) => apiPath(e)?.startsWith('/openapi/v3'));
    expect(openapi.length).toBeGreaterThan(0);
    expect(openapi.every((e) => e.response.status === 200)).toBe(true);
  });

  it('--as a viewer: the impersonation headers reach the server, which answers as it would directly', async () => {
    const as = `system:serviceaccount:${viewer.namespace}:reader`;
    const ok = await through([kubectl!, '--context', 'local-admin', '--as', as, '-n', viewer.namespace, 'get', 'configmaps', '-o', 'name']);
    expect(ok.code, ok.stderr).toBe(0);
    const list = ok.entries.find((e) => apiPath(e) === `/api/v1/namespaces/${viewer.namespace}/configmaps`)!;
    expect(header(list.request.headers, 'Impersonate-User')).toBe(as);
    const no = await through([kubectl!, '--context', 'local-admin', '--as', as, '-n', viewer.namespace, 'get', 'secrets']);
    expect(no.code).toBe(1);
    const refused = no.entries.find((e) => apiPath(e) === `/api/v1/namespaces/${viewer.namespace}/secrets`)!;
    expect(refused.response.status).toBe(403);
    expect(no.stderr).toContain(as);
  });

  it('exec is refused with a Status kubectl prints, and shown as refused', async () => {
    const pod = uniqueName('pod');
    await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/pods`, { metadata: { name: pod }, spec: { containers: [{ name: 'c', image: 'busybox' }] } });
    const r = await through([kubectl!, '--context', 'local-admin', '-n', ns, 'exec', pod, '--', 'true']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('--allow-exec');
    const exec = r.entries.filter((e) => apiPath(e).endsWith(`/pods/${pod}/exec`));
    expect(exec.length).toBeGreaterThan(0);
    expect(exec.every((e) => e.response.status === 403)).toBe(true);
  });

  it('refuses a request without the token, and journals nothing of it', async () => {
    const seen: XrayMessage[] = [];
    const ctl = new AbortController();
    const stream = await fetch(`${srv.url}proxy/xray/stream`, { headers: { 'X-Explorer-Token': srv.token }, signal: ctl.signal });
    const reader = stream.body!.getReader();
    let text = '';
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        const { value } = await reader.read();
        text += new TextDecoder().decode(value);
        let nl;
        while ((nl = text.indexOf('\n')) >= 0) {
          seen.push(JSON.parse(text.slice(0, nl)));
          text = text.slice(nl + 1);
        }
      }
    };
    await readUntil(() => seen.some((m) => m.type === 'live'));
    const path = `/local-admin/api/v1/namespaces/${ns}/configmaps?marker=${uniqueName('no-token')}`;
    const none = await endpointGet(path);
    const wrong = await endpointGet(path, `Bearer ${srv.token}`);
    expect([none.status, wrong.status]).toEqual([401, 401]);
    expect((JSON.parse(none.body) as { kind: string }).kind).toBe('Status');
    // Then one with the token: once it is in the stream, the two before it would have been too.
    const kc = JSON.parse(srv.xray!.kubeconfig()) as { users: { user: { token: string } }[] };
    const good = await endpointGet(`${path}&good=1`, `Bearer ${kc.users[0]!.user.token}`);
    expect(good.status).toBe(200);
    await readUntil(() => seen.some((m) => m.type === 'request' && m.path.endsWith('&good=1')));
    ctl.abort();
    const requests = seen.filter((m): m is Extract<XrayMessage, { type: 'request' }> => m.type === 'request' && m.path.includes('marker='));
    expect(requests.map((m) => m.path.endsWith('&good=1'))).toEqual([true]);
  });
});

type WatchEventJson = { type: string; object: { metadata: { name?: string; annotations?: Record<string, string> }; code?: number } };
const eventsOf = (e: HarEntry): WatchEventJson[] => (e._frames ?? []).map((f) => JSON.parse(f.text!) as WatchEventJson);
const isStreamingList = (e: HarEntry) => e._watch && e.request.queryString.some((q) => q.name === 'sendInitialEvents' && q.value === 'true');
const isInitialEventsEnd = (x: WatchEventJson) => x.type === 'BOOKMARK' && x.object.metadata.annotations?.['k8s.io/initial-events-end'] === 'true';

/**
 * Runs the informer through the endpoint until it has synced; then cuts its stream, creates a
 * ConfigMap and compacts etcd while it is cut off, and lets it reconnect until it has seen that
 * ConfigMap. Returns the run's recording and the name created while cut.
 */
async function informerRun(watchList: boolean): Promise<{ entries: HarEntry[]; later: string; first: string; beforeRv: string }> {
  const bin = await ensureXrayInformer({ kubernetesVersion: cp.kubernetesVersion });
  const space = await createNamespace(cluster, 'xray-informer');
  const first = uniqueName('seen');
  await cluster.request('admin', 'POST', `/api/v1/namespaces/${space}/configmaps`, { metadata: { name: first } });
  const run = await newRun([bin]);
  const child = spawn(bin, ['local-admin', space], { env: { ...process.env, KUBECONFIG: run.kubeconfig, KUBE_FEATURE_WatchListClient: String(watchList) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  try {
    await waitUntil('the informer synced', () => out.includes('SYNCED'), 60_000);
    // The watch that follows the list is open once the journal holds it (its response head came).
    // An event on the watch first: client-go takes a watch that ends with no event within a
    // second for a failure ("very short watch") and relists instead of resuming.
    const before = uniqueName('before-cut');
    const made = await cluster.request('admin', 'POST', `/api/v1/namespaces/${space}/configmaps`, { metadata: { name: before } });
    const beforeRv = (JSON.parse(made.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    await waitUntil('the informer saw an event on its watch', () => out.includes(`ADDED ${before}`));
    const resume = srv.xray!.cut();
    const later = uniqueName('while-cut');
    await cluster.request('admin', 'POST', `/api/v1/namespaces/${space}/configmaps`, { metadata: { name: later } });
    try {
      // Compacted, kube-apiserver's watch cache still serves a watch from beforeRv (it keeps its
      // own window of events; only reads that reach etcd meet 410), so the resume succeeds.
      await cluster.compact();
    } finally {
      resume();
    }
    await waitUntil('the informer saw what changed while it was cut off', () => out.includes(`ADDED ${later}`), 120_000);
    return { entries: await run.entries(), later, first, beforeRv };
  } finally {
    child.kill('SIGTERM');
    await run.end(null);
    await deleteNamespace(cluster, space);
  }
}

describe('a client-go informer through the X-ray endpoint', () => {
  it('with streaming lists: its streaming list up to the initial-events-end bookmark, and its resume after the explorer cut its watch', { timeout: 300_000 }, async () => {
    const { entries, first, later, beforeRv } = await informerRun(true);
    const streams = entries.filter(isStreamingList);
    const initial = eventsOf(streams[0]!);
    const end = initial.findIndex(isInitialEventsEnd);
    expect(end, JSON.stringify(initial)).toBeGreaterThan(0);
    expect(initial.slice(0, end).map((e) => [e.type, e.object.metadata.name])).toContainEqual(['ADDED', first]);
    // After the cut: the informer resumed its watch from the last resourceVersion it had (the
    // event before the cut), and got what was created while it was cut off.
    const resumed = entries.filter((e) => e._watch && !isStreamingList(e));
    expect(resumed.map((e) => e.request.queryString.find((q) => q.name === 'resourceVersion')?.value), JSON.stringify(entries.map((e) => e._apiPath))).toContain(beforeRv);
    expect(resumed.flatMap(eventsOf).map((e) => [e.type, e.object.metadata.name])).toContainEqual(['ADDED', later]);
  });
});

const hasPythonClient = spawnSync('python3', ['-c', 'import kubernetes'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!hasPythonClient)('the official Python client through the X-ray endpoint', () => {
  it('lists ConfigMaps: the recorded list is the one it printed', async () => {
    const name = uniqueName('py');
    await cluster.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name } });
    const script = `import json\nfrom kubernetes import client, config\nconfig.load_kube_config(context='local-admin')\nprint(json.dumps(sorted(c.metadata.name for c in client.CoreV1Api().list_namespaced_config_map('${ns}').items)))\n`;
    const r = await through(['python3', '-c', script]);
    expect(r.code, r.stderr).toBe(0);
    const list = r.entries.find((e) => apiPath(e) === `/api/v1/namespaces/${ns}/configmaps`)!;
    expect(header(list.request.headers, 'User-Agent')).toMatch(/^OpenAPI-Generator\/.*python/);
    const recorded = (JSON.parse(bodyOf(list)) as { items: { metadata: { name: string } }[] }).items.map((i) => i.metadata.name).sort();
    expect(recorded).toEqual(JSON.parse(r.stdout));
    expect(recorded).toContain(name);
  });
});

/** The `xray` command as a user runs it: its own process (tsx, as `npm run dev` runs the sources). */
function xrayProcess(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/entry.ts', 'xray', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((ok) => child.on('close', (code) => ok({ code, stdout, stderr })));
  return { child, exited };
}

describe.skipIf(!kubectl)('the xray command', () => {
  it('exits with the child’s code and message, leaves no kubeconfig behind, and saves the run with --har', { timeout: 60_000 }, async () => {
    const har = join(dir, 'missing.har');
    const { exited } = xrayProcess(['--kubeconfig', viewer.kubeconfig, '--context', 'local-admin', '--har', har, '--', 'sh', '-c', `echo "$KUBECONFIG"; exec "${kubectl}" -n ${ns} get configmap missing`]);
    const r = await exited;
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('configmaps "missing" not found');
    const file = r.stdout.trim();
    expect(file).toMatch(/kubeconfig$/);
    expect(existsSync(file)).toBe(false);
    const { entries, meta } = readRecordingLog(JSON.parse(readFileSync(har, 'utf8')));
    const get = entries.find((e) => e._apiPath.endsWith('/configmaps/missing'))!;
    expect(get.response.status).toBe(404);
    expect(meta?.runs?.[0]?.exitCode).toBe(1);
  });

  it('attached to a running explorer: the run shows there live, and Ctrl-C reaches the child', { timeout: 60_000 }, async () => {
    const label = `attach=${uniqueName('x')}`;
    const { child, exited } = xrayProcess(['--attach', endpointKubeconfig, '--context', 'local-admin', '--', kubectl!, '-n', ns, 'get', 'configmaps', '-w', '-l', label]);
    const watching = async () => {
      const h = await raw(srv.port, { path: '/proxy/xray/har', headers: { 'X-Explorer-Token': srv.token } });
      const log = JSON.parse(h.body.toString()) as { log: { entries: HarEntry[]; _recording: { runs: { id: string; argv?: string[] }[] } } };
      const run = log.log._recording.runs.find((x) => x.argv?.includes(label));
      return run !== undefined && log.log.entries.some((e) => e._run === run.id && e._watch && e.response.status === 200);
    };
    await waitUntil('the attached run’s watch in the explorer’s journal', watching, 30_000);
    child.kill('SIGINT');
    const r = await exited;
    // `kubectl get -w` never ends by itself: that it exited at all is the signal having reached it
    // (kubectl catches SIGINT and exits 1; a child killed by it would make xray exit 130).
    expect(r.code, r.stderr).toBe(1);
    const h = await raw(srv.port, { path: '/proxy/xray/har', headers: { 'X-Explorer-Token': srv.token } });
    const runs = (JSON.parse(h.body.toString()) as { log: { _recording: { runs: { argv?: string[]; endedAt?: string; exitCode?: number | null }[] } } }).log._recording.runs;
    expect(runs.find((x) => x.argv?.includes(label))).toMatchObject({ exitCode: 1, endedAt: expect.any(String) });
  });
});

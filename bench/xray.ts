// The X-ray endpoint's added latency (issue 45) against kubectl proxy's, in the same run: a small
// GET interleaved direct, through the explorer's long-lived X-ray endpoint (HTTPS, its bearer
// token, every request journaled) and through `kubectl proxy`, on one local control plane. The
// endpoint does more than kubectl proxy by design (TLS to the client, the journal), so the ratio
// says what watching a client costs it, per request.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startControlPlane } from '../proxy/cluster/controlplane';
import { kubectlOf } from '../proxy/cluster/build';
import { cpuMs } from './cpu';
import { client, percentile, startExplorer, startKubectlProxy } from './proxy';
import type { BenchResult } from './run';

const QUICK = process.env.PROXY_BENCH_QUICK === '1';
const REQUESTS = QUICK ? 30 : 2000;
const WARM_UP = QUICK ? 20 : 1000;
const ms = (x: number) => `${x.toFixed(3)} ms`;

export async function run(log: (line: string) => void): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'kube-explorer-bench-xray-'));
  const cp = await startControlPlane({ dir, controllerManager: false, aggregatedApi: false, log });
  const srv = await startExplorer(cp.kubeconfig, dir);
  const kp = await startKubectlProxy(kubectlOf(cp.binaries), cp.kubeconfig);
  try {
    const kc = JSON.parse(srv.xrayKubeconfig!) as { clusters: { name: string; cluster: { server: string; 'certificate-authority-data': string } }[]; users: { user: { token: string } }[] };
    const endpoint = kc.clusters.find((c) => c.name === 'xray/local-admin')!.cluster;
    const creds = cp.credentials('admin');
    const direct = client(httpsRequest, new URL(cp.server), new HttpsAgent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key }), {});
    const xray = client(httpsRequest, new URL(`${endpoint.server}/`), new HttpsAgent({ keepAlive: true, ca: Buffer.from(endpoint['certificate-authority-data'], 'base64').toString() }), { Authorization: `Bearer ${kc.users[0]!.user.token}` });
    const kubectl = client(httpRequest, new URL(kp.url), new HttpAgent({ keepAlive: true }), {});
    log(`kubernetes ${cp.kubernetesVersion}: direct ${cp.server} vs the X-ray endpoint ${endpoint.server} vs kubectl proxy ${kp.url} (all keep-alive)`);
    const small = '/api/v1/namespaces/default';
    const paths = [direct, xray, kubectl] as const;
    for (let i = 0; i < WARM_UP; i++) for (const send of paths) await send('GET', small);
    const times: number[][] = [[], [], []];
    const cpu0 = [cpuMs(srv.child.pid), cpuMs(kp.child.pid)];
    for (let i = 0; i < REQUESTS; i++) {
      for (let k = 0; k < paths.length; k++) {
        const t0 = performance.now();
        const r = await paths[k]!('GET', small);
        times[k]!.push(performance.now() - t0);
        if (r.status !== 200) throw new Error(`GET ${small}: ${r.status}`);
      }
    }
    const cpu1 = [cpuMs(srv.child.pid), cpuMs(kp.child.pid)];
    const [p50d, p50x, p50k] = times.map((t) => percentile(t, 50)) as [number, number, number];
    const perRequest = (i: number) => (cpu0[i] === undefined || cpu1[i] === undefined ? 'n/a' : `${(((cpu1[i]! - cpu0[i]!) * 1000) / REQUESTS).toFixed(0)} µs`);
    log(`small GET ${small} x${REQUESTS}: direct p50 ${ms(p50d)}; X-ray endpoint p50 ${ms(p50x)} p90 ${ms(percentile(times[1]!, 90))}; kubectl proxy p50 ${ms(p50k)} p90 ${ms(percentile(times[2]!, 90))}`);
    log(`small GET added p50: X-ray endpoint ${ms(p50x - p50d)}, kubectl proxy ${ms(p50k - p50d)}; CPU per request: explorer (X-ray) ${perRequest(0)}, kubectl proxy ${perRequest(1)}`);
    // Goal: near 1 (the endpoint adds about what kubectl proxy adds, TLS and the journal included).
    return { name: 'xray', ratios: { 'small GET added p50 X-ray endpoint/kubectl proxy': (p50x - p50d) / (p50k - p50d) } };
  } finally {
    srv.child.kill('SIGTERM');
    kp.child.kill('SIGTERM');
    await cp.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Fills a cluster with a large, realistic data set on demand (`npm run cluster -- --seed large`), so
// that the explorer can be tried and measured where other tools break: 150,000 Pods spread over
// namespaces, and 300 CustomResourceDefinitions.
//
// Writes go over one HTTP/2 connection with many streams in flight: kube-apiserver serves HTTP/2
// over TLS, and one connection avoids a TLS handshake per request and the per-connection limits of
// an HTTP/1.1 agent. The Pods are not scheduled (no kubelet, no scheduler here), so they stay
// Pending; a second write to each Pod's /status subresource gives it the conditions a real pending
// Pod carries, because a create resets `status` (the Pod strategy keeps only what it sets itself).
import { connect, type ClientHttp2Session, constants } from 'node:http2';
import type { Credentials } from './controlplane';

export interface SeedOptions {
  /** How many Pods in all (default 150,000). */
  pods: number;
  /** Spread over this many namespaces (default 150: 1,000 Pods each). */
  namespaces: number;
  /** How many CustomResourceDefinitions (default 300), spread over groups of ten kinds. */
  crds: number;
  /** Give each Pod a status (scheduling condition) through /status: one more write per Pod. */
  podStatus: boolean;
  /** Requests in flight on the HTTP/2 connection. */
  concurrency: number;
  /** Names start with this prefix (namespaces, CRD groups), so that a seed can be told apart and removed. */
  prefix: string;
  log: (line: string) => void;
}

export interface SeedReport {
  namespaces: number;
  pods: number;
  crds: number;
  /** Seconds per phase, as measured here. */
  seconds: { namespaces: number; crds: number; pods: number; total: number };
  /** Writes the server refused with 429 and that were retried. */
  retried: number;
}

export const SEED_PRESETS: Record<string, Partial<SeedOptions>> = {
  large: { pods: 150_000, namespaces: 150, crds: 300 },
  medium: { pods: 20_000, namespaces: 20, crds: 50 },
  small: { pods: 200, namespaces: 2, crds: 3 },
};

const DEFAULTS: SeedOptions = { ...(SEED_PRESETS.large as Pick<SeedOptions, 'pods' | 'namespaces' | 'crds'>), podStatus: true, concurrency: 64, prefix: 'seed', log: () => {} };

interface Reply { status: number; body: string; retryAfter?: number }

/** One HTTP/2 session to kube-apiserver, authenticated by the given client certificate. */
class Http2Client {
  private readonly session: ClientHttp2Session;
  retried = 0;

  constructor(server: string, creds: Credentials) {
    this.session = connect(server, { ca: creds.ca, cert: creds.cert, key: creds.key });
    this.session.on('error', () => {}); // each request reports its own failure
  }

  private once(method: string, path: string, body: unknown, contentType: string): Promise<Reply> {
    return new Promise((ok, fail) => {
      const req = this.session.request({ [constants.HTTP2_HEADER_METHOD]: method, [constants.HTTP2_HEADER_PATH]: path, 'content-type': contentType, accept: 'application/json', 'user-agent': 'kube-api-explorer-seed' });
      let status = 0;
      let retryAfter: number | undefined;
      const chunks: Buffer[] = [];
      req.on('response', (h) => {
        status = Number(h[constants.HTTP2_HEADER_STATUS]);
        const ra = h['retry-after'];
        if (typeof ra === 'string') retryAfter = Number(ra);
      });
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => ok({ status, body: Buffer.concat(chunks).toString('utf8'), retryAfter }));
      req.on('error', fail);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  }

  /** Sends a request; a 429 (API Priority and Fairness sheds load) is retried after its Retry-After. */
  async send(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Reply> {
    for (let attempt = 0; ; attempt++) {
      const r = await this.once(method, path, body, contentType);
      if (r.status !== 429 || attempt >= 20) return r;
      this.retried++;
      await new Promise((ok) => setTimeout(ok, Math.min(5, r.retryAfter ?? 1) * 1000));
    }
  }

  close(): void {
    this.session.close();
  }
}

/** Runs `work(i)` for i in [0, n) with at most `concurrency` in flight; the first failure stops it. */
async function pool(n: number, concurrency: number, work: (i: number) => Promise<void>, progress?: (done: number) => void): Promise<void> {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) {
        const i = next++;
        await work(i);
        done++;
        if (progress && done % 5000 === 0) progress(done);
      }
    }),
  );
}

const expect = (what: string, r: Reply, ok: number[]) => {
  if (!ok.includes(r.status)) throw new Error(`${what}: HTTP ${r.status} ${r.body.slice(0, 300)}`);
};

export const seedNamespace = (prefix: string, i: number) => `${prefix}-ns-${String(i).padStart(4, '0')}`;
export const seedGroup = (prefix: string, g: number) => `${prefix}-g${String(g).padStart(3, '0')}.explorer.example.com`;

/** A Pod as a real workload's would look: three containers, env, resources, probes, labels. */
export function seedPod(name: string, i: number): Record<string, unknown> {
  const app = `app-${i % 97}`;
  const container = (n: string, image: string, port: number) => ({
    name: n,
    image,
    ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }],
    env: Array.from({ length: 6 }, (_, k) => ({ name: `${n.toUpperCase().replace(/-/g, '_')}_SETTING_${k}`, value: `value-${i}-${k}` })),
    resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    readinessProbe: { httpGet: { path: '/healthz', port }, periodSeconds: 10 },
  });
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      labels: { app, 'app.kubernetes.io/part-of': `system-${i % 13}`, tier: ['web', 'api', 'worker'][i % 3]!, index: String(i) },
      annotations: { 'explorer.example.com/seed': 'large', 'explorer.example.com/owner-team': `team-${i % 17}` },
    },
    spec: {
      containers: [container('main', `registry.example.com/${app}:1.${i % 40}.0`, 8080), container('sidecar-proxy', 'registry.example.com/proxy:2.4.1', 15001), container('log-shipper', 'registry.example.com/shipper:0.9.3', 2020)],
      terminationGracePeriodSeconds: 30,
      tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'NoSchedule' }],
    },
  };
}

/** The status a Pod that no scheduler placed carries (what kube-scheduler writes on a failed attempt). */
const pendingStatus = {
  status: {
    phase: 'Pending',
    conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/0 nodes are available: no nodes available to schedule pods.', lastTransitionTime: '2026-11-26T00:00:00Z' }],
  },
};

/** A CRD with a schema of realistic depth, an int64 field, a keyed list and printer columns. */
export function seedCrd(group: string, kind: string): Record<string, unknown> {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        additionalPrinterColumns: [{ name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' }, { name: 'Phase', type: 'string', jsonPath: '.status.phase' }],
        schema: { openAPIV3Schema: { type: 'object', properties: {
          spec: { type: 'object', properties: {
            replicas: { type: 'integer', format: 'int64' },
            image: { type: 'string' },
            selector: { type: 'object', additionalProperties: { type: 'string' } },
            ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } } },
            settings: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
          } },
          status: { type: 'object', properties: { phase: { type: 'string' }, observedGeneration: { type: 'integer', format: 'int64' } } },
        } } },
      }],
    },
  };
}

/** What makes a seed impossible, checked before anything is written (seedCluster checks it too). */
export function seedProblem(o: Partial<Pick<SeedOptions, 'pods' | 'namespaces'>>): string | undefined {
  if ((o.pods ?? 0) > 0 && (o.namespaces ?? 1) < 1) return `seed: ${o.pods} Pods need at least one namespace (--seed-namespaces 0)`;
  return undefined;
}

/** Fills the cluster at `server` as `creds`' user; reports how long each phase took. */
export async function seedCluster(server: string, creds: Credentials, options: Partial<SeedOptions> = {}): Promise<SeedReport> {
  const o: SeedOptions = { ...DEFAULTS, ...options };
  const problem = seedProblem(o);
  if (problem) throw new Error(problem);
  const client = new Http2Client(server, creds);
  const t0 = performance.now();
  const since = (t: number) => Math.round((performance.now() - t) / 100) / 10;
  try {
    o.log(`seeding ${o.pods.toLocaleString('en-US')} Pods in ${o.namespaces} namespaces and ${o.crds} CRDs (prefix ${o.prefix}, ${o.concurrency} requests in flight)…`);
    let t = performance.now();
    await pool(o.namespaces, o.concurrency, async (i) => {
      const ns = seedNamespace(o.prefix, i);
      expect(`namespace ${ns}`, await client.send('POST', '/api/v1/namespaces', { metadata: { name: ns, labels: { 'explorer.example.com/seed': o.prefix } } }), [201, 409]);
      // The ServiceAccount admission plugin refuses Pods whose service account does not exist; the
      // controller manager creates `default` in new namespaces, but it may not run (or not yet).
      expect(`serviceaccount ${ns}/default`, await client.send('POST', `/api/v1/namespaces/${ns}/serviceaccounts`, { metadata: { name: 'default' } }), [201, 409]);
    });
    const nsSeconds = since(t);
    o.log(`  ${o.namespaces} namespaces in ${nsSeconds} s`);

    t = performance.now();
    const kinds = ['Widget', 'Gadget', 'Sprocket', 'Gear', 'Lever', 'Pulley', 'Valve', 'Spring', 'Bolt', 'Rivet'];
    // CRDs in few flights: each one makes kube-apiserver build its handlers and merge its schema
    // into the OpenAPI documents, which is the slow part, not the write.
    await pool(o.crds, Math.min(8, o.concurrency), async (i) => {
      const crd = seedCrd(seedGroup(o.prefix, Math.floor(i / kinds.length)), kinds[i % kinds.length]!);
      expect(`CRD ${(crd.metadata as { name: string }).name}`, await client.send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd), [201, 409]);
    }, (n) => o.log(`  … ${n} CRDs`));
    const crdSeconds = since(t);
    o.log(`  ${o.crds} CRDs in ${crdSeconds} s`);

    t = performance.now();
    const perNs = Math.ceil(o.pods / Math.max(1, o.namespaces));
    await pool(o.pods, o.concurrency, async (i) => {
      const ns = seedNamespace(o.prefix, Math.floor(i / perNs));
      const name = `pod-${String(i).padStart(6, '0')}`;
      expect(`pod ${ns}/${name}`, await client.send('POST', `/api/v1/namespaces/${ns}/pods`, seedPod(name, i)), [201, 409]);
      if (o.podStatus) {
        expect(`pod ${ns}/${name} status`, await client.send('PATCH', `/api/v1/namespaces/${ns}/pods/${name}/status`, pendingStatus, 'application/merge-patch+json'), [200]);
      }
    }, (n) => o.log(`  … ${n.toLocaleString('en-US')} Pods (${Math.round(n / ((performance.now() - t) / 1000))}/s)`));
    const podSeconds = since(t);
    o.log(`  ${o.pods.toLocaleString('en-US')} Pods in ${podSeconds} s`);
    const report: SeedReport = { namespaces: o.namespaces, pods: o.pods, crds: o.crds, seconds: { namespaces: nsSeconds, crds: crdSeconds, pods: podSeconds, total: since(t0) }, retried: client.retried };
    o.log(`seeded in ${report.seconds.total} s (${report.retried} writes retried after 429)`);
    return report;
  } finally {
    client.close();
  }
}

/** Removes what {@link seedCluster} made with this prefix: its namespaces (and so its Pods) and CRDs. */
export async function unseedCluster(server: string, creds: Credentials, prefix: string): Promise<void> {
  const client = new Http2Client(server, creds);
  try {
    const sel = encodeURIComponent(`explorer.example.com/seed=${prefix}`);
    const nss = JSON.parse((await client.send('GET', `/api/v1/namespaces?labelSelector=${sel}`)).body) as { items?: { metadata: { name: string } }[] };
    for (const n of nss.items ?? []) await client.send('DELETE', `/api/v1/namespaces/${n.metadata.name}`);
    const crds = JSON.parse((await client.send('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions')).body) as { items?: { metadata: { name: string }; spec: { group: string } }[] };
    for (const c of crds.items ?? []) if (c.spec.group.startsWith(`${prefix}-g`)) await client.send('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${c.metadata.name}`);
  } finally {
    client.close();
  }
}

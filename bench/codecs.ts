// Wire formats at scale, in one run against one real local control plane: the same list of
// 10,000 Pods read as JSON, Protobuf and CBOR (one resourceVersion), then decoded to the JSON
// form by the explorer's codec modules. Baseline: JSON.parse of the JSON bytes (with their UTF-8
// decoding), measured in the same run. Reports median decode times, bytes on the wire (and
// gzipped), and the ratios; the goal is Protobuf ≤ 0.6× JSON.parse.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startControlPlane } from '../proxy/cluster/controlplane';
import { decodeCbor } from '../src/codecs/cbor';
import { decodeK8sObject, loadK8sSchema } from '../src/codecs/protobuf';
import { decodeStudy } from './decodeStudy';
import type { BenchResult } from './run';

const PODS = Number(process.env.CODECS_BENCH_OBJECTS ?? 10_000);
const CONCURRENCY = 16;
const REPEATS = 7;
const NS = 'bench-codecs';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function pod(i: number): unknown {
  const name = `pod-${String(i).padStart(6, '0')}`;
  return {
    metadata: { name, labels: { app: 'bench', shard: String(i % 16) }, annotations: { 'example.com/index': String(i) } },
    spec: {
      containers: [
        {
          name: 'app',
          image: 'registry.k8s.io/pause:3.10',
          args: ['--index', String(i)],
          ports: [{ name: 'http', containerPort: 8080 }],
          env: [{ name: 'INDEX', value: String(i) }],
          resources: { requests: { cpu: '10m', memory: '16Mi' } },
          readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 10 },
        },
      ],
      terminationGracePeriodSeconds: 0,
    },
  };
}

interface ListBytes {
  json: Uint8Array;
  protobuf: Uint8Array;
  cbor: Uint8Array;
}

// CODECS_BENCH_BYTES=DIR keeps the three bodies of one capture in DIR and reads them from there on
// later runs (byte-exact server output, without seeding 10,000 Pods again).
const SAVED = process.env.CODECS_BENCH_BYTES;
const FILES = { json: 'pods.json', protobuf: 'pods.pb', cbor: 'pods.cbor' } as const;

export async function run(log: (line: string) => void): Promise<BenchResult> {
  let bytes: ListBytes;
  if (SAVED && existsSync(join(SAVED, FILES.protobuf))) {
    bytes = { json: readFileSync(join(SAVED, FILES.json)), protobuf: readFileSync(join(SAVED, FILES.protobuf)), cbor: readFileSync(join(SAVED, FILES.cbor)) };
    log(`read the list of ${SAVED} (captured earlier)`);
  } else {
    bytes = await capture(log);
    if (SAVED) {
      mkdirSync(SAVED, { recursive: true });
      for (const k of ['json', 'protobuf', 'cbor'] as const) writeFileSync(join(SAVED, FILES[k]), bytes[k]);
    }
  }
  const ratios = await measure(bytes, log);
  return { name: 'codecs', ratios: { ...ratios, ...(await decodeStudy(bytes.json, bytes.protobuf, log)) } };
}

/** Seeds PODS Pods in a fresh control plane and reads one resourceVersion of their list in each format. */
async function capture(log: (line: string) => void): Promise<ListBytes> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-codecs-'));
  const cp = await startControlPlane({ dir, controllerManager: false, aggregatedApi: false, log: () => undefined });
  const creds = cp.credentials('admin');
  const agent = new HttpsAgent({ keepAlive: true, ca: creds.ca, cert: creds.cert, key: creds.key });
  const base = new URL(cp.server);
  const call = (method: string, path: string, accept: string, body?: unknown) =>
    new Promise<{ status: number; bytes: Buffer }>((ok, fail) => {
      const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
      const req = httpsRequest({ hostname: base.hostname, port: base.port, method, path, agent, headers: { Accept: accept, ...(data ? { 'Content-Type': 'application/json' } : {}) } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
        res.on('error', fail);
      });
      req.on('error', fail);
      req.end(data);
    });
  try {
    await call('POST', '/api/v1/namespaces', 'application/json', { metadata: { name: NS } });
    // The ServiceAccount admission plugin wants the namespace's default ServiceAccount, which
    // kube-controller-manager (not started here) would create.
    await call('POST', `/api/v1/namespaces/${NS}/serviceaccounts`, 'application/json', { metadata: { name: 'default' } });
    const t0 = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < PODS) {
          const i = next++;
          const r = await call('POST', `/api/v1/namespaces/${NS}/pods`, 'application/json', pod(i));
          if (r.status !== 201) throw new Error(`create pod ${i}: ${r.status} ${r.bytes.toString()}`);
        }
      }),
    );
    log(`created ${PODS.toLocaleString('en-US')} Pods in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

    const path = `/api/v1/namespaces/${NS}/pods`;
    const jsonRes = await call('GET', path, 'application/json');
    const rv = (JSON.parse(jsonRes.bytes.toString()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const at = `${path}?resourceVersion=${rv}&resourceVersionMatch=Exact`;
    const [json, pb, cbor] = await Promise.all([call('GET', at, 'application/json'), call('GET', at, 'application/vnd.kubernetes.protobuf'), call('GET', at, 'application/cbor')]);
    for (const [n, r] of [['json', json], ['protobuf', pb], ['cbor', cbor]] as const) if (r.status !== 200) throw new Error(`GET ${n}: ${r.status}`);
    return { json: new Uint8Array(json!.bytes), protobuf: new Uint8Array(pb!.bytes), cbor: new Uint8Array(cbor!.bytes) };
  } finally {
    agent.destroy();
    await cp.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure({ json: jsonBytes, protobuf: pbBytes, cbor: cborBytes }: ListBytes, log: (line: string) => void): Promise<Record<string, number>> {
  {

    const schema = await loadK8sSchema();
    const utf8 = new TextDecoder();
    const decoders: [string, () => unknown][] = [
      ['JSON.parse', () => JSON.parse(utf8.decode(jsonBytes))],
      ['protobuf', () => {
        const d = decodeK8sObject(schema, pbBytes);
        if (!d.ok) throw new Error(d.error);
        return d.value.object;
      }],
      ['cbor', () => {
        const d = decodeCbor(cborBytes);
        if (!d.ok) throw new Error(d.error);
        return d.value;
      }],
    ];
    // The three must agree before their times mean anything.
    const reference = JSON.stringify(sortKeys(decoders[0]![1]()));
    for (const [n, f] of decoders.slice(1)) if (JSON.stringify(sortKeys(f())) !== reference) throw new Error(`${n} does not decode to the JSON form`);
    const times: Record<string, number[]> = {};
    for (let r = 0; r < REPEATS; r++) {
      // Interleaved, so that load from other processes hits all three alike.
      for (const [n, f] of decoders) {
        const s = performance.now();
        f();
        (times[n] ??= []).push(performance.now() - s);
      }
    }
    const ms = Object.fromEntries(Object.entries(times).map(([n, xs]) => [n, median(xs)]));
    const sizes = { json: jsonBytes.length, protobuf: pbBytes.length, cbor: cborBytes.length };
    const gz = { json: gzipSync(jsonBytes).length, protobuf: gzipSync(pbBytes).length, cbor: gzipSync(cborBytes).length };
    for (const [n, t] of Object.entries(ms)) log(`decode ${n}: ${t.toFixed(1)} ms (median of ${REPEATS})`);
    for (const n of ['json', 'protobuf', 'cbor'] as const) log(`bytes ${n}: ${sizes[n].toLocaleString('en-US')} (gzip ${gz[n].toLocaleString('en-US')})`);
    return {
        'protobuf decode / JSON.parse (goal <= 0.6)': ms.protobuf! / ms['JSON.parse']!,
        'cbor decode / JSON.parse': ms.cbor! / ms['JSON.parse']!,
        'protobuf bytes / json bytes': sizes.protobuf / sizes.json,
        'cbor bytes / json bytes': sizes.cbor / sizes.json,
        'protobuf gzip / json gzip': gz.protobuf / gz.json,
        'cbor gzip / json gzip': gz.cbor / gz.json,
    };
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

// `npx tsx bench/codecs.ts` runs this module alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await run((l) => console.log(l));
  for (const [k, v] of Object.entries(r.ratios)) console.log(`${r.name}: ${k} = ${v.toFixed(3)}`);
}

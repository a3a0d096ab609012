// How close to JSON.parse can a schema-driven Protobuf decoder get in the browser (issue 32)?
// On the same captured list of Pods (JSON and Protobuf bytes of one resourceVersion), in
// interleaved rounds, medians, each as a ratio against JSON.parse (with its UTF-8 decoding) of the
// same round:
// - walking: the console's decoder before this study (reader.ts walks the protobufjs descriptor);
// - compiled: decoders written out at build time by tools/generate-decoders.ts (plain code, no
//   eval, so allowed by the page's Content-Security-Policy), which decodeK8sObject now uses;
// - lazy: only what a list view needs (ListMeta, each item's ObjectMeta, the item bytes kept),
//   then the cost when every item is opened afterwards; and rows without managedFields;
// - in a worker (worker_threads: the same V8 structured clone as a browser's Worker): the whole
//   JSON form posted back, or only the lazy rows (with or without managedFields); main-thread time (event-loop active time, which
//   includes deserializing the message) and end to end. The body is transferred to the worker;
//   in the page the worker would fetch it itself, so copying it is not counted.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { decodeK8sEnvelope, decodeK8sListLazily, decodeK8sObject, loadK8sSchema, openLazyItem } from '../src/codecs/protobuf';
import { compiledDecoders } from '../src/codecs/protobuf/compiled';
import type { WorkerAsk } from './decodeWorker';

const ROUNDS = Number(process.env.CODECS_STUDY_ROUNDS ?? 7);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}
const same = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));

async function startWorker(): Promise<{ worker: Worker; ask: (m: WorkerAsk, transfer?: ArrayBuffer[]) => Promise<unknown>; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-decode-worker-'));
  const outfile = join(dir, 'worker.mjs');
  await build({ entryPoints: [fileURLToPath(new URL('./decodeWorker.ts', import.meta.url))], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', logLevel: 'warning' });
  const worker = new Worker(outfile);
  await new Promise((ok, fail) => {
    worker.once('message', ok);
    worker.once('error', fail);
  });
  const ask = (m: WorkerAsk, transfer: ArrayBuffer[] = []) =>
    new Promise<unknown>((ok, fail) => {
      const done = (v: unknown) => {
        worker.off('error', failed);
        ok(v);
      };
      const failed = (e: unknown) => {
        worker.off('message', done);
        fail(e);
      };
      worker.once('message', done);
      worker.once('error', failed);
      worker.postMessage(m, transfer);
    });
  return { worker, ask, dir };
}

/** Runs `f` and reports its wall time and the main thread's event-loop active time over it. */
async function timed(f: () => Promise<unknown>): Promise<{ wall: number; main: number; value: unknown }> {
  await new Promise((ok) => setImmediate(ok));
  const e0 = performance.eventLoopUtilization();
  const s = performance.now();
  const value = await f();
  const wall = performance.now() - s;
  await new Promise((ok) => setImmediate(ok));
  return { wall, main: performance.eventLoopUtilization(performance.eventLoopUtilization(), e0).active, value };
}

export async function decodeStudy(jsonBytes: Uint8Array, pbBytes: Uint8Array, log: (line: string) => void): Promise<Record<string, number>> {
  const schema = await loadK8sSchema();
  // The same schema without its compiled decoders: the descriptor walk alone, as before them.
  const walkingSchema = { ...schema, compiled: undefined };
  const utf8 = new TextDecoder();
  const parse = () => JSON.parse(utf8.decode(jsonBytes)) as { items: { metadata: unknown }[] };
  const walking = () => {
    const d = decodeK8sObject(walkingSchema, pbBytes);
    if (!d.ok) throw new Error(d.error);
    return d.value.object;
  };
  const compiled = () => {
    const env = decodeK8sEnvelope(pbBytes);
    if (!env.ok) throw new Error(env.error);
    const { apiVersion, kind, raw } = env.value;
    return { kind, apiVersion, ...(compiledDecoders['k8s.io.api.core.v1.PodList']!(raw) as object) };
  };
  const lazy = () => {
    const d = decodeK8sListLazily(schema, pbBytes);
    if (!d.ok) throw new Error(d.error);
    return d.value;
  };
  const rowsOnly = () => {
    const d = decodeK8sListLazily(schema, pbBytes, { managedFields: false });
    if (!d.ok) throw new Error(d.error);
    return d.value;
  };
  const { worker, ask, dir } = await startWorker();
  // A copy to transfer (a Node Buffer's slice() would share, and transferring would detach, the original).
  const body = () => new Uint8Array(pbBytes).buffer as ArrayBuffer;
  try {
    // Every decoder must give the JSON form before its time means anything.
    const reference = parse();
    if (!same(walking(), reference)) throw new Error('walking decoder differs from JSON');
    if (!same(compiled(), reference)) throw new Error('compiled decoder differs from JSON');
    const l = lazy();
    if (!same(l.items.map((i) => i.metadata), reference.items.map((i) => i.metadata))) throw new Error('lazy metadata differs from JSON');
    if (!same(l.items.map((i) => openLazyItem(schema, l, i)), reference.items)) throw new Error('lazy items differ from JSON');
    const b0 = body();
    if (!same(await ask({ mode: 'full', body: b0 }, [b0]), reference)) throw new Error('worker result differs from JSON');

    // What receiving a message costs the main thread, alone: V8's deserializer (the one
    // postMessage uses) on the whole result, and on the lazy rows.
    const fullClone = serialize(compiled());
    const rowsClone = serialize({ metadata: l.metadata, rows: l.items.map((i) => i.metadata) });
    const t: Record<string, number[]> = {};
    const put = (k: string, v: number) => (t[k] ??= []).push(v);
    const sync = (k: string, f: () => unknown) => {
      const s = performance.now();
      f();
      put(k, performance.now() - s);
    };
    for (let r = 0; r < ROUNDS; r++) {
      // Interleaved, so that load from other processes hits all alike.
      sync('JSON.parse', parse);
      sync('walking', walking);
      sync('compiled', compiled);
      let list = lazy();
      sync('lazy first', () => (list = lazy()));
      sync('lazy rows without managedFields', rowsOnly);
      sync('lazy open all', () => list.items.forEach((i) => openLazyItem(schema, list, i)));
      const [bf, bl, br] = [body(), body(), body()];
      const full = await timed(() => ask({ mode: 'full', body: bf }, [bf]));
      put('worker full: main', full.main);
      put('worker full: end to end', full.wall);
      const rows = await timed(() => ask({ mode: 'lazy', body: bl }, [bl]));
      put('worker lazy rows: main', rows.main);
      put('worker lazy rows: end to end', rows.wall);
      const slim = await timed(() => ask({ mode: 'rows', body: br }, [br]));
      put('worker rows without managedFields: main', slim.main);
      put('worker rows without managedFields: end to end', slim.wall);
      sync('deserialize whole result', () => deserialize(fullClone));
      sync('deserialize lazy rows', () => deserialize(rowsClone));
      const one = await timed(() => ask({ mode: 'open', index: r }));
      put('worker open one item: end to end', one.wall);
    }
    const ms = Object.fromEntries(Object.entries(t).map(([k, xs]) => [k, median(xs)]));
    for (const [k, v] of Object.entries(ms)) log(`study ${k}: ${v.toFixed(1)} ms (median of ${ROUNDS})`);
    const base = ms['JSON.parse']!;
    const ratio = (k: string) => ms[k]! / base;
    return {
      'study: descriptor walk (before) / JSON.parse': ratio('walking'),
      'study: compiled decoder / JSON.parse': ratio('compiled'),
      'study: lazy list (metadata only) / JSON.parse': ratio('lazy first'),
      'study: lazy list, rows without managedFields / JSON.parse': ratio('lazy rows without managedFields'),
      'study: lazy list, then every item opened / JSON.parse': (ms['lazy first']! + ms['lazy open all']!) / base,
      'study: worker, whole result cloned back: main thread / JSON.parse': ratio('worker full: main'),
      'study: worker, whole result cloned back: end to end / JSON.parse': ratio('worker full: end to end'),
      'study: worker, lazy rows cloned back: main thread / JSON.parse': ratio('worker lazy rows: main'),
      'study: worker, lazy rows cloned back: end to end / JSON.parse': ratio('worker lazy rows: end to end'),
      'study: worker, rows without managedFields cloned back: main thread / JSON.parse': ratio('worker rows without managedFields: main'),
      'study: worker, rows without managedFields cloned back: end to end / JSON.parse': ratio('worker rows without managedFields: end to end'),
      'study: structured-clone deserialize of the whole result / JSON.parse': ratio('deserialize whole result'),
      'study: structured-clone deserialize of the lazy rows / JSON.parse': ratio('deserialize lazy rows'),
    };
  } finally {
    await worker.terminate();
    rmSync(dir, { recursive: true, force: true });
  }
}

// `CODECS_BENCH_BYTES=DIR npx tsx bench/decodeStudy.ts` runs the study alone on a list bench/codecs.ts saved in DIR.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { readFileSync } = await import('node:fs');
  const dir = process.env.CODECS_BENCH_BYTES;
  if (!dir) throw new Error('set CODECS_BENCH_BYTES to a directory bench/codecs.ts saved a list in');
  const r = await decodeStudy(readFileSync(join(dir, 'pods.json')), readFileSync(join(dir, 'pods.pb')), (l) => console.log(l));
  for (const [k, v] of Object.entries(r)) console.log(`codecs: ${k} = ${v.toFixed(3)}`);
}

// The worker side of the decode study (bench/decodeStudy.ts): decodes a Protobuf list body it is
// handed (transferred, not copied) and posts back either the whole JSON form (a structured clone)
// or only what a list view needs (each item's metadata), keeping the item bytes here to decode
// one item when asked.
import { parentPort } from 'node:worker_threads';
import { decodeK8sEnvelope, decodeK8sListLazily, type LazyList, loadK8sSchema, openLazyItem } from '../src/codecs/protobuf';
import { compiledDecoders } from '../src/codecs/protobuf/compiled';


export type WorkerAsk = { mode: 'full' | 'lazy' | 'rows'; body: ArrayBuffer } | { mode: 'open'; index: number };

const schema = await loadK8sSchema();
let kept: LazyList | undefined;

parentPort!.on('message', (ask: WorkerAsk) => {
  if (ask.mode === 'open') {
    parentPort!.postMessage(openLazyItem(schema, kept!, kept!.items[ask.index]!));
    return;
  }
  const body = new Uint8Array(ask.body);
  if (ask.mode === 'full') {
    const env = decodeK8sEnvelope(body);
    if (!env.ok) throw new Error(env.error);
    const { apiVersion, kind, raw } = env.value;
    parentPort!.postMessage({ kind, apiVersion, ...(compiledDecoders['k8s.io.api.core.v1.PodList']!(raw) as object) });
    return;
  }
  // 'rows': each item's metadata without managedFields (what a row shows).
  const d = decodeK8sListLazily(schema, body, { managedFields: ask.mode !== 'rows' });
  if (!d.ok) throw new Error(d.error);
  kept = d.value;
  parentPort!.postMessage({ metadata: d.value.metadata, rows: d.value.items.map((i) => i.metadata) });
});
parentPort!.postMessage('ready');

// The page's copy of the X-ray journal: the proxy's stream (protocol/xray.ts, NDJSON of
// XrayMessage) read with fetch and folded into exchanges of the recording's shape, so that the
// console's inspector and decoders show them as they show the page's own. One store for the tab,
// opened while the Clients view is mounted; React reads it through useSyncExternalStore.
import { fromBase64 } from '../../codecs/base64';
import { NdjsonFramer } from '../../codecs/ndjson';
import type { HeaderList } from '../../k8s/client';
import type { RecordedChunk } from '../../k8s/record';
import { proxyFetch } from '../../k8s/client';
import { Listeners } from '../../lib/listeners';
import { sleep } from '../../lib/sleep';
import { XRAY_STREAM_PATH, type XrayBytes, type XrayEndpointInfo, type XrayHeaders, type XrayMessage, type XrayRun } from '../../../protocol/xray';
import { XrayJournal, type XrayExchange as JournalExchange } from '../../../protocol/xrayJournal';
import type { XrayExchange } from './model';

export interface JournalSnapshot {
  /** connecting: asked, no answer yet; replaying: the journal as kept is arriving; live: what follows happens now. */
  state: 'idle' | 'connecting' | 'replaying' | 'live' | 'unavailable';
  /** Why the stream is not there (the proxy refused it, the explorer stopped). */
  problem?: string;
  info?: XrayEndpointInfo;
  runs: ReadonlyMap<string, XrayRun>;
  /** In the order the requests arrived. The array is new at each change; an exchange object is too when it changed. */
  exchanges: readonly XrayExchange[];
  /** Exchanges the proxy's journal forgot (its memory budget) since the page connected. */
  forgotten: number;
}

const headerList = (h: XrayHeaders): HeaderList => h.map(({ name, value }) => [name, value]);
const bytesOf = (b: XrayBytes): Uint8Array => (b.base64 !== undefined ? fromBase64(b.base64) : new TextEncoder().encode(b.text ?? ''));

/** Each journal exchange's chunks as bytes, decoded on first read and extended as chunks arrive. */
const decodedChunks = new WeakMap<JournalExchange, RecordedChunk[]>();
function chunksOf(j: JournalExchange): RecordedChunk[] {
  let out = decodedChunks.get(j);
  if (!out) decodedChunks.set(j, (out = []));
  for (let i = out.length; i < j.chunks.length; i++) out.push({ at: j.chunks[i]!.at, bytes: bytesOf(j.chunks[i]!.body) });
  return out;
}

/**
 * The journal's exchange (protocol/xrayJournal.ts, the proxy's and the page's one reducer) in the
 * recording's shape the console's inspector reads. The bodies are decoded only when read (the
 * exchange shown): opening the view on thousands of exchanges decodes none of them.
 */
function viewOf(j: JournalExchange): XrayExchange {
  const upTo = j.chunks.length;
  let chunks: RecordedChunk[] | undefined;
  const body = j.requestBody;
  const x: XrayExchange = {
    id: j.id,
    run: j.run,
    context: j.context,
    startedAt: new Date(j.startedAt).toISOString(),
    request: { method: j.method, path: j.path, headers: headerList(j.headers), ...(body ? (body.base64 !== undefined ? { bodyBytes: bytesOf(body), body: '' } : { body: body.text ?? '' }) : {}) },
    timings: {},
    watch: j.watch,
    source: 'live',
    // The recording's shape names how the request reached the proxy; the view never reads it.
    via: 'http',
    get chunks() {
      return (chunks ??= chunksOf(j).slice(0, upTo));
    },
  };
  if (body?.cut) x.requestCut = { size: body.size };
  if (j.response) {
    x.response = { status: j.response.status, statusText: j.response.statusText, headers: headerList(j.response.headers), body: new Uint8Array() };
    x.timings.upstreamMs = j.response.at - j.startedAt;
    if (j.response.refused) x.refused = true;
  }
  const end = j.end;
  if (end) {
    x.endedAt = end.at;
    x.timings.totalMs = end.at - j.startedAt;
    x.totals = { bytes: end.bytes, chunks: end.chunks, ...(end.wireBytes !== undefined ? { wireBytes: end.wireBytes } : {}) };
    x.closedBy = end.closedBy;
    if (end.cut) x.cut = true;
    if (end.closedBy === 'client') x.closedByReader = true;
    if (end.error) x.error = end.error;
    if (end.upgrade) x.upgrade = end.upgrade;
  }
  return x;
}

/**
 * The journal as the view reads it: the shared reducer fed the stream's messages, and each
 * exchange's view (viewOf) rebuilt only when a message named it.
 */
export class JournalModel {
  journal = new XrayJournal();
  info?: XrayEndpointInfo;
  forgotten = 0;
  private views = new Map<string, XrayExchange>();
  private stale = new Set<string>();
  private list: XrayExchange[] = [];
  private dirty = false;

  apply(m: XrayMessage): void {
    if (m.type === 'hello') {
      // A new stream replays the journal whole: start again from it.
      this.journal = new XrayJournal();
      this.views.clear();
      this.info = m.info;
      this.forgotten = 0;
    }
    if (m.type === 'forget') this.forgotten += m.ids.filter((id) => this.journal.exchanges.has(id)).length;
    this.journal.apply(m);
    if ('id' in m && typeof m.id === 'string') this.stale.add(m.id);
    this.dirty = true;
  }

  /** The exchanges in arrival order; the same array until a message changed something. */
  exchanges(): XrayExchange[] {
    if (!this.dirty) return this.list;
    this.dirty = false;
    const out: XrayExchange[] = [];
    for (const j of this.journal.exchanges.values()) {
      let v = this.views.get(j.id);
      if (!v || this.stale.has(j.id)) this.views.set(j.id, (v = viewOf(j)));
      out.push(v);
    }
    this.stale.clear();
    for (const id of this.views.keys()) if (!this.journal.exchanges.has(id)) this.views.delete(id);
    this.list = out;
    return out;
  }
}

class JournalStore {
  private readonly model = new JournalModel();
  private readonly listeners = new Listeners();
  private snap: JournalSnapshot = { state: 'idle', runs: new Map(), exchanges: [], forgotten: 0 };
  private state: JournalSnapshot['state'] = 'idle';
  private problem?: string;
  private users = 0;
  private abort?: AbortController;
  private pending = false;

  subscribe = (l: () => void): (() => void) => {
    const off = this.listeners.subscribe(l);
    if (++this.users === 1) this.open();
    return () => {
      off();
      // The stream stays open only while a view reads it.
      if (--this.users === 0) {
        this.abort?.abort();
        this.abort = undefined;
      }
    };
  };

  snapshot = (): JournalSnapshot => this.snap;

  /**
   * At most one snapshot per frame: a burst of chunks (a watch, a large list) redraws once. While
   * the kept journal is replayed, a few per second: each redraw costs O(exchanges), and thousands
   * arrive in that burst.
   */
  private changed(): void {
    if (this.pending) return;
    this.pending = true;
    setTimeout(() => {
      this.pending = false;
      const m = this.model;
      this.snap = { state: this.state, ...(this.problem ? { problem: this.problem } : {}), ...(m.info ? { info: m.info } : {}), runs: new Map(m.journal.runs), exchanges: m.exchanges(), forgotten: m.forgotten };
      this.listeners.emit();
    }, this.state === 'replaying' ? 200 : 16);
  }

  private setState(state: JournalSnapshot['state'], problem?: string): void {
    this.state = state;
    this.problem = problem;
    this.changed();
  }

  private open(): void {
    const abort = new AbortController();
    this.abort = abort;
    void this.loop(abort.signal);
  }

  private async loop(signal: AbortSignal): Promise<void> {
    let delay = 500;
    while (!signal.aborted) {
      this.setState('connecting');
      try {
        const res = await proxyFetch(XRAY_STREAM_PATH, { signal, accept: 'application/x-ndjson' });
        this.setState('replaying');
        await this.read(res, signal);
        delay = 500;
      } catch (e) {
        if (signal.aborted) return;
        this.setState('unavailable', e instanceof Error ? e.message : String(e));
        delay = Math.min(delay * 2, 10_000);
      }
      // The stream ended (overflow, the explorer restarted): ask again; the journal comes whole.
      await sleep(delay, signal);
    }
  }

  private async read(res: Response, signal: AbortSignal): Promise<void> {
    if (!res.body) return;
    const reader = res.body.getReader();
    const framer = new NdjsonFramer();
    signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
    // Reads that are already buffered resolve as microtasks, in the same task: the slice's clock runs across them.
    let start = performance.now();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      // The journal kept before the view opened arrives as one burst (megabytes in one read):
      // framed and folded a piece at a time, yielding between slices, so that no task is long.
      for (let at = 0; at < value.length; at += PIECE_BYTES) {
        for (const f of framer.push(value.subarray(at, at + PIECE_BYTES))) {
          if (!f.text.trim()) continue;
          const m = JSON.parse(f.text) as XrayMessage;
          this.model.apply(m);
          if (m.type === 'live') this.state = 'live';
        }
        if (performance.now() - start > SLICE_MS) {
          await new Promise((ok) => setTimeout(ok, 0));
          if (signal.aborted) return;
          start = performance.now();
        }
      }
      this.changed();
    }
  }
}

/** Main-thread time one slice of the stream's folding may take, and the bytes framed at once. */
const SLICE_MS = 8;
const PIECE_BYTES = 32 * 1024;

export const xrayJournal = new JournalStore();

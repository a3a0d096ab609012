// The page's copy of the X-ray journal: the proxy's stream (protocol/xray.ts, NDJSON of
// XrayMessage) read with fetch and folded into exchanges of the recording's shape, so that the
// console's inspector and decoders show them as they show the page's own. One store for the tab,
// opened while the Clients view is mounted; React reads it through useSyncExternalStore.
import { fromBase64 } from '../../codecs/base64';
import { NdjsonFramer } from '../../codecs/ndjson';
import type { HeaderList } from '../../k8s/client';
import { proxyFetch } from '../../k8s/client';
import { Listeners } from '../../lib/listeners';
import { sleep } from '../../lib/sleep';
import { XRAY_STREAM_PATH, type XrayBytes, type XrayEndpointInfo, type XrayHeaders, type XrayMessage, type XrayRun } from '../../../protocol/xray';
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
  /** Exchanges the proxy's journal forgot (its budget) while the page kept them. */
  forgotten: number;
}

const headerList = (h: XrayHeaders): HeaderList => h.map(({ name, value }) => [name, value]);
const bytesOf = (b: XrayBytes): Uint8Array => (b.base64 !== undefined ? fromBase64(b.base64) : new TextEncoder().encode(b.text ?? ''));

/** Folds the proxy's messages into exchanges; pure state, no I/O (journal.test.ts feeds it). */
export class JournalModel {
  runs = new Map<string, XrayRun>();
  private byId = new Map<string, XrayExchange>();
  private order: XrayExchange[] = [];
  info?: XrayEndpointInfo;
  live = false;
  forgotten = 0;
  /** Set by each change; the snapshot's array is rebuilt only then. */
  dirty = true;

  reset(): void {
    this.runs = new Map();
    this.byId = new Map();
    this.order = [];
    this.live = false;
    this.forgotten = 0;
    this.dirty = true;
  }

  exchanges(): XrayExchange[] {
    return this.order;
  }

  /** Replaces an exchange by a changed copy, so that a memo keyed on the object sees the change. */
  private update(id: string, change: (x: XrayExchange) => XrayExchange): void {
    const x = this.byId.get(id);
    if (!x) return;
    const next = change(x);
    this.byId.set(id, next);
    const i = this.order.lastIndexOf(x);
    if (i >= 0) this.order[i] = next;
    this.dirty = true;
  }

  apply(m: XrayMessage): void {
    switch (m.type) {
      case 'hello':
        this.reset();
        this.info = m.info;
        return;
      case 'live':
        this.live = true;
        this.dirty = true;
        return;
      case 'run':
        this.runs.set(m.run.id, m.run);
        this.dirty = true;
        return;
      case 'runEnd': {
        const r = this.runs.get(m.id);
        if (r) this.runs.set(m.id, { ...r, endedAt: m.endedAt, exitCode: m.exitCode, ...(m.signal ? { signal: m.signal } : {}) });
        this.dirty = true;
        return;
      }
      case 'request': {
        const x: XrayExchange = {
          id: m.id,
          run: m.run,
          context: m.context,
          startedAt: m.at,
          request: { method: m.method, path: m.path, headers: headerList(m.headers) },
          timings: {},
          watch: m.watch,
          source: 'live',
          // The recording's shape names how the request reached the proxy; X-ray's come through its endpoint.
          via: 'http',
          chunks: [],
        };
        this.byId.set(m.id, x);
        this.order.push(x);
        this.dirty = true;
        return;
      }
      case 'requestBody':
        return this.update(m.id, (x) => ({
          ...x,
          request: { ...x.request, ...(m.body.base64 !== undefined ? { bodyBytes: bytesOf(m.body), body: '' } : { body: m.body.text ?? '' }) },
          ...(m.cut ? { requestCut: { size: m.body.size } } : {}),
        }));
      case 'response':
        return this.update(m.id, (x) => ({
          ...x,
          response: { status: m.status, statusText: m.statusText, headers: headerList(m.headers), body: new Uint8Array() },
          timings: { ...x.timings, upstreamMs: Date.parse(m.at) - Date.parse(x.startedAt) },
          ...(m.refused ? { refused: true } : {}),
        }));
      case 'chunk':
        // Pushed in place (a long watch has thousands of chunks; copying the list each time is quadratic); the exchange object is new.
        return this.update(m.id, (x) => {
          x.chunks.push({ at: Date.parse(m.at), bytes: bytesOf(m.body) });
          return { ...x };
        });
      case 'end':
        return this.update(m.id, (x) => ({
          ...x,
          endedAt: Date.parse(m.at),
          timings: { ...x.timings, totalMs: Date.parse(m.at) - Date.parse(x.startedAt) },
          totals: { bytes: m.bytes, chunks: m.chunks, ...(m.wireBytes !== undefined ? { wireBytes: m.wireBytes } : {}) },
          closedBy: m.closedBy,
          ...(m.cut ? { cut: true } : {}),
          ...(m.closedBy === 'client' ? { closedByReader: true } : {}),
          ...(m.error ? { error: m.error } : {}),
          ...(m.upgrade ? { upgrade: m.upgrade } : {}),
        }));
      case 'forget': {
        // The page keeps what it was shown: the proxy's budget is not the tab's. Counted, so the view can say so.
        this.forgotten += m.ids.filter((id) => this.byId.has(id)).length;
        this.dirty = true;
        return;
      }
      case 'overflow':
        return;
    }
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

  /** At most one snapshot per frame: a burst of chunks (a watch, a large list) redraws once. */
  private changed(): void {
    if (this.pending) return;
    this.pending = true;
    setTimeout(() => {
      this.pending = false;
      const m = this.model;
      this.snap = { state: this.state, ...(this.problem ? { problem: this.problem } : {}), ...(m.info ? { info: m.info } : {}), runs: new Map(m.runs), exchanges: m.dirty ? [...m.exchanges()] : this.snap.exchanges, forgotten: m.forgotten };
      m.dirty = false;
      this.listeners.emit();
    }, 16);
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
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      for (const f of framer.push(value)) {
        if (!f.text.trim()) continue;
        const m = JSON.parse(f.text) as XrayMessage;
        this.model.apply(m);
        if (m.type === 'live') this.state = 'live';
      }
      this.changed();
    }
  }
}

export const xrayJournal = new JournalStore();

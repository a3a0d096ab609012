// Walks a chunked list one page at a time and keeps what was shown: rows (cells and coordinates
// only) and, per page, the ListMeta the server sent. No React: the view subscribes to snapshots.
//
// Server behaviour relied on (API concepts, "Retrieving large results sets in chunks"):
// - every chunk of one list is served at the first chunk's resourceVersion;
// - a continue token outlives its resourceVersion only until etcd compacts it; then the server
//   answers 410 Expired, and the Status's metadata.continue lets the client read the remainder
//   at a newer resourceVersion (inconsistently) instead of starting again.
import { KubeApiError, retryDelayMs, shouldRetryRead } from '../client';
import { decodeContinueToken, type DecodedContinueToken } from './continueToken';
import { fetchListPage, type ListPage, type ListPageRequest } from './listClient';
import { RowStore } from './rowStore';
import type { TableColumnDefinition } from './types';
import { Listeners } from '../../lib/listeners';

export interface PageInfo {
  /** 1-based. */
  index: number;
  items: number;
  resourceVersion?: string;
  remainingItemCount?: number;
  continue?: string;
  decoded: DecodedContinueToken | null;
  bytes: number;
  path: string;
  /** Requested with the token a 410 Expired handed out: not part of the first chunk's snapshot. */
  inconsistent: boolean;
}

export interface Expired {
  error: KubeApiError;
  /** The Status's metadata.continue, when the server gave one. */
  token?: string;
}

export interface PagerSnapshot {
  loading: boolean;
  loadingAll: boolean;
  pages: PageInfo[];
  rowCount: number;
  /** Rows whose namespace/name was already shown (a list served consistently has none). */
  duplicates: number;
  columns: TableColumnDefinition[];
  kind?: string;
  table: boolean;
  accept?: string;
  sample?: unknown;
  error?: unknown;
  expired?: Expired;
  /** True when the last page had no continue token. */
  done: boolean;
  totalBytes: number;
  /** Set while waiting to ask again after a 429 Too Many Requests: for how long the server asked. */
  throttled?: { retryAfterSeconds?: number; until: number };
}

/**
 * Loading all, the view hears of new chunks at most this often (it renders on each notice). With
 * a render per chunk, the chunks of a 10,000-row list came 10–90 ms apart in the bench's
 * waterfall, each waiting for the main thread; the server answers one in 6–16 ms.
 */
export const LOAD_ALL_NOTIFY_MS = 100;

/** Chunks asked for ahead and not yet taken, at most (loading all). */
export const MAX_AHEAD = 2;

const EMPTY: PagerSnapshot = { loading: false, loadingAll: false, pages: [], rowCount: 0, duplicates: 0, columns: [], table: false, done: false, totalBytes: 0 };

export type PagerRequest = Omit<ListPageRequest, 'continueToken' | 'signal'>;

export class ListPager {
  /** Append-only between resets (a new store then); read it by index for the rows the snapshot counts. */
  rows = new RowStore();
  private snap: PagerSnapshot = EMPTY;
  private readonly listeners = new Listeners();
  private abort = new AbortController();
  private inflight: Promise<void> | null = null;
  /**
   * While loading all: the next chunks, each asked for as soon as its token arrived (in the first
   * bytes of the chunk before it), so that the server prepares it while this page receives,
   * decodes and renders the ones before. At most MAX_AHEAD wait to be taken. Only while loading
   * all: a single "Next page" fetches exactly the chunk asked for.
   */
  private ahead = new Map<string, Promise<ListPage>>();
  private notifiedAt = -Infinity;
  private notifyTimer: ReturnType<typeof setTimeout> | undefined;
  private started = false;

  constructor(readonly request: PagerRequest) {}

  subscribe = (l: () => void): (() => void) => {
    return this.listeners.subscribe(l);
  };

  getSnapshot = (): PagerSnapshot => this.snap;

  private set(patch: Partial<PagerSnapshot>): void {
    this.snap = { ...this.snap, ...patch };
    // Loading all, chunk after chunk: the view renders on every notice, and each chunk's answer
    // (and so the request for the next, whose token it holds) waits for the main thread. So the
    // view hears at most every LOAD_ALL_NOTIFY_MS; the end, an error or a stop goes out at once.
    const s = this.snap;
    if (s.loadingAll && !s.done && s.error === undefined && s.expired === undefined) {
      const wait = this.notifiedAt + LOAD_ALL_NOTIFY_MS - performance.now();
      if (wait > 0) {
        this.notifyTimer ??= setTimeout(() => this.notify(), wait);
        return;
      }
    }
    this.notify();
  }

  private notify(): void {
    clearTimeout(this.notifyTimer);
    this.notifyTimer = undefined;
    this.notifiedAt = performance.now();
    this.listeners.emit();
  }

  /**
   * (Re)starts from the first chunk, dropping what was loaded; resolves once that chunk is in.
   * With `all`, goes on to load every chunk, as loadAll does, the second one asked for while the
   * first one renders. With `pages`, goes on to that many chunks (the view keeps how many the
   * user loaded in its URL, so that a reload shows the same rows).
   */
  start(opts: { all?: boolean; pages?: number } = {}): Promise<void> {
    this.started = true;
    this.abort.abort();
    this.abort = new AbortController();
    this.inflight = null;
    this.ahead = new Map();
    this.rows = new RowStore();
    this.snap = opts.all ? { ...EMPTY, loadingAll: true } : EMPTY;
    const signal = this.abort.signal;
    const first = this.fetch(undefined, false);
    if (opts.all) void first.then(() => this.loadRest(signal));
    else if ((opts.pages ?? 1) > 1) void first.then(() => this.loadPages(opts.pages!, signal));
    return first;
  }

  /** Started and not disposed since: a view that adopts this pager (boot.ts) must not start it again. */
  get running(): boolean {
    return this.started;
  }

  dispose(): void {
    this.started = false;
    clearTimeout(this.notifyTimer);
    this.notifyTimer = undefined;
    this.abort.abort();
  }

  /** The next chunk, if there is one and nothing is loading. */
  next(): Promise<void> {
    const last = this.snap.pages.at(-1);
    // A chunk already on its way: wait for it rather than ask twice (load-all relies on this).
    if (this.inflight) return this.inflight;
    if (!last?.continue || this.snap.expired) return Promise.resolve();
    return this.fetch(last.continue, last.inconsistent);
  }

  /** Every remaining chunk, one after the other (each token comes from the previous answer). */
  loadAll(): Promise<void> {
    if (this.snap.loadingAll) return Promise.resolve();
    this.set({ loadingAll: true });
    return this.loadRest(this.abort.signal);
  }

  private async loadRest(signal: AbortSignal): Promise<void> {
    try {
      while (!signal.aborted && this.snap.loadingAll && !this.snap.expired && !this.snap.error && this.snap.pages.at(-1)?.continue) await this.next();
    } finally {
      if (!signal.aborted && this.snap.loadingAll) this.set({ loadingAll: false });
    }
  }

  /** Chunks after the first until `pages` are in (or the list ends, fails or expires). */
  private async loadPages(pages: number, signal: AbortSignal): Promise<void> {
    while (!signal.aborted && this.snap.pages.length < pages && !this.snap.expired && !this.snap.error && this.snap.pages.at(-1)?.continue) await this.next();
  }

  /** Stops a load-all after the chunk in flight. */
  stopAll(): void {
    this.set({ loadingAll: false });
    this.abort.abort();
    this.abort = new AbortController();
    this.inflight = null;
    this.ahead = new Map();
    this.set({ loading: false });
  }

  /** After a 410: read the rest with the server's token, at a newer resourceVersion. */
  continueInconsistently(): Promise<void> {
    const token = this.snap.expired?.token;
    if (!token) return Promise.resolve();
    this.set({ expired: undefined });
    return this.fetch(token, true);
  }

  private fetch(token: string | undefined, inconsistent: boolean): Promise<void> {
    const p = this.fetchPage(token, inconsistent).finally(() => {
      if (this.inflight === p) this.inflight = null;
    });
    this.inflight = p;
    return p;
  }

  /** One chunk; a 429 is asked again after the server's Retry-After, a few times. */
  private async fetchWithRetry(token: string | undefined, signal: AbortSignal): Promise<Awaited<ReturnType<typeof fetchListPage>>> {
    for (let failures = 0; ; failures++) {
      try {
        return await fetchListPage({ ...this.request, continueToken: token, signal }, this.rows.interner, (next) => this.fetchAhead(next, signal));
      } catch (e) {
        if (!(e instanceof KubeApiError && e.code === 429 && shouldRetryRead(failures, e)) || signal.aborted) throw e;
        const wait = retryDelayMs(failures, e);
        this.set({ throttled: { retryAfterSeconds: e.retryAfterSeconds, until: Date.now() + wait } });
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, wait);
          signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
        });
        this.set({ throttled: undefined });
        if (signal.aborted) throw e;
      }
    }
  }

  /** While loading all, asks for the chunk of `token` now, unless it is asked for already or enough wait. */
  private fetchAhead(token: string, signal: AbortSignal): void {
    if (!this.snap.loadingAll || signal.aborted || signal !== this.abort.signal || this.ahead.has(token) || this.ahead.size >= MAX_AHEAD) return;
    const page = this.fetchWithRetry(token, signal);
    // Its failure (a 410, say) is handled when the loop asks for that chunk; not before.
    page.catch(() => undefined);
    this.ahead.set(token, page);
  }

  /** The chunk for `token`: the one already on its way, or a new request. */
  private page(token: string | undefined, signal: AbortSignal): Promise<ListPage> {
    const p = token === undefined ? undefined : this.ahead.get(token);
    if (p) {
      this.ahead.delete(token!);
      return p;
    }
    return this.fetchWithRetry(token, signal);
  }

  private async fetchPage(token: string | undefined, inconsistent: boolean): Promise<void> {
    const signal = this.abort.signal;
    // Loading all keeps `loading` set from one chunk to the next: one render per chunk, not two.
    if (!this.snap.loading || this.snap.error !== undefined) this.set({ loading: true, error: undefined });
    try {
      const page = await this.page(token, signal);
      if (signal.aborted) return;
      const next = page.metadata.continue || undefined;
      // Asked for already when its token was read from this chunk's first bytes; if not (the
      // body was not shaped as expected, or MAX_AHEAD were waiting then), now.
      if (next) this.fetchAhead(next, signal);
      const dup = this.rows.append(page.rows);
      const info: PageInfo = {
        index: this.snap.pages.length + 1,
        items: page.rows.length,
        resourceVersion: page.metadata.resourceVersion,
        remainingItemCount: page.metadata.remainingItemCount,
        continue: page.metadata.continue || undefined,
        decoded: decodeContinueToken(page.metadata.continue),
        bytes: page.bytes,
        path: page.path,
        inconsistent,
      };
      this.set({
        loading: this.ahead.size > 0,
        pages: [...this.snap.pages, info],
        rowCount: this.rows.length,
        duplicates: this.snap.duplicates + dup,
        // Column definitions come with every chunk; the first chunk's stand for the list.
        columns: this.snap.pages.length === 0 ? page.columns : this.snap.columns,
        kind: page.kind,
        table: page.table,
        accept: page.accept,
        sample: this.snap.sample ?? page.sample,
        done: !info.continue,
        totalBytes: this.snap.totalBytes + page.bytes,
      });
    } catch (e) {
      if (signal.aborted) return;
      if (e instanceof KubeApiError && e.code === 410 && token) {
        this.set({ loading: false, loadingAll: false, expired: { error: e, token: e.status.metadata?.continue || undefined } });
      } else {
        this.set({ loading: false, loadingAll: false, error: e });
      }
    }
  }
}

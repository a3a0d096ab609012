// The X-ray journal as the proxy keeps it: every message of the endpoint (protocol/xray.ts) is
// applied to one bounded XrayJournal (protocol/xrayJournal.ts, the page's reducer too) and sent to
// the pages that watch it. Bounded twice: each exchange keeps at most XRAY_BODY_BUDGET bytes of
// body (past it, only sizes and counts: a 150,000-object list costs the journal 4 MiB, not its
// hundreds), and the journal XRAY_JOURNAL_BUDGET in all (past it, the oldest ended exchanges are
// forgotten, and the pages told). A page that reads slower than the journal grows is cut off
// (`overflow`) rather than buffered for without bound.
import { createGunzip, type Gunzip } from 'node:zlib';
import { isWatchRequest } from '../../../protocol/watch';
import { type XrayBytes, type XrayHeaders, type XrayMessage, type XrayRun, XRAY_BODY_BUDGET, XRAY_JOURNAL_BUDGET } from '../../../protocol/xray';
import { XrayJournal } from '../../../protocol/xrayJournal';

/** A page's stream: told every message; `backlog` is what it has not sent yet (bytes). */
export interface XraySubscriber {
  send(m: XrayMessage): void;
  backlog(): number;
  overflow(): void;
}

/** Unsent bytes a page may hold before it is cut off (it reconnects and gets the journal again). */
const SUBSCRIBER_BACKLOG = 16 * 1024 * 1024;

export class XrayHub {
  readonly journal = new XrayJournal();
  private readonly subscribers = new Set<XraySubscriber>();
  private seq = 0;

  constructor(readonly budgets: { body: number; journal: number } = { body: XRAY_BODY_BUDGET, journal: XRAY_JOURNAL_BUDGET }) {}

  emit(m: XrayMessage): void {
    this.journal.apply(m);
    this.fanOut(m);
    if (m.type === 'end' && this.journal.keptBytes > this.budgets.journal) {
      const ids = this.journal.overBudget(this.budgets.journal);
      if (ids.length) this.emit({ type: 'forget', ids });
    }
  }

  private fanOut(m: XrayMessage): void {
    for (const s of this.subscribers) {
      if (s.backlog() > SUBSCRIBER_BACKLOG) {
        this.subscribers.delete(s);
        s.overflow();
      } else s.send(m);
    }
  }

  /** A new page: the journal so far, then `live`, then every message as it comes. Returns the unsubscribe. */
  subscribe(s: XraySubscriber): () => void {
    for (const m of this.journal.messages()) s.send(m);
    s.send({ type: 'live' });
    this.subscribers.add(s);
    return () => this.subscribers.delete(s);
  }

  startRun(run: Omit<XrayRun, 'id' | 'startedAt'> & { id?: string }): XrayRun {
    const full: XrayRun = { ...run, id: run.id ?? `run-${++this.seq}-${Date.now().toString(36)}`, startedAt: new Date().toISOString() };
    this.emit({ type: 'run', run: full });
    return full;
  }

  endRun(id: string, exitCode: number | null, signal?: string): void {
    this.emit({ type: 'runEnd', id, endedAt: new Date().toISOString(), exitCode, ...(signal ? { signal } : {}) });
  }

  /** Journals one exchange: the endpoint tells the tap what passes. */
  tap(run: string, context: string, method: string, path: string, headers: XrayHeaders, upgrade = false): ExchangeTap {
    const id = `x${++this.seq}`;
    this.emit({ type: 'request', id, run, context, at: now(), method, path, headers, watch: isWatchRequest(path, method), ...(upgrade ? { upgrade: true } : {}) });
    return new ExchangeTap(this, id, headers);
  }
}

const now = (): string => new Date().toISOString();

/** Content types whose bytes are not text: kept as base64 (Protobuf, CBOR, anything unknown that is not text). */
function isBinaryType(contentType: string | undefined): boolean {
  const t = (contentType ?? '').toLowerCase();
  if (/protobuf|cbor|octet-stream/.test(t)) return true;
  return !(t === '' || /json|yaml|^text\//.test(t));
}

const headerOf = (h: XrayHeaders, name: string): string | undefined => h.find((x) => x.name.toLowerCase() === name)?.value;

/** Bytes kept within a budget: text (streamed UTF-8 decoding across chunk boundaries) or base64. */
class BodyKeeper {
  private readonly decoder = new TextDecoder();
  kept = 0;
  total = 0;
  count = 0;
  cut = false;
  constructor(
    private readonly budget: number,
    readonly binary: boolean,
  ) {}

  /** Counts the piece; false past the budget (from there on, every piece is counted only). */
  admit(b: Buffer): boolean {
    this.total += b.length;
    this.count++;
    if (this.cut || this.kept + b.length > this.budget) {
      this.cut = true;
      return false;
    }
    this.kept += b.length;
    return true;
  }

  /** The piece to journal, or undefined past the budget. */
  take(b: Buffer): XrayBytes | undefined {
    if (!this.admit(b)) return undefined;
    return this.binary ? { base64: b.toString('base64'), size: b.length } : { text: this.decoder.decode(b, { stream: true }), size: b.length };
  }
}

/** One exchange's journaling: its request body, its response head, each chunk, its end. */
export class ExchangeTap {
  private requestBody: BodyKeeper;
  private requestPieces: Buffer[] = [];
  private response?: BodyKeeper;
  private gunzip?: Gunzip;
  private wireBytes = 0;
  private ended = false;

  constructor(
    private readonly hub: XrayHub,
    readonly id: string,
    requestHeaders: XrayHeaders,
  ) {
    this.requestBody = new BodyKeeper(hub.budgets.body, isBinaryType(headerOf(requestHeaders, 'content-type')));
  }

  requestChunk(b: Buffer): void {
    // Kept whole until the body ends (one `requestBody` message), within the budget.
    if (this.requestBody.admit(b)) this.requestPieces.push(b);
  }

  requestEnd(): void {
    const k = this.requestBody;
    if (k.total === 0) return;
    const whole = Buffer.concat(this.requestPieces);
    this.requestPieces = [];
    // Text bodies as text (apply-patch YAML, JSON); a binary one (Protobuf, CBOR) as base64.
    const body: XrayBytes = k.binary ? { base64: whole.toString('base64'), size: k.total } : { text: whole.toString('utf8'), size: k.total };
    this.hub.emit({ type: 'requestBody', id: this.id, at: now(), body, ...(k.cut ? { cut: true } : {}) });
  }

  responseHead(status: number, statusText: string, headers: XrayHeaders, refused = false): void {
    this.response = new BodyKeeper(this.hub.budgets.body, isBinaryType(headerOf(headers, 'content-type')));
    // The client gets the bytes as sent; the journal keeps them decoded, so that the page reads
    // them (kube-apiserver gzips large answers when the client accepts it, as client-go does).
    if ((headerOf(headers, 'content-encoding') ?? '').toLowerCase() === 'gzip') {
      this.gunzip = createGunzip();
      this.gunzip.on('data', (b: Buffer) => this.piece(b));
      this.gunzip.on('error', () => undefined);
    }
    this.hub.emit({ type: 'response', id: this.id, at: now(), status, statusText, headers, ...(refused ? { refused: true } : {}) });
  }

  chunk(b: Buffer): void {
    this.wireBytes += b.length;
    if (this.gunzip) this.gunzip.write(b);
    else this.piece(b);
  }

  private piece(b: Buffer): void {
    const kept = this.response?.take(b);
    if (kept) this.hub.emit({ type: 'chunk', id: this.id, at: now(), body: kept });
  }

  end(closedBy: 'server' | 'client' | 'error', error?: string, upgrade?: { sentBytes: number; receivedBytes: number }): void {
    if (this.ended) return;
    this.ended = true;
    const finish = () => {
      const r = this.response;
      this.hub.emit({
        type: 'end',
        id: this.id,
        at: now(),
        bytes: r?.total ?? 0,
        chunks: r?.count ?? 0,
        ...(this.gunzip ? { wireBytes: this.wireBytes } : {}),
        ...(r?.cut ? { cut: true } : {}),
        closedBy,
        ...(error ? { error } : {}),
        ...(upgrade ? { upgrade } : {}),
      });
    };
    if (!this.gunzip) return finish();
    const g = this.gunzip;
    g.once('end', finish);
    g.once('error', finish);
    g.end();
  }
}

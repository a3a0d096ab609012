// The X-ray journal: the exchanges of other clients as XrayMessages (protocol/xray.ts) build them,
// one reducer for both sides. The proxy keeps one (bounded: it decides the cuts and what to
// forget, and says so in the messages) and streams its messages; the page applies the same
// messages to its own and so holds the same exchanges. Either writes a run as a recording file
// (protocol/recording.ts) with `toHar`, which the explorer's --replay opens.
import { fromBase64, toBase64 } from './base64';
import { eventFacts, framesOf, HAR_CREATOR, type Har, type HarEntry, RECORDING_FORMAT, RECORDING_VERSION, type TimedPiece } from './recording';
import type { XrayBytes, XrayHeaders, XrayMessage, XrayRun } from './xray';

type EndMessage = Extract<XrayMessage, { type: 'end' }>;

export interface XrayExchange {
  id: string;
  run: string;
  context: string;
  /** Date.now() of the request's head. */
  startedAt: number;
  method: string;
  path: string;
  headers: XrayHeaders;
  watch: boolean;
  upgrade?: boolean;
  requestBody?: XrayBytes & { cut?: boolean };
  response?: { at: number; status: number; statusText: string; headers: XrayHeaders; refused?: boolean };
  chunks: { at: number; body: XrayBytes }[];
  end?: Omit<EndMessage, 'type' | 'id' | 'at'> & { at: number };
  /** Body bytes the journal holds for this exchange (request and response). */
  keptBytes: number;
}

const header = (h: XrayHeaders, name: string): string | undefined => {
  const n = name.toLowerCase();
  const all = h.filter((x) => x.name.toLowerCase() === n).map((x) => x.value);
  return all.length ? all.join(', ') : undefined;
};

const bytesOf = (b: XrayBytes): Uint8Array => (b.base64 !== undefined ? fromBase64(b.base64) : new TextEncoder().encode(b.text ?? ''));

export class XrayJournal {
  readonly runs = new Map<string, XrayRun>();
  /** In the order their requests came. */
  readonly exchanges = new Map<string, XrayExchange>();
  /** Body bytes held in all. */
  keptBytes = 0;

  apply(m: XrayMessage): void {
    switch (m.type) {
      case 'run':
        this.runs.set(m.run.id, { ...m.run });
        return;
      case 'runEnd': {
        const run = this.runs.get(m.id);
        if (run) Object.assign(run, { endedAt: m.endedAt, exitCode: m.exitCode, ...(m.signal ? { signal: m.signal } : {}) });
        return;
      }
      case 'request':
        this.exchanges.set(m.id, { id: m.id, run: m.run, context: m.context, startedAt: Date.parse(m.at), method: m.method, path: m.path, headers: m.headers, watch: m.watch, ...(m.upgrade ? { upgrade: true } : {}), chunks: [], keptBytes: 0 });
        return;
      case 'requestBody': {
        const x = this.exchanges.get(m.id);
        if (!x) return;
        x.requestBody = { ...m.body, ...(m.cut ? { cut: true } : {}) };
        this.hold(x, m.body);
        return;
      }
      case 'response': {
        const x = this.exchanges.get(m.id);
        if (x) x.response = { at: Date.parse(m.at), status: m.status, statusText: m.statusText, headers: m.headers, ...(m.refused ? { refused: true } : {}) };
        return;
      }
      case 'chunk': {
        const x = this.exchanges.get(m.id);
        if (!x) return;
        x.chunks.push({ at: Date.parse(m.at), body: m.body });
        this.hold(x, m.body);
        return;
      }
      case 'end': {
        const x = this.exchanges.get(m.id);
        if (!x) return;
        const { type: _t, id: _i, at, ...rest } = m;
        x.end = { ...rest, at: Date.parse(at) };
        return;
      }
      case 'forget':
        for (const id of m.ids) {
          const x = this.exchanges.get(id);
          if (!x) continue;
          this.keptBytes -= x.keptBytes;
          this.exchanges.delete(id);
        }
        return;
      default:
        return;
    }
  }

  private hold(x: XrayExchange, b: XrayBytes): void {
    const n = b.text !== undefined ? b.text.length : (b.base64?.length ?? 0);
    x.keptBytes += n;
    this.keptBytes += n;
  }

  /**
   * The oldest ended exchanges to forget so that the journal holds at most `budget` bytes of
   * bodies (open ones are never forgotten: their end is still to come). The caller sends the
   * `forget` message (and applies it).
   */
  overBudget(budget: number): string[] {
    let over = this.keptBytes - budget;
    const ids: string[] = [];
    for (const x of this.exchanges.values()) {
      if (over <= 0) break;
      if (!x.end || x.keptBytes === 0) continue;
      ids.push(x.id);
      over -= x.keptBytes;
    }
    return ids;
  }

  /** The messages that rebuild this journal, in order (a new page's stream starts with them). */
  *messages(): Generator<XrayMessage> {
    const runs = new Set<string>();
    for (const run of this.runs.values()) {
      runs.add(run.id);
      yield { type: 'run', run: { ...run } };
    }
    for (const x of this.exchanges.values()) {
      yield { type: 'request', id: x.id, run: x.run, context: x.context, at: iso(x.startedAt), method: x.method, path: x.path, headers: x.headers, watch: x.watch, ...(x.upgrade ? { upgrade: true } : {}) };
      if (x.requestBody) {
        const { cut, ...body } = x.requestBody;
        yield { type: 'requestBody', id: x.id, at: iso(x.startedAt), body, ...(cut ? { cut } : {}) };
      }
      if (x.response) {
        const { at, ...head } = x.response;
        yield { type: 'response', id: x.id, at: iso(at), ...head };
      }
      for (const c of x.chunks) yield { type: 'chunk', id: x.id, at: iso(c.at), body: c.body };
      if (x.end) {
        const { at, ...rest } = x.end;
        yield { type: 'end', id: x.id, at: iso(at), ...rest };
      }
    }
  }

  /** The exchanges of one run (or all) as a recording file; `servers`: context → API server URL. */
  toHar(servers: Record<string, string>, runId?: string): Har {
    const xs = [...this.exchanges.values()].filter((x) => runId === undefined || x.run === runId);
    const runs = [...this.runs.values()].filter((r) => runId === undefined || r.id === runId);
    const started = Math.min(...xs.map((x) => x.startedAt), ...runs.map((r) => Date.parse(r.startedAt)));
    const ended = runs.every((r) => r.endedAt) && runs.length ? Math.max(...runs.map((r) => Date.parse(r.endedAt!))) : undefined;
    return {
      log: {
        version: '1.2',
        creator: { ...HAR_CREATOR },
        entries: xs.map((x) => xrayEntry(x, servers)),
        _recording: {
          format: RECORDING_FORMAT,
          version: RECORDING_VERSION,
          startedDateTime: iso(Number.isFinite(started) ? started : Date.now()),
          ...(ended !== undefined ? { stoppedDateTime: iso(ended) } : {}),
          servers: Object.fromEntries(Object.entries(servers).filter(([c]) => xs.some((x) => x.context === c))),
          marks: runs.map((r) => ({ time: r.startedAt, label: r.argv ? `xray: ${r.argv.join(' ')}` : 'xray: long-lived endpoint' })),
          cut: xs.some((x) => x.end?.cut || x.requestBody?.cut),
          // The file holds what the client and the server exchanged, as the user asked to see it:
          // the token never is in it (the endpoint replaces Authorization before journaling).
          redaction: { enabled: false, patterns: [], redactions: [] },
          runs,
        },
      },
    };
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** One body from its pieces: text when every piece is, else base64 of all the bytes. */
function joined(pieces: XrayBytes[]): { text?: string; encoding?: 'base64'; size: number } {
  const size = pieces.reduce((n, p) => n + p.size, 0);
  if (pieces.every((p) => p.base64 === undefined)) return { text: pieces.map((p) => p.text ?? '').join(''), size };
  const all = new Uint8Array(pieces.reduce((n, p) => n + (p.base64 !== undefined ? Math.floor((p.base64.length * 3) / 4) + 3 : (p.text?.length ?? 0) * 3), 0));
  let at = 0;
  for (const p of pieces) {
    const b = bytesOf(p);
    all.set(b, at);
    at += b.length;
  }
  return { text: toBase64(all.subarray(0, at)), encoding: 'base64', size };
}

/** One journaled exchange as a HAR entry of the recording format. */
function xrayEntry(x: XrayExchange, servers: Record<string, string>): HarEntry {
  const server = (servers[x.context] ?? `https://${encodeURIComponent(x.context)}.invalid`).replace(/\/$/, '');
  const url = new URL(`${server}${x.path}`);
  const ended = x.end?.at ?? x.response?.at ?? x.startedAt;
  const wait = x.response ? x.response.at - x.startedAt : ended - x.startedAt;
  const mimeType = x.response ? (header(x.response.headers, 'Content-Type') ?? '') : '';
  const binary = x.chunks.some((c) => c.body.base64 !== undefined);
  const body = joined(x.chunks.map((c) => c.body));
  const entry: HarEntry = {
    startedDateTime: iso(x.startedAt),
    time: Math.max(0, ended - x.startedAt),
    request: { method: x.method, url: url.toString(), httpVersion: 'HTTP/1.1', cookies: [], headers: x.headers, queryString: [...url.searchParams].map(([name, value]) => ({ name, value })), headersSize: -1, bodySize: x.requestBody?.size ?? 0 },
    response: {
      status: x.response?.status ?? 0,
      statusText: x.response?.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: x.response?.headers ?? [],
      content: { size: x.end?.bytes ?? body.size, mimeType, ...(x.watch ? {} : body.text ? { text: body.text, ...(body.encoding ? { encoding: body.encoding } : {}) } : {}) },
      redirectURL: '',
      headersSize: -1,
      bodySize: x.end?.wireBytes ?? x.end?.bytes ?? body.size,
    },
    cache: {},
    timings: { send: 0, wait: Math.max(0, wait), receive: Math.max(0, ended - x.startedAt - wait) },
    _context: x.context,
    _apiPath: x.path,
    _via: 'xray',
    _run: x.run,
  };
  if (x.requestBody) {
    const { cut, ...b } = x.requestBody;
    entry.request.postData = { mimeType: header(x.headers, 'Content-Type') ?? '', text: b.base64 ?? b.text ?? '', ...(b.base64 !== undefined ? { encoding: 'base64' as const } : {}), ...(cut ? { comment: `cut at the journal's budget: ${b.size} bytes in all` } : {}) };
  }
  if (x.end) {
    entry._endedDateTime = iso(x.end.at);
    if (x.end.error) entry.response._error = x.end.error;
    if (x.end.closedBy === 'client') entry._closedByPage = true;
    if (x.end.cut) {
      entry._cut = true;
      entry._totals = { bytes: x.end.bytes, chunks: x.end.chunks };
      entry.response.content.comment = `cut at the journal's budget: ${x.end.bytes} bytes in ${x.end.chunks} chunks in all, the first ${body.size} kept`;
    }
    if (x.end.upgrade) entry._upgrade = x.end.upgrade;
  }
  if (x.watch) {
    entry._watch = true;
    const pieces: TimedPiece[] = x.chunks.map((c) => (c.body.base64 !== undefined ? { at: c.at, bytes: fromBase64(c.body.base64) } : { at: c.at, text: c.body.text ?? '' }));
    entry._frames = framesOf(pieces, binary).map((f) => (f.bytes ? { time: iso(f.at), base64: toBase64(f.bytes) } : { time: iso(f.at), ...eventFacts(f.text ?? ''), text: f.text ?? '' }));
    entry.response.content.comment ??= 'a watch: the body is in _frames, one frame per event with its arrival time';
  }
  return entry;
}

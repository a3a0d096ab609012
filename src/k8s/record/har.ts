// A recording as one file: the format (HAR 1.2 with our `_` fields), its types and its checked
// reader live in protocol/recording.ts, shared with the proxy's X-ray journal. Here the page
// writes its recorder's exchanges into it (with redaction) and reads a file back into exchanges
// it can replay. The console's HAR export builds its entries here too (exchangeEntry): one writer
// of the page's HAR.
import { bodyKind } from '../../codecs/mediaTypes';
import { fromBase64, toBase64 } from '../../codecs/base64';
import { isBinaryFormat } from '../../codecs/formats';
import type { Exchange, HeaderList } from '../client/exchange';
import { joinChunks, type RecordedChunk, type RecordedExchange, type RecordingMark } from './recorder';
import { type RedactionOptions, Redactor } from './redact';
import { type AuditEvent, parseAuditLine } from '../../../protocol/audit';
import {
  dateOf,
  eventFacts,
  framesOf as framePieces,
  HAR_CREATOR,
  type Har,
  type HarEntry,
  type HarHeader,
  type RecordingMeta,
  readRecordingLog,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  RecordingFileError,
} from '../../../protocol/recording';

export { RecordingFileError, type Har, type HarEntry, type HarHeader, type RecordingMeta } from '../../../protocol/recording';

const toHarHeaders = (h: HeaderList): HarHeader[] => h.map(([name, value]) => ({ name, value }));

function header(headers: HeaderList, name: string): string | undefined {
  const n = name.toLowerCase();
  const all = headers.filter(([k]) => k.toLowerCase() === n).map(([, v]) => v);
  return all.length ? all.join(', ') : undefined;
}

/** The bytes as text when they are UTF-8, else undefined (decoded once: the check is the decode). */
function utf8Text(b: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return undefined;
  }
}

function isBinary(mimeType: string, size: number): boolean {
  const kind = bodyKind(mimeType, size);
  return kind === 'binary' || isBinaryFormat(kind);
}

/** One exchange as a HAR entry; `redactor` (recordings) replaces what it must on the way. */
export function exchangeEntry(x: Exchange, servers: Record<string, string>, redactor?: Redactor, index = 0): HarEntry {
  const site = (where: string) => ({ entry: index, where });
  const path = redactor ? redactor.text(x.request.path, site('request.url')) : x.request.path;
  const server = (servers[x.context] ?? `https://${x.context}.invalid`).replace(/\/$/, '');
  const url = new URL(`${server}${path}`);
  // The User-Agent the proxy sent is part of the request as the API server saw it.
  const sentHeaders: HeaderList = x.userAgent && !header(x.request.headers, 'User-Agent') ? [...x.request.headers, ['User-Agent', x.userAgent]] : x.request.headers;
  const reqHeaders = redactor ? redactor.headers(sentHeaders, site('request.headers')) : sentHeaders;
  const resHeaders = redactor ? redactor.headers(x.response?.headers ?? [], site('response.headers')) : (x.response?.headers ?? []);
  const reqType = header(x.request.headers, 'Content-Type') ?? 'application/json';
  const resType = x.response ? (header(x.response.headers, 'Content-Type') ?? '') : '';
  let body: Uint8Array | undefined = x.response?.body ?? new Uint8Array();
  // A text body that is not UTF-8 (a container's log in Latin-1, say) would not survive as HAR
  // text (each bad byte becomes U+FFFD): it is kept as base64 like a binary one, byte for byte.
  const asText = isBinary(resType, body.length) ? undefined : utf8Text(body);
  const binary = asText === undefined;
  let text: string | undefined;
  if (binary) body = redactor ? redactor.binary(body, x.request.path, site('response.content')) : body;
  else if (body.length) text = redactor ? redactor.body(asText, site('response.content'), x.request.path) : asText;
  const total = Math.max(0, Math.round(x.timings.totalMs ?? 0));
  const wait = Math.min(total, Math.round(x.timings.upstreamMs ?? total));
  const entry: HarEntry = {
    startedDateTime: x.startedAt,
    time: total,
    request: {
      method: x.request.method,
      url: url.toString(),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toHarHeaders(reqHeaders),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      headersSize: -1,
      bodySize: x.request.bodyBytes?.length ?? (x.request.body ? new TextEncoder().encode(x.request.body).length : 0),
    },
    response: {
      status: x.response?.status ?? 0,
      statusText: x.response?.statusText ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: toHarHeaders(resHeaders),
      content: {
        size: x.response?.body.length ?? 0,
        mimeType: resType,
        ...(binary ? (body?.length ? { text: toBase64(body), encoding: 'base64' as const } : body ? {} : { comment: 'removed by redaction: a binary body that may hold a Secret or matched a pattern' }) : text ? { text } : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: x.wireSize ?? x.response?.body.length ?? 0,
    },
    cache: {},
    timings: { send: 0, wait, receive: total - wait },
    _context: x.context,
    _apiPath: path,
  };
  const reqBody = x.request.bodyBytes?.length ? x.request.bodyBytes : undefined;
  if (reqBody) {
    const kept = redactor ? redactor.binary(reqBody, x.request.path, site('request.postData')) : reqBody;
    entry.request.postData = { mimeType: reqType, text: kept ? toBase64(kept) : 'REDACTED' };
  } else if (x.request.body) entry.request.postData = { mimeType: reqType, text: redactor ? redactor.body(x.request.body, site('request.postData'), x.request.path) : x.request.body };
  if (x.error) entry.response._error = x.error;
  if (x.response?.body && x.wireSize !== undefined && x.wireSize !== x.response.body.length) entry.response.content.compression = x.response.body.length - x.wireSize;
  if (x.timings.upstreamMs !== undefined) entry._upstreamMs = x.timings.upstreamMs;
  if (x.watch) entry._watch = true;
  if (x.stopped) entry._stopped = true;
  return entry;
}

/** A watch's chunks as frames (protocol/recording.ts), binary or not as the codecs read the Content-Type. */
export function framesOf(chunks: RecordedChunk[], mimeType: string): { at: number; text?: string; bytes?: Uint8Array }[] {
  return framePieces(chunks, isBinary(mimeType, 1));
}

/** One recorded exchange as a HAR entry with the recording's extensions. */
function recordedEntry(x: RecordedExchange, servers: Record<string, string>, redactor: Redactor, index: number): HarEntry {
  const mime = x.response ? (header(x.response.headers, 'Content-Type') ?? '') : '';
  const whole = x.watch ? new Uint8Array() : joinChunks(x.chunks);
  const entry = exchangeEntry({ ...x, ...(x.response ? { response: { ...x.response, body: whole, truncated: x.cut } } : {}) }, servers, redactor, index);
  entry._via = x.via;
  if (x.endedAt !== undefined) entry._endedDateTime = new Date(x.endedAt).toISOString();
  if (x.cut) entry._cut = true;
  if (x.closedByReader) entry._closedByPage = true;
  if (x.lesson) {
    entry._lesson = x.lesson;
    entry.comment = `lesson ${x.lesson.id}, step ${x.lesson.step}`;
  }
  if (x.watch) {
    const frames = framesOf(x.chunks, mime);
    entry._frames = frames.map((f, i) => {
      const time = new Date(f.at).toISOString();
      if (f.bytes) {
        const kept = redactor.binary(f.bytes, x.request.path, { entry: index, where: `_frames[${i}]` });
        return kept ? { time, base64: toBase64(kept) } : { time, text: 'REDACTED' };
      }
      const text = redactor.body(f.text ?? '', { entry: index, where: `_frames[${i}]` }, x.request.path);
      return { time, ...eventFacts(text), text };
    });
    entry.response.content.size = x.chunks.reduce((n, c) => n + c.bytes.length, 0);
    entry.response.content.comment = 'a watch: the body is in _frames, one frame per event with its arrival time';
  }
  return entry;
}

export interface RecordingContents {
  exchanges: RecordedExchange[];
  marks: RecordingMark[];
  servers: Record<string, string>;
  startedAt: number;
  stoppedAt?: number;
  full: boolean;
  /** The audit events of the exchanges, by Audit-Id: gathered when the file is saved. */
  audit?: Record<string, AuditEvent[]>;
}

/** The file: HAR 1.2 with the recording's extensions, redacted unless the user opted out. */
export function toRecordingHar(rec: RecordingContents, redaction: RedactionOptions): Har {
  const redactor = new Redactor(redaction);
  const entries = rec.exchanges.map((x, i) => recordedEntry(x, rec.servers, redactor, i));
  const audit = rec.audit ? redactedAudit(rec.audit, redactor) : undefined;
  return {
    log: {
      version: '1.2',
      creator: { ...HAR_CREATOR },
      entries,
      _recording: {
        format: RECORDING_FORMAT,
        version: RECORDING_VERSION,
        startedDateTime: new Date(rec.startedAt).toISOString(),
        ...(rec.stoppedAt !== undefined ? { stoppedDateTime: new Date(rec.stoppedAt).toISOString() } : {}),
        servers: rec.servers,
        marks: rec.marks.map((m) => ({ time: new Date(m.at).toISOString(), label: m.label })),
        cut: rec.full,
        redaction: { ...redaction, redactions: redactor.report },
        ...(audit ? { audit } : {}),
      },
    },
  };
}

/**
 * The audit events as the file keeps them: each walked by the same redaction as a body sent to the
 * event's request URI (a Secret's path counts as a Secret whatever the event holds). The local
 * control plane's policy already keeps credentials out of its log (Metadata level for Secrets,
 * tokens and token reviews); this covers an imported log whose policy did not.
 */
function redactedAudit(audit: Record<string, AuditEvent[]>, redactor: Redactor): Record<string, AuditEvent[]> {
  const out: Record<string, AuditEvent[]> = {};
  for (const [id, events] of Object.entries(audit)) {
    out[id] = events.map((e, i) => JSON.parse(redactor.body(JSON.stringify(e), { entry: -1, where: `_recording.audit.${id}[${i}]` }, e.requestURI)) as AuditEvent);
  }
  return out;
}

/** Reads a recording file (ours; a plain HAR of ours or a browser's works too, without frames). */
export function fromRecordingHar(input: unknown): RecordingContents & { meta?: RecordingMeta } {
  try {
    return readRecording(input);
  } catch (err) {
    // A file cut short or edited by hand: say what in it cannot be read, not a TypeError's words.
    if (err instanceof RecordingFileError) throw err;
    throw new RecordingFileError(`not a recording this explorer can read (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
}

function readRecording(input: unknown): RecordingContents & { meta?: RecordingMeta } {
  const { entries, meta } = readRecordingLog(input);
  const exchanges = entries.map((e, i): RecordedExchange => {
    try {
      return exchangeOf(e, i, meta);
    } catch (err) {
      if (err instanceof RecordingFileError) throw err;
      throw new RecordingFileError(`entry ${i} cannot be read (${err instanceof Error ? err.message : String(err)})`, { cause: err });
    }
  });
  // The replay's clock is read from these: one that is not a date would stop it (NaN) unseen.
  return {
    exchanges,
    marks: (meta?.marks ?? []).map((m, i) => ({ at: dateOf(m.time, `log._recording.marks[${i}].time`), label: String(m.label) })),
    servers: meta?.servers ?? {},
    startedAt: meta ? dateOf(meta.startedDateTime, 'log._recording.startedDateTime') : Date.parse(exchanges[0]!.startedAt),
    stoppedAt: meta?.stoppedDateTime ? dateOf(meta.stoppedDateTime, 'log._recording.stoppedDateTime') : undefined,
    full: meta?.cut ?? false,
    ...(meta && isObject(meta.audit) ? { audit: auditOf(meta.audit) } : {}),
    meta,
  };
}

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The saved audit events: lists of events by ID; anything else in it is left out. */
function auditOf(audit: object): Record<string, AuditEvent[]> {
  const out: Record<string, AuditEvent[]> = {};
  for (const [id, events] of Object.entries(audit)) {
    if (!Array.isArray(events)) continue;
    const read = events.flatMap((e) => {
      const parsed = parseAuditLine(JSON.stringify(e));
      return 'event' in parsed ? [parsed.event] : [];
    });
    if (read.length) out[id] = read;
  }
  return out;
}

/** A request body as HAR keeps it: text, or base64 (X-ray journals Protobuf and CBOR bodies as sent). */
function requestBodyOf(post: HarEntry['request']['postData']): { body?: string; bodyBytes?: Uint8Array } {
  if (!post?.text) return {};
  return post.encoding === 'base64' ? { body: '', bodyBytes: fromBase64(post.text) } : { body: post.text };
}

/** One HAR entry as a recorded exchange; throws RecordingFileError on what cannot be read. */
function exchangeOf(e: HarEntry, i: number, meta: RecordingMeta | undefined): RecordedExchange {
  const url = new URL(e.request.url);
  const proxied = /^\/k8s\/([^/]+)(\/.*)$/.exec(url.pathname);
  const path = e._apiPath ?? (proxied ? `${proxied[2]}${url.search}` : `${url.pathname}${url.search}`);
  const context = e._context ?? (proxied ? decodeURIComponent(proxied[1]!) : 'recorded');
  const hdrs = (h: HarHeader[] | undefined): HeaderList => (h ?? []).map((x) => [x.name, x.value]);
  const content = e.response?.content;
  const startedAt = dateOf(e.startedDateTime, `entry ${i}: startedDateTime`);
  const chunks: RecordedChunk[] = e._frames
    ? e._frames.map((f, j) => ({ at: dateOf(f.time, `entry ${i}: _frames[${j}].time`), bytes: f.base64 !== undefined ? fromBase64(f.base64) : new TextEncoder().encode(`${f.text ?? ''}\n`) }))
    : content?.text
      ? [{ at: startedAt + (e.time || 0), bytes: content.encoding === 'base64' ? fromBase64(content.text) : new TextEncoder().encode(content.text) }]
      : [];
  const x: RecordedExchange = {
    id: `replay-${i}`,
    context,
    startedAt: e.startedDateTime,
    request: { method: e.request.method, path, headers: hdrs(e.request.headers), ...requestBodyOf(e.request.postData) },
    timings: { totalMs: e.time },
    watch: e._watch ?? false,
    source: 'har',
    via: e._via ?? 'http',
    chunks,
    ...(e._closedByPage ? { closedByReader: true } : {}),
    ...(e._lesson ? { lesson: e._lesson } : {}),
    // Our recordings write _endedDateTime for every body that ended; one without it was still
    // open (never read to its end) and is not a whole answer. Other tools' HAR files hold only
    // whole bodies: they end at startedDateTime + time.
    ...(e._endedDateTime ? { endedAt: dateOf(e._endedDateTime, `entry ${i}: _endedDateTime`) } : e._watch || meta ? {} : { endedAt: startedAt + (e.time || 0) }),
  };
  if (e.response?.status) x.response = { status: e.response.status, statusText: e.response.statusText ?? '', headers: hdrs(e.response.headers), body: new Uint8Array() };
  if (e.response?._error) x.error = e.response._error;
  return x;
}

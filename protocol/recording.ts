// The recording format, one for the page and the proxy: a recording is a HAR 1.2 file, so that
// existing HAR tools (browser developer tools, HAR viewers, validators) read every request and
// response, with our additions in `_`-prefixed fields, which HAR 1.2 reserves for custom data:
// - log._recording: what the file is (format, version), when it started and stopped, the
//   contexts and their servers, the marks (lesson steps, X-ray runs), whether the size limit cut
//   it, and `redaction`: whether it was on, the user's patterns, and every replacement made;
// - entry._context, entry._apiPath, entry._via: the kubeconfig context, the API path as sent,
//   and how the request reached the proxy (the page's HTTP or mux WebSocket, or `xray`: another
//   client through the X-ray endpoint, protocol/xray.ts);
// - entry._frames (watches): the body as it arrived, one frame per event line (NDJSON) or per
//   chunk (binary encodings), each with its arrival time, and the event's type and the object's
//   resourceVersion. HAR has no place for a body's timing (a watch stays open for minutes and its
//   events are the point), and a single content.text would lose when each event came; the frames
//   are the body, so content.text stays empty (its comment says where the body is).
//
// The page writes it from its recorder (src/k8s/record/har.ts) and the proxy from the X-ray
// journal (protocol/xrayJournal.ts); both read it through `readRecordingLog` here. This file is
// pure (no Node, no DOM beyond TextDecoder and URL), as protocol/ must be.

import type { XrayRun } from './xray';
import type { AuditEvent } from './audit';

export interface HarHeader {
  name: string;
  value: string;
}

export interface HarFrame {
  /** ISO 8601 arrival time (in the page, or at the proxy for X-ray). */
  time: string;
  /** The watch event's type, for JSON watches. */
  type?: string;
  /** The event object's metadata.resourceVersion, for JSON watches. */
  resourceVersion?: string;
  /** The event line (without its newline), for JSON watches. */
  text?: string;
  /** The chunk's bytes, for binary watches (protobuf, CBOR). */
  base64?: string;
}

/** The lesson step that sent an exchange. */
export interface LessonStepRef {
  id: string;
  step: string;
}

/** How the request reached the proxy: the page over HTTP or the mux, or another client through X-ray. */
export type RecordingVia = 'http' | 'mux' | 'xray';

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    queryString: HarHeader[];
    postData?: { mimeType: string; text: string; encoding?: 'base64'; comment?: string };
    headersSize: -1;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: [];
    headers: HarHeader[];
    content: { size: number; compression?: number; mimeType: string; text?: string; encoding?: 'base64'; comment?: string };
    redirectURL: '';
    headersSize: -1;
    bodySize: number;
    _error?: string;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _context: string;
  _apiPath: string;
  _upstreamMs?: number;
  _watch?: boolean;
  _stopped?: boolean;
  _via?: RecordingVia;
  _frames?: HarFrame[];
  /** Date the body ended (watches: the stream closed). */
  _endedDateTime?: string;
  /** The body was cut at the recording's or the journal's budget (sizes and counts still whole). */
  _cut?: boolean;
  /** The page (or, for X-ray, the client) closed the stream: the server did not end it. */
  _closedByPage?: boolean;
  /** The lesson step that sent it (also said in `comment`, which HAR tools show). */
  _lesson?: LessonStepRef;
  /** X-ray: the run that sent it (protocol/xray.ts XrayRun.id) and the client's User-Agent. */
  _run?: string;
  /** X-ray: an upgraded stream (exec, attach, port-forward) tunnelled with --allow-exec: bytes each way. */
  _upgrade?: { sentBytes: number; receivedBytes: number };
  /** X-ray: what the whole body held when it was cut: bytes and chunks (frames) in all. */
  _totals?: { bytes: number; chunks: number };
  comment?: string;
}

export const RECORDING_FORMAT = 'kube-api-explorer-recording';
export const RECORDING_VERSION = 1;

export interface RedactionOptions {
  /** false: the user opted out for this recording (the file says so). */
  enabled: boolean;
  /** Regular expressions (JavaScript syntax, matched case-sensitively) whose matches are replaced. */
  patterns: string[];
}

export interface Redaction {
  /** Index of the entry in log.entries. */
  entry: number;
  /** Where in the entry: `request.headers`, `response.content`, `_frames[3]`, ... */
  where: string;
  /** Which rule: secret-data, credential-field, header, bearer, jwt, binary-body, pattern:<source>. */
  rule: string;
  /** The field's path in the body, when it is JSON (`.items[0].data.password`). */
  field?: string;
}

export interface RecordingMeta {
  format: typeof RECORDING_FORMAT;
  version: number;
  startedDateTime: string;
  stoppedDateTime?: string;
  /** Context name → API server URL. */
  servers: Record<string, string>;
  marks: { time: string; label: string }[];
  /** The size limit stopped the recording. */
  cut: boolean;
  redaction: RedactionOptions & { redactions: Redaction[] };
  /** X-ray recordings: the runs their entries name in `_run` (protocol/xray.ts). */
  runs?: XrayRun[];
  /** The audit events of the recorded exchanges, by Audit-Id (issue 46), redacted like the entries. */
  audit?: Record<string, AuditEvent[]>;
}

export interface Har {
  log: { version: '1.2'; creator: { name: string; version: string }; entries: HarEntry[]; _recording?: RecordingMeta };
}

export const HAR_CREATOR = { name: 'Kube API Explorer', version: '0.1.0' } as const;

/** A body's piece with its arrival time (Date.now()); one of text or bytes. */
export interface TimedPiece {
  at: number;
  text?: string;
  bytes?: Uint8Array;
}

/**
 * A watch's chunks as frames: binary bodies (Protobuf, CBOR) one frame per chunk; JSON ones one
 * frame per event line, each with the arrival of the chunk that completed it (kube-apiserver
 * writes one event per line, `application/json;stream=watch`, but a line may span chunks).
 * `binary` is the caller's reading of the Content-Type (the page's codecs, the proxy's rule).
 */
export function framesOf(chunks: readonly TimedPiece[], binary: boolean): { at: number; text?: string; bytes?: Uint8Array }[] {
  if (binary) return chunks.map((c) => ({ at: c.at, bytes: c.bytes ?? new TextEncoder().encode(c.text ?? '') }));
  const out: { at: number; text: string }[] = [];
  const decoder = new TextDecoder();
  let pending = '';
  for (const c of chunks) {
    pending += c.text ?? decoder.decode(c.bytes, { stream: true });
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl).replace(/\r$/, '');
      pending = pending.slice(nl + 1);
      if (line.trim() !== '') out.push({ at: c.at, text: line });
    }
  }
  if (pending.trim() !== '') out.push({ at: chunks[chunks.length - 1]?.at ?? 0, text: pending });
  return out;
}

/** A JSON watch event's type and its object's resourceVersion, when the line parses. */
export function eventFacts(text: string): { type?: string; resourceVersion?: string } {
  try {
    const e = JSON.parse(text) as { type?: string; object?: { metadata?: { resourceVersion?: string } } };
    return { type: e.type, resourceVersion: e.object?.metadata?.resourceVersion };
  } catch {
    return {};
  }
}

export class RecordingFileError extends Error {
  override name = 'RecordingFileError';
}

/** The instant a HAR date names; a recording whose clock cannot be read cannot be replayed. */
export function dateOf(text: unknown, what: string): number {
  const t = typeof text === 'string' ? Date.parse(text) : NaN;
  if (!Number.isFinite(t)) throw new RecordingFileError(`${what} is not a date (${String(text)})`);
  return t;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A recording file's log, its fields checked for their type: one edited by hand is named in the
 * error instead of surfacing later as a replay that answers wrong or a clock that stands still.
 */
export function readRecordingLog(input: unknown): { entries: HarEntry[]; meta?: RecordingMeta } {
  const log = (input as { log?: { entries?: unknown; _recording?: RecordingMeta } } | null)?.log;
  if (!log || !Array.isArray(log.entries)) throw new RecordingFileError('not a HAR file: no log.entries');
  const meta = isObject(log._recording) ? log._recording : undefined;
  if (meta && meta.marks !== undefined && !(Array.isArray(meta.marks) && meta.marks.every(isObject))) throw new RecordingFileError('log._recording.marks is not a list of marks');
  if (meta && meta.servers !== undefined && !(isObject(meta.servers) && Object.values(meta.servers).every((v) => typeof v === 'string'))) throw new RecordingFileError('log._recording.servers is not a map of URLs');
  const entries = log.entries as unknown[];
  if (entries.length === 0) throw new RecordingFileError('the recording holds no exchanges');
  entries.forEach(checkEntry);
  return { entries: entries as HarEntry[], ...(meta ? { meta } : {}) };
}

function checkEntry(e: unknown, i: number): asserts e is HarEntry {
  const bad = (what: string, v: unknown) => new RecordingFileError(`entry ${i}: ${what} (${JSON.stringify(v) ?? String(v)})`);
  if (!isObject(e)) throw bad('not an object', e);
  const req = e.request;
  if (!isObject(req) || typeof req.method !== 'string' || !req.method || typeof req.url !== 'string' || !req.url) throw new RecordingFileError(`entry ${i}: request.method and request.url are required`);
  if (!URL.canParse(req.url)) throw bad('request.url is not a URL', req.url);
  const headers = (v: unknown, what: string) => {
    if (v !== undefined && !(Array.isArray(v) && v.every((h) => isObject(h) && typeof h.name === 'string' && typeof h.value === 'string'))) throw bad(`${what} is not a list of {name, value} strings`, v);
  };
  headers(req.headers, 'request.headers');
  if (req.postData !== undefined && !(isObject(req.postData) && (req.postData.text === undefined || typeof req.postData.text === 'string'))) throw bad('request.postData.text is not a string', req.postData);
  for (const k of ['_apiPath', '_context', '_endedDateTime'] as const) if (e[k] !== undefined && typeof e[k] !== 'string') throw bad(`${k} is not a string`, e[k]);
  if (e.time !== undefined && !(typeof e.time === 'number' && Number.isFinite(e.time))) throw bad('time is not a number', e.time);
  if (e._via !== undefined && e._via !== 'http' && e._via !== 'mux' && e._via !== 'xray') throw bad('_via is not http, mux or xray', e._via);
  const res = e.response;
  if (res !== undefined) {
    if (!isObject(res) || (res.status !== undefined && typeof res.status !== 'number')) throw bad('response.status is not a number', isObject(res) ? res.status : res);
    headers(res.headers, 'response.headers');
    if (res.statusText !== undefined && typeof res.statusText !== 'string') throw bad('response.statusText is not a string', res.statusText);
    if (res._error !== undefined && typeof res._error !== 'string') throw bad('response._error is not a string', res._error);
    const c = res.content;
    if (c !== undefined && !(isObject(c) && (c.text === undefined || typeof c.text === 'string'))) throw bad('response.content.text is not a string', isObject(c) ? c.text : c);
  }
  const frames = e._frames;
  if (frames !== undefined) {
    if (!Array.isArray(frames)) throw bad('_frames is not a list', frames);
    frames.forEach((f: unknown, j) => {
      if (!isObject(f) || (f.text !== undefined && typeof f.text !== 'string') || (f.base64 !== undefined && typeof f.base64 !== 'string')) throw bad(`_frames[${j}] has no text or base64 string`, f);
    });
  }
}

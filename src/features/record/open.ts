// Opening a recording: from the explorer server started with --replay FILE (`server`), from a URL
// of this origin (the sample recording), or from a file the user dropped. The recording then
// answers every request of the page (k8s/record/replay.ts); the console's history shows its
// exchanges.
import { proxyJson } from '../../k8s/client';
import { fromRecordingHar, joinChunks, type ReplaySession, startReplay } from '../../k8s/record';
import { addToHistory } from '../console';

/** Parses a recording and starts replaying it; `at` is milliseconds from its start. */
export function openRecording(json: unknown, source: string, at?: number): ReplaySession {
  const rec = fromRecordingHar(json);
  const session = startReplay(rec, source);
  if (at !== undefined && Number.isFinite(at)) session.seek(session.start + at);
  addToHistory(rec.exchanges.map((x) => (x.response ? { ...x, response: { ...x.response, body: joinChunks(x.chunks) } } : x)));
  return session;
}

/**
 * The URL of `source` when it is a path of `origin` (the sample in the build), else undefined: a
 * link must not make the page fetch from anywhere else. Decided on the URL as the browser resolves
 * it, not on the text: WHATWG URL parsing reads `\` as `/` in http(s) URLs, so `/\host/x.har`
 * is `//host/x.har`, another host, though it starts with one `/`.
 */
export function ownOriginUrl(source: string, origin: string): string | undefined {
  if (!source.startsWith('/')) return undefined;
  let url: URL;
  try {
    url = new URL(source, origin);
  } catch {
    return undefined;
  }
  return url.origin === origin ? url.href : undefined;
}

/** Loads a recording from the explorer server (`server`) or a path of this origin, and opens it. */
export async function openRecordingFrom(source: string, at?: number): Promise<ReplaySession> {
  if (source === 'server') return openRecording(await proxyJson<unknown>('recording'), source, at);
  const url = ownOriginUrl(source, location.origin);
  if (!url) throw new Error(`a recording is opened from this explorer only (got ${source})`);
  const res = await fetch(url, { cache: 'no-store' });
  if (!res.ok) throw new Error(`GET ${source}: HTTP ${res.status}`);
  return openRecording(await res.json(), source, at);
}

/** A link that opens the recording at this moment in this view (`at` in ms from the start). */
export function momentLink(source: string, at: number, search: string): string {
  const p = new URLSearchParams(search);
  p.set('replay', source);
  p.set('at', String(Math.round(at)));
  return `${location.origin}${location.pathname}?${p.toString()}`;
}

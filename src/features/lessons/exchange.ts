// What a lesson step sent and what came back. A lesson's point is the exact request and the
// server's real answer, so a non-2xx response is a result to show (the 409 of an apply conflict
// is the lesson), not an exception.
import { decodeText, runExchange } from '../../k8s/client';
import { formatPath, parseFieldsV1 } from '../../k8s/fields';
import { draftToExtra, requestToDraft } from '../console';

export interface LessonExchange {
  method: string;
  /** API path with its query, as sent. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
  /** Parsed JSON body, or the text when it was not JSON. */
  response: unknown;
  /** Where it was sent and the response's headers (Audit-Id): the audit panel finds its events by them. */
  context?: string;
  responseHeaders?: Record<string, string>;
}

export async function send(
  context: string,
  method: string,
  path: string,
  opts: { body?: unknown; contentType?: string; signal?: AbortSignal } = {},
): Promise<LessonExchange> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body, null, 2);
    headers['Content-Type'] = opts.contentType ?? 'application/json';
  }
  // Through the one exchange recorder; a request that got no answer at all (refused before sending,
  // network failure) is an error here, not a result.
  const x = await runExchange(context, { method, path, headers: Object.entries(headers), body }, { signal: opts.signal });
  if (!x.response) throw new Error(x.error ?? 'no response');
  const text = decodeText(x.response.body);
  let response: unknown = text;
  try {
    response = JSON.parse(text);
  } catch {
    // Not JSON (a proxy page, an empty body): keep the text as it came.
  }
  return { method, path, headers, body, status: x.response.status, response, context, responseHeaders: Object.fromEntries(x.response.headers.map(([k, v]) => [k.toLowerCase(), v])) };
}

/** Console URL keys for the same request, so that a step can be replayed and varied there. */
export function consoleExtra(x: Pick<LessonExchange, 'method' | 'path' | 'headers' | 'body'>): Record<string, string> {
  return draftToExtra(requestToDraft({ method: x.method, path: x.path, headers: Object.entries(x.headers), body: x.body }));
}

/** Reads a nested field without trusting the shape of what the server sent. */
export function pick(v: unknown, ...path: string[]): unknown {
  let cur = v;
  for (const k of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/**
 * Namespace names for a lesson: lesson-<topic>-<5 random chars>. Random so that two tabs (or two
 * people on one cluster) never share one; the prefix says who made it.
 */
export function scratchName(topic: string, random: () => number = Math.random): string {
  const chars = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 5; i++) s += chars[Math.floor(random() * chars.length)];
  return `lesson-${topic}-${s}`;
}

/** The label every lesson-created object carries, so a lesson can select its own objects. */
export const LESSON_LABEL = 'explorer.lessons/lesson';

/** managedFields reduced to manager, operation and the field paths each entry owns. */
export function ownership(obj: unknown): { manager: string; operation: string; time?: string; fields: string[] }[] {
  const entries = (pick(obj, 'metadata', 'managedFields') as { manager?: string; operation?: string; time?: string; fieldsV1?: unknown }[] | undefined) ?? [];
  return entries.map((e) => ({ manager: e.manager ?? '', operation: e.operation ?? '', time: e.time, fields: parseFieldsV1(e.fieldsV1).owned.map(formatPath) }));
}

// The request being composed, and how it lives in the URL (so a console request can be bookmarked
// and shared): `m` method, `p` path, `q.<name>` query parameters, `h.<name>` headers, `body`.
import type { ExchangeRequest, HeaderList } from '../../k8s/client';

export interface Draft {
  method: string;
  /** Path without query string. */
  path: string;
  params: [string, string][];
  headers: HeaderList;
  body: string;
}

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

export const DEFAULT_DRAFT: Draft = { method: 'GET', path: '/api/v1/namespaces', params: [], headers: [['Accept', 'application/json']], body: '' };

export function draftFromExtra(extra: Record<string, string>): Draft {
  if (!('p' in extra) && !('m' in extra)) return { ...DEFAULT_DRAFT };
  const params: [string, string][] = [];
  const headers: HeaderList = [];
  for (const [k, v] of Object.entries(extra)) {
    if (k.startsWith('q.')) params.push([k.slice(2), v]);
    else if (k.startsWith('h.')) headers.push([k.slice(2), v]);
  }
  let path = extra.p ?? '/';
  // A path pasted with its query string: move the query into parameter rows.
  const qi = path.indexOf('?');
  if (qi >= 0) {
    for (const [k, v] of new URLSearchParams(path.slice(qi + 1))) params.push([k, v]);
    path = path.slice(0, qi);
  }
  return { method: (extra.m ?? 'GET').toUpperCase(), path, params, headers, body: extra.body ?? '' };
}

export function draftToExtra(d: Draft): Record<string, string> {
  const extra: Record<string, string> = { m: d.method, p: d.path };
  for (const [k, v] of d.params) if (k) extra[`q.${k}`] = v;
  for (const [k, v] of d.headers) if (k) extra[`h.${k}`] = v;
  if (d.body) extra.body = d.body;
  return extra;
}

/** The exact request: path with its query string, headers with a name. */
export function draftToRequest(d: Draft): ExchangeRequest {
  const q = new URLSearchParams();
  for (const [k, v] of d.params) if (k) q.append(k, v);
  const qs = q.toString();
  // A query still in the path box (typed, not yet moved to the rows) is sent with the rows'.
  const sep = d.path.includes('?') ? (d.path.endsWith('?') || d.path.endsWith('&') ? '' : '&') : '?';
  const req: ExchangeRequest = { method: d.method, path: `${d.path}${qs ? `${sep}${qs}` : ''}`, headers: d.headers.filter(([k, v]) => k && v) };
  if (d.body && d.method !== 'GET' && d.method !== 'HEAD') req.body = d.body;
  return req;
}

export function requestToDraft(r: ExchangeRequest): Draft {
  const [path, qs] = r.path.split('?', 2) as [string, string | undefined];
  return { method: r.method, path, params: [...new URLSearchParams(qs ?? '')], headers: r.headers.map(([k, v]) => [k, v]), body: r.body ?? '' };
}

export interface ParamSpec {
  name: string;
  kind: 'text' | 'number' | 'bool' | 'enum';
  values?: string[];
  help: string;
}

/** The query parameters the API defines, with typed controls (API concepts and the query options of list/watch/write). */
export const PARAM_SPECS: ParamSpec[] = [
  { name: 'resourceVersion', kind: 'text', help: 'opaque version to read at or watch from ("0" = any cached version)' },
  { name: 'resourceVersionMatch', kind: 'enum', values: ['NotOlderThan', 'Exact'], help: 'how resourceVersion is interpreted for a list' },
  { name: 'limit', kind: 'number', help: 'page size for a chunked list' },
  { name: 'continue', kind: 'text', help: 'token from metadata.continue of the previous page' },
  { name: 'labelSelector', kind: 'text', help: 'e.g. app=web,tier!=db or env in (a,b)' },
  { name: 'fieldSelector', kind: 'text', help: 'e.g. metadata.name=x, status.phase=Running' },
  { name: 'watch', kind: 'bool', help: 'stream changes instead of returning a list' },
  { name: 'allowWatchBookmarks', kind: 'bool', help: 'let the server send BOOKMARK events' },
  { name: 'sendInitialEvents', kind: 'bool', help: 'streaming list: current state as ADDED events first (needs resourceVersionMatch=NotOlderThan)' },
  { name: 'timeoutSeconds', kind: 'number', help: 'end a list or watch after this many seconds' },
  { name: 'dryRun', kind: 'enum', values: ['All'], help: 'run admission and validation, store nothing' },
  { name: 'fieldManager', kind: 'text', help: 'name of the actor that owns the written fields (required for apply)' },
  { name: 'fieldValidation', kind: 'enum', values: ['Ignore', 'Warn', 'Strict'], help: 'what to do with unknown or duplicate fields' },
  { name: 'force', kind: 'bool', help: 'server-side apply: take ownership of conflicting fields' },
  { name: 'propagationPolicy', kind: 'enum', values: ['Orphan', 'Background', 'Foreground'], help: 'delete: what happens to dependents' },
  { name: 'gracePeriodSeconds', kind: 'number', help: 'delete: seconds before the object is removed' },
  { name: 'includeObject', kind: 'enum', values: ['None', 'Metadata', 'Object'], help: 'Table: what each row carries' },
  { name: 'pretty', kind: 'bool', help: 'indent the JSON response' },
];

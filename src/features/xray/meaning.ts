// What a request of another client means, in a sentence, and the lesson that explains it: the
// verb the API server authorizes it as (the console's requestAttributes, one reading of a path for
// both views) and the query parameters and media types that change what the request does.
import { requestAttributes } from '../console';
import { headerValue, type ExchangeRequest } from '../../k8s/client';

export interface Meaning {
  sentence: string;
  /** Lesson ids of the lessons that explain it. */
  lessons: string[];
}

/** The patch types of `PATCH` (API concepts: patch operations), by Content-Type. */
const PATCH_TYPES: Record<string, { what: string; lesson: string }> = {
  'application/apply-patch+yaml': { what: 'a server-side apply: the body is the whole intent, the server merges it and records who owns each field', lesson: 'server-side-apply' },
  'application/apply-patch+cbor': { what: 'a server-side apply in CBOR', lesson: 'server-side-apply' },
  'application/strategic-merge-patch+json': { what: 'a strategic merge patch (what client-side `kubectl apply` sends: its three-way diff against the last-applied annotation)', lesson: 'updates' },
  'application/merge-patch+json': { what: 'a JSON merge patch (RFC 7386)', lesson: 'updates' },
  'application/json-patch+json': { what: 'a JSON Patch (RFC 6902): a list of operations', lesson: 'updates' },
};

export function meaningOf(r: ExchangeRequest): Meaning {
  const [path] = r.path.split('?', 1) as [string];
  const q = new URLSearchParams(r.path.split('?')[1] ?? '');
  const attrs = requestAttributes(r.method, r.path);
  const lessons: string[] = [];
  const parts: string[] = [];
  if (!attrs) {
    if (/^\/(api|apis)(\/[^/]+){0,2}\/?$/.test(path) && r.method === 'GET') {
      parts.push('discovery: which groups, versions and resources this server serves (kubectl caches the answer)');
      lessons.push('api-groups');
    } else if (path.startsWith('/openapi/')) parts.push('the OpenAPI schema (kubectl reads it for `explain` and client-side validation)');
    else if (/^\/(readyz|livez|healthz|version)/.test(path)) {
      parts.push('a health or version check');
      lessons.push('health');
    } else parts.push(`${r.method} on a path that names no resource`);
    return { sentence: parts.join('; '), lessons };
  }
  const what = `${attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource}${attrs.name ? ` ${attrs.name}` : ''}${attrs.namespace ? ` in ${attrs.namespace}` : attrs.name || attrs.verb === 'create' ? '' : ' in every namespace'}`;
  parts.push(`${attrs.verb} ${what}`);
  if (attrs.verb === 'watch') {
    lessons.push('watch');
    if (q.get('sendInitialEvents') === 'true') {
      parts.push('a streaming list: the current state as ADDED events, then a BOOKMARK annotated k8s.io/initial-events-end');
      lessons.push('streaming-lists');
    } else if (q.get('resourceVersion')) parts.push(`from resourceVersion ${q.get('resourceVersion')}`);
    if (q.get('allowWatchBookmarks') === 'true') lessons.push('bookmarks');
  }
  if (attrs.verb === 'list') {
    if (q.get('limit')) {
      parts.push(`in pages of ${q.get('limit')}${q.get('continue') ? ', a following page' : ''}`);
      lessons.push('chunked-lists');
    }
    if (q.get('resourceVersion') === '0') parts.push('from the watch cache (resourceVersion=0: any version, may be stale)');
    lessons.push('collections');
  }
  if (r.method === 'PATCH') {
    const type = (headerValue(r.headers, 'Content-Type') ?? '').split(';')[0]!.trim().toLowerCase();
    const p = PATCH_TYPES[type];
    if (p) {
      parts.push(p.what);
      lessons.push(p.lesson);
    }
  }
  if (q.get('fieldManager')) {
    parts.push(`field manager ${q.get('fieldManager')}`);
    lessons.push('managed-fields');
  }
  if (q.get('dryRun')) {
    parts.push('dry run: admitted and validated, not stored');
    lessons.push('dry-run');
  }
  if (q.get('fieldValidation')) {
    parts.push(`fieldValidation=${q.get('fieldValidation')}`);
    lessons.push('field-validation');
  }
  if (attrs.verb === 'delete' || attrs.verb === 'deletecollection') lessons.push('deletion');
  if (/as=Table/.test(headerValue(r.headers, 'Accept') ?? '')) {
    parts.push('asks for a Table (columns as kubectl prints them)');
    lessons.push('tables');
  }
  if (/protobuf/.test(headerValue(r.headers, 'Accept') ?? '')) {
    parts.push('accepts Protobuf');
    lessons.push('media-types');
  }
  return { sentence: parts.join('; '), lessons: [...new Set(lessons)] };
}

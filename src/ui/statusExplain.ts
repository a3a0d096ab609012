// One sentence for a Status: what happened, read from its code, reason, details and causes, and
// the lesson that teaches it. Every place that shows a Status shows this (StatusView).

/**
 * The fields of a metav1.Status that this module and StatusView read. ui/ declares the shape it
 * draws rather than importing the client (ARCHITECTURE.md: ui imports codecs only); k8s/client's
 * `Status` is one.
 */
export interface StatusShape {
  kind?: string;
  apiVersion?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: { reason?: string; message?: string; field?: string }[];
    retryAfterSeconds?: number;
  };
}

export interface StatusExplanation {
  sentence: string;
  /** Lesson id (`?view=lessons&lesson=<id>`). */
  lesson?: string;
}

function what(s: StatusShape): string {
  const d = s.details;
  if (!d?.kind && !d?.name) return 'the object';
  const kind = d.kind ? (d.group ? `${d.kind}.${d.group}` : d.kind) : 'object';
  return d.name ? `${kind} "${d.name}"` : kind;
}

export function explainStatus(s: StatusShape): StatusExplanation {
  const code = s.code;
  const reason = s.reason ?? '';
  const message = s.message ?? '';
  const causes = s.details?.causes ?? [];
  if (code === 401 || reason === 'Unauthorized') return { sentence: 'The server did not recognise the credentials: nobody was authenticated, so nothing was authorized.' };
  if (message.includes('ValidatingAdmissionPolicy') && message.includes('denied request'))
    return { sentence: 'A ValidatingAdmissionPolicy refused the request (authorization had passed); the message names the policy, its binding and the rule\'s message.', lesson: 'cel-validation' };
  // kube-apiserver 1.37.1: a DELETE with ignoreStoreReadErrorWithClusterBreakingPotential by a user who may delete but lacks the special verb.
  if (message.includes('unsafe-delete-ignore-read-errors'))
    return { sentence: 'Deleting with ignoreStoreReadErrorWithClusterBreakingPotential needs the verb unsafe-delete-ignore-read-errors on this resource, on top of delete.', lesson: 'force-deletion' };
  // A stored object the server cannot decode or decrypt: its reads (500) and its type's lists (429 from the watch cache, or 500) fail.
  if (message.includes('corrupt object'))
    return {
      sentence: 'An object of this type is stored in a form the server cannot read (undecodable, or encrypted with a key it lacks): reads and plain deletes of it fail, and so do lists of its type. A DELETE with ignoreStoreReadErrorWithClusterBreakingPotential removes it without reading it.',
      lesson: 'force-deletion',
    };
  if (code === 403 || reason === 'Forbidden') {
    return { sentence: 'The authorizer refused this verb on this resource for your user; the message names the verb and the resource, and a Role granting them would allow it.', lesson: 'verbs' };
  }
  if (code === 404 || reason === 'NotFound') {
    if (s.details?.name) return { sentence: `No ${what(s)} exists here (never created, or already deleted).`, lesson: 'api-terminology' };
    return { sentence: 'This path does not exist on this server: a resource type it does not serve, or an API version that was removed.', lesson: 'api-groups' };
  }
  if (code === 405 || reason === 'MethodNotAllowed') return { sentence: 'This resource does not support this verb; discovery lists the verbs it has.', lesson: 'verbs' };
  if (code === 406 || reason === 'NotAcceptable') return { sentence: 'The server cannot answer in the media type the Accept header asked for.', lesson: 'media-types' };
  if (code === 409 && reason === 'AlreadyExists') return { sentence: `${what(s)} exists already: a create never overwrites (generateName picks a free name).`, lesson: 'dry-run' };
  if (code === 409 || reason === 'Conflict') {
    if (causes.some((c) => c.reason === 'FieldManagerConflict')) return { sentence: 'Server-Side Apply stopped: another field manager owns fields this apply would change; the causes name them. Apply with force=true to take them over.', lesson: 'server-side-apply' };
    return { sentence: `${what(s)} changed since the resourceVersion this write carried: read it again and redo the change.`, lesson: 'updates' };
  }
  if (code === 410 || reason === 'Expired' || reason === 'Gone') return { sentence: 'The version this read or watch asked for is older than the history the server keeps (compacted): start again from a fresh list.', lesson: 'rv-lab' };
  if (code === 415 || reason === 'UnsupportedMediaType') return { sentence: 'The server does not accept this Content-Type here (strategic merge patch on a custom resource, for one): pick another patch type.', lesson: 'updates' };
  if (code === 422 || reason === 'Invalid') {
    if (message.includes('resourceVersionMatch') || message.includes('sendInitialEvents')) return { sentence: 'The read parameters do not go together; the causes name the offending one.', lesson: 'rv-lab' };
    const fields = causes.map((c) => c.field).filter(Boolean);
    return { sentence: `The object failed validation${fields.length ? ` at ${fields.join(', ')}` : ''}; nothing was stored.`, lesson: 'field-validation' };
  }
  if (code === 400 || reason === 'BadRequest') {
    if (message.includes('strict decoding error')) return { sentence: 'fieldValidation=Strict refused unknown or duplicate fields in the body; nothing was stored.', lesson: 'field-validation' };
    if (message.includes('continue') || message.includes('resourceVersion')) return { sentence: 'These read parameters do not go together.', lesson: 'rv-lab' };
    return { sentence: 'The server could not make sense of the request (its body or its parameters).' };
  }
  if (code === 429 || reason === 'TooManyRequests') return { sentence: `The server asks you to slow down${s.details?.retryAfterSeconds !== undefined ? ` and retry after ${s.details.retryAfterSeconds} s` : ''}.` };
  if (code === 504 || reason === 'Timeout') {
    if (message.includes('Too large resource version')) return { sentence: 'The read named a resourceVersion the server has not reached yet; it waited, then gave up. Retry later or read without a version.', lesson: 'consistent-reads' };
    return { sentence: 'The server did not finish in time; the request may or may not have taken effect.' };
  }
  if (code === 500 || reason === 'InternalError') return { sentence: 'The server failed while handling the request; the message is all it says.' };
  if (code === 503 || reason === 'ServiceUnavailable') return { sentence: 'The server (or an aggregated API behind it) is not ready to serve this now.' };
  return { sentence: s.status === 'Success' ? 'The server reports success.' : `The server refused the request${reason ? ` (${reason})` : ''}.` };
}

/** The lesson's address, keeping the current context. `ui` does not import the app's router. */
export function lessonHref(lesson: string, search: string = typeof location === 'undefined' ? '' : location.search): string {
  const p = new URLSearchParams();
  const ctx = new URLSearchParams(search).get('context');
  if (ctx) p.set('context', ctx);
  p.set('view', 'lessons');
  p.set('lesson', lesson);
  return `?${p.toString()}`;
}

// One sentence for a Status: what happened, read from its code, reason, details and causes, and
// the lesson that teaches it. Every place that shows a Status shows this (StatusView).
//
// Each rule names the cases it covers (`covers`), and features/lessons/statusExplain.server.test.ts provokes every
// case it can on the real local control plane and checks that this rule, and no other, is chosen.

import type { Status } from '../../protocol/kubeStatus';

/**
 * The fields of a metav1.Status that this module and StatusView read: the one declaration in
 * protocol/ (what the server and the proxy send), loosened for the partial bodies a view may hold.
 */
export type StatusShape = Partial<Status>;

export interface StatusExplanation {
  sentence: string;
  /** Lesson id (`?view=lessons&lesson=<id>`). */
  lesson?: string;
  /** Which rule of STATUS_RULES chose the sentence. */
  rule: string;
}

interface Rule {
  id: string;
  /** The situations this rule is meant for, in words: what the server did to answer this way. */
  covers: string;
  match: (s: StatusShape, m: string) => boolean;
  explain: (s: StatusShape) => { sentence: string; lesson?: string };
}

function what(s: StatusShape): string {
  const d = s.details;
  if (!d?.kind && !d?.name) return 'the object';
  const kind = d.kind ? (d.group ? `${d.kind}.${d.group}` : d.kind) : 'object';
  return d.name ? `${kind} "${d.name}"` : kind;
}

const is = (s: StatusShape, code: number, ...reasons: string[]) => s.code === code || reasons.includes(s.reason ?? '');
const retry = (s: StatusShape) => (s.details?.retryAfterSeconds !== undefined ? ` (it asks for a retry after ${s.details.retryAfterSeconds} s)` : '');

const PROXY_SENTENCES: Record<string, string> = {
  CredentialsFailed: "The explorer server could not get this context's credentials from the kubeconfig (an exec plugin, an auth-provider or a token file failed), so the request was not sent: the cluster said nothing. The message says what failed.",
  CredentialsPending: "The explorer server is still waiting for this context's credentials (its exec plugin runs; a login may be waiting for you), so the request was not sent yet; it is tried again.",
  TLSFailure: "TLS between the explorer server and the API server failed with the kubeconfig's settings (its CA, tls-server-name or client certificate), so nothing was sent: the cluster's readiness is unknown.",
  ClusterUnreachable: "The explorer server could not reach the API server at the kubeconfig's address: no cluster answered.",
  InvalidKubeconfig: 'The kubeconfig does not allow this context as written (kubectl refuses it too), so nothing was sent: the message says what to change.',
  UpstreamTimeout: 'The API server accepted the connection but did not answer in time: it may be overloaded or stopped.',
};

export const STATUS_RULES: Rule[] = [
  {
    id: 'replay',
    covers: 'A replayed recording (k8s/record/replay.ts) answering for the cluster: a read it does not hold (404), a write refused (405). No server said either.',
    match: (s, m) => (s.code === 404 && m.startsWith('not in the recording:')) || (s.code === 405 && m.startsWith('a replay is read-only:')),
    explain: (s) => ({
      sentence:
        s.code === 404
          ? 'The recording holds no answer to this request: it was not sent while recording. This says nothing about the cluster.'
          : 'A replay is read-only: this request was not sent anywhere. This says nothing about what the cluster allows.',
    }),
  },
  {
    // The explorer server's own Status (proxy/src/errors.ts: details.kind "proxy", the cause's
    // reason says what failed). Its 502s carry reason ServiceUnavailable, which the 'unavailable'
    // rule below read as "the server is not ready" although no cluster said anything.
    id: 'explorer-proxy',
    covers: 'The explorer server answered for the cluster (details.kind "proxy"): credentials it could not get, a TLS failure, an unreachable server, a kubeconfig it refuses, a credential plugin still running.',
    match: (s) => s.details?.kind === 'proxy' && Object.hasOwn(PROXY_SENTENCES, s.details.causes?.[0]?.reason ?? ''),
    explain: (s) => ({ sentence: PROXY_SENTENCES[s.details?.causes?.[0]?.reason ?? ''] ?? 'The explorer server answered for the cluster; the cluster itself said nothing.' }),
  },
  {
    id: 'unauthorized',
    covers: '401: no credentials, or credentials no authenticator accepts (an expired token, a certificate from another CA).',
    match: (s) => is(s, 401, 'Unauthorized'),
    explain: () => ({ sentence: 'The server did not recognise the credentials: nobody was authenticated, so nothing was authorized.' }),
  },
  {
    id: 'admission-policy',
    covers: 'A ValidatingAdmissionPolicy with a Deny binding refused the write (422 Invalid by default, or the code of the reason the policy names).',
    match: (_, m) => m.includes('ValidatingAdmissionPolicy') && m.includes('denied request'),
    explain: () => ({ sentence: "A ValidatingAdmissionPolicy refused the request (authorization had passed); the message names the policy, its binding and the rule's message.", lesson: 'cel-validation' }),
  },
  {
    // kube-apiserver 1.37.1: a DELETE with ignoreStoreReadErrorWithClusterBreakingPotential by a user who may delete but lacks the special verb.
    id: 'unsafe-delete-forbidden',
    covers: '403: a DELETE with ignoreStoreReadErrorWithClusterBreakingPotential by a user without the verb unsafe-delete-ignore-read-errors.',
    match: (_, m) => m.includes('unsafe-delete-ignore-read-errors'),
    explain: () => ({ sentence: 'Deleting with ignoreStoreReadErrorWithClusterBreakingPotential needs the verb unsafe-delete-ignore-read-errors on this resource, on top of delete.', lesson: 'force-deletion' }),
  },
  {
    // etcd3 store.go (1.37.1): the unsafe deleter reads with ExpectTransformOrDecodeError, and an
    // object that decodes cleanly is an InvalidObjError, which InterpretDeleteError turns into 409.
    id: 'unsafe-delete-readable',
    covers: '409: a DELETE with ignoreStoreReadErrorWithClusterBreakingPotential of an object the server can read: the option only deletes corrupt objects.',
    match: (s, m) => is(s, 409, 'Conflict') && m.includes('unsafe deletion is not allowed'),
    explain: () => ({
      sentence: 'ignoreStoreReadErrorWithClusterBreakingPotential only removes an object the server cannot read; this one reads fine, so nothing was deleted. Delete it without the option.',
      lesson: 'force-deletion',
    }),
  },
  {
    // A stored object the server cannot decode or decrypt: its reads (500) and its type's lists (429 from the watch cache, or 500) fail.
    id: 'corrupt-object',
    covers: '500 on a read or plain delete of an object stored in a form the server cannot decode or decrypt; 429 on lists of its type while the watch cache cannot load it (the message names the object).',
    match: (_, m) => m.includes('corrupt object'),
    explain: () => ({
      sentence:
        'An object of this type is stored in a form the server cannot read (undecodable, or encrypted with a key it lacks): reads and plain deletes of it fail, and so do lists of its type. A DELETE with ignoreStoreReadErrorWithClusterBreakingPotential removes it; that option refuses objects that read fine.',
      lesson: 'force-deletion',
    }),
  },
  {
    id: 'namespace-terminating',
    covers: '403 from admission (NamespaceLifecycle): a create in a namespace that is being deleted.',
    match: (s, m) => is(s, 403, 'Forbidden') && m.includes('because it is being terminated'),
    explain: () => ({ sentence: 'The namespace is being deleted: admission refuses anything new in it until it is gone (authorization had passed).', lesson: 'deletion' }),
  },
  {
    id: 'resource-quota',
    covers: '403 from admission (ResourceQuota): the write would take usage past a quota of the namespace, or the quota has not been counted yet.',
    match: (s, m) => is(s, 403, 'Forbidden') && (m.includes('exceeded quota') || m.includes('status unknown for quota')),
    explain: () => ({ sentence: 'A ResourceQuota of this namespace refused the write (admission, after authorization passed): the message names the quota, what was asked, used and allowed.' }),
  },
  {
    id: 'pod-security',
    covers: '403 from admission (PodSecurity): a pod that breaks the level its namespace enforces (pod-security.kubernetes.io/enforce).',
    match: (s, m) => is(s, 403, 'Forbidden') && m.includes('violates PodSecurity'),
    explain: () => ({ sentence: "The namespace's Pod Security level refused this pod (admission, after authorization passed): the message lists each setting that breaks it." }),
  },
  {
    id: 'webhook-denied',
    covers: 'An admission webhook said no (the code is the one the webhook chose, often 403).',
    match: (_, m) => m.includes('admission webhook') && m.includes('denied the request'),
    explain: () => ({ sentence: 'An admission webhook refused the request (authorization had passed); the message is what the webhook said.' }),
  },
  {
    // The webhook dispatcher's ErrCallingWebhook under failurePolicy Fail: `failed calling webhook "<name>": failed to call webhook: …`.
    id: 'webhook-unreachable',
    covers: '500 from admission: kube-apiserver could not call a webhook whose failurePolicy is Fail (seen here: its Service does not exist), dry runs included.',
    match: (s, m) => is(s, 500, 'InternalError') && m.includes('failed calling webhook'),
    explain: () => ({ sentence: 'An admission webhook could not be called and its failurePolicy is Fail, so the request was refused; the message names the webhook and why the call failed.', lesson: 'webhook-side-effects' }),
  },
  {
    // RBAC's denial (pkg/endpoints/handlers/responsewriters/errors.go): `User "u" cannot <verb> resource "r" …`.
    id: 'forbidden-authorizer',
    covers: '403 from the authorizer (RBAC and the others): the user may not do this verb on this resource or path.',
    match: (s, m) => is(s, 403, 'Forbidden') && /cannot [^ ]+ (resource|path)/.test(m),
    explain: () => ({ sentence: 'The authorizer refused this verb on this resource for your user; the message names the verb and the resource, and a Role granting them would allow it.', lesson: 'verbs' }),
  },
  {
    id: 'forbidden-other',
    covers: '403 that names neither an authorizer denial nor an admission plugin this explorer knows: read the message.',
    match: (s) => is(s, 403, 'Forbidden'),
    explain: () => ({ sentence: 'The request was refused with 403: by the authorizer or by an admission check after it. The message says which.', lesson: 'verbs' }),
  },
  {
    id: 'not-found-object',
    covers: '404 naming an object: it was never created, or was deleted.',
    match: (s) => is(s, 404, 'NotFound') && Boolean(s.details?.name),
    explain: (s) => ({ sentence: `No ${what(s)} exists here (never created, or already deleted).`, lesson: 'api-terminology' }),
  },
  {
    id: 'not-found-path',
    covers: '404 naming no object: a path the server does not serve (an unknown type, a removed API version).',
    match: (s) => is(s, 404, 'NotFound'),
    explain: () => ({ sentence: 'This path does not exist on this server: a resource type it does not serve, or an API version that was removed.', lesson: 'api-groups' }),
  },
  {
    id: 'method-not-allowed',
    covers: '405: a verb the resource does not have (a PUT to a collection, a POST to a read-only type).',
    match: (s) => is(s, 405, 'MethodNotAllowed'),
    explain: () => ({ sentence: 'This resource does not support this verb; discovery lists the verbs it has.', lesson: 'verbs' }),
  },
  {
    id: 'not-acceptable',
    covers: '406: an Accept header naming no encoding this endpoint has (an unknown type, Protobuf of a custom resource, metadata-only from an aggregated API that does not offer it).',
    match: (s) => is(s, 406, 'NotAcceptable'),
    explain: () => ({ sentence: 'The server cannot answer in the media type the Accept header asked for; the message lists those it can.', lesson: 'media-types' }),
  },
  {
    id: 'already-exists',
    covers: '409 AlreadyExists: a create (POST) of a name that is taken.',
    match: (s) => s.code === 409 && s.reason === 'AlreadyExists',
    explain: (s) => ({ sentence: `${what(s)} exists already: a create never overwrites (generateName picks a free name).`, lesson: 'generate-name' }),
  },
  {
    id: 'apply-conflict',
    covers: '409 from Server-Side Apply: another field manager owns a field this apply sets to another value.',
    match: (s) => is(s, 409, 'Conflict') && (s.details?.causes ?? []).some((c) => c.reason === 'FieldManagerConflict'),
    explain: () => ({ sentence: 'Server-Side Apply stopped: another field manager owns fields this apply would change; the causes name them. Apply with force=true to take them over.', lesson: 'server-side-apply' }),
  },
  {
    id: 'conflict',
    covers: '409 Conflict: a write (PUT, or a PATCH or apply whose body carries metadata.resourceVersion) based on a version that is no longer current.',
    match: (s) => is(s, 409, 'Conflict'),
    explain: (s) => ({ sentence: `${what(s)} changed since the resourceVersion this write carried: read it again and redo the change.`, lesson: 'updates' }),
  },
  {
    id: 'gone',
    covers: "410 Gone / Expired: a watch from a version older than the watch cache's window, a list at an exact version or a continue token older than etcd's compacted history.",
    match: (s) => is(s, 410, 'Expired', 'Gone'),
    explain: () => ({
      sentence: 'The version this read or watch asked for is older than the history the server still keeps (the watch cache holds a bounded window of recent changes; etcd forgets what it compacted): start again from a fresh list.',
      lesson: 'rv-lab',
    }),
  },
  {
    id: 'unsupported-media-type',
    covers: '415: a Content-Type the endpoint does not take (strategic merge patch on a custom resource, for one).',
    match: (s) => is(s, 415, 'UnsupportedMediaType'),
    explain: () => ({ sentence: 'The server does not accept this Content-Type here (strategic merge patch on a custom resource, for one): pick another patch type.', lesson: 'updates' }),
  },
  {
    id: 'invalid-read',
    covers: '422 on a read: parameters that do not go together (resourceVersionMatch without resourceVersion, sendInitialEvents without watch).',
    match: (s, m) => is(s, 422, 'Invalid') && (m.includes('resourceVersionMatch') || m.includes('sendInitialEvents')),
    explain: () => ({ sentence: 'The read parameters do not go together; the causes name the offending one.', lesson: 'rv-lab' }),
  },
  {
    // apiserver endpoints/handlers/patch.go (1.37.1): when jsonpatch's Apply fails (a `test` whose
    // value differs, an operation on a path that is not there) the error becomes
    // NewGenericServerResponse(422, …) with isUnexpectedResponse=false, which keeps only this generic
    // message: no cause, no field, nothing saying which operation failed.
    id: 'json-patch-not-applied',
    covers: '422 with the generic message and no causes: a JSON Patch the server could not apply to the object (a `test` that does not hold, a path that is not there).',
    match: (s, m) => is(s, 422, 'Invalid') && m === 'the server rejected our request due to an error in our request' && !(s.details?.causes ?? []).length,
    explain: () => ({
      sentence:
        'The JSON Patch could not be applied to the object: one of its operations failed, a `test` whose value did not match or a path that is not there (the server does not say which). The object was not validated and nothing was stored.',
      lesson: 'updates',
    }),
  },
  {
    id: 'invalid',
    covers: '422 Invalid: an object that fails validation (a bad name, a field out of range, a CEL rule).',
    match: (s) => is(s, 422, 'Invalid'),
    explain: (s) => {
      const fields = (s.details?.causes ?? []).map((c) => c.field).filter(Boolean);
      return { sentence: `The object failed validation${fields.length ? ` at ${fields.join(', ')}` : ''}; nothing was stored.`, lesson: 'field-validation' };
    },
  },
  {
    id: 'strict-decoding',
    covers: '400 from fieldValidation=Strict: unknown or duplicate fields in the body.',
    match: (s, m) => is(s, 400, 'BadRequest') && m.includes('strict decoding error'),
    explain: () => ({ sentence: 'fieldValidation=Strict refused unknown or duplicate fields in the body; nothing was stored.', lesson: 'field-validation' }),
  },
  {
    id: 'bad-read-params',
    covers: '400 on a read: a continue token or resourceVersion the server cannot use as given.',
    match: (s, m) => is(s, 400, 'BadRequest') && (m.includes('continue') || m.includes('resourceVersion')),
    explain: () => ({ sentence: 'These read parameters do not go together.', lesson: 'rv-lab' }),
  },
  {
    id: 'bad-request',
    covers: '400: a body the server could not decode, or parameters it could not parse.',
    match: (s) => is(s, 400, 'BadRequest'),
    explain: () => ({ sentence: 'The server could not make sense of the request (its body or its parameters).' }),
  },
  {
    // cacher.go: until the watch cache of a type has loaded, reads it would serve answer 429
    // "storage is (re)initializing" with retryAfterSeconds.
    id: 'cache-initializing',
    covers: "429 from the watch cache: the cache of this type is still (re)loading, after a start or after it lost etcd's stream.",
    match: (s, m) => is(s, 429, 'TooManyRequests') && m.includes('initializing'),
    explain: (s) => ({ sentence: `The server's watch cache for this type is still loading, so it cannot serve the read yet${retry(s)}. It is not about your request rate.` }),
  },
  {
    id: 'too-many-requests',
    covers: '429 from API Priority and Fairness: the priority level of your requests has no free seat and its queues are full (Retry-After header).',
    match: (s) => is(s, 429, 'TooManyRequests'),
    explain: (s) => ({ sentence: `API Priority and Fairness turned the request away: its priority level was full. Slow down${retry(s) || ' and retry after the Retry-After header'}.` }),
  },
  {
    id: 'too-large-resource-version',
    covers: '504 "Too large resource version" with Retry-After: a read at a resourceVersion the server has not reached (it waited about 3 s).',
    match: (s, m) => is(s, 504, 'Timeout') && m.includes('Too large resource version'),
    explain: () => ({ sentence: 'The read named a resourceVersion the server has not reached yet; it waited, then gave up. Retry later or read without a version.', lesson: 'consistent-reads' }),
  },
  {
    id: 'timeout',
    covers: '504: the request took longer than the server allows (a timeout, etcd unreachable).',
    match: (s) => is(s, 504, 'Timeout'),
    explain: () => ({ sentence: 'The server did not finish in time; the request may or may not have taken effect.' }),
  },
  {
    id: 'internal',
    covers: '500: the server failed while handling the request.',
    match: (s) => is(s, 500, 'InternalError'),
    explain: () => ({ sentence: 'The server failed while handling the request; the message is all it says.' }),
  },
  {
    // kube-aggregator's proxy handler (1.37.1): a request for a group version whose APIService is
    // not available is answered by kube-apiserver itself with a plain-text `service unavailable` 503.
    id: 'aggregated-unavailable',
    covers: '503 "service unavailable" in plain text: kube-apiserver answering for an aggregated API server (an APIService) that is not available.',
    match: (s, m) => is(s, 503, 'ServiceUnavailable') && m.trim() === 'service unavailable',
    explain: () => ({
      sentence: 'kube-apiserver answered for an aggregated API server that is down: its APIService is not available, so every request to its group version gets 503 until it answers again. The other groups are served; Discovery names the group that is down.',
    }),
  },
  {
    // The same handler's other plain-text 503: the APIService is Available, but the proxy's round trip
    // to the server behind it failed (a closed or refused connection, a TLS failure); its responder
    // writes the Go error as text (kube-aggregator handler_proxy.go, responder.Error). kube-apiserver's
    // own 503s are Status objects with a reason, so a 503 without one was not written by its API code.
    id: 'aggregated-unreachable',
    covers: '503 in plain text such as "error trying to reach service: EOF": kube-apiserver could not get an answer from the aggregated API server behind an Available APIService, and passes on the error it met.',
    // Not an empty body (statusOf then says `HTTP 503`) nor an HTML page (a load balancer's).
    match: (s, m) => s.code === 503 && !s.reason && m.trim() !== '' && m !== 'HTTP 503' && !m.trimStart().startsWith('<'),
    explain: () => ({
      sentence: 'kube-apiserver could not get an answer from the aggregated API server behind this group version: the text is the error its proxy met. Requests to the group version fail until that server answers; the other groups are served. (A load balancer in front of kube-apiserver may also answer a plain-text 503.)',
    }),
  },
  {
    id: 'unavailable',
    covers: '503: the server, or an aggregated API behind it, is not ready.',
    match: (s) => is(s, 503, 'ServiceUnavailable'),
    explain: () => ({ sentence: 'The server (or an aggregated API behind it) is not ready to serve this now.' }),
  },
];

export function explainStatus(s: StatusShape): StatusExplanation {
  const m = s.message ?? '';
  const rule = STATUS_RULES.find((r) => r.match(s, m));
  if (rule) return { ...rule.explain(s), rule: rule.id };
  const reason = s.reason ?? '';
  return { sentence: s.status === 'Success' ? 'The server reports success.' : `The server refused the request${reason ? ` (${reason})` : ''}.`, rule: 'other' };
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

// What admission did to one request, as its audit event records it. kube-apiserver's mutating
// webhook dispatcher writes, for every webhook it called, `mutation.webhook.admission.k8s.io/round_{r}_index_{i}`
// ({configuration, webhook, mutated}) at level Metadata and, when the webhook answered with a patch,
// `patch.webhook.admission.k8s.io/round_{r}_index_{i}` ({configuration, webhook, patch, patchType})
// at level Request or higher; a webhook that failed under failurePolicy Ignore leaves
// `failed-open.mutation.webhook…` (or `failed-open.validating.webhook…`) with its name
// (admission/plugin/webhook/mutating/dispatcher.go, webhookAnnotator). A ValidatingAdmissionPolicy
// binding with the Audit action writes its failures as a JSON list under
// `validation.policy.admission.k8s.io/validation_failure` (admission/plugin/policy/validating/dispatcher.go).
// MutatingAdmissionPolicies record nothing at all (admission/plugin/policy/mutating adds no audit
// annotation): what they changed is only in the difference between the request's object and the
// response's, which `replayAdmission` shows as the changes no annotation accounts for.
import { applyPatch, type Operation } from 'fast-json-patch';
import type { AuditEvent } from '../../../protocol/audit';
import { isObject, type Json, jsonPatch, type JsonPatchOp, SERVER_SET_METADATA } from '../patch';

const MUTATION = 'mutation.webhook.admission.k8s.io/';
const PATCH = 'patch.webhook.admission.k8s.io/';
const FAILED_OPEN_MUTATING = 'failed-open.mutation.webhook.admission.k8s.io/';
const FAILED_OPEN_VALIDATING = 'failed-open.validating.webhook.admission.k8s.io/';
export const VALIDATION_FAILURE = 'validation.policy.admission.k8s.io/validation_failure';
const ROUND = /^round_(\d+)_index_(\d+)$/;

export interface WebhookCall {
  round: number;
  index: number;
  configuration: string;
  webhook: string;
  /** Whether the webhook changed the object (undefined: only the failed-open note is there). */
  mutated?: boolean;
  /** The webhook's JSON patch, as it answered; absent at level Metadata (the server keeps it out). */
  patch?: JsonPatchOp[];
  patchType?: string;
  /** The webhook could not be called or failed, and failurePolicy Ignore let the request through. */
  failedOpen?: boolean;
}

export interface PolicyFailure {
  policy: string;
  binding: string;
  message: string;
  expressionIndex?: number;
  validationActions: string[];
}

export interface AdmissionRecord {
  /** Mutating webhooks in the order they ran (round, then index). */
  mutating: WebhookCall[];
  /** Validating webhooks that failed open (a validating webhook that answered leaves no annotation). */
  validatingFailedOpen: { round: number; index: number; webhook: string }[];
  /** ValidatingAdmissionPolicy failures of bindings with the Audit action. */
  policyFailures: PolicyFailure[];
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function call(calls: Map<string, WebhookCall>, suffix: string): WebhookCall | undefined {
  const m = ROUND.exec(suffix);
  if (!m) return undefined;
  let c = calls.get(suffix);
  if (!c) calls.set(suffix, (c = { round: Number(m[1]), index: Number(m[2]), configuration: '', webhook: '' }));
  return c;
}

export function admissionRecord(event: AuditEvent): AdmissionRecord {
  const calls = new Map<string, WebhookCall>();
  const validatingFailedOpen: AdmissionRecord['validatingFailedOpen'] = [];
  let policyFailures: PolicyFailure[] = [];
  for (const [key, value] of Object.entries(event.annotations ?? {})) {
    if (key.startsWith(MUTATION)) {
      const c = call(calls, key.slice(MUTATION.length));
      const v = json(value) as { configuration?: string; webhook?: string; mutated?: boolean } | undefined;
      if (c && v) Object.assign(c, { configuration: v.configuration ?? c.configuration, webhook: v.webhook ?? c.webhook, mutated: v.mutated === true });
    } else if (key.startsWith(PATCH)) {
      const c = call(calls, key.slice(PATCH.length));
      const v = json(value) as { configuration?: string; webhook?: string; patch?: unknown; patchType?: string } | undefined;
      if (c && v) Object.assign(c, { configuration: v.configuration ?? c.configuration, webhook: v.webhook ?? c.webhook, ...(Array.isArray(v.patch) ? { patch: v.patch } : {}), ...(v.patchType ? { patchType: v.patchType } : {}) });
    } else if (key.startsWith(FAILED_OPEN_MUTATING)) {
      const c = call(calls, key.slice(FAILED_OPEN_MUTATING.length));
      if (c) Object.assign(c, { failedOpen: true, webhook: c.webhook || value });
    } else if (key.startsWith(FAILED_OPEN_VALIDATING)) {
      const m = ROUND.exec(key.slice(FAILED_OPEN_VALIDATING.length));
      if (m) validatingFailedOpen.push({ round: Number(m[1]), index: Number(m[2]), webhook: value });
    } else if (key === VALIDATION_FAILURE) {
      const v = json(value);
      if (Array.isArray(v)) policyFailures = v.filter(isObject).map((f) => ({ policy: String(f.policy ?? ''), binding: String(f.binding ?? ''), message: String(f.message ?? ''), ...(typeof f.expressionIndex === 'number' ? { expressionIndex: f.expressionIndex } : {}), validationActions: Array.isArray(f.validationActions) ? f.validationActions.map(String) : [] }));
    }
  }
  const byOrder = <T extends { round: number; index: number }>(a: T, b: T) => a.round - b.round || a.index - b.index;
  return { mutating: [...calls.values()].sort(byOrder), validatingFailedOpen: validatingFailedOpen.sort(byOrder), policyFailures };
}

/** One mutating webhook's patch replayed on the object as it stood before it. */
export interface ReplayedPatch {
  call: WebhookCall;
  before: Json;
  after: Json;
  /** Why the patch did not apply to the object as recorded (an earlier change no annotation names, such as a MutatingAdmissionPolicy's, made what it patches). */
  error?: string;
}

export interface AdmissionReplay {
  patches: ReplayedPatch[];
  /** What turns the last replayed object into the response's: set by the server itself (uid, resourceVersion, managedFields, …). */
  serverSet: JsonPatchOp[];
  /** What no annotation accounts for: MutatingAdmissionPolicies, built-in admission plugins (defaults they fill in). */
  unattributed: JsonPatchOp[];
  /** The object the last step gives (the response's object when everything is accounted for). */
  result: Json;
}

/** Metadata fields written outside admission: the server's own bookkeeping, and the namespace and name it fills in from the URL or generateName. */
const SERVER_FILLED = new Set([...SERVER_SET_METADATA, 'namespace', 'name']);
function isServerSet(op: JsonPatchOp): boolean {
  const m = /^\/metadata\/([^/]+)/.exec(op.path);
  return !!m && SERVER_FILLED.has(m[1]!);
}

/**
 * Why the request's object cannot be replayed on: only a create or an update sends the whole object
 * (a patch's requestObject is the patch itself, a delete's its DeleteOptions); the event must hold
 * both objects (level RequestResponse), of one kind (a refused write answers a Status).
 */
export function unreplayable(event: AuditEvent): string | undefined {
  const { requestObject, responseObject, verb } = event;
  if (verb !== 'create' && verb !== 'update') return `a ${verb}'s request body is not the object (a patch's is the patch): the webhooks' patches are shown as they were sent`;
  if (!isObject(requestObject) || !isObject(responseObject)) return `at level ${event.level} the event holds ${isObject(requestObject) ? 'no response object' : 'no request object'}`;
  if (requestObject.kind !== responseObject.kind) return `the answer is a ${String(responseObject.kind)}, not the object`;
  return undefined;
}

/**
 * Replays the recorded patches, in order, on the request's object (requestObject, logged after
 * decoding and before admission), and splits what is left between it and the response's object.
 * Undefined when `unreplayable` says why not.
 */
export function replayAdmission(event: AuditEvent, record: AdmissionRecord = admissionRecord(event)): AdmissionReplay | undefined {
  if (unreplayable(event)) return undefined;
  const { requestObject, responseObject } = event;
  let doc = structuredClone(requestObject) as Json;
  const patches: ReplayedPatch[] = [];
  for (const c of record.mutating) {
    if (!c.patch) continue;
    const before = doc;
    try {
      const after = applyPatch(structuredClone(before), c.patch as Operation[], true, true).newDocument as Json;
      patches.push({ call: c, before, after });
      doc = after;
    } catch (e) {
      patches.push({ call: c, before, after: before, error: e instanceof Error ? e.message.split('\n')[0]! : String(e) });
    }
  }
  const rest = jsonPatch(doc, responseObject as Json);
  return { patches, serverSet: rest.filter(isServerSet), unattributed: rest.filter((op) => !isServerSet(op)), result: doc };
}

// Pure bodies of the /status and /scale panels. Both follow the server like the main editor: a
// body carries the resourceVersion of the version it was read from, so a write on top of someone
// else's newer status or replicas gets 409 Conflict instead of putting old values back.
//
// The server enforces it: /status writes (PUT, merge patch, apply) are updates of the object with
// the body's metadata.resourceVersion as precondition; a Scale's resourceVersion is its parent's,
// and the scale handlers copy it to the parent before the guarded update.
import { parseJsonExact, toJson } from '../../codecs/json';
import { isObject, type JsonObject } from '../../k8s/patch';

export function resourceVersionOf(o: JsonObject | undefined): string | undefined {
  const m = o && isObject(o.metadata) ? o.metadata : undefined;
  return typeof m?.resourceVersion === 'string' ? m.resourceVersion : undefined;
}

/** The /status body for an object as loaded: its identity, the resourceVersion it was read at, its status. */
export function statusBodyText(object: JsonObject, guard = true): string {
  const meta = isObject(object.metadata) ? object.metadata : {};
  const rv = resourceVersionOf(object);
  const metadata = { name: meta.name, ...(meta.namespace ? { namespace: meta.namespace } : {}), ...(guard && rv ? { resourceVersion: rv } : {}) };
  return `${toJson({ apiVersion: object.apiVersion, kind: object.kind, metadata, status: isObject(object.status) ? object.status : {} }, 2)}\n`;
}

/**
 * The /status body for a write mode. Apply and merge patch carry only what they change (identity,
 * guard, status). A PUT replaces the object: the status strategies of many built-in kinds (Service,
 * Pod, PersistentVolumeClaim, Namespace; a Deployment's annotations and finalizers) take
 * metadata from the request, so a PUT of the status alone removed their labels, annotations and
 * finalizers (seen on the real server). Its body is the whole object as loaded, with the status
 * of `typed` (a body typed for another mode) laid over it when given; the user sees it before sending.
 */
export function statusBodyFor(mode: 'apply' | 'merge-patch' | 'replace', object: JsonObject, typed?: JsonObject, guard = true): string {
  if (mode !== 'replace') return statusBodyText(object, guard);
  const { managedFields: _m, ...meta } = isObject(object.metadata) ? object.metadata : {};
  const typedMeta = typed && isObject(typed.metadata) ? typed.metadata : {};
  const whole: JsonObject = { ...object, metadata: { ...meta, ...typedMeta } };
  if (typed && Object.hasOwn(typed, 'status')) whole.status = typed.status!;
  return `${toJson(whole, 2)}\n`;
}

/** A merge patch of the Scale's spec.replicas, guarded by the Scale's resourceVersion when given. */
export function scalePatchText(replicas: number, resourceVersion: string | undefined): string {
  return `${toJson({ ...(resourceVersion ? { metadata: { resourceVersion } } : {}), spec: { replicas } })}\n`;
}

/** The object in a response body, or undefined (a Status, or not JSON). */
export function answerObject(body: string | undefined): JsonObject | undefined {
  try {
    const v = parseJsonExact(body ?? '');
    return isObject(v) && v.kind !== 'Status' ? v : undefined;
  } catch {
    return undefined;
  }
}

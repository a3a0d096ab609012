// The pure core of keeping a collection's state from watch events (client-go's reflector and
// store; Headlamp's KubeList.applyUpdate). Two rules taken from the API's contract:
//  - resourceVersions are opaque: two versions are compared for equality only. An event is
//    applied in the order the server sent it, never reordered or discarded by comparing numbers.
//  - an object is identified by namespace/name within one collection (uid tells incarnations
//    apart, but a watch delivers DELETED before the ADDED of a re-created object).
import type { KubeObject, WatchEvent } from './types';
import { isTable } from './types';

/** `namespace/name`, or `name` for cluster-scoped objects. */
export function objectKey(o: KubeObject): string {
  const m = o.metadata ?? {};
  return m.namespace ? `${m.namespace}/${m.name ?? ''}` : (m.name ?? '');
}

/**
 * The object an event is about. With `as=Table` an event carries a Table of one row whose row
 * object holds the metadata; otherwise it is the object itself.
 */
export function eventSubject(o: KubeObject): KubeObject {
  if (isTable(o)) return o.rows?.[0]?.object ?? o;
  return o;
}

export function resourceVersionOf(o: KubeObject | undefined): string | undefined {
  if (!o) return undefined;
  return o.metadata?.resourceVersion ?? eventSubject(o).metadata?.resourceVersion;
}

export type Effect = { op: 'set'; key: string; object: KubeObject } | { op: 'delete'; key: string } | { op: 'none' };

/**
 * What one event does to the object stored under its key: O(1), no I/O.
 * ADDED and MODIFIED store the new version unless the stored one has the very same
 * resourceVersion (a replay after a resume); DELETED removes it; BOOKMARK and ERROR carry no
 * object change.
 */
export function watchEffect(stored: KubeObject | undefined, event: WatchEvent): Effect {
  if (event.type === 'BOOKMARK' || event.type === 'ERROR') return { op: 'none' };
  const key = objectKey(eventSubject(event.object));
  if (event.type === 'DELETED') return stored ? { op: 'delete', key } : { op: 'none' };
  if (stored && resourceVersionOf(stored) !== undefined && resourceVersionOf(stored) === resourceVersionOf(event.object)) return { op: 'none' };
  return { op: 'set', key, object: event.object };
}

/** The effect of an event on a state, keyed as the event says. */
function effectOn(state: ReadonlyMap<string, KubeObject>, event: WatchEvent): Effect {
  const key = event.type === 'BOOKMARK' || event.type === 'ERROR' ? '' : objectKey(eventSubject(event.object));
  return watchEffect(key ? state.get(key) : undefined, event);
}

function commit(state: Map<string, KubeObject>, effect: Effect): void {
  if (effect.op === 'set') state.set(effect.key, effect.object);
  else if (effect.op === 'delete') state.delete(effect.key);
}

/**
 * Applies one event to a map of objects, in place: the state is owned by one holder (a session,
 * an informer), so this is O(1) per event where copying the map would be O(objects). Returns the
 * effect it applied. (Its copying twin, the tests' reference, is reducer.testkit.ts.)
 */
export function applyWatchEventInPlace(state: Map<string, KubeObject>, event: WatchEvent): Effect {
  const effect = effectOn(state, event);
  commit(state, effect);
  return effect;
}

export interface StateDiff {
  appeared: string[];
  changed: string[];
  vanished: string[];
}

/** What differs between two states (a pane's rows before and after a relist), by key and by resourceVersion as `rv` reads it. */
export function diffBy<T>(before: ReadonlyMap<string, T>, after: ReadonlyMap<string, T>, rv: (o: T) => string | undefined): StateDiff {
  const appeared: string[] = [];
  const changed: string[] = [];
  const vanished: string[] = [];
  for (const [k, o] of after) {
    const b = before.get(k);
    if (b === undefined) appeared.push(k);
    else if (rv(b) !== rv(o)) changed.push(k);
  }
  for (const k of before.keys()) if (!after.has(k)) vanished.push(k);
  return { appeared: appeared.sort(), changed: changed.sort(), vanished: vanished.sort() };
}

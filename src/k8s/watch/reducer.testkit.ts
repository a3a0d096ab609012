// The reducer's copying twin, for tests: the same effect as applyWatchEventInPlace (what sessions
// and informers use) on a copy, so a test can hold every state a stream went through.
import { applyWatchEventInPlace, diffBy, resourceVersionOf, type StateDiff } from './reducer';
import type { KubeObject, WatchEvent } from './types';

/** Applies one event to a copy of the map; returns the same map when nothing changed. */
export function applyWatchEvent(state: ReadonlyMap<string, KubeObject>, event: WatchEvent): ReadonlyMap<string, KubeObject> {
  const next = new Map(state);
  return applyWatchEventInPlace(next, event).op === 'none' ? state : next;
}

/** What differs between two states of objects, by key and resourceVersion: what a relist found. */
export function diffStates(before: ReadonlyMap<string, KubeObject>, after: ReadonlyMap<string, KubeObject>): StateDiff {
  return diffBy(before, after, resourceVersionOf);
}

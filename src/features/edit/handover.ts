// A create's outcome handed from the Edit view's create form to the editor of the object it
// created (the route changes to name it, which mounts a fresh editor). Pure but for the one map.
import type { Route } from '../../routing';
import type { Outcome } from './body';
import type { WriteMode } from './request';
import { type EditState, editReducer, initialEditState } from './state';

export const editorKey = (route: Pick<Route, 'namespace' | 'group' | 'version' | 'resource' | 'name'>) => [route.namespace, route.group, route.version, route.resource, route.name].join('/');

/**
 * The outcome of a create, handed to the editor of the object it created: after a 201 the view
 * moves to that object (its route names it), so that the next Send updates it instead of
 * creating it again (409 AlreadyExists), and the 201 stays on screen.
 */
const handedOver = new Map<string, { outcome: Outcome; mode: WriteMode }>();

export function handOver(key: string, created: { outcome: Outcome; mode: WriteMode }): void {
  handedOver.set(key, created);
}

export function initialState(key: string, hasName: boolean): EditState {
  const init = initialEditState(hasName);
  const created = handedOver.get(key);
  handedOver.delete(key);
  if (!created?.outcome.object) return init;
  const sent = editReducer({ ...init, mode: created.mode }, { type: 'sent', outcome: created.outcome, stored: true, preview: false });
  return sent;
}

// A create's outcome handed from the Edit view's create form to the editor of the object it
// created (the route changes to name it, which mounts a fresh editor). Pure but for the one map.
import type { Route } from '../../routing';
import type { FieldHints } from '../../k8s/patch';
import type { Format, Outcome } from './body';
import { type WriteMode } from './writeModes';
import { type EditState, editReducer, initialEditState } from './state';

export const editorKey = (route: Pick<Route, 'namespace' | 'group' | 'version' | 'resource' | 'name'>) => [route.namespace, route.group, route.version, route.resource, route.name].join('/');

/** What a create hands over: its outcome, the next mode, and the editor as it was when the answer came. */
export interface Created {
  outcome: Outcome;
  mode: WriteMode;
  /**
   * The editor's text and format when the answer came, and the text that was sent. The user may
   * have typed while the create was on its way (a slow or stopped server answers late): that
   * typing is re-applied onto the created object, as the editor of a loaded object does (the
   * reducer's 'sent'), instead of being replaced by it; and the format stays the user's.
   */
  editor?: { text: string; format: Format; sent: { text: string; format: Format }; hints?: FieldHints };
}

/**
 * The outcome of a create, handed to the editor of the object it created: after a 201 the view
 * moves to that object (its route names it), so that the next Send updates it instead of
 * creating it again (409 AlreadyExists), and the 201 stays on screen.
 */
const handedOver = new Map<string, Created>();

export function handOver(key: string, created: Created): void {
  handedOver.set(key, created);
}

export function initialState(key: string, hasName: boolean): EditState {
  const init = initialEditState(hasName);
  const created = handedOver.get(key);
  handedOver.delete(key);
  if (!created?.outcome.object) return init;
  const e = created.editor;
  const start: EditState = e ? { ...init, mode: created.mode, text: e.text, format: e.format } : { ...init, mode: created.mode };
  return editReducer(start, { type: 'sent', outcome: created.outcome, stored: true, preview: false, ...(e ? { sent: e.sent, hints: e.hints } : {}) });
}

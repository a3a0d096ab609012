// The request the Edit view shows under "Request to send", from its state: the one place that
// builds it, so that Send sends exactly what is shown (EditView) and the model-based tests can
// compare what went out with what was shown at the click. Pure.
import type { FieldHints, JsonObject } from '../../k8s/patch';
import { generateBody, viewOf } from './body';
import { buildWriteRequest, type DeleteOptionsInput, type WireRequest } from './request';
import type { EditState } from './state';

export interface RequestPaths {
  objectPath?: string;
  collectionPath: string;
}

/** The body of the selected mode: the one typed by hand, or the one generated from the edit. */
export function bodyToSend(s: EditState, edited: JsonObject | undefined, hints: FieldHints): string {
  if (s.patchOverride !== null) return s.patchOverride;
  if (!edited) return '';
  return generateBody({ mode: s.mode, format: s.format, base: s.base ? viewOf(s.base, s.showManaged) : undefined, live: s.base, edited, guard: s.guard, fieldManager: s.opts.fieldManager, touchedOnly: s.touchedOnly, hints });
}

/** DeleteOptions as ticked: the preconditions hold the values of the moment of the tick. */
export function deleteOptionsOf(s: EditState): DeleteOptionsInput {
  return { ...s.del, preconditionUid: s.preUid, preconditionResourceVersion: s.preRv };
}

/** The request to send, or undefined while there is none (no path yet, nothing to send). */
export function requestToSend(s: EditState, body: string, paths: RequestPaths): WireRequest | undefined {
  if (s.mode === 'delete') return paths.objectPath ? buildWriteRequest('delete', paths, '', s.opts, deleteOptionsOf(s)) : undefined;
  return (s.mode === 'create' || paths.objectPath) && body ? buildWriteRequest(s.mode, paths, body, s.opts) : undefined;
}

// The request the Edit view shows under "Request to send", from its state: the one place that
// builds it, so that Send sends exactly what is shown (EditView) and the model-based tests can
// compare what went out with what was shown at the click. Pure.
import { lineOfPath } from '../../codecs/yaml';
import { duplicateKeys, type FieldHints, type JsonObject } from '../../k8s/patch';
import { generateBody, viewOf } from './body';
import { buildWriteRequest, type DeleteOptionsInput, type WireRequest } from './request';
import type { EditState } from './state';

export interface RequestPaths {
  objectPath?: string;
  collectionPath: string;
}

/**
 * Why no apply body is built from the edit, at the line of the text: two elements of a keyed list
 * with the same key (env names given twice). The server merges an apply configuration's elements
 * by key and keeps one, so the other would be lost without a word; kubectl refuses such a
 * manifest before sending it, and so does this view.
 */
export function applyRefusal(s: EditState, edited: JsonObject | undefined, hints: FieldHints): string | undefined {
  if (s.mode !== 'apply' || s.patchOverride !== null || !edited) return undefined;
  const d = duplicateKeys(edited, hints)[0];
  if (!d) return undefined;
  const line = lineOfPath(s.text, d.path);
  return `${line !== undefined ? `line ${line}: ` : ''}${d.shown} has ${d.key} twice: an apply merges elements by their key and would keep only one. Give each a key of its own (or send with another mode)`;
}

/** The body of the selected mode: the one typed by hand, or the one generated from the edit. */
export function bodyToSend(s: EditState, edited: JsonObject | undefined, hints: FieldHints): string {
  if (s.patchOverride !== null) return s.patchOverride;
  if (!edited || applyRefusal(s, edited, hints)) return '';
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

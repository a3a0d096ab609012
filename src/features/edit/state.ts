// The Edit view's state as one pure reducer: what the editor holds, which object it is based on,
// the write options, and what the server answered. The view dispatches; nothing here fetches.
import { type ConflictChoices, type FieldHints, isObject, type JsonObject, type MergeConflict, NO_HINTS, threeWayMerge } from '../../k8s/patch';
import { compareResourceVersions } from '../../k8s/rv';
import { defaultManagerFor, type Format, metaOf, type Outcome, parseText, serialize, TOUCHED_SUFFIX, viewOf } from './body';
import type { DeleteOptionsInput, Exchange, WriteOptions } from './request';
import { type WriteMode } from './writeModes';

export interface EditState {
  format: Format;
  showManaged: boolean;
  /** The object as last read from the server (with managedFields): patches are computed against it. */
  base?: JsonObject;
  text: string;
  mode: WriteMode;
  /** A body edited by hand (null: generated from the edit). */
  patchOverride: string | null;
  opts: WriteOptions;
  del: DeleteOptionsInput;
  /**
   * Delete preconditions, fixed when the box is ticked (undefined: not ticked): the uid and
   * resourceVersion of the version shown then. A newer version followed afterwards does not move
   * them, so a change made after the tick is not deleted unreviewed (the server answers 409).
   */
  preUid?: string;
  preRv?: string;
  /** Patches conditional on the loaded resourceVersion: on by default. */
  guard: boolean;
  /** Apply only the fields changed in this edit, under a manager of its own. */
  touchedOnly: boolean;
  exchanges: Exchange[];
  outcome?: Outcome;
  /** A dry run sent to preview a write (ownership for apply, the result check for every patch). */
  preview?: Outcome;
  latest?: { object?: JsonObject; error?: unknown };
  /** A newer version of the object seen on the server while the user was editing. */
  serverChanged?: { object?: JsonObject; deleted?: boolean };
  /** The last "re-apply my changes": its inputs, the fields both sides changed, and the user's choices. */
  rebase?: Rebase;
}

export interface Rebase {
  original: JsonObject;
  edited: JsonObject;
  latest: JsonObject;
  hints: FieldHints;
  conflicts: MergeConflict[];
  choices: ConflictChoices;
  /** The editor text the merge produced: a choice made after typing is applied to the typed text instead. */
  text: string;
}

/** Conflicts of the last rebase the user has not decided yet: nothing is sent while there are any. */
export function undecidedConflicts(s: EditState): MergeConflict[] {
  return s.rebase ? s.rebase.conflicts.filter((c) => !s.rebase!.choices[c.path]) : [];
}

export type EditAction =
  | { type: 'server-object'; object: JsonObject }
  | { type: 'server-deleted' }
  | { type: 'skeleton'; object: JsonObject }
  | { type: 'text'; text: string }
  | { type: 'format'; format: Format; edited?: JsonObject }
  | { type: 'show-managed'; show: boolean; edited?: JsonObject }
  | { type: 'revert' }
  | { type: 'mode'; mode: WriteMode }
  | { type: 'override'; body: string | null }
  | { type: 'opts'; opts: Partial<WriteOptions> }
  | { type: 'del'; del: Partial<DeleteOptionsInput> }
  | { type: 'pre-uid'; on: boolean }
  | { type: 'pre-rv'; on: boolean }
  | { type: 'guard'; on: boolean }
  | { type: 'touched-only'; on: boolean }
  | {
      type: 'sent';
      outcome: Outcome;
      stored: boolean;
      preview: boolean;
      /** The editor's text and format when the request went out (the body was built from them). */
      sent?: { text: string; format: Format };
      hints?: FieldHints;
    }
  | { type: 'latest'; latest?: EditState['latest'] }
  | { type: 'rebase'; how: 'discard' | 'keep-mine' | 'reapply'; object: JsonObject; edited?: JsonObject; hints?: FieldHints }
  | { type: 'choose'; path: string; side: 'mine' | 'theirs' };

export function initialEditState(hasName: boolean): EditState {
  return {
    format: 'yaml',
    showManaged: false,
    text: '',
    mode: hasName ? 'merge-patch' : 'create',
    patchOverride: null,
    opts: { dryRun: false, fieldValidation: '', fieldManager: defaultManagerFor(hasName ? 'merge-patch' : 'create'), force: false },
    del: { propagationPolicy: 'Background', gracePeriodSeconds: '' },
    guard: true,
    touchedOnly: false,
    exchanges: [],
  };
}

function textOf(s: EditState, o: JsonObject): string {
  return serialize(viewOf(o, s.showManaged), s.format);
}

/** The editor holds exactly the loaded object (nothing typed yet). */
export function isPristine(s: EditState): boolean {
  return !!s.base && s.text === textOf(s, s.base);
}

function onBase(s: EditState, object: JsonObject): EditState {
  return { ...s, base: object, text: textOf(s, object), patchOverride: null, serverChanged: undefined, preview: undefined, rebase: undefined };
}

/** The editor's text for a rebase: the merge with the user's choices, on the latest resourceVersion. */
function rebasedText(s: EditState, r: Rebase): { text: string; conflicts: MergeConflict[] } {
  const { merged, conflicts } = threeWayMerge(r.original, r.edited, r.latest, r.hints, r.choices);
  const meta = isObject(merged.metadata) ? merged.metadata : {};
  const rv = metaOf(r.latest).resourceVersion;
  return { text: serialize({ ...merged, metadata: { ...meta, resourceVersion: rv ?? null } }, s.format), conflicts };
}

/**
 * A choice made after typing since the merge: what the choice changes in the merged text (before
 * → after the choice) is laid over the typed text by the same three-way merge, so that the typing
 * stays wherever the choice does not touch it, also when the choice adds back a field the other
 * writer removed (which the typed text does not have). Where the user typed at the chosen field
 * too, the choice wins: it is the later act. A typed text that does not parse stays as it is.
 */
function choiceInTypedText(s: EditState, before: Rebase, after: string): string | undefined {
  const from = parseText(before.text, s.format).obj;
  const to = parseText(after, s.format).obj;
  const typed = parseText(s.text, s.format).obj;
  if (!from || !to || !typed) return s.text;
  const first = threeWayMerge(from, to, typed, before.hints);
  const { merged } = threeWayMerge(from, to, typed, before.hints, Object.fromEntries(first.conflicts.map((c) => [c.path, 'mine' as const])));
  return serialize(merged, s.format);
}

/**
 * The user typed while a stored write was on its way (a slow or stopped server answers late): the
 * typing is kept, never replaced by the server's answer. It is re-applied onto the answer like a
 * rebase whose original is the text that was sent, so that the answer's own changes (the new
 * resourceVersion, managedFields, defaults) are taken and only what was typed since is the edit.
 * A text that does not parse (half typed) stays as it is, on the answer as the new base.
 */
function typedWhileSending(s: EditState, sent: { text: string; format: Format }, answer: JsonObject, hints: FieldHints): EditState {
  const original = sent.format === s.format ? parseText(sent.text, sent.format).obj : undefined;
  const mine = parseText(s.text, s.format).obj;
  const kept: EditState = { ...s, base: answer, patchOverride: null, serverChanged: undefined, preview: undefined, rebase: undefined };
  if (!original || !mine) return kept;
  const r: Rebase = { original, edited: mine, latest: viewOf(answer, s.showManaged), hints, conflicts: [], choices: {}, text: '' };
  const { text, conflicts } = rebasedText(s, r);
  return { ...kept, text, rebase: { ...r, conflicts, text } };
}

export function editReducer(s: EditState, a: EditAction): EditState {
  switch (a.type) {
    case 'server-object': {
      // First load, or a newer version from a re-read or the watch.
      if (!s.base) return onBase(s, a.object);
      const rv = metaOf(a.object).resourceVersion;
      const baseRv = metaOf(s.base).resourceVersion;
      // Ordered by KEP-5504 (k8s/rv): an older or equal version is what we have already. Versions
      // that are not comparable (an aggregated server's opaque strings) say only that they differ,
      // and a different one from the server is a change we have not seen.
      if (rv === undefined || baseRv === undefined || rv === baseRv) return s;
      const order = compareResourceVersions(rv, baseRv);
      if (order === -1 || order === 0) return s;
      // Nothing typed yet: follow the server. Otherwise say so, and let the user choose. A patch
      // body typed by hand is typing too: following would replace it with the generated one.
      // Another uid is another object (deleted and created anew under the name): never followed
      // silently, or a Delete with the uid precondition would delete the new one.
      const sameObject = metaOf(a.object).uid === metaOf(s.base).uid;
      if (isPristine(s) && s.patchOverride === null && sameObject) return onBase(s, a.object);
      return { ...s, serverChanged: { object: a.object } };
    }
    case 'server-deleted':
      return s.base ? { ...s, serverChanged: { deleted: true } } : s;
    case 'skeleton':
      return s.text ? s : { ...s, text: serialize(a.object, s.format) };
    case 'text':
      return { ...s, text: a.text, preview: undefined };
    case 'format':
      if (a.format === s.format) return s;
      return { ...s, format: a.format, text: a.edited ? serialize(a.edited, a.format) : s.text, patchOverride: null };
    case 'show-managed': {
      // The toggle changes what the editor shows, not the edit: managedFields come back from the
      // loaded object, or leave the editor.
      let text = s.text;
      if (a.edited && s.base) {
        const meta = isObject(a.edited.metadata) ? a.edited.metadata : {};
        const baseMeta = isObject(s.base.metadata) ? s.base.metadata : {};
        const next = a.show ? { ...a.edited, metadata: { ...meta, managedFields: baseMeta.managedFields ?? [] } } : viewOf(a.edited, false);
        text = serialize(next, s.format);
      }
      return { ...s, showManaged: a.show, text, patchOverride: null };
    }
    case 'revert':
      return s.base ? { ...s, text: textOf(s, s.base), patchOverride: null, preview: undefined, rebase: undefined } : s;
    case 'mode': {
      // A default manager follows the mode (apply and updates have names of their own); a name
      // the user typed stays.
      const m = s.opts.fieldManager;
      const isDefault = m === defaultManagerFor('apply') || m === defaultManagerFor('apply', true) || m === defaultManagerFor('replace');
      const fieldManager = isDefault ? defaultManagerFor(a.mode, s.touchedOnly) : m;
      return { ...s, mode: a.mode, opts: { ...s.opts, fieldManager }, patchOverride: null, preview: undefined };
    }
    case 'override':
      return { ...s, patchOverride: a.body, preview: undefined };
    case 'opts':
      return { ...s, opts: { ...s.opts, ...a.opts }, preview: undefined };
    case 'del':
      return { ...s, del: { ...s.del, ...a.del } };
    case 'pre-uid':
      return { ...s, preUid: a.on ? metaOf(s.base).uid : undefined };
    case 'pre-rv':
      return { ...s, preRv: a.on ? metaOf(s.base).resourceVersion : undefined };
    case 'guard':
      return { ...s, guard: a.on, patchOverride: null, preview: undefined };
    case 'touched-only': {
      // "Only the fields I touched" is never sent as the main manager: that manager's next apply
      // would delete every field it applied before and left out here.
      const m = s.opts.fieldManager;
      const fieldManager = a.on ? (m.endsWith(TOUCHED_SUFFIX) ? m : `${m}${TOUCHED_SUFFIX}`) : m.endsWith(TOUCHED_SUFFIX) ? m.slice(0, -TOUCHED_SUFFIX.length) : m;
      return { ...s, touchedOnly: a.on, opts: { ...s.opts, fieldManager }, patchOverride: null, preview: undefined };
    }
    case 'sent': {
      const exchanges = [a.outcome.exchange, ...s.exchanges].slice(0, 30);
      if (a.preview) return { ...s, exchanges, preview: a.outcome };
      const next: EditState = { ...s, exchanges, outcome: a.outcome, latest: undefined, preview: undefined };
      // A stored write: the server's answer is the new base, so later patches start from it.
      if (a.stored && a.outcome.object) {
        if (a.sent && s.text !== a.sent.text) return typedWhileSending(next, a.sent, a.outcome.object, a.hints ?? NO_HINTS);
        return onBase(next, a.outcome.object);
      }
      return next;
    }
    case 'latest':
      return { ...s, latest: a.latest };
    case 'rebase': {
      const rv = metaOf(a.object).resourceVersion;
      if (a.how === 'discard' || !s.base) return { ...onBase(s, a.object), latest: undefined };
      // The text does not parse (half typed): there is no edit to re-apply or keep, and replacing
      // the text with the server's version would throw the typing away. Nothing changes.
      if (!a.edited) return s;
      if (a.how === 'keep-mine') {
        // The edit as it is, on the latest resourceVersion: overwrites the other changes.
        const meta = isObject(a.edited.metadata) ? a.edited.metadata : {};
        return { ...s, base: a.object, text: serialize({ ...a.edited, metadata: { ...meta, resourceVersion: rv ?? null } }, s.format), latest: undefined, serverChanged: undefined, rebase: undefined };
      }
      // Re-apply my changes onto the latest: a three-way merge by the schema's merge keys (a JSON
      // merge patch of my edit would carry whole lists, and put back their changes to elements I
      // did not touch). Fields we both changed wait for the user's choice.
      const r: Rebase = { original: viewOf(s.base, s.showManaged), edited: a.edited, latest: viewOf(a.object, s.showManaged), hints: a.hints ?? NO_HINTS, conflicts: [], choices: {}, text: '' };
      const { text, conflicts } = rebasedText(s, r);
      // (A patch body typed by hand stays: it is the user's, and "Regenerate from the edit" is theirs to press.)
      return { ...s, base: a.object, text, latest: undefined, serverChanged: undefined, preview: undefined, rebase: { ...r, conflicts, text } };
    }
    case 'choose': {
      if (!s.rebase) return s;
      const r: Rebase = { ...s.rebase, choices: { ...s.rebase.choices, [a.path]: a.side } };
      const { text, conflicts } = rebasedText(s, r);
      // Typed since the merge: the choice goes into the typed text, which is not replaced.
      const typed = s.text !== s.rebase.text ? choiceInTypedText(s, s.rebase, text) : undefined;
      return { ...s, text: typed ?? text, patchOverride: null, preview: undefined, rebase: { ...r, conflicts, text: typed ?? text } };
    }
  }
}

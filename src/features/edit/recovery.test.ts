// Every button sends what it says (issue 41): the recovery buttons re-send the request they came
// from, preconditions are fixed when ticked, a half-typed text is never replaced by a rebase button,
// a choice made after typing keeps the typing, and a body without the guard is called unguarded.
import { describe, expect, it } from 'vitest';
import { type FieldHints, type JsonObject, NO_HINTS } from '../../k8s/patch';
import { classifyOutcome, parseText, serialize } from './body';
import { bodyGuarded, dropResend, forceResend, recoverable } from './recovery';
import { buildWriteRequest, type Exchange } from './request';
import { editReducer, type EditState, initialEditState, undecidedConflicts } from './state';

const cm = (rv: string, data: Record<string, string>, uid = 'u1') => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd', resourceVersion: rv, uid }, data });
const loaded = (rv = '10', data: Record<string, string> = { a: '1' }) => editReducer(initialEditState(true), { type: 'server-object', object: cm(rv, data) });
const paths = { objectPath: '/api/v1/namespaces/d/configmaps/x', collectionPath: '/api/v1/namespaces/d/configmaps' };

/** A 409 apply conflict, as the server answers it, to the apply `body`. */
function conflictOutcome(s: EditState, body: string) {
  const request = buildWriteRequest('apply', paths, body, { dryRun: false, fieldValidation: '', fieldManager: 'kube-api-explorer', force: false });
  const status = { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Conflict', code: 409, message: 'Apply failed with 1 conflict', details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "other"', field: '.data.a' }] } };
  const exchange: Exchange = { id: 1, at: '', mode: 'apply', request, response: { status: 409, statusText: 'Conflict', headers: [], body: JSON.stringify(status) }, sentWith: { guardedApply: true } };
  return classifyOutcome(exchange, { mode: 'apply', dryRun: false, before: s.base, hints: NO_HINTS });
}

describe('recovery buttons re-send the request they came from (issue 41, case 1)', () => {
  const body = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  namespace: d\n  resourceVersion: '10'\ndata:\n  a: '2'\n  b: '3'\n";
  const apply = editReducer(loaded(), { type: 'mode', mode: 'apply' });
  const s = editReducer(apply, { type: 'sent', outcome: conflictOutcome(apply, body), stored: false, preview: false });

  it('force: the same apply PATCH with force=true, whatever mode is selected now', () => {
    for (const mode of ['delete', 'merge-patch', 'json-patch', 'replace'] as const) {
      const now = editReducer(s, { type: 'mode', mode });
      expect(recoverable(now)).toBe(true);
      const r = forceResend(now.outcome!);
      expect(r).toEqual({ mode: 'apply', request: { ...s.outcome!.exchange.request, query: { fieldManager: 'kube-api-explorer', force: 'true' } }, guardedApply: true, createOnly: false });
      expect(r.request.method).toBe('PATCH');
      expect(r.request.headers['Content-Type']).toBe('application/apply-patch+yaml');
    }
  });

  it('drop: the same request without the conflicting fields, in the body’s own syntax', () => {
    const r = dropResend(editReducer(s, { type: 'mode', mode: 'delete' }).outcome!, ['.data.a'])!;
    expect(r.mode).toBe('apply');
    expect(r.request.query).toEqual(s.outcome!.exchange.request.query);
    expect(parseText(r.request.body!, 'yaml').obj).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd', resourceVersion: '10' }, data: { b: '3' } });
    const json = conflictOutcome(apply, JSON.stringify(parseText(body, 'yaml').obj));
    expect(() => JSON.parse(dropResend(json, ['.data.a'])!.request.body!) as unknown).not.toThrow();
  });

  it('the buttons go when their request no longer stands: another version of the object in the editor', () => {
    const typed = editReducer(s, { type: 'text', text: serialize(cm('10', { a: 'mine' }), 'yaml') });
    expect(recoverable(typed)).toBe(true);
    expect(recoverable(editReducer(typed, { type: 'server-object', object: cm('11', { a: 'theirs' }) }))).toBe(false);
    expect(recoverable(editReducer(typed, { type: 'rebase', how: 'discard', object: cm('11', { a: 'theirs' }) }))).toBe(false);
    expect(recoverable(editReducer(s, { type: 'server-deleted' }))).toBe(false);
  });
});

describe('delete preconditions are fixed when ticked (issue 41, case 6)', () => {
  it('a newer version followed after the tick does not move them', () => {
    const ticked = editReducer(editReducer(editReducer(loaded('10'), { type: 'mode', mode: 'delete' }), { type: 'pre-rv', on: true }), { type: 'pre-uid', on: true });
    const followed = editReducer(ticked, { type: 'server-object', object: cm('11', { a: 'theirs' }) });
    // Before: preRv was a flag, and the delete carried the followed version (11): 200, not 409.
    expect(followed.base).toEqual(cm('11', { a: 'theirs' }));
    expect([followed.preRv, followed.preUid]).toEqual(['10', 'u1']);
    expect(editReducer(followed, { type: 'pre-rv', on: false }).preRv).toBeUndefined();
  });
});

describe('rebase buttons with a text that does not parse (issue 41, case 5)', () => {
  it('keep-mine and re-apply change nothing; discard still discards', () => {
    const half = editReducer(loaded(), { type: 'text', text: 'data: {a: ' });
    for (const how of ['keep-mine', 'reapply'] as const) {
      // Before: the half-typed text was replaced by the server's version.
      expect(editReducer(half, { type: 'rebase', how, object: cm('11', { a: 'theirs' }) })).toBe(half);
    }
    expect(editReducer(half, { type: 'rebase', how: 'discard', object: cm('11', { a: 'theirs' }) }).text).toContain('theirs');
  });
});

describe('a choice after typing keeps the typing (issue 41, case 4)', () => {
  it('"mine" for a field the other writer removed adds it back into the typed text', () => {
    const hints: FieldHints = NO_HINTS;
    const s = editReducer(loaded('10', { a: '1', gone: 'g' }), { type: 'text', text: serialize(cm('10', { a: '1', gone: 'mine' }), 'yaml') });
    const r = editReducer(s, { type: 'rebase', how: 'reapply', object: cm('11', { a: '1' }), edited: parseText(s.text, 'yaml').obj!, hints });
    expect(undecidedConflicts(r).map((c) => c.path)).toEqual(['.data.gone']);
    const typed = editReducer(r, { type: 'text', text: r.text.replace("a: '1'", "a: typed") });
    const chosen = editReducer(typed, { type: 'choose', path: '.data.gone', side: 'mine' });
    // Before: the path was not in the typed text, and the merge's text replaced the typing.
    expect((parseText(chosen.text, 'yaml').obj as JsonObject).data).toEqual({ a: 'typed', gone: 'mine' });
    expect(undecidedConflicts(chosen)).toEqual([]);
  });
});

describe('bodyGuarded: what the body says, not the checkbox (issue 41, case 7)', () => {
  it('a merge patch, apply or JSON Patch with or without the loaded resourceVersion', () => {
    expect(bodyGuarded('merge-patch', '{"data":{"a":"2"},"metadata":{"resourceVersion":"10"}}', '10')).toBe(true);
    expect(bodyGuarded('merge-patch', '{"data":{"a":"2"}}', '10')).toBe(false);
    expect(bodyGuarded('merge-patch', '{"metadata":{"resourceVersion":"9"}}', '10')).toBe(false);
    expect(bodyGuarded('apply', "metadata:\n  resourceVersion: '10'\n", '10')).toBe(true);
    expect(bodyGuarded('json-patch', '[{"op":"test","path":"/metadata/resourceVersion","value":"10"}]', '10')).toBe(true);
    expect(bodyGuarded('json-patch', '[{"op":"replace","path":"/data/a","value":"2"}]', '10')).toBe(false);
  });
});

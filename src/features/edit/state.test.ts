// The Edit view's reducer and pure body functions (no server, no React).
import { describe, expect, it } from 'vitest';
import { type FieldHints, type JsonObject, NO_HINTS } from '../../k8s/patch';
import { asStored, classifyOutcome, generateBody, parseText, sentMeaning, serialize } from './body';
import { editReducer, type EditState, initialEditState, isPristine, undecidedConflicts } from './state';

const cm = (rv: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd', resourceVersion: rv }, data });

function loaded(rv = '10', data: Record<string, string> = { a: '1' }): EditState {
  return editReducer(initialEditState(true), { type: 'server-object', object: cm(rv, data) });
}

/** What the server answered a stored merge patch with: the object at `rv`. */
function answered(object: JsonObject) {
  const exchange = { id: 1, at: '', mode: 'merge-patch' as const, request: { method: 'PATCH', path: '/', query: {}, headers: {} }, response: { status: 200, statusText: 'OK', headers: [], body: JSON.stringify(object) } };
  return classifyOutcome(exchange, { mode: 'merge-patch', dryRun: false, hints: NO_HINTS });
}

describe('editReducer', () => {
  it('refuses a JSON key given twice, at its line, as YAML does', () => {
    // Before, JSON.parse kept the last `metadata` silently: the body (a PUT) lost the labels typed
    // in the first one. (With a 17-digit number in the text the error came without a line.)
    for (const extra of ['', ',\n"n": 12345678901234567']) {
      const text = `{\n"metadata": {"name": "x", "labels": {"a": "1"}},\n"metadata": {"name": "x"}${extra}\n}`;
      const p = parseText(text, 'json');
      expect(p.obj).toBeUndefined();
      expect(p.error).toMatch(/^line 3: Duplicate key 'metadata'/);
      expect(p.line).toBe(3);
    }
    expect(parseText('metadata:\n  name: x\nmetadata:\n  name: y\n', 'yaml').line).toBe(3);
    expect(parseText('{"a": {"b": 1}, "c": {"b": 1}}', 'json').obj).toEqual({ a: { b: 1 }, c: { b: 1 } });
  });

  it('keeps what the user typed while a stored write was on its way, re-applied onto the answer', () => {
    // The server answered late (stopped, slow): before, its answer replaced the editor's text and
    // the typing since the Send was lost.
    const sentText = serialize(cm('10', { a: '2', b: '1' }), 'yaml');
    const sending = editReducer(loaded('10', { a: '1', b: '1' }), { type: 'text', text: sentText });
    const typed = editReducer(sending, { type: 'text', text: serialize(cm('10', { a: '3', b: 'later' }), 'yaml') });
    const s = editReducer(typed, { type: 'sent', outcome: answered(cm('11', { a: '2', b: '1' })), stored: true, preview: false, sent: { text: sentText, format: 'yaml' } });
    expect(parseText(s.text, 'yaml').obj).toEqual(cm('11', { a: '3', b: 'later' }));
    expect(s.base).toEqual(cm('11', { a: '2', b: '1' }));
    expect(undecidedConflicts(s)).toEqual([]);
    // The next merge patch carries only what was typed since, guarded by the answer's version.
    const next = generateBody({ mode: 'merge-patch', format: 'yaml', base: s.base, live: s.base, edited: parseText(s.text, 'yaml').obj!, guard: true, fieldManager: 'm', touchedOnly: false, hints: NO_HINTS });
    expect(JSON.parse(next)).toEqual({ metadata: { resourceVersion: '11' }, data: { a: '3', b: 'later' } });
    // Half-typed text that does not parse stays as it is.
    const half = editReducer(sending, { type: 'text', text: 'data: {a: ' });
    const h = editReducer(half, { type: 'sent', outcome: answered(cm('11', { a: '2', b: '1' })), stored: true, preview: false, sent: { text: sentText, format: 'yaml' } });
    expect(h.text).toBe('data: {a: ');
    expect(h.base).toEqual(cm('11', { a: '2', b: '1' }));
    // Nothing typed since: the editor shows the answer.
    const same = editReducer(sending, { type: 'sent', outcome: answered(cm('11', { a: '2', b: '1' })), stored: true, preview: false, sent: { text: sentText, format: 'yaml' } });
    expect(isPristine(same)).toBe(true);
  });

  it('follows a newer version while nothing is typed', () => {
    const s = editReducer(loaded(), { type: 'server-object', object: cm('11', { a: '2' }) });
    expect(s.text).toContain("a: '2'");
    expect(s.serverChanged).toBeUndefined();
    expect(isPristine(s)).toBe(true);
  });

  it('never follows another object of the same name (deleted and created anew) silently', () => {
    // Before, the pristine editor followed it, and a Delete with the uid precondition then carried
    // the new uid and deleted the object the user never loaded.
    const withUid = (rv: string, uid: string) => ({ ...cm(rv, { a: '1' }), metadata: { ...cm(rv, { a: '1' }).metadata, uid } });
    const s0 = editReducer(initialEditState(true), { type: 'server-object', object: withUid('10', 'one') });
    const s = editReducer(editReducer(s0, { type: 'server-deleted' }), { type: 'server-object', object: withUid('12', 'two') });
    expect(s.base).toEqual(withUid('10', 'one'));
    expect(s.serverChanged?.object).toEqual(withUid('12', 'two'));
    // The same object's newer version is still followed.
    expect(editReducer(s0, { type: 'server-object', object: withUid('11', 'one') }).base).toEqual(withUid('11', 'one'));
  });

  it('a patch body typed by hand is kept when the object changes on the server', () => {
    // Before, with the object's text untouched the view followed the newer version and dropped the
    // typed body for the generated one.
    const typed = editReducer(loaded(), { type: 'override', body: '[{"op": "add", "path": "/data/b", "value": "x"}]' });
    const s = editReducer(typed, { type: 'server-object', object: cm('11', { a: '2' }) });
    expect(s.patchOverride).toBe('[{"op": "add", "path": "/data/b", "value": "x"}]');
    expect(s.serverChanged?.object).toMatchObject({ data: { a: '2' } });
    for (const how of ['reapply', 'keep-mine'] as const) {
      expect(editReducer(s, { type: 'rebase', how, object: s.serverChanged!.object!, edited: parseText(s.text, 'yaml').obj! }).patchOverride).toBe(typed.patchOverride);
    }
    expect(editReducer(s, { type: 'rebase', how: 'discard', object: s.serverChanged!.object! }).patchOverride).toBeNull();
  });

  it('raises the banner instead of replacing an edit, and ignores older versions', () => {
    const typed = editReducer(loaded(), { type: 'text', text: serialize(cm('10', { a: 'mine' }), 'yaml') });
    const s = editReducer(typed, { type: 'server-object', object: cm('11', { a: 'theirs' }) });
    expect(s.text).toContain('mine');
    expect(s.serverChanged?.object).toMatchObject({ data: { a: 'theirs' } });
    expect(editReducer(typed, { type: 'server-object', object: cm('9', { a: 'old' }) })).toBe(typed);
  });

  it('re-applies my changes onto the newer version', () => {
    const typed = editReducer(loaded('10', { a: '1' }), { type: 'text', text: serialize(cm('10', { a: '1', mine: 'm' }), 'yaml') });
    const parsed = parseText(typed.text, 'yaml').obj!;
    const s = editReducer(typed, { type: 'rebase', how: 'reapply', object: cm('11', { a: '1', theirs: 't' }), edited: parsed });
    expect(parseText(s.text, 'yaml').obj).toMatchObject({ metadata: { resourceVersion: '11' }, data: { a: '1', mine: 'm', theirs: 't' } });
  });

  it('re-applies by merge key: their change to another container survives (issue 28, case 1), a field we both changed waits for a choice', () => {
    const hints: FieldHints = (p) => (p.join('.') === 'spec.containers' || p.join('.') === 'spec.containers.env' ? { mergeKey: 'name', strategy: 'merge' } : undefined);
    const pod = (rv: string, a: JsonObject, b: JsonObject) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', resourceVersion: rv }, spec: { containers: [{ name: 'a', ...a }, { name: 'b', ...b }] } });
    let s = editReducer(initialEditState(true), { type: 'server-object', object: pod('10', { image: 'a:1' }, { image: 'b:1' }) });
    s = editReducer(s, { type: 'text', text: serialize(pod('10', { image: 'a:mine' }, { image: 'b:1' }), 'yaml') });
    const theirs = pod('11', { image: 'a:1' }, { image: 'b:theirs', env: [{ name: 'Y', value: 'y' }] });
    const r = editReducer(s, { type: 'rebase', how: 'reapply', object: theirs, edited: parseText(s.text, 'yaml').obj!, hints });
    expect(parseText(r.text, 'yaml').obj).toEqual(pod('11', { image: 'a:mine' }, { image: 'b:theirs', env: [{ name: 'Y', value: 'y' }] }));
    expect(undecidedConflicts(r)).toEqual([]);

    const both = pod('11', { image: 'a:theirs' }, { image: 'b:1' });
    const c = editReducer(s, { type: 'rebase', how: 'reapply', object: both, edited: parseText(s.text, 'yaml').obj!, hints });
    expect(undecidedConflicts(c)).toEqual([{ path: '.spec.containers[name="a"].image', mine: 'a:mine', theirs: 'a:theirs' }]);
    const chosen = editReducer(c, { type: 'choose', path: '.spec.containers[name="a"].image', side: 'mine' });
    expect(undecidedConflicts(chosen)).toEqual([]);
    expect(parseText(chosen.text, 'yaml').obj).toEqual(pod('11', { image: 'a:mine' }, { image: 'b:1' }));
    // A choice made after typing goes into the typed text: the typing stays.
    const typed = editReducer(c, { type: 'text', text: c.text.replace('b:1', 'b:typed') });
    const chosenAfterTyping = editReducer(typed, { type: 'choose', path: '.spec.containers[name="a"].image', side: 'mine' });
    expect(parseText(chosenAfterTyping.text, 'yaml').obj).toEqual(pod('11', { image: 'a:mine' }, { image: 'b:typed' }));
    // A newer base (a stored write, a discard) ends the rebase.
    expect(editReducer(chosen, { type: 'rebase', how: 'discard', object: both }).rebase).toBeUndefined();
  });

  it('"only the fields I touched" switches to a manager of its own and back', () => {
    const on = editReducer(editReducer(loaded(), { type: 'mode', mode: 'apply' }), { type: 'touched-only', on: true });
    expect(on.opts.fieldManager).toBe('kube-api-explorer-touched');
    expect(editReducer(on, { type: 'touched-only', on: false }).opts.fieldManager).toBe('kube-api-explorer');
  });

  it('uses one default manager for updates and another for applies; a typed name stays', () => {
    const s = loaded();
    expect(s.opts.fieldManager).toBe('kube-api-explorer-edit');
    const apply = editReducer(s, { type: 'mode', mode: 'apply' });
    expect(apply.opts.fieldManager).toBe('kube-api-explorer');
    expect(editReducer(apply, { type: 'mode', mode: 'json-patch' }).opts.fieldManager).toBe('kube-api-explorer-edit');
    const typed = editReducer(apply, { type: 'opts', opts: { fieldManager: 'me' } });
    expect(editReducer(typed, { type: 'mode', mode: 'replace' }).opts.fieldManager).toBe('me');
  });

  it('guards patches by default', () => {
    expect(initialEditState(true).guard).toBe(true);
    const body = generateBody({ mode: 'merge-patch', format: 'yaml', base: cm('10', { a: '1' }), edited: cm('10', { a: '2' }), guard: true, fieldManager: 'm', touchedOnly: false, hints: NO_HINTS });
    expect(JSON.parse(body)).toEqual({ data: { a: '2' }, metadata: { resourceVersion: '10' } });
  });
});

describe('generateBody', () => {
  const loadedCm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd', uid: 'u-1', resourceVersion: '10', creationTimestamp: '2026-01-01T00:00:00Z' }, data: { color: 'red' } };
  const edited = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd' }, data: { color: 'blue' } };
  const body = (mode: 'json-patch' | 'merge-patch' | 'strategic-merge-patch', guard: boolean) =>
    JSON.parse(generateBody({ mode, format: 'json', base: loadedCm, edited, guard, fieldManager: 'm', touchedOnly: false, hints: NO_HINTS })) as unknown;

  it('never removes or nulls server-set metadata the edit lacks (issue 28, case 12)', () => {
    expect(body('json-patch', false)).toEqual([{ op: 'replace', path: '/data/color', value: 'blue' }]);
    expect(body('merge-patch', false)).toEqual({ data: { color: 'blue' } });
    expect(body('strategic-merge-patch', false)).toEqual({ data: { color: 'blue' } });
    expect(body('merge-patch', true)).toEqual({ data: { color: 'blue' }, metadata: { resourceVersion: '10' } });
    expect(body('json-patch', true)).toEqual([{ op: 'test', path: '/metadata/resourceVersion', value: '10' }, { op: 'replace', path: '/data/color', value: 'blue' }]);
  });
});

describe('parseText', () => {
  it('names the line of a YAML error and of a JSON error', () => {
    expect(parseText('a: 1\nb: [\n', 'yaml')).toMatchObject({ line: 3 });
    const j = parseText('{\n  "a": 1,\n  "b": \n}\n', 'json');
    expect(j.obj).toBeUndefined();
    expect(j.line).toBe(4);
    expect(j.error).toMatch(/line 4/);
  });

  it('lists the YAML 1.1 differences of the text', () => {
    expect(parseText('data:\n  a: on\n', 'yaml').yamlDifferences.map((d) => d.line)).toEqual([2]);
  });

  it('describes each difference as what the body built from this reading sends, in every mode', () => {
    const parsed = parseText('data:\n  enabled: yes\n  mode: 012\n', 'yaml');
    const notes = parsed.yamlDifferences.map(sentMeaning);
    expect(notes[0]).toMatch(/^line 2: `yes` is sent as the string "yes" .*YAML 1\.1 readers take it as the boolean true: write true for that\.$/);
    expect(notes[1]).toMatch(/^line 3: `012` is sent as the number 12 .*the number 10: write 10 for that, or quote it \('012'\) for a string\.$/);
    const edited = parsed.obj!;
    for (const mode of ['create', 'replace', 'apply'] as const) {
      const body = generateBody({ mode, format: 'yaml', edited, guard: false, fieldManager: 'm', touchedOnly: false, hints: NO_HINTS });
      const sent = (mode === 'apply' ? parseText(body, 'yaml').obj : JSON.parse(body)) as { data: unknown };
      expect(sent.data).toEqual({ enabled: 'yes', mode: 12 });
      // The apply body goes out as YAML: written so that YAML 1.1 reads it the same way.
      if (mode === 'apply') expect(parseText(body, 'yaml').yamlDifferences).toEqual([]);
    }
  });
});

describe('editReducer orders resourceVersions by KEP-5504 (k8s/rv)', () => {
  it('takes a longer version for newer and a shorter one for older, never by number', () => {
    expect(editReducer(loaded('99'), { type: 'server-object', object: cm('100', { a: '2' }) }).text).toContain("a: '2'");
    const at100 = loaded('100');
    expect(editReducer(at100, { type: 'server-object', object: cm('99', { a: 'old' }) })).toBe(at100);
    const big = loaded('9007199254740993');
    expect(editReducer(big, { type: 'server-object', object: cm('9007199254740992', { a: 'old' }) })).toBe(big);
  });

  it("takes a different version it cannot order (an aggregated server's opaque one) for a change", () => {
    const typed = editReducer(loaded('b7'), { type: 'text', text: serialize(cm('b7', { a: 'mine' }), 'yaml') });
    expect(editReducer(typed, { type: 'server-object', object: cm('a9', { a: 'theirs' }) }).serverChanged?.object).toMatchObject({ data: { a: 'theirs' } });
  });
});

describe('a Secret\'s stringData, any key', () => {
  it('stringData.__proto__ becomes data.__proto__ (an assignment took it as the prototype: the key was dropped)', () => {
    const stringData = JSON.parse('{"__proto__":"hi"}') as JsonObject;
    const secret: JsonObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData };
    expect(JSON.stringify(asStored(secret).data)).toBe('{"__proto__":"aGk="}');
  });
});

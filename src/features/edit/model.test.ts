// Model-based test of the Edit view's reducer, fast (issue 41): fast-check generates a few hundred
// sequences of typing (valid and broken), mode and format switches, guard and precondition ticks,
// another writer's version arriving, Send with each kind of answer (stored, apply conflict, stale),
// the recovery buttons, the rebase buttons and conflict choices. The answers are made up here (the
// server-side invariants are model.server.test.ts's, against the real server); what is checked
// after every step is the state machine's own word:
//  - a recovery button's request is the request its result came from, changed only as it says;
//  - the request to send is built from what the state shows (mode, body, preconditions as ticked);
//  - a rebase button that keeps the edit never replaces a text that does not parse;
//  - a choice after typing keeps the typed keys.
// MODEL_RUNS=<n> for more (default 300).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonObject, NO_HINTS } from '../../k8s/patch';
import { classifyOutcome, type Format, metaOf, parseText, serialize, viewOf } from './body';
import { dropResend, forceResend, recoverable } from './recovery';
import { type Exchange } from './request';
import { WRITE_MODE_TABLE, type WriteMode } from './writeModes';
import { editReducer, type EditAction, type EditState, initialEditState, undecidedConflicts } from './state';
import { bodyToSend, requestToSend } from './toSend';

const RUNS = Number(process.env.MODEL_RUNS ?? 300);
const paths = { objectPath: '/api/v1/namespaces/d/configmaps/x', collectionPath: '/api/v1/namespaces/d/configmaps' };
const KEYS = ['a', 'b', 'c'];
const cm = (rv: number, data: Record<string, string>): JsonObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'd', uid: 'u1', resourceVersion: String(rv) }, data });

interface World {
  s: EditState;
  server: { rv: number; data: Record<string, string> };
  ticked: { rv?: string; uid?: string };
  id: number;
}
type Step = { name: string; run: (w: World) => void };
const act = (w: World, a: EditAction) => {
  w.s = editReducer(w.s, a);
};
const edited = (w: World) => parseText(w.s.text, w.s.format).obj;

function answer(w: World, request: Exchange['request'], mode: WriteMode, kind: 'stored' | 'conflict' | 'stale') {
  const e = edited(w);
  let status = 200;
  let body: unknown;
  if (kind === 'conflict' && mode === 'apply') {
    status = 409;
    body = { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Conflict', code: 409, details: { causes: KEYS.map((k) => ({ reason: 'FieldManagerConflict', message: `conflict with "other"`, field: `.data.${k}` })) } };
  } else if (kind !== 'stored') {
    status = 409;
    body = { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Conflict', code: 409 };
  } else if (mode === 'delete') body = { kind: 'Status', apiVersion: 'v1', status: 'Success' };
  else {
    w.server = { rv: w.server.rv + 1, data: ((e?.data as Record<string, string> | undefined) ?? w.server.data) };
    body = cm(w.server.rv, w.server.data);
  }
  const ex: Exchange = { id: w.id++, at: '', mode, request, response: { status, statusText: '', headers: [], body: JSON.stringify(body) }, sentWith: { guardedApply: mode === 'apply' && w.s.guard } };
  const outcome = classifyOutcome(ex, { mode, dryRun: false, before: w.s.base, edited: e, hints: NO_HINTS });
  act(w, { type: 'sent', outcome, stored: outcome.ok && mode !== 'delete', preview: false, sent: { text: w.s.text, format: w.s.format } });
}

const steps: fc.Arbitrary<Step>[] = [
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('1', 'mine', 'yes', '0X1F')).map(([k, v]) => ({
    name: `type ${k}=${v}`,
    run: (w: World) => {
      const obj = edited(w) ?? viewOf(w.s.base!, w.s.showManaged);
      act(w, { type: 'text', text: serialize({ ...obj, data: { ...(obj.data as object), [k]: v } }, w.s.format) });
    },
  })),
  fc.constant({ name: 'type broken', run: (w: World) => act(w, { type: 'text', text: `${w.s.text}\n: [` }) }),
  fc.constantFrom<WriteMode>('merge-patch', 'json-patch', 'strategic-merge-patch', 'apply', 'replace', 'delete').map((mode) => ({ name: `mode ${mode}`, run: (w: World) => act(w, { type: 'mode', mode }) })),
  fc.constantFrom<Format>('yaml', 'json', 'kyaml').map((format) => ({ name: `format ${format}`, run: (w: World) => act(w, { type: 'format', format, edited: edited(w) }) })),
  fc.boolean().map((on) => ({ name: `guard ${on}`, run: (w: World) => act(w, { type: 'guard', on }) })),
  fc.boolean().map((on) => ({
    name: `pre-rv ${on}`,
    run: (w: World) => {
      w.ticked.rv = on ? metaOf(w.s.base).resourceVersion : undefined;
      act(w, { type: 'pre-rv', on });
    },
  })),
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('t1', 't2')).map(([k, v]) => ({
    name: `their ${k}=${v}`,
    run: (w: World) => {
      w.server = { rv: w.server.rv + 1, data: { ...w.server.data, [k]: v } };
      act(w, { type: 'server-object', object: cm(w.server.rv, w.server.data) });
    },
  })),
  fc.constantFrom('stored', 'conflict', 'stale').map((kind) => ({
    name: `Send → ${kind}`,
    run: (w: World) => {
      const shown = requestToSend(w.s, bodyToSend(w.s, edited(w), NO_HINTS), paths);
      if (!shown || (undecidedConflicts(w.s).length > 0 && w.s.mode !== 'delete') || (w.s.mode !== 'delete' && !edited(w) && w.s.patchOverride === null)) return;
      // What is shown is the mode's request; a delete carries the preconditions of the tick.
      expect(shown.method).toBe(WRITE_MODE_TABLE[w.s.mode].method);
      if (w.s.mode === 'delete') expect((JSON.parse(shown.body!) as { preconditions?: { resourceVersion?: string } }).preconditions?.resourceVersion).toBe(w.ticked.rv);
      answer(w, shown, w.s.mode, kind as 'stored' | 'conflict' | 'stale');
    },
  })),
  fc.constantFrom('force', 'drop').map((button) => ({
    name: `recovery ${button}`,
    run: (w: World) => {
      if (!recoverable(w.s)) return;
      const o = w.s.outcome!;
      const r = button === 'force' ? forceResend(o) : dropResend(o, ['.data.a']);
      if (!r) return;
      expect(r.mode).toBe(o.exchange.mode);
      expect([r.request.method, r.request.path, r.request.headers]).toEqual([o.exchange.request.method, o.exchange.request.path, o.exchange.request.headers]);
      if (button === 'force') expect(r.request).toEqual({ ...o.exchange.request, query: { ...o.exchange.request.query, force: 'true' } });
      else expect(r.request.query).toEqual(o.exchange.request.query);
      answer(w, r.request, r.mode, 'stored');
    },
  })),
  fc.constantFrom('reapply', 'keep-mine', 'discard').map((how) => ({
    name: `rebase ${how}`,
    run: (w: World) => {
      const latest = w.s.serverChanged?.object;
      if (!latest) return;
      const before = w.s;
      act(w, { type: 'rebase', how: how as 'reapply' | 'keep-mine' | 'discard', object: latest, edited: edited(w), hints: NO_HINTS });
      if (how !== 'discard' && !parseText(before.text, before.format).obj) expect(w.s.text).toBe(before.text);
    },
  })),
  fc.constantFrom<'mine' | 'theirs'>('mine', 'theirs').map((side) => ({
    name: `choose ${side}`,
    run: (w: World) => {
      const c = undecidedConflicts(w.s)[0];
      if (!c) return;
      const typed = w.s.rebase && w.s.text !== w.s.rebase.text ? (edited(w)?.data as Record<string, string> | undefined) : undefined;
      act(w, { type: 'choose', path: c.path, side });
      // Keys typed since the merge stay typed (the chosen one aside).
      if (typed) {
        const after = (edited(w)?.data as Record<string, string> | undefined) ?? {};
        for (const [k, v] of Object.entries(typed)) if (c.path !== `.data.${k}`) expect([k, after[k]]).toEqual([k, v]);
      }
    },
  })),
];

describe('the Edit view reducer as a state machine (model-based, generated)', () => {
  it(`${RUNS} sequences keep the buttons' word`, () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(...steps), { minLength: 1, maxLength: 25 }), (seq) => {
        const w: World = { s: editReducer(initialEditState(true), { type: 'server-object', object: cm(10, { a: 'a0', b: 'b0', c: 'c0' }) }), server: { rv: 10, data: { a: 'a0', b: 'b0', c: 'c0' } }, ticked: {}, id: 1 };
        for (const st of seq) {
          st.run(w);
          expect(w.s.preRv).toBe(w.ticked.rv);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

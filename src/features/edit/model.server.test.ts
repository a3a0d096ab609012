// Model-based tests of the Edit view's state machine against the real server (issue 41): fast-check
// generates sequences of what a user and another writer do — type (valid and broken text), switch
// mode and format, tick the guard and the delete preconditions, another writer's `kubectl patch`
// (delivered as the watch delivers it), Send, the recovery buttons after a conflict, the rebase
// buttons, a conflict choice, Delete — and runs them through the reducer (state.ts), the request
// builder (toSend.ts, what the page shows under "Request to send"), the recovery buttons
// (recovery.ts) and sendWrite, as EditView wires them. After every step:
//  1. the request that went out is exactly the one shown at the click (for Send, the request to
//     send; for a recovery button, the request its result came from, changed only as it says);
//  2. no data key the user did not touch changed on the server: each holds the other writer's
//     last value. (Touched: typed by the user; every key after "keep my edit", which overwrites
//     their changes by its own words; a key named in a conflict the user forced.)
//  3. delete preconditions are the values of the moment of the tick.
// MODEL_RUNS=<n> for a longer run (CI: 30 sequences of up to 12 steps); MODEL_SEED to replay.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonObject, NO_HINTS } from '../../k8s/patch';
import { hasKubectl, kube, kubectl, withTestNamespace } from '../../k8s/patch/server.testkit';
import { TEST_CONTEXT } from '../../k8s/proxy.testkit';
import { classifyOutcome, type Format, metaOf, parseText, serialize, viewOf } from './body';
import { dropResend, forceResend, recoverable, type Resend } from './recovery';
import { type Exchange, sendWrite, type WireRequest } from './request';
import { type WriteMode } from './writeModes';
import { editReducer, type EditAction, type EditState, initialEditState, undecidedConflicts } from './state';
import { bodyToSend, requestToSend } from './toSend';

const ns = `model-${randomBytes(3).toString('hex')}`;
const RUNS = Number(process.env.MODEL_RUNS ?? 30);
const SEED = process.env.MODEL_SEED ? Number(process.env.MODEL_SEED) : Date.now() % 2 ** 31;
// Seeds (with their paths) that found a fault once: replayed first in every run.
const FIXED: { seed: number; path?: string }[] = [];
const KEYS = ['a', 'b', 'c', 'd'];
const MODES: WriteMode[] = ['merge-patch', 'json-patch', 'strategic-merge-patch', 'apply', 'replace', 'delete'];
const collectionPath = `/api/v1/namespaces/${ns}/configmaps`;

interface Real {
  name: string;
  s: EditState;
  /** Each key's value as the other writer (or the creator) last set it. */
  theirs: Map<string, string>;
  touched: Set<string>;
  gone: boolean;
  /** The base's uid and resourceVersion when each precondition box was ticked. */
  tickedRv?: string;
  tickedUid?: string;
  log: string[];
}
const objectPath = (r: Real) => `${collectionPath}/${r.name}`;
const dispatch = (r: Real, a: EditAction) => {
  r.s = editReducer(r.s, a);
};
const edited = (r: Real) => parseText(r.s.text, r.s.format).obj;

async function serverNow(r: Real): Promise<JsonObject | undefined> {
  try {
    return await kube('GET', objectPath(r));
  } catch {
    return undefined;
  }
}

/** Sends as EditView's mutation does, and checks invariant 1 on what went out. */
async function sendAs(r: Real, mode: WriteMode, shown: WireRequest, sentWith: { guardedApply: boolean; createOnly: boolean }, editedNow: JsonObject | undefined): Promise<Exchange> {
  const ex = await sendWrite(TEST_CONTEXT, mode, shown, sentWith);
  // 1. What went out is what was shown (a guarded apply's GET check is its own, marked exchange).
  if (!ex.refused) expect(ex.request, r.log.join('\n')).toEqual(shown);
  else expect(ex.request.method).toBe('GET');
  const outcome = classifyOutcome(ex, { mode, dryRun: false, before: r.s.base, edited: editedNow, hints: NO_HINTS });
  const stored = outcome.ok && mode !== 'delete';
  dispatch(r, { type: 'sent', outcome, stored, preview: false, sent: { text: r.s.text, format: r.s.format } });
  if (outcome.ok && mode === 'delete') {
    r.gone = true;
    dispatch(r, { type: 'server-deleted' });
  }
  return ex;
}

type Step = { name: string; run: (r: Real) => Promise<void> };
const step = (name: string, run: (r: Real) => Promise<void> | void): Step => ({ name, run: async (r) => run(r) });

const typeValue = fc.tuple(fc.constantFrom(...KEYS), fc.option(fc.constantFrom('1', 'x', 'yes', '0x1F', 'mine'), { nil: undefined })).map(([key, value]) =>
  step(`type ${key}=${value ?? '(removed)'}`, (r) => {
    const obj = edited(r) ?? (r.s.base ? viewOf(r.s.base, r.s.showManaged) : undefined);
    if (!obj) return;
    const data = { ...((obj.data as Record<string, string> | undefined) ?? {}) };
    if (value === undefined) delete data[key];
    else data[key] = value;
    r.touched.add(key);
    dispatch(r, { type: 'text', text: serialize({ ...obj, data }, r.s.format) });
  }),
);
const typeBroken = fc.constant(step('type broken text', (r) => dispatch(r, { type: 'text', text: `${r.s.text}\n: [` })));
const switchMode = fc.constantFrom(...MODES).map((mode) => step(`mode ${mode}`, (r) => dispatch(r, { type: 'mode', mode })));
const switchFormat = fc.constantFrom<Format>('yaml', 'json', 'kyaml').map((format) => step(`format ${format}`, (r) => dispatch(r, { type: 'format', format, edited: edited(r) })));
const tickGuard = fc.boolean().map((on) => step(`guard ${on}`, (r) => dispatch(r, { type: 'guard', on })));
const tickPre = fc.tuple(fc.constantFrom('rv', 'uid'), fc.boolean()).map(([which, on]) =>
  step(`precondition ${which} ${on}`, (r) => {
    if (which === 'rv') r.tickedRv = on ? metaOf(r.s.base).resourceVersion : undefined;
    else r.tickedUid = on ? metaOf(r.s.base).uid : undefined;
    dispatch(r, { type: which === 'rv' ? 'pre-rv' : 'pre-uid', on });
  }),
);
const theirWrite = fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('t1', 't2', 'theirs')).map(([key, value]) =>
  step(`kubectl patch ${key}=${value}`, async (r) => {
    if (r.gone) return;
    kubectl(['patch', 'configmap', r.name, '-n', ns, '--type', 'merge', '-p', JSON.stringify({ data: { [key]: value } })]);
    r.theirs.set(key, value);
    // The watch delivers the new version.
    const now = await serverNow(r);
    if (now) dispatch(r, { type: 'server-object', object: now });
  }),
);
const send = fc.constant(
  step('Send', async (r) => {
    const e = edited(r);
    const shown = requestToSend(r.s, bodyToSend(r.s, e, NO_HINTS), { objectPath: objectPath(r), collectionPath });
    // EditView's canSend.
    const canSend = !!shown && (undecidedConflicts(r.s).length === 0 || r.s.mode === 'delete') && (r.s.mode === 'delete' || !!e || r.s.patchOverride !== null);
    if (!canSend) return;
    await sendAs(r, r.s.mode, shown, { guardedApply: r.s.mode === 'apply' && r.s.guard, createOnly: false }, r.s.patchOverride === null ? e : undefined);
  }),
);
const recovery = fc.constantFrom('force', 'drop').map((button) =>
  step(`recovery ${button}`, async (r) => {
    if (!recoverable(r.s)) return;
    const o = r.s.outcome!;
    const fields = o.conflicts.map((c) => c.field ?? '').filter(Boolean);
    const resend: Resend | undefined = button === 'force' ? forceResend(o) : dropResend(o, fields);
    if (!resend) return;
    // The request shown with the result, changed only as the button says.
    expect(resend.mode).toBe(o.exchange.mode);
    expect({ ...resend.request, body: undefined, query: { ...resend.request.query, force: undefined } }).toEqual({ ...o.exchange.request, body: undefined, query: { ...o.exchange.request.query, force: undefined } });
    if (button === 'force') {
      expect(resend.request.body).toBe(o.exchange.request.body);
      // Forcing is the user's decision on the fields named in the conflict table.
      for (const f of fields) r.touched.add(f.replace(/^\.data\./, ''));
    }
    await sendAs(r, resend.mode, resend.request, { guardedApply: resend.guardedApply, createOnly: resend.createOnly }, undefined);
  }),
);
const rebase = fc.constantFrom('reapply', 'keep-mine', 'discard').map((how) =>
  step(`rebase ${how}`, (r) => {
    const latest = r.s.serverChanged?.object;
    if (!latest) return;
    const before = r.s;
    if (how === 'keep-mine' && edited(r)) KEYS.forEach((k) => r.touched.add(k));
    dispatch(r, { type: 'rebase', how, object: latest, edited: edited(r), hints: NO_HINTS });
    // A text that does not parse is never replaced by a rebase button that keeps the edit.
    if (how !== 'discard' && !parseText(before.text, before.format).obj) expect(r.s.text).toBe(before.text);
  }),
);
const choose = fc.constantFrom<'mine' | 'theirs'>('mine', 'theirs').map((side) =>
  step(`choose ${side}`, (r) => {
    const c = undecidedConflicts(r.s)[0];
    if (c) dispatch(r, { type: 'choose', path: c.path, side });
  }),
);
const stepArb = fc.oneof(
  { weight: 5, arbitrary: typeValue },
  { weight: 1, arbitrary: typeBroken },
  { weight: 3, arbitrary: switchMode },
  { weight: 1, arbitrary: switchFormat },
  { weight: 1, arbitrary: tickGuard },
  { weight: 1, arbitrary: tickPre },
  { weight: 3, arbitrary: theirWrite },
  { weight: 5, arbitrary: send },
  { weight: 3, arbitrary: recovery },
  { weight: 2, arbitrary: rebase },
  { weight: 1, arbitrary: choose },
);

let sequence = 0;
async function runSequence(steps: Step[]): Promise<void> {
  const name = `m${sequence++}`;
  const initial: Record<string, string> = { a: 'a0', b: 'b0', c: 'c0', d: 'd0' };
  const created = await kube('POST', collectionPath, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: initial }, undefined, { fieldManager: 'creator' });
  const r: Real = { name, s: editReducer(initialEditState(true), { type: 'server-object', object: created }), theirs: new Map(Object.entries(initial)), touched: new Set(), gone: false, log: [] };
  for (const st of steps) {
    r.log.push(st.name);
    await st.run(r);
    const why = `steps: ${r.log.join(' → ')}`;
    // 3. Preconditions are the values of the tick.
    expect([r.s.preRv, r.s.preUid], why).toEqual([r.tickedRv, r.tickedUid]);
    // 2. Untouched keys hold the other writer's last value.
    const now = await serverNow(r);
    if (!now) continue;
    const data = (now.data as Record<string, string> | undefined) ?? {};
    for (const [k, v] of r.theirs) if (!r.touched.has(k)) expect([k, data[k]], why).toEqual([k, v]);
  }
  await kube('DELETE', `${collectionPath}/${name}`).catch(() => undefined);
}

withTestNamespace(ns);

describe.skipIf(!hasKubectl())('the Edit view’s state machine against the real server (model-based, generated)', () => {
  it(`${RUNS} sequences: what went out is what was shown; untouched fields keep the other writer’s values`, async () => {
    const sequences = fc.array(stepArb, { minLength: 1, maxLength: 12 });
    for (const f of FIXED) await fc.assert(fc.asyncProperty(sequences, runSequence), { seed: f.seed, path: f.path, numRuns: 1, endOnFailure: true });
    // Shrinking stays on: a failing sequence is cut down to the steps that matter (each run is a fresh object).
    await fc.assert(fc.asyncProperty(sequences, runSequence), { numRuns: RUNS, seed: SEED });
  }, 900_000);
});

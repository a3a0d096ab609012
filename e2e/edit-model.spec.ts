// The Edit view's state machine through the page (issue 41), against the real server: first the
// issue's case (after an apply conflict, switch to Delete, then "Re-send with force=true": the
// object must stay, and the request that goes out is the apply with force=true), then generated
// sequences (fast-check) of typing, mode switches, the guard, another writer's patch, Send, the
// recovery and rebase buttons and Delete. After every click: the newest "Request sent" is exactly
// the "Request to send" shown at the click (for a recovery button: the result's request with only
// the button's change); after every step, every data key the user did not touch holds the other
// writer's last value. E2E_MODEL_RUNS=<n> (default 20 sequences), E2E_MODEL_SEED to replay.
import type { Page } from '@playwright/test';
import fc from 'fast-check';
import { cmPath, openEditor, q, typeObject } from './editor';
import { expect, test } from './fixtures';

type Kube = { request: (u: 'admin', m: string, p: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: string }> };
type Obj = { apiVersion: string; kind: string; metadata: Record<string, unknown>; data?: Record<string, string> };
const RUNS = Number(process.env.E2E_MODEL_RUNS ?? 20);
const SEED = process.env.E2E_MODEL_SEED ? Number(process.env.E2E_MODEL_SEED) : Date.now() % 2 ** 31;
const KEYS = ['a', 'b', 'c'];
const MODES = ['JSON Merge Patch', 'JSON Patch', 'Strategic Merge Patch', 'Server-Side Apply', 'Replace (PUT)', 'Delete'] as const;

async function get(kube: Kube, path: string): Promise<Obj | undefined> {
  const r = await kube.request('admin', 'GET', path);
  if (r.status === 404) return undefined;
  const o = JSON.parse(r.body) as Obj;
  const { managedFields: _m, ...metadata } = o.metadata;
  return { ...o, metadata };
}

const sentText = async (page: Page) => (await page.getByLabel('Request sent').first().textContent()) ?? '';
const result = (page: Page) => page.getByRole('region', { name: 'Result' });

/** Clicks a sending button and waits for its answer (a new entry in the exchanges). */
async function clickAndWait(page: Page, button: ReturnType<Page['getByRole']>) {
  const before = await page.getByLabel('Request sent').count();
  await button.click();
  await expect(page.getByLabel('Request sent')).toHaveCount(Math.min(before + 1, 30));
  await expect(page.getByRole('button', { name: 'Send', exact: true })).not.toHaveText('Sending…');
}

interface Run {
  page: Page;
  kube: Kube;
  path: string;
  theirs: Map<string, string>;
  touched: Set<string>;
  log: string[];
}

type Step = { name: string; run: (r: Run) => Promise<void> };

/** The editor's text as shown (Monaco draws each line in its own element, positioned by `top`). */
async function editorText(page: Page): Promise<string> {
  const lines = await page
    .getByRole('region', { name: 'Object' })
    .locator('.view-lines .view-line')
    .evaluateAll((els) => els.map((e) => ({ top: parseFloat((e as HTMLElement).style.top), text: e.textContent ?? '' })));
  return lines
    .sort((a, b) => a.top - b.top)
    .map((l) => l.text.replace(/\u00a0/g, ' '))
    .join('\n');
}

const typeStep = fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('1', 'mine', '0X1F')).map(([k, v]): Step => ({
  name: `type ${k}=${v}`,
  run: async (r) => {
    let shown: Obj;
    try {
      shown = JSON.parse(await editorText(r.page)) as Obj;
    } catch {
      return;
    }
    r.touched.add(k);
    // One key changed in what the editor shows: nothing else is the user's change.
    await typeObject(r.page, { ...shown, data: { ...shown.data, [k]: v } });
  },
}));
const modeStep = fc.constantFrom(...MODES).map((m): Step => ({ name: `mode ${m}`, run: async (r) => r.page.getByRole('radio', { name: m, exact: true }).check() }));
const guardStep = fc.constant<Step>({
  name: 'toggle guard',
  run: async (r) => {
    const box = r.page.getByRole('checkbox', { name: /only if unchanged/ });
    if (await box.isVisible()) await box.click();
  },
});
const theirStep = fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('t1', 't2')).map(([k, v]): Step => ({
  name: `their patch ${k}=${v}`,
  run: async (r) => {
    const res = await r.kube.request('admin', 'PATCH', `${r.path}?fieldManager=kubectl-patch`, { data: { [k]: v } }, { 'Content-Type': 'application/merge-patch+json' });
    if (res.status === 200) r.theirs.set(k, v);
  },
}));
const sendStep = fc.constant<Step>({
  name: 'Send',
  run: async (r) => {
    const send = r.page.getByRole('button', { name: 'Send', exact: true });
    if (!(await send.isEnabled())) return;
    const shown = (await r.page.getByLabel('Request to send').textContent()) ?? '';
    await clickAndWait(r.page, send);
    expect(await sentText(r.page), r.log.join(' → ')).toBe(shown);
  },
});
const recoveryStep = fc.constantFrom('Re-send with force=true', 'Drop these fields and re-send').map((label): Step => ({
  name: label,
  run: async (r) => {
    const button = result(r.page).getByRole('button', { name: label });
    if (!(await button.isVisible())) return;
    const before = await sentText(r.page);
    if (label.startsWith('Re-send')) {
      for (const f of await result(r.page).getByRole('table', { name: 'Field conflicts' }).locator('tbody tr td:first-child').allTextContents()) r.touched.add(f.replace(/^\.data\./, ''));
    }
    await clickAndWait(r.page, button);
    const after = await sentText(r.page);
    // The request line and headers of the apply the result came from; force=true added, or the body changed.
    const line = (t: string) => t.split('\n')[0]!;
    expect(after.split('\n')[0]!.startsWith('PATCH '), r.log.join(' → ')).toBe(before.startsWith('PATCH '));
    if (label.startsWith('Re-send')) expect(line(after), r.log.join(' → ')).toBe(line(before).includes('?') ? `${line(before)}&force=true` : `${line(before)}?force=true`);
    else expect(line(after), r.log.join(' → ')).toBe(line(before));
  },
}));
const rebaseStep = fc.constantFrom('Re-apply my changes to the latest version', 'Discard my edit, edit the latest', 'Keep my edit as it is (overwrites their change)').map((label): Step => ({
  name: label,
  run: async (r) => {
    const button = r.page.getByRole('alert', { name: 'Changed on the server' }).getByRole('button', { name: label });
    if (!(await button.isVisible()) || !(await button.isEnabled())) return;
    if (label.startsWith('Keep')) KEYS.forEach((k) => r.touched.add(k));
    await button.click();
  },
}));
const stepArb = fc.oneof(
  { weight: 4, arbitrary: typeStep },
  { weight: 3, arbitrary: modeStep },
  { weight: 1, arbitrary: guardStep },
  { weight: 3, arbitrary: theirStep },
  { weight: 4, arbitrary: sendStep },
  { weight: 3, arbitrary: recoveryStep },
  { weight: 2, arbitrary: rebaseStep },
);

async function checkUntouched(r: Run) {
  const now = await get(r.kube, r.path);
  if (!now) return;
  for (const [k, v] of r.theirs) if (!r.touched.has(k)) expect([k, now.data?.[k]], r.log.join(' → ')).toEqual([k, v]);
}

test('after an apply conflict, Delete selected: "Re-send with force=true" re-sends the apply, and the object stays (issue 41, case 1)', async ({ page, explorerUrl, kube, ns }) => {
  await kube.request('admin', 'PATCH', `${cmPath(ns, 'forced')}?fieldManager=other`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'forced' }, data: { a: 'theirs' } }, { 'Content-Type': 'application/apply-patch+yaml' });
  await openEditor(page, explorerUrl, ns, 'forced');
  await page.getByRole('radio', { name: 'Server-Side Apply' }).check();
  const live = (await get(kube, cmPath(ns, 'forced')))!;
  await typeObject(page, { ...live, data: { a: 'mine' } });
  await clickAndWait(page, page.getByRole('button', { name: 'Send', exact: true }));
  await expect(result(page).getByLabel('Result status')).toContainText('HTTP 409');
  const applied = await sentText(page);
  await page.getByRole('radio', { name: 'Delete', exact: true }).check();
  await clickAndWait(page, result(page).getByRole('button', { name: 'Re-send with force=true' }));
  // Before: the DELETE of the mode selected now went out (HTTP 200) and the object was gone.
  await expect(result(page).getByLabel('Result status')).toContainText('Server-Side Apply: HTTP 200');
  expect((await sentText(page)).split('\n')[0]).toBe(`${applied.split('\n')[0]}&force=true`);
  expect((await get(kube, cmPath(ns, 'forced')))?.data).toEqual({ a: 'mine' });
});

test('preconditions fixed at the tick, an unguarded typed body called so, a half-typed text kept (issue 41, cases 6, 7, 5)', async ({ page, explorerUrl, kube, ns }) => {
  const path = cmPath(ns, 'guards');
  const theirPatch = async (data: Record<string, string>) => expect((await kube.request('admin', 'PATCH', path, { data }, { 'Content-Type': 'application/merge-patch+json' })).status).toBe(200);
  await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps`, { metadata: { name: 'guards' }, data: { a: '1' } });
  await openEditor(page, explorerUrl, ns, 'guards');
  const ticked = (await get(kube, path))!.metadata.resourceVersion as string;

  // Case 6: Delete with the resourceVersion precondition ticked; another writer changes the object
  // (nothing typed: the view follows it). Before: the precondition followed too, and the DELETE got 200.
  await page.getByRole('radio', { name: 'Delete', exact: true }).check();
  await page.getByLabel(/precondition resourceVersion/).check();
  await theirPatch({ b: 'theirs' });
  await expect(page.getByLabel('Loaded resourceVersion')).not.toHaveText(ticked);
  await expect(page.getByLabel('Request to send')).toContainText(`"resourceVersion": "${ticked}"`);
  await clickAndWait(page, page.getByRole('button', { name: 'Send', exact: true }));
  await expect(result(page).getByLabel('Result status')).toContainText('HTTP 409');
  expect((await get(kube, path))?.data).toEqual({ a: '1', b: 'theirs' });

  // Case 7: a merge patch typed by hand, without the guard; another writer's change. Before, the
  // banner said the send would get 409, and the body went out unguarded over their change.
  await page.getByRole('radio', { name: 'JSON Merge Patch' }).check();
  await page.getByRole('textbox', { name: 'Patch body' }).focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText('{"data": {"b": "mine"}}');
  await expect(page.getByRole('note', { name: 'Unguarded' })).toBeVisible();
  await theirPatch({ c: 'theirs' });
  const banner = page.getByRole('alert', { name: 'Changed on the server' });
  await expect(banner.getByLabel('Not guarded')).toContainText('carries no resourceVersion guard');
  await expect(banner).not.toContainText('sending now gets 409');

  // Case 5: the text does not parse: re-apply and keep-mine cannot replace it with the server's version.
  await typeObject(page, '{"data": {"a": ');
  await expect(banner.getByRole('button', { name: 'Re-apply my changes to the latest version' })).toBeDisabled();
  await expect(banner.getByRole('button', { name: 'Keep my edit as it is (overwrites their change)' })).toBeDisabled();
});

test(`${RUNS} generated sequences through the page: what goes out is what was shown; untouched keys keep the other writer's values`, async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(60_000 + RUNS * 30_000);
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(stepArb, { minLength: 2, maxLength: 6 }), async (steps) => {
      const name = `seq${n++}`;
      const path = cmPath(ns, name);
      const initial = { a: 'a0', b: 'b0', c: 'c0' };
      await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps?fieldManager=creator`, { metadata: { name }, data: initial });
      if (n === 1) await openEditor(page, explorerUrl, ns, name);
      else {
        // In-page navigation (the router follows popstate): the app, its discovery and schemas stay loaded.
        await page.evaluate((url) => {
          history.pushState(null, '', url);
          dispatchEvent(new PopStateEvent('popstate'));
        }, `${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name })}`);
        await page.getByRole('radio', { name: 'JSON', exact: true }).check();
        await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText(`"name": "${name}"`);
      }
      const r: Run = { page, kube, path, theirs: new Map(Object.entries(initial)), touched: new Set(), log: [] };
      for (const st of steps) {
        r.log.push(st.name);
        await st.run(r);
        await checkUntouched(r);
      }
    }),
    // No shrinking: each run drives the page for seconds; the failure message lists the steps.
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
});

// The resourceVersion lab against the real API server: one row per cell of the grid, each with
// the status (and, for a watch, the ERROR event) the API documentation predicts, as checked
// against kube-apiserver 1.37. Before the grid runs, kube-apiserver is restarted (its watch cache
// then remembers nothing older) and etcd compacted, so the lab's "old" version "1" is gone from
// both, as on any cluster that has run for a while.
import { expect, test } from './fixtures';

type Verb = 'get' | 'list' | 'list-limit' | 'list-continue' | 'watch';
type Rv = 'unset' | '0' | 'recent' | 'old' | 'future';
type Match = 'unset' | 'Exact' | 'NotOlderThan';

/** [verb, resourceVersion, resourceVersionMatch, HTTP status, ERROR event code on a 200 watch] */
const GRID: [Verb, Rv, Match, number, number?][] = [];
const all = (verb: Verb, rv: Rv, status: number) => (['unset', 'Exact', 'NotOlderThan'] as Match[]).forEach((m) => GRID.push([verb, rv, m, status]));
// get has no resourceVersionMatch: the server ignores it. A version is a lower bound; a future one times out.
all('get', 'unset', 200);
all('get', '0', 200);
all('get', 'recent', 200);
all('get', 'old', 200);
all('get', 'future', 504);
for (const verb of ['list', 'list-limit'] as const) {
  GRID.push(
    [verb, 'unset', 'unset', 200],
    [verb, 'unset', 'Exact', 422], // resourceVersionMatch without resourceVersion
    [verb, 'unset', 'NotOlderThan', 422],
    [verb, '0', 'unset', 200],
    [verb, '0', 'Exact', 422], // Exact at "0" is forbidden
    [verb, '0', 'NotOlderThan', 200],
    [verb, 'recent', 'unset', 200],
    [verb, 'recent', 'Exact', 200],
    [verb, 'recent', 'NotOlderThan', 200],
    // Without a match, limit turns a version into Exact (the legacy rule): compacted, so 410.
    [verb, 'old', 'unset', verb === 'list' ? 200 : 410],
    [verb, 'old', 'Exact', 410],
    [verb, 'old', 'NotOlderThan', 200],
    [verb, 'future', 'unset', 504],
    [verb, 'future', 'Exact', 504],
    [verb, 'future', 'NotOlderThan', 504],
  );
}
GRID.push(['list-continue', 'unset', 'unset', 200], ['list-continue', 'unset', 'Exact', 422], ['list-continue', 'unset', 'NotOlderThan', 422]);
GRID.push(['list-continue', '0', 'unset', 200], ['list-continue', '0', 'Exact', 422], ['list-continue', '0', 'NotOlderThan', 422]);
for (const rv of ['recent', 'old', 'future'] as const) GRID.push(['list-continue', rv, 'unset', 400], ['list-continue', rv, 'Exact', 422], ['list-continue', rv, 'NotOlderThan', 422]);
GRID.push(['watch', 'unset', 'unset', 200], ['watch', '0', 'unset', 200], ['watch', 'recent', 'unset', 200], ['watch', 'old', 'unset', 200, 410], ['watch', 'future', 'unset', 200]);
for (const rv of ['unset', '0', 'recent', 'old', 'future'] as const) GRID.push(['watch', rv, 'Exact', 422], ['watch', rv, 'NotOlderThan', 422]);

test('the resourceVersion lab: every cell gets the answer the documentation predicts', async ({ page, explorerUrl, kube }) => {
  test.setTimeout(300_000);
  expect(GRID).toHaveLength(75);
  await kube.restartApiServer();
  await kube.compact();
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'lessons', lesson: 'rv-lab' }).toString()}`);
  await page.getByRole('button', { name: 'Create scratch namespace' }).click();
  const ns = (await page.getByTestId('scratch-namespace').textContent())!;
  expect(ns).toMatch(/^lesson-rvlab-/);
  await page.getByRole('button', { name: 'Set up the lab' }).click();
  const recent = (await page.getByTestId('lab-recent').textContent())!;
  // The lab's "recent" is the list's version, as the server reports it.
  const list = JSON.parse((await kube.request('admin', 'GET', `/api/v1/namespaces/${ns}/configmaps?resourceVersion=${recent}&resourceVersionMatch=Exact`)).body) as { items: { metadata: { name: string } }[] };
  expect(list.items.map((i) => i.metadata.name)).toEqual(expect.arrayContaining(['lab-1', 'lab-2', 'lab-3']));

  for (const [verb, rv, match, status, errorEvent] of GRID) {
    const id = `${verb}/${rv}/${match}`;
    await test.step(`${id} → ${status}${errorEvent ? ` + ERROR ${errorEvent}` : ''}`, async () => {
      const cell = page.getByTestId(`cell-${id}`);
      await cell.getByRole('button', { name: `run ${id}` }).click();
      await expect(cell.getByTestId('cell-got')).toHaveText(`→ ${status}${errorEvent ? `+${errorEvent}` : ''} ✓`, { timeout: 30_000 });
      await expect(page.getByRole('region', { name: 'selected cell', exact: true }).getByTestId('request')).toContainText(`GET /api/v1/namespaces/${ns}/configmaps`);
    });
  }
  await expect(page.getByTestId('lab-summary')).toHaveText('75 of 75 as documented');
  // Exact at the recent version answered at exactly that version; NotOlderThan at least it.
  await page.getByRole('button', { name: 'run list/recent/Exact' }).click();
  await expect(page.getByRole('region', { name: 'selected cell', exact: true })).toContainText(`${recent}: the one asked`);

  await page.getByRole('button', { name: 'Delete scratch namespace' }).click();
  await expect(page.getByRole('button', { name: 'Create scratch namespace' })).toBeVisible();
});

// Runs after every lesson spec (files run in name order, one worker): lesson-kit, lessons, rv-lab.
test('after all lessons and the lab, no lesson namespace, CRD or policy is left', async ({ kube }) => {
  test.setTimeout(180_000);
  const left = async () => {
    const out: string[] = [];
    for (const path of ['/api/v1/namespaces', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings']) {
      const r = await kube.request('admin', 'GET', `${path}?labelSelector=explorer.lessons%2Flesson`);
      if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status}`);
      out.push(...(JSON.parse(r.body) as { items: { metadata: { name: string } }[] }).items.map((i) => `${path} ${i.metadata.name}`));
    }
    return out;
  };
  // Namespaces take a moment to finish terminating (their content is deleted first).
  await expect.poll(left, { timeout: 150_000, intervals: [2000] }).toEqual([]);
});

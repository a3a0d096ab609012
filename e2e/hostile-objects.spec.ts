// Objects anyone who may create a custom resource can make, opened in the views that walk whole
// objects (Edit, Ownership, Encodings), and in those that show it in part or as text (Lists, Watch,
// Console): one nested 9,990 levels deep (about the deepest the API server can store and read back; kubectl
// prints it; the views overflowed the stack and the page was replaced by "Maximum call stack size
// exceeded"), and one with a 1.4 MiB string (KYAML took minutes on it). The deep body is built as
// text: JSON.stringify itself overflows on it.
import { expect, test } from './fixtures';
import { defineHoards } from './hoards';

test('a custom resource nested 9,990 levels deep is refused with a reason in Edit, Ownership and Encodings and breaks neither Lists, Watch nor the Console, and a 1.4 MiB string opens', async ({ page, explorerUrl, kube, ns }) => {
  test.setTimeout(120_000);
  const hoards = await defineHoards(kube, ns);
  const { group } = hoards;
  try {
    const path = hoards.path(ns);
    await hoards.createDeep(ns);
    expect((await kube.request('admin', 'GET', `${path}/deep`)).body).toContain('{"end":true}');
    await hoards.createLong(ns, 'long', 1.4 * 1024 * 1024);

    const broke = page.getByText('Something broke in the explorer');
    const open = (view: string, name: string, extra: Record<string, string> = {}) =>
      page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view, namespace: ns, group, version: 'v1', resource: 'hoards', name, ...extra })}`);
    // Encodings refuses it once the JSON is in, without asking for the other formats: the server's
    // YAML of it is 300 MB (every level indented), which took the view a minute to download.
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/hoards/deep')) asked.push(r.headers().accept ?? '');
    });
    for (const view of ['encodings', 'edit', 'ownership']) {
      await open(view, 'deep');
      await expect(page.getByText(/nested more than 512 levels deep/).first(), view).toBeVisible({ timeout: 20_000 });
      await expect(broke).toHaveCount(0);
      if (view === 'encodings') expect(asked.filter((a) => a.includes('yaml')), asked.join(' ; ')).toEqual([]);
      if (view === 'encodings') expect(asked.some((a) => a.includes('application/json')), asked.join(' ; ')).toBe(true);
    }
    // Lists: the row, and the object opened from it.
    await open('lists', '');
    await expect(page.getByRole('cell', { name: 'deep', exact: true })).toBeVisible({ timeout: 20_000 });
    await open('lists', 'deep');
    await expect(page.getByRole('complementary', { name: 'Object deep' })).toBeVisible({ timeout: 20_000 });
    await expect(broke).toHaveCount(0);
    // Watch: a pane that receives the whole object in its events.
    const panes = JSON.stringify([{ id: 'h', group, version: 'v1', resource: 'hoards', namespace: ns, mode: 'list-watch', bookmarks: true, asTable: false, max: 100 }]);
    await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'watch', namespace: ns, panes })}`);
    await expect(page.getByText(`${ns}/deep`)).toBeVisible({ timeout: 20_000 });
    // The event opened: the object it carried.
    await page.getByText(`${ns}/deep`).click();
    await expect(broke).toHaveCount(0);
    // Console: the object's GET, sent.
    await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'console', m: 'GET', p: `${path}/deep`, 'h.Accept': 'application/json', send: '1' })}`);
    await expect(page.getByText(/200 OK/).first()).toBeVisible({ timeout: 20_000 });
    await expect(broke).toHaveCount(0);
    await open('encodings', 'long');
    await expect(page.getByRole('table', { name: 'Formats' }).getByRole('row', { name: /KYAML/ })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('Something broke in the explorer')).toHaveCount(0);
  } finally {
    await hoards.remove();
  }
});

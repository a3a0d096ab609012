// What the Edit view says about YAML 1.1 and 1.2 readings, against the real server: the object
// editor's text is read as YAML 1.2 and every mode's body is built from that reading, so the notes
// describe the body sent (`yes` stays the string "yes", `012` goes out as the number 12), while a
// body that goes out as typed in YAML (the apply body) gets the server's YAML 1.1 reading.
import { cmPath, q, typeObject } from './editor';
import { expect, test } from './fixtures';

test('YAML notes in the Edit view describe the body that will be sent, per mode', async ({ page, explorerUrl, kube, ns }) => {
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps' })}`);
  await expect(page.getByRole('heading', { name: /New ConfigMap/ })).toBeVisible();
  await page.getByRole('radio', { name: 'YAML', exact: true }).check();
  await typeObject(page, `{apiVersion: v1, kind: ConfigMap, metadata: {name: hinted, namespace: ${ns}}, data: {enabled: yes}}`);
  const notes = page.getByRole('list', { name: 'YAML 1.1 and 1.2 differences' }).first();
  await expect(notes).toContainText('`yes` is sent as the string "yes"');
  await expect(notes).toContainText('YAML 1.1 readers take it as the boolean true');
  await expect(page.getByLabel('Request to send')).toContainText('"enabled": "yes"');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 201');
  // What the note said is what the server stored.
  expect((JSON.parse((await kube.request('admin', 'GET', cmPath(ns, 'hinted'))).body) as { data: Record<string, unknown> }).data).toEqual({ enabled: 'yes' });

  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps' })}`);
  await page.getByRole('radio', { name: 'YAML', exact: true }).check();
  await typeObject(page, `{apiVersion: v1, kind: ConfigMap, metadata: {name: octal, namespace: ${ns}}, data: {mode: 012}}`);
  await expect(notes).toContainText('`012` is sent as the number 12');
  await expect(notes).toContainText('the number 10');
  await expect(page.getByLabel('Request to send')).toContainText('"mode": 12');
  // A ConfigMap's data holds strings: the number the note named is refused, nothing is stored.
  await page.getByRole('checkbox', { name: 'dryRun=All' }).check();
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByRole('region', { name: 'Result' }).getByLabel('Result status')).toContainText('HTTP 400');

  // Server-Side Apply as YAML: the body goes out as application/apply-patch+yaml, written by the
  // explorer with the string quoted, and the server's reading of that body shows no difference.
  await page.getByRole('radio', { name: 'Server-Side Apply' }).check();
  await typeObject(page, `{apiVersion: v1, kind: ConfigMap, metadata: {name: applied, namespace: ${ns}}, data: {enabled: yes}}`);
  await expect(page.getByLabel('Request to send')).toContainText("enabled: 'yes'");
  await expect(page.getByRole('list', { name: 'YAML 1.1 and 1.2 differences' })).toHaveCount(1);
});

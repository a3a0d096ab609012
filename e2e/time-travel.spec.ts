// Time travel live, without a recording: while the Ownership view follows an object, kubectl
// changes it twice under two managers (kubectl patch: kubectl-patch, Update; kubectl apply
// --server-side: kubectl, Apply). The view lists each version the tab has seen, ordered by
// resourceVersion, and "who changed replicas" names the right manager for each change.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, test } from './fixtures';

const run = promisify(execFile);

async function kubectl(args: string[], input?: string): Promise<string> {
  const kubeconfig = process.env.KUBE_TEST_KUBECONFIG!;
  if (input === undefined) return (await run('kubectl', ['--kubeconfig', kubeconfig, '--context', 'local-admin', ...args])).stdout;
  return new Promise((resolve, reject) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, '--context', 'local-admin', ...args], (e, stdout, stderr) => (e ? reject(new Error(`${e.message}\n${stderr}`)) : resolve(stdout)));
    child.stdin!.end(input);
  });
}

test('the Ownership view lists the versions seen in this tab and who changed replicas, with no recording', async ({ page, explorerUrl, kube, ns }) => {
  expect((await kube.request('admin', 'POST', `/api/v1/namespaces/${ns}/configmaps?fieldManager=setup`, { metadata: { name: 'web' }, data: { replicas: '1' } })).status).toBe(201);
  await page.goto(`${explorerUrl}?context=local-admin&view=ownership&namespace=${ns}&group=&version=v1&resource=configmaps&name=web`);
  await expect(page.getByRole('button', { name: '● Record' })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Follow this object (watch)' }).check();
  await expect(page.getByRole('region', { name: 'Ownership history' }).getByRole('status')).toContainText('watching from resourceVersion');

  await kubectl(['-n', ns, 'patch', 'configmap', 'web', '--type', 'merge', '-p', '{"data":{"replicas":"3"}}']);
  const tt = page.getByRole('region', { name: 'Time travel' });
  const replicas = tt.getByTestId('tt-change-.data.replicas');
  await expect(replicas).toContainText('kubectl-patch (Update');
  await kubectl(['-n', ns, 'apply', '--server-side', '--force-conflicts', '-f', '-'], `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  replicas: "5"\n`);

  // The read, the patch, the apply: three versions (the watch's first event repeats the read's).
  const versions = tt.getByRole('table', { name: 'Versions' }).getByRole('row');
  await expect(versions).toHaveCount(4);
  await expect(replicas).toContainText('kubectl (Apply');
  await expect(replicas).toContainText(/3\s*5/);
  // The version the patch made: from the first to the second.
  await versions.nth(1).getByRole('radio', { name: /^from/ }).check();
  await versions.nth(2).getByRole('radio', { name: /^to/ }).check();
  await expect(replicas).toContainText('kubectl-patch (Update');
  await expect(replicas).toContainText(/1\s*3/);
  // Ordered by resourceVersion (k8s/rv: as numbers, within the resource).
  const rvs = await Promise.all([1, 2, 3].map(async (i) => BigInt((await versions.nth(i).getByRole('cell').nth(2).innerText()).trim())));
  expect(rvs[0]! < rvs[1]! && rvs[1]! < rvs[2]!).toBe(true);
});

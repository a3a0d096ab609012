// Lessons on the older release, where the server lacks what a lesson needs: the lesson must say
// so, keep the step that depends on it disabled with the reason, and still clean up.
import { OLDER_KUBERNETES_VERSION } from '../../proxy/cluster/versions';
import { expect, test } from '../fixtures';

test(`force-deletion on ${OLDER_KUBERNETES_VERSION}: the gate is off, so nothing is broken and the CRD is removed`, async ({ page, explorerUrl, kube }) => {
  test.setTimeout(180_000);
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'lessons', lesson: 'force-deletion' }).toString()}`);
  await page.getByRole('button', { name: 'Create scratch namespace' }).click();
  await expect(page.getByTestId('scratch-namespace')).toHaveText(/^lesson-unsafe-[a-z0-9]{5}$/);
  await page.getByRole('checkbox', { name: /I understand that this lesson creates cluster-scoped objects/ }).check();
  await page.getByRole('button', { name: 'Run all steps' }).click();

  const gate = page.getByTestId('step-gate');
  // The server's own word: the gate exists there, alpha and off.
  await expect(gate).toContainText('name="AllowUnsafeMalformedObjectDeletion",stage="ALPHA"} 0', { timeout: 60_000 });
  await expect(gate.getByTestId('verdict')).toContainText('AllowUnsafeMalformedObjectDeletion is off on this server');
  const corrupt = page.getByTestId('step-corrupt');
  await expect(corrupt.getByTestId('blocked')).toContainText('is off on this server, so the object this step would break could not be force-deleted');
  await expect(corrupt.getByRole('button', { name: 'Run step 3' })).toBeDisabled();
  await expect(corrupt.getByTestId('verdict')).toHaveCount(0);
  await expect(page.getByTestId('step-force').getByTestId('blocked')).toContainText('step 3 did not run');
  await expect(page.getByTestId('step-cleanup').getByTestId('verdict')).toHaveText('The server answered as described.', { timeout: 90_000 });

  const crd = await kube.request('admin', 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/lessonrelics.lessons.explorer.dev');
  expect(crd.status).toBe(404);
  await page.getByRole('button', { name: 'Delete scratch namespace' }).click();
  await expect(page.getByRole('button', { name: 'Create scratch namespace' })).toBeVisible();
});

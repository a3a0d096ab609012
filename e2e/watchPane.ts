// A helper for specs that need a watch pane on a namespace's ConfigMaps (keyboard.spec.ts, a11y.spec.ts).
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

/** Opens the Watch view, adds a pane on ConfigMaps in `ns`, and returns it once it is watching. */
export async function watchConfigMaps(page: Page, explorerUrl: string, ns: string): Promise<Locator> {
  await page.goto(`${explorerUrl}?${new URLSearchParams({ context: 'local-admin', view: 'watch', namespace: ns }).toString()}`);
  const form = page.getByRole('form', { name: 'New watch' });
  await form.getByLabel('Resource').selectOption('/v1/configmaps');
  await form.getByLabel('Watch namespace').fill(ns);
  await form.getByRole('button', { name: 'Add watch' }).click();
  const pane = page.getByRole('article').first();
  await expect(pane.getByRole('status', { name: 'Watch state' })).toHaveText('watching');
  return pane;
}

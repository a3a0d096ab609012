// Helpers for specs that drive the Edit view on a ConfigMap (edit.spec.ts, edit-writes.spec.ts).
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

export const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
export const cmPath = (ns: string, name: string) => `/api/v1/namespaces/${ns}/configmaps/${name}`;

/** Opens the Edit view on a ConfigMap, as JSON, once the editor shows the loaded object. */
export async function openEditor(page: Page, explorerUrl: string, ns: string, name: string) {
  await page.goto(`${explorerUrl}${q({ context: 'local-admin', view: 'edit', namespace: ns, group: '', version: 'v1', resource: 'configmaps', name })}`);
  // Edit as JSON, so that the test can type whole documents.
  await page.getByRole('radio', { name: 'JSON', exact: true }).check();
  await expect(page.getByRole('region', { name: 'Object' }).locator('.view-lines')).toContainText(`"name": "${name}"`);
}

/** Replaces the whole editor content with a document (an object is typed as JSON). */
export async function typeObject(page: Page, obj: unknown) {
  // A click gives Monaco its focus state (select-all is its own command, which needs it).
  await page.getByRole('region', { name: 'Object' }).locator('.view-lines').click();
  await page.keyboard.press('ControlOrMeta+A');
  // Clear first: typing `{` over a selection would make Monaco surround the selection with braces.
  await page.keyboard.press('Backspace');
  await page.keyboard.insertText(typeof obj === 'string' ? obj : JSON.stringify(obj, null, 2));
}

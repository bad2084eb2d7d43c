import type { Page } from '@playwright/test';

/** Replaces the editor's script, as a paste would (no auto-indent or bracket closing). */
export async function typeScript(page: Page, text: string) {
  const editor = page.locator('.cm-content');
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

/** Keeps one of the default variants (pg and yb): the other is removed. */
export async function onlyVariant(page: Page, keep: 'pg' | 'yb') {
  await page.getByRole('button', { name: `Remove ${keep === 'pg' ? 'yb' : 'pg'}` }).click();
}

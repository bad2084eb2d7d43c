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

/** A table of `rows` keys and one EXPLAINed range lookup below `below`: a small run on every engine. */
export function lookupScript(rows: number, below: number): string {
  return `create table t (id int primary key, v int);
insert into t select generate_series(1,${rows}), 0;
explain (analyze, buffers, dist, costs off) select * from t where id < ${below};
`;
}
